/**
 * luFactor's `lu` is a DenseMatrix, and a DenseMatrix has ld ≥ max(1, rows): the factors of a 0 × 0 matrix had ld 0,
 * so denseMatrix(f.lu) and writeMatrixMarket(f.lu) refused them with INVALID_STRIDE. They now have ld max(1, n), and
 * luSolve takes exactly that leading dimension back (any other is INVALID_STRIDE naming factors.lu.ld).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModprecError, denseMatrix, luFactor, luSolve, readMatrixMarket, writeMatrixMarket } from '../../src/index.js';

function codeOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

describe('luFactor: the packed factors are a valid DenseMatrix at every order', () => {
  it('n = 0 … 5 on js and wasm: denseMatrix accepts lu, it writes and reads back bit for bit, luSolve takes it', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 5 }), fc.constantFrom('js' as const, 'wasm' as const), fc.integer({ min: 0, max: 3 }), (n, backend, pad) => {
      const ld = Math.max(1, n) + pad;
      const data = Float64Array.from({ length: Math.max(0, (n - 1) * ld + n) }, (_, k) => ((k * 7) % 5) - 2 + (k % (ld + 1) === 0 ? 9 : 0));
      const f = luFactor(denseMatrix({ rows: n, cols: n, ld, data }), { backend });
      expect(f.lu.ld).toBe(Math.max(1, n));
      expect(denseMatrix(f.lu)).toEqual(f.lu);
      const back = readMatrixMarket(writeMatrixMarket(f.lu));
      expect(back.format === 'array' && Array.from(back.matrix.data, (v) => Object.is(v, -0) ? '-0' : v))
        .toEqual(Array.from(f.lu.data, (v) => Object.is(v, -0) ? '-0' : v));
      expect(luSolve(f, new Float64Array(n), { backend })).toEqual(new Float64Array(n));
    }), { numRuns: 40 });
  });

  it('a leading dimension other than max(1, n) is INVALID_STRIDE naming factors.lu.ld', () => {
    for (const n of [0, 1, 3]) {
      const f = luFactor(denseMatrix({ rows: n, cols: n, ld: Math.max(1, n), data: Float64Array.from({ length: n * n }, (_, k) => k + 1) }));
      for (const ld of [Math.max(1, n) - 1, Math.max(1, n) + 1]) {
        expect(codeOf(() => luSolve({ ...f, lu: { ...f.lu, ld } }, new Float64Array(n)))).toEqual(['INVALID_STRIDE', 'factors.lu.ld']);
      }
    }
  });
});
