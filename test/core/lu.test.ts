import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { luFactor, luSolve, applyPivots } from '../../src/linalg/lu.js';
import { ModprecError } from '../../src/core/errors.js';
import { gamma } from '../../kernels/shared/accumulation.js';
import { exactOf } from '../../src/testing/exact.js';
import { type Rational, ZERO, absRational, addRational, compareRational, mulRational, subRational } from '../../src/testing/rational.js';

/** k·2^−e in [−4, 4], with zeros, over several binades and far from underflow (Thm 9.3 assumes none). */
const entry = fc.tuple(fc.integer({ min: -(2 ** 22), max: 2 ** 22 }), fc.integer({ min: 0, max: 30 })).map(([k, e]) => k * 2 ** (-20 - e));

const matrixCase = fc.integer({ min: 1, max: 7 }).chain((n) => fc.record({
  n: fc.constant(n),
  ld: fc.integer({ min: n, max: n + 2 }),
  values: fc.array(entry, { minLength: (n + 2) * n, maxLength: (n + 2) * n }),
}));

describe('luFactor', () => {
  it('P·A = L·U up to Higham’s bound |L·U − P·A| ≤ γ_n|L||U| (Thm 9.3), decided exactly', () => {
    fc.assert(fc.property(matrixCase, ({ n, ld, values }) => {
      const data = Float64Array.from(values);
      const copy = Float64Array.from(data);
      const { lu, pivots, firstZeroPivot } = luFactor({ rows: n, cols: n, ld, data });
      expect(data).toEqual(copy);
      // P·A: apply the interchanges to the rows of A.
      const PA = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => data[i + j * ld]!));
      for (let k = 0; k < n; k++) {
        expect(pivots[k]).toBeGreaterThanOrEqual(k);
        const p = pivots[k]!;
        [PA[k], PA[p]] = [PA[p]!, PA[k]!];
      }
      const L = (i: number, j: number): number => (i === j ? 1 : i > j ? lu.data[i + j * n]! : 0);
      const U = (i: number, j: number): number => (i <= j ? lu.data[i + j * n]! : 0);
      const g = gamma(n, 2 ** -53);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          if (i > j && firstZeroPivot < 0) expect(Math.abs(L(i, j))).toBeLessThanOrEqual(1);
          let product: Rational = ZERO;
          let abs = 0;
          for (let k = 0; k < n; k++) {
            product = addRational(product, mulRational(exactOf(L(i, k)), exactOf(U(k, j))));
            abs += Math.abs(L(i, k) * U(k, j));
          }
          const error = absRational(subRational(product, exactOf(PA[i]![j]!)));
          expect(compareRational(error, exactOf(g * abs * (1 + 1e-12)))).toBeLessThanOrEqual(0);
        }
      }
    }), { numRuns: 200 });
  });

  it('reports the first zero pivot of a singular matrix and completes', () => {
    const f = luFactor({ rows: 3, cols: 3, ld: 3, data: Float64Array.of(1, 2, 3, 2, 4, 6, 0, 0, 1) });
    expect(f.firstZeroPivot).toBe(1);
    expect(f.lu.data.every(Number.isFinite)).toBe(true);
  });

  it('refuses a non-square matrix and invalid parts', () => {
    const err = (f: () => unknown): ModprecError => { try { f(); } catch (e) { return e as ModprecError; } throw new Error('no error'); };
    expect(err(() => luFactor({ rows: 2, cols: 3, ld: 2, data: new Float64Array(6) })).code).toBe('DIMENSION_MISMATCH');
    expect(err(() => luFactor({ rows: 2, cols: 2, ld: 1, data: new Float64Array(4) })).code).toBe('INVALID_STRIDE');
    expect(err(() => luFactor({ rows: 2, cols: 2, ld: 2, data: new Float64Array(3) })).code).toBe('INVALID_STORAGE');
  });
});

describe('luSolve and applyPivots', () => {
  it('solve an integer system exactly and have a tiny residual on random ones', () => {
    // A = [[0, 2], [3, 1]] needs a pivot; x = [1, 2].
    const f = luFactor({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(0, 3, 2, 1) });
    expect(Array.from(luSolve(f, Float64Array.of(4, 5)))).toEqual([1, 2]);
    fc.assert(fc.property(matrixCase, fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 7, maxLength: 7 }), ({ n, values }, bs) => {
      const data = Float64Array.from(values.slice(0, n * n));
      for (let i = 0; i < n; i++) data[i + i * n] = data[i + i * n]! + 10 * n; // diagonally dominant: well conditioned
      const b = Float64Array.from(bs.slice(0, n));
      const x = luSolve(luFactor({ rows: n, cols: n, ld: n, data }), b);
      for (let i = 0; i < n; i++) {
        let r = b[i]!, scale = Math.abs(b[i]!);
        for (let j = 0; j < n; j++) { r -= data[i + j * n]! * x[j]!; scale += Math.abs(data[i + j * n]! * x[j]!); }
        expect(Math.abs(r)).toBeLessThanOrEqual(4 * n * n * 2 ** -53 * scale + 1e-300);
      }
    }), { numRuns: 100 });
  });

  it('applyPivots performs the interchanges in order and checks the length', () => {
    const b = Float64Array.of(10, 20, 30);
    applyPivots(Int32Array.of(2, 2, 2), b);
    expect(Array.from(b)).toEqual([30, 10, 20]);
    expect(() => applyPivots(Int32Array.of(0), b)).toThrow(ModprecError);
    expect(() => luSolve(luFactor({ rows: 1, cols: 1, ld: 1, data: Float64Array.of(2) }), Float64Array.of(1, 2))).toThrow(ModprecError);
  });
});
