/**
 * AXPY, WAXPBY and SCAL in fp32 arithmetic give the same bits — signed zeros, NaN and ±∞ included — on 'js', 'wasm'
 * and 'gpu' (llvmpipe), for every coefficient (0, −0, ±1, NaN, ±∞ among them) and strided views. Regression:
 * WAXPBY with α = 0 computes β·y + 0 on the CPU (so β·(−0) gives +0) but the GPU's shader compiler dropped the
 * `+ 0` and stored −0 (`waxpby(0, x, 1, vector([-0]), w, { backend: 'gpu' })`).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { axpy, waxpby, scal, range, rowMajor, formats, type Range } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

const special = fc.constantFrom(0, -0, 0, -0, 1, -1, 0.5, -3, NaN, Infinity, -Infinity, 65504, 1e-3);
const coefficient = fc.constantFrom(0, -0, 0, 1, -1, 2, -0.5, NaN, Infinity, -Infinity);
const storages = { f32: formats.f32, f16: formats.f16, bf16: formats.bf16 } as const;

/** A vector of `values` in `storage` at stride `stride` (negative: reversed) inside a larger span. */
function view(values: readonly number[], storage: (typeof storages)[keyof typeof storages], stride: number): Range<1, number> {
  const r = range(rowMajor<1>({ size: [values.length], stride, storage, arithmetic: formats.f32 }));
  values.forEach((v, i) => r.set(i, v));
  return r;
}

const bitsOf = (r: Range<1, number>): string[] => Array.from({ length: r.length() }, (_, i) => { const v = r.get(i); return Object.is(v, -0) ? '-0' : String(v); });

describe('element-wise kernels on special values: one result on every backend', () => {
  it('AXPY, WAXPBY, SCAL in f32 arithmetic, bit for bit', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 5 }).chain((n) => fc.tuple(fc.array(special, { minLength: n, maxLength: n }), fc.array(special, { minLength: n, maxLength: n }))),
      coefficient, coefficient, fc.constantFrom('f32', 'f16', 'bf16' as const), fc.constantFrom(1, -1, 2, -3),
      async ([xs, ys], alpha, beta, storageName, stride) => {
        const storage = storages[storageName];
        for (const kernel of ['axpy', 'waxpby', 'scal'] as const) {
          const results = new Map<string, string[]>();
          // WebAssembly writes f32 and f64 outputs only.
          for (const backend of storageName === 'f32' ? ['js', 'wasm', 'gpu'] as const : ['js', 'gpu'] as const) {
            const x = view(xs, storage, stride), y = view(ys, storage, -stride), w = view(xs.map(() => 7), storage, 1);
            if (kernel === 'axpy') { await axpy(alpha, x, y, { backend } as never); results.set(backend, bitsOf(y)); }
            if (kernel === 'scal') { await scal(alpha, x, { backend } as never); results.set(backend, bitsOf(x)); }
            if (kernel === 'waxpby') { await waxpby(alpha, x, beta, y, w, { backend } as never); results.set(backend, bitsOf(w)); }
          }
          if (results.has('wasm')) expect([kernel, results.get('wasm')]).toEqual([kernel, results.get('js')]);
          expect([kernel, results.get('gpu')]).toEqual([kernel, results.get('js')]);
        }
      },
    ), { numRuns: 40, seed: 1126 });
  });

  it('the regression case: WAXPBY α = 0 stores β·(−0) + 0 = +0', async () => {
    await requireRuntime();
    for (const backend of ['js', 'wasm', 'gpu'] as const) {
      const w = view([5, 5], formats.f32, 1);
      await waxpby(0, view([1, -1], formats.f32, 1), 1, view([-0, -0], formats.f32, 1), w, { backend } as never);
      expect([backend, ...bitsOf(w)]).toEqual([backend, '0', '0']);
    }
  });
});
