/**
 * AXPY, WAXPBY and SCAL in WebAssembly with double-double outputs (interleaved `dd`, split `dd-split`) in fp64 and
 * fp32 arithmetic, and in double-double arithmetic into dd, dd-split, f64 and f32 outputs (issue 20): the generated
 * JavaScript's stored parts bit for bit (a NaN part compared as NaN) over f64, f32, f16 and dd inputs, strides (negative
 * too), sub-ranges inside NaN sentinels, empty and size-1 vectors, zero coefficients, NaN/±∞/±0/subnormals and values
 * whose splitting overflows (the templates' slow path: that chunk recomputed by the JavaScript kernel), across the
 * staging chunks; the automatic choice picks WebAssembly for them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, waxpby, scal, formats, cpuBackendOf, type Range } from '../../src/index.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildVector } from '../kernels/matrix-kernel-fixtures.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { ddVector, expectSameParts, pairOf, rawParts, SPECIALS, type DdLayout, type Pair } from './dd-output-fixtures.js';

type Numerics = 'f64' | 'f32' | 'dd';
type VectorStorage = 'f64' | 'f32' | 'f16' | DdLayout;
interface Spec { storage: VectorStorage; stride: number; sub: boolean }

const spec = (storages: readonly VectorStorage[]): fc.Arbitrary<Spec> => fc.record({ storage: fc.constantFrom(...storages), stride: fc.constantFrom(1, 1, 2, -1, -3), sub: fc.boolean() });
const coefficient = fc.constantFrom(0, 1, -1, 0.5, 3, -0.75);

/** A vector of the spec holding the pairs (a number storage holds their high parts). */
function vectorOf(s: Spec, values: readonly Pair[]): Range<1, any> {
  if (s.storage === 'dd' || s.storage === 'dd-split') return ddVector({ layout: s.storage, stride: s.stride, sub: s.sub }, values);
  return buildVector({ storage: s.storage, stride: s.stride, sub: s.sub }, values.map((p) => p.hi));
}

/** Every raw part of the vector's buffer (sentinels included). */
const partsOf = (r: Range<1, any>): number[] => (r.accessor.storage.kind === 'dd' ? rawParts(r) : Array.from(r.accessor.data as Float64Array));

const updateCase = fc.record({
  kernel: fc.constantFrom('axpy' as const, 'waxpby' as const, 'scal' as const),
  numerics: fc.constantFrom<Numerics>('f64', 'f32', 'dd', 'dd'),
  x: spec(['f64', 'f32', 'f16', 'dd']), y: spec(['f64', 'f32', 'f16', 'dd']), out: spec(['dd', 'dd-split', 'f64', 'f32']),
  n: fc.oneof(fc.integer({ min: 0, max: 21 }), fc.constant(CHUNK + 3)),
  alpha: coefficient, beta: coefficient, special: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
}).map((c) => {
  // A number output in fp64/fp32 arithmetic is update-wasm.ts's (covered there): give those a dd output.
  const out = c.numerics !== 'dd' && (c.out.storage === 'f64' || c.out.storage === 'f32') ? { ...c.out, storage: 'dd' as const } : c.out;
  return { ...c, out };
});

describe('WebAssembly element-wise updates with double-double outputs or arithmetic', () => {
  it('the JavaScript kernel\'s stored parts, bit for bit', () => {
    fc.assert(fc.property(updateCase, (c) => {
      const random = seededRandom(c.seed);
      const value = (): Pair => {
        const special = c.special && random.nextDouble() < 0.15;
        return pairOf(special ? SPECIALS[Math.floor(random.nextDouble() * SPECIALS.length)]! : random.nextDouble() * 2 - 1, random.nextDouble() * 2 - 1);
      };
      const xs = Array.from({ length: c.n }, value), ys = Array.from({ length: c.n }, value), outs = Array.from({ length: c.n }, value);
      const options = { arithmetic: formats[c.numerics] };
      const run = (backend: 'wasm' | 'js'): number[] => {
        const out = vectorOf(c.out, c.kernel === 'waxpby' ? outs : ys);
        const x = vectorOf(c.kernel === 'scal' ? c.out : c.x, c.kernel === 'scal' ? ys : xs);
        if (c.kernel === 'axpy') { axpy(c.alpha, x, out, { ...options, backend }); return partsOf(out); }
        if (c.kernel === 'scal') { scal(c.alpha, x, { ...options, backend }); return partsOf(x); }
        waxpby(c.alpha, x, c.beta, vectorOf(c.y, ys), out, { ...options, backend });
        return partsOf(out);
      };
      expectSameParts(run('wasm'), run('js'), `${c.kernel} wasm against js`);
    }), { numRuns: 250 });
  });

  it("the automatic choice picks WebAssembly for them", () => {
    const y = ddVector({ layout: 'dd-split', stride: 1, sub: false }, [pairOf(1, 0.5), pairOf(2, -0.5)]);
    const x = buildVector({ storage: 'f64', stride: 1, sub: false }, [1, 2]);
    expect(cpuBackendOf('axpy', { x, y }, {}, ['y'])).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('scal', { x: y }, { arithmetic: formats.f64 }, ['x'])).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('waxpby', { x, y: x, w: buildVector({ storage: 'f32', stride: 1, sub: false }, [0, 0]) }, { arithmetic: formats.dd }, ['w'])).toEqual({ backend: 'wasm' });
  });
});
