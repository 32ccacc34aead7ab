/**
 * The fp32 pair DOT chunk (kernels/dot/dot-narrow-wasm.ts, `f32DotChunk`) in each of its forms
 * (wasmKernelForms().f32Dot): through the public API, bit for bit the documented lane order (element i into partial
 * sum i mod 8) on fp32 values with NaN, ±Inf, ±0, subnormals and the largest finite values, with strides and
 * sub-ranges, staged and in a wasmArena, n = 0, 1, odd tails and lengths across chunks and calls; directly, no read
 * past operands that end at the memory's end, and only unscaled fp32 pairs taken.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, formats, range, span, vector, wasmArena, type Range } from '../../src/index.js';
import { setWasmKernelForms, type WasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { reserveBytes, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { wasmStorageNamed } from '../../src/backends/wasm/wasm-storage.js';
import { f32DotChunk, type F32DotForm } from '../../kernels/dot/dot-narrow-wasm.js';
import { laneOrderDot, readValues } from './wasm-dot-oracles.js';

const FORMS: readonly F32DotForm[] = ['mem8', 'mem8x2', 'load16', 'load16x2', 'half', 'halfx2'];
const ALL: readonly WasmKernelForms['f32Dot'][] = ['general', ...FORMS];

function withForm<T>(form: WasmKernelForms['f32Dot'], run: () => T): T {
  const previous = setWasmKernelForms({ f32Dot: form });
  try { return run(); } finally { setWasmKernelForms(previous); }
}

/** An fp32 vector (optionally in `arena`) holding `values` at stride `stride` in a sub-range (one element before). */
function f32Vector(values: readonly number[], stride: number, sub: boolean, arena: ReturnType<typeof wasmArena> | null): Range<1, any> {
  const n = values.length, N = sub ? n + 2 : n;
  const parent = vector(new Array<number>(N).fill(0.25), { size: [N] as const, storage: formats.f32, arithmetic: formats.f64, stride, ...(arena ? { memory: arena } : {}) });
  const view = sub ? parent.accessor.sub(span(1, 1 + n)) : parent.accessor;
  values.forEach((v, i) => view.set(i, v));
  return range(view as never) as Range<1, any>;
}

describe('fp32 pair DOT chunk', () => {
  const special = fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 1e-40, -(2 ** -149), 2 ** -126, 3.4e38, -3.4e38, 1);
  const value = fc.oneof({ weight: 6, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) }, special);

  it('every form: bit for bit the lane order, specials, strides, sub-ranges, staged and in place', () => {
    const input = fc.integer({ min: 0, max: 75 }).chain((n) => fc.record({
      x: fc.array(value, { minLength: n, maxLength: n }), y: fc.array(value, { minLength: n, maxLength: n }),
      sx: fc.constantFrom(1, 1, 2, -3), sy: fc.constantFrom(1, 1, -1), subX: fc.boolean(), subY: fc.boolean(),
      inArena: fc.boolean(), form: fc.constantFrom(...ALL),
    }));
    fc.assert(fc.property(input, ({ x, y, sx, sy, subX, subY, inArena, form }) => {
      const arena = inArena ? wasmArena(16 * x.length + 4096) : null;
      try {
        const xv = f32Vector(x, sx, subX, arena), yv = f32Vector(y, sy, subY, arena);
        const want = laneOrderDot(readValues(xv), readValues(yv));
        expect(Object.is(withForm(form, () => dot(xv, yv, { backend: 'wasm' })), want)).toBe(true);
      } finally { arena?.release(); }
    }), { numRuns: 300 });
  });

  it('every form: long vectors in a wasmArena across chunks and calls, odd multiples of 8 and ragged tails', () => {
    // 65536 fp32 elements per in-place call (8 chunks of 8192): lengths around one and two calls.
    for (const n of [65536 - 8, 65536 + 8, 65536 + 24 + 5, 2 * 65536 + 13, 8 * 3 + 1]) {
      const arena = wasmArena(8 * n + 4096);
      const x = vector(n, { storage: formats.f32, arithmetic: formats.f64, memory: arena }), y = vector(n, { storage: formats.f32, arithmetic: formats.f64, memory: arena });
      for (let i = 0; i < n; i++) { x.set(i, Math.sin(i) * 1e3); y.set(i, Math.cos(i * 0.7) / 3); }
      const want = laneOrderDot(readValues(x), readValues(y));
      for (const form of ALL) expect(Object.is(withForm(form, () => dot(x, y, { backend: 'wasm' })), want)).toBe(true);
      arena.release();
    }
  });

  it('reads nothing past operands that end at the end of the memory', () => {
    reserveBytes(1 << 20);
    const memory = wasmMemory().buffer as ArrayBuffer;
    const s = wasmStorageNamed('f32')!;
    for (const n of [8, 16, 24, 1032]) {
      const py = memory.byteLength - 4 * n, px = py - 4 * n;
      new Float32Array(memory, px, 2 * n).fill(1);
      for (const form of FORMS) {
        const acc = new Float64Array(memory, 0, 8);
        acc.fill(0);
        f32DotChunk(s, false, s, false, form)!(px, 1, py, 1, n);
        expect(acc.reduce((a, b) => a + b)).toBe(n);
      }
    }
  });

  it('takes only unscaled fp32 pairs', () => {
    const s = (name: string) => wasmStorageNamed(name)!;
    expect(f32DotChunk(s('f32'), true, s('f32'), false, 'mem8')).toBeNull();
    expect(f32DotChunk(s('f32'), false, s('f64'), false, 'mem8')).toBeNull();
    expect(f32DotChunk(s('f16'), false, s('f32'), false, 'half')).toBeNull();
    expect(f32DotChunk(s('f32'), false, s('f32'), false, 'half')).not.toBeNull();
  });
});
