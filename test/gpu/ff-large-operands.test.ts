/**
 * Float-float on the GPU with operands near the top of binary32's range: where the adapter's fma is not fused
 * (llvmpipe) TwoProd splits its operands à la Dekker, whose 4097·a overflowed for |a| > 2^128/4097 ≈ 8.3e34 and made
 * the product's error term NaN. Regression: `dot(vector([1e35]), vector([1e-5]), { backend: 'gpu' })` in ff gave NaN
 * (the CPU's formats.ff 1.0000000156563529e30), AXPY likewise, and NRM2 of anything ≥ 2^126 (its scaling products)
 * NaN. Every result must be finite where the CPU's is, and within both a-priori bounds of it.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { dot, axpy, nrm2, gemv, vector, matrix, toArray, formats, dotBound, axpyBound, nrm2Bound, gemvBound } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

const ff = { storage: formats.f32, arithmetic: formats.ff };
/** ±m·2^e with m in [1, 2): large operands, around and above the old split limit 2^116. */
const large = fc.tuple(fc.integer({ min: 100, max: 126 }), fc.double({ min: 1, max: 1.9, noNaN: true }), fc.boolean()).map(([e, m, neg]) => Math.fround((neg ? -m : m) * 2 ** e));
/** Small factors that keep the products inside binary32's range. */
const small = fc.tuple(fc.integer({ min: -40, max: -12 }), fc.double({ min: 1, max: 1.9, noNaN: true })).map(([e, m]) => Math.fround(m * 2 ** e));

describe('float-float products of large operands on the GPU', () => {
  it('DOT, AXPY, NRM2 and GEMV: finite where the CPU is, within the bounds of the CPU result', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(large, { minLength: 1, maxLength: 4 }), fc.array(small, { minLength: 4, maxLength: 4 }), async (xs, ys) => {
      const n = xs.length;
      const x = vector(xs, ff), y = vector(ys.slice(0, n), ff);
      const near = (gpu: number, cpu: number, bound: number): void => {
        expect(Number.isFinite(cpu)).toBe(true);
        expect(Math.abs(gpu - cpu)).toBeLessThanOrEqual(2 * bound);
      };
      near((await dot(x, y, { backend: 'gpu' })).value, dot(x, y, { backend: 'js' }), dotBound(x, y));
      // NRM2 scales by 2^-e before squaring: only the split of the scaling products could overflow.
      near((await nrm2(x, { backend: 'gpu' })).value, nrm2(x, { backend: 'js' }), nrm2Bound(x));
      const yg = vector(ys.slice(0, n), ff), yc = vector(ys.slice(0, n), ff);
      const ab = axpyBound(2 ** -20, x, yc);
      await axpy(2 ** -20, x, yg, { backend: 'gpu' });
      axpy(2 ** -20, x, yc, { backend: 'js' });
      toArray(yc).forEach((v, i) => near(toArray(yg)[i]!, v, ab[i]!));
      const A = matrix(2, n, (i, j) => (i === 0 ? xs[j]! : -xs[j]!), ff);
      const zg = vector(2, ff), zc = vector(2, ff);
      const gb = gemvBound({ alpha: 1, A, x: y, beta: 0, y: zc });
      await gemv({ alpha: 1, A, x: y, beta: 0, y: zg }, { backend: 'gpu' });
      gemv({ alpha: 1, A, x: y, beta: 0, y: zc }, { backend: 'js' });
      toArray(zc).forEach((v, i) => near(toArray(zg)[i]!, v, gb[i]!));
    }), { numRuns: 15, seed: 35 });
  });
});
