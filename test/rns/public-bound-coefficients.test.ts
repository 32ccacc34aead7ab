/**
 * ellSpmvBound raises what ellSpmv raises for a non-finite α or β in RNS arithmetic (which has no NaN or ±∞):
 * `INVALID_VALUE` naming the coefficient. It named the conversion's own `value`. IEEE arithmetics still get a bound
 * (+∞ where a non-finite coefficient is used).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellOperand, ellSpmv, ellSpmvBound, matrix, ModprecError, range, rowMajor, vector } from '../../src/index.js';

const outcome = (f: () => unknown): string => {
  try { f(); return 'ran'; } catch (e) { if (e instanceof ModprecError) return `${e.code} ${e.parameter}`; throw e; }
};

describe('ellSpmvBound validates coefficients as ellSpmv', () => {
  it('RNS: the same typed error naming α or β; fp64: a bound', () => {
    const coefficient = fc.constantFrom(NaN, Infinity, -Infinity, 0, 1, -2.5);
    fc.assert(fc.property(coefficient, coefficient, fc.constantFrom(0, 1, 2), (alpha, beta, width) => {
      const make = () => ({
        alpha, beta, x: vector([1, 2]), y: vector([1, 1]),
        A: ellOperand({ rows: 2, cols: 2, width, stride: 2, colIndex: Int32Array.from({ length: 2 * width }, (_, k) => k % 2) },
          width > 0 ? matrix(2, width, () => 1) : range(rowMajor({ size: [2, 0] }))),
      });
      const kernel = outcome(() => ellSpmv(make(), { arithmetic: 'rns106' }));
      const bound = outcome(() => ellSpmvBound(make(), { arithmetic: 'rns106' }));
      expect(bound, `α = ${alpha}, β = ${beta}, width ${width}`).toBe(kernel);
      expect(outcome(() => ellSpmvBound(make()))).toBe('ran');
    }), { numRuns: 100 });
  });
});
