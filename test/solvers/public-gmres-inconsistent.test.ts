/**
 * GMRES on inconsistent singular systems (b outside A's range), which have no solution: the solve must end with a
 * documented reason — `stagnation` near the least-squares residual, or, where a coarse basis leaves pivots of rounding
 * noise, `iteration-limit` or `non-finite` (x grown along A's null space past its storage) —, within maxIterations,
 * with a finite x no worse than x₀ = 0 whose residual is the one reported, and never `converged` unless the exact
 * residual of the x returned meets the tolerance. Checked against exact residuals (BigInt rationals).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, gmres, matrix, toArray } from '../../src/index.js';
import { exactResidual, residualRoundingBound } from './residual-oracle.js';

/** A = U·V, U n×k and V k×n with small integer entries: rank at most k < n. */
const singular = fc.integer({ min: 2, max: 5 }).chain((n) => fc.record({
  n: fc.constant(n),
  k: fc.integer({ min: 0, max: n - 1 }),
  e: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n * n, maxLength: n * n }),
  b: fc.array(fc.integer({ min: -4, max: 4 }), { minLength: n, maxLength: n }).filter((b) => b.some((v) => v !== 0)),
}));

describe('GMRES on an inconsistent singular system', () => {
  it('ends within its limit with a documented reason, a finite x no worse than x₀, and the residual it reports', () => {
    fc.assert(fc.property(
      singular, fc.constantFrom(formats.f64, formats.f32, formats.f16, formats.dd), fc.constantFrom(undefined, formats.f32, formats.f16),
      fc.integer({ min: 1, max: 6 }), fc.constantFrom(1e-6, 1e-12),
      ({ n, k, e, b }, storage, basisStorage, restart, tolerance) => {
        const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => {
          let s = 0;
          for (let l = 0; l < k; l++) s += e[i * n + l]! * e[l * n + j]!;
          return s;
        }));
        const maxIterations = 120;
        const r = gmres(matrix(n, n, (i, j) => A[i]![j]!), b, { storage, basisStorage, restart, tolerance, maxIterations });
        const x = toArray(r.x);
        expect(x.every(Number.isFinite)).toBe(true);
        expect(r.iterations).toBeLessThanOrEqual(maxIterations);
        const exact = exactResidual(A, b, x);
        const bound = residualRoundingBound(A, b, x, 2 ** -52);
        expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(bound + 2 ** -40 * exact);
        expect(exact).toBeLessThanOrEqual(1 + bound);
        if (r.status === 'converged') expect(exact).toBeLessThanOrEqual(tolerance + bound);
        else expect(r.status === 'iteration-limit' || r.breakdown === 'stagnation' || r.breakdown === 'non-finite').toBe(true);
      }), { numRuns: 200 });
  });
});
