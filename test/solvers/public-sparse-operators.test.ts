/**
 * A CSR or COO matrix given to a solver (or to linearOperator) is INVALID_OPTION naming A, with the conversion to use:
 * both hold `colIndex`, so they were taken for an ELL matrix and refused as one without a width (INVALID_SIZE
 * 'width'), an error that names no argument of the call. The ELL the conversions make solves the same system.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ModprecError, bicgstab, cg, cooToEll, csrToCoo, csrToEll, gmres, iterativeRefinement, jacobiCg, laplacianCsr, linearOperator,
  toArray, type OperatorLike,
} from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

describe('CSR and COO matrices are not operators', () => {
  it('every solver and linearOperator name A; the converted ELL solves the system', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 2 }), (grid) => {
      const C = laplacianCsr(grid);
      const O = csrToCoo(C);
      const n = C.rows;
      const b = Array.from({ length: n }, (_, i) => (i % 3) - 1 + 0.5);
      for (const M of [C, O]) {
        expect(errorOf(() => linearOperator(M as never))).toEqual(['INVALID_OPTION', 'A']);
        for (const solve of [cg, jacobiCg, bicgstab, gmres] as ((A: OperatorLike, b: number[]) => unknown)[]) {
          expect(errorOf(() => solve(M as never, b))).toEqual(['INVALID_OPTION', 'A']);
        }
        expect(errorOf(() => iterativeRefinement(M as never, b))).toEqual(['INVALID_OPTION', 'A']);
      }
      const viaCsr = cg(csrToEll(C), b, { tolerance: 1e-12 });
      const viaCoo = cg(cooToEll(O), b, { tolerance: 1e-12 });
      expect(viaCsr.status).toBe('converged');
      expect(toArray(viaCoo.x)).toEqual(toArray(viaCsr.x));
    }), { numRuns: 30 });
  });
});
