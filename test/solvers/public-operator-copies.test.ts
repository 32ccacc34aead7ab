/**
 * Only operators linearOperator and functionOperator made are operators: a spread copy carried the private marker
 * along, so `gmres({ ...functionOperator(parts), apply: undefined }, b)` passed as an operator and failed inside with
 * a native TypeError ("A.apply is not a function"). Copies, altered or not, are now INVALID_OPTION naming A before
 * anything runs; the operators themselves still solve.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModprecError, bicgstab, cg, functionOperator, gmres, jacobiCg, laplacianEll, linearOperator, matrix, type OperatorLike } from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

const solvers = [cg, jacobiCg, bicgstab, gmres] as ((A: OperatorLike, b: number[]) => { status: string })[];

describe('copies of operators are not operators', () => {
  it('every solver and linearOperator name A for a spread copy (altered or not) of any kind of operator', () => {
    const n = 3;
    const operators = [
      functionOperator({ size: n, apply: (x, y) => { for (let i = 0; i < n; i++) y.set(i, 2 * x.get(i)); }, diagonal: () => new Float64Array(n).fill(2) }),
      linearOperator(matrix(n, n, (i, j) => (i === j ? 4 : i + j === 1 ? 1 : 0))),
      linearOperator(laplacianEll([n])),
    ];
    fc.assert(fc.property(fc.constantFrom(...operators), fc.constantFrom<Record<string, unknown>>({}, { apply: undefined }, { size: Symbol('n') }, { diagonal: 7 }), (op, change) => {
      const copy = { ...op, ...change } as never;
      expect(errorOf(() => linearOperator(copy))).toEqual(['INVALID_OPTION', 'A']);
      for (const solve of solvers) expect(errorOf(() => solve(copy, [1, 2, 3]))).toEqual(['INVALID_OPTION', 'A']);
      // The operator itself: returned as is, and it solves.
      expect(linearOperator(op)).toBe(op);
      for (const solve of solvers) expect(solve(op, [1, 2, 3]).status).toBe('converged');
    }), { numRuns: 24 });
  });
});
