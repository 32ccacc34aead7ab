/**
 * Kernel specialisation cache: one compilation per operand signature (storage, arithmetic, scaling, kernel
 * variant), shared by every call with that signature whatever the lengths, strides, offsets and data.
 */
import { describe, expect, it } from 'vitest';
import { vector } from '../../src/core/vectors.js';
import { range } from '../../src/core/range.js';
import '../../src/formats/index.js';
import { rowMajor } from '../../accessors/row-major.js';
import { scaledReducedRowMajor } from '../../accessors/scaled-reduced.js';
import { dot } from '../../kernels/dot/dot.js';
import { axpy } from '../../kernels/axpy/axpy.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { nrm2 } from '../../kernels/nrm2/nrm2.js';
import { cachedKernelCount, generatedSources } from '../../src/backends/cpu/program-cache.js';

/** How many specialisations `run` compiled. */
function compiledBy(run: () => void): number {
  const before = cachedKernelCount();
  run();
  return cachedKernelCount() - before;
}

describe('kernel specialisation cache', () => {
  it('compiles DOT once per signature, whatever the lengths, strides, offsets and values', () => {
    // The generated JavaScript's cache (f32 arithmetic would run on WebAssembly by default).
    const js = { backend: 'js' } as const;
    const f16 = (values: number[]) => vector(values, { storage: 'f16', arithmetic: 'f32' });
    expect(compiledBy(() => dot(f16([1, 2]), f16([3, 4]), js))).toBe(1);
    expect(compiledBy(() => dot(f16([1, 2]), f16([3, 4]), js))).toBe(0);
    const strided = range(rowMajor<1>({ size: [3], stride: -2, storage: 'f16', arithmetic: 'f32' }));
    expect(compiledBy(() => dot(strided, f16([5, 6, 7]), js))).toBe(0);
    expect(compiledBy(() => dot(f16([]), f16([]), js))).toBe(0);
  });

  it('compiles a different specialisation for each storage, arithmetic and scaling', () => {
    // The generated JavaScript's cache (f64 arithmetic would run on WebAssembly by default).
    const js = { backend: 'js' } as const;
    const x = vector([1, 2], { storage: 'f32', arithmetic: 'f64' });
    expect(compiledBy(() => dot(x, vector([1, 2], { storage: 'bf16', arithmetic: 'f64' }), js))).toBe(1);
    expect(compiledBy(() => dot(x, vector([1, 2], { storage: 'f16', arithmetic: 'f64' }), js))).toBe(1);
    expect(compiledBy(() => dot(x, vector([1, 2], { storage: 'f16', arithmetic: 'f64' }), { arithmetic: 'f32', ...js }))).toBe(1);
    const scaled = range(scaledReducedRowMajor<1>({ size: [2], storage: 'f16', arithmetic: 'f64', scaleMask: [false] }));
    expect(compiledBy(() => dot(x, scaled, js))).toBe(1);
    expect(compiledBy(() => dot(x, scaled, js))).toBe(0);
  });

  it('keys element-wise kernels by their variant too (WAXPBY with a zero coefficient skips a read)', () => {
    const js = { backend: 'js' } as const;
    const v = () => vector([1, 2, 3], { storage: 'f32', arithmetic: 'f32' });
    expect(compiledBy(() => axpy(2, v(), v(), js))).toBe(1);
    expect(compiledBy(() => axpy(-3, v(), v(), js))).toBe(0);
    expect(compiledBy(() => waxpby(2, v(), 3, v(), v(), js))).toBe(1);
    expect(compiledBy(() => waxpby(0, v(), 3, v(), v(), js))).toBe(1);
    expect(compiledBy(() => waxpby(0, v(), 5, v(), v(), js))).toBe(0);
  });

  it('generates loops with the storage codec inlined: no per-element dispatch through a format object', () => {
    dot(vector([1], { storage: 'f16', arithmetic: 'f32' }), vector([1], { storage: 'f64', arithmetic: 'f32' }), { arithmetic: 'f32' });
    nrm2(vector([1], { storage: 'bf16' }));
    const sources = [...generatedSources.entries()].filter(([key]) => key.includes('"f16"') || key.includes('"bf16"'));
    expect(sources.length).toBeGreaterThan(0);
    for (const [key, source] of sources) {
      expect(source, key).not.toMatch(/\.decode\(|\.encode\(|fromKind|storage\./);
      expect(source, key).toMatch(/f16Table\[|bf16Table\[/);
    }
  });
});
