/**
 * A tolerance below what the computed true residual can tell. b − A·x computed in fp64 carries rounding errors of
 * about u·(|b| + |A|·|x|); a computed 0 there is no proof of an exact 0. With tolerance 0 (documented as "run to the
 * limit") or 1e-20, fp64 solves reported `converged` with a true residual of 0 whose exact value was 5.6e-17·‖b‖
 * (BiCGStab, [[2, −1], [−1, 2]], b = (0, −1)), and CG, GMRES and iterative refinement did the same on small systems.
 * The rule now, one for every solver and backend: a tolerance below the unit roundoff of the arithmetic the true
 * residual is computed in (`residualResolution`) is never met — the solve ends in `stagnation` or at its iteration
 * limit, with the residual it attained, never `converged`; from that resolution up, `converged` is the computed check.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bicgstab, cg, formats, gmres, iterativeRefinement, matrix, residualResolution, toArray } from '../../src/index.js';
import { exactResidual, residualRoundingBound } from './residual-oracle.js';

const rows = [[2, -1], [-1, 2]];
const A = matrix(2, 2, (i, j) => rows[i]![j]!);

describe('a tolerance below the residual arithmetic’s resolution', () => {
  it('the reported case: tolerance 0 and 1e-20 in fp64 end in stagnation or at the limit, with the residual attained', () => {
    for (const tolerance of [0, 1e-20]) {
      for (const r of [cg(A, [0, -1], { tolerance }), bicgstab(A, [0, -1], { tolerance }), gmres(A, [0, -1], { tolerance }), iterativeRefinement(A, [0, -1], { tolerance })]) {
        expect(r.status).not.toBe('converged');
        expect(r.status === 'iteration-limit' || r.breakdown === 'stagnation').toBe(true);
        expect(r.trueResidualNorm).toBeLessThan(1e-15);
      }
    }
  });

  it('resolution: fp64, float-float and fp32 arithmetic certify down to fp64’s or float-float’s unit roundoff, dd far below', () => {
    expect(residualResolution(formats.f64.arithmetic!)).toBe(2 ** -53);
    expect(residualResolution(formats.ff.arithmetic!)).toBe(2 ** -53);
    expect(residualResolution(formats.f32.arithmetic!)).toBeGreaterThan(2 ** -53);
    expect(residualResolution(formats.dd.arithmetic!)).toBeLessThan(1e-30);
  });

  it('double-double solves still converge to 1e-28, whose residual dd resolves', () => {
    const r = cg(A, [0, -1], { storage: formats.dd, tolerance: 1e-28 });
    expect(r.status).toBe('converged');
  });

  it('small integer systems: every converged fp64 solve meets its tolerance up to the residual’s rounding bound', () => {
    const system = fc.integer({ min: 1, max: 4 }).chain((n) => fc.record({
      A: fc.array(fc.array(fc.integer({ min: -2, max: 2 }), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }),
      b: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n, maxLength: n }).filter((b) => b.some((v) => v !== 0)),
    }));
    fc.assert(fc.property(system, fc.constantFrom(0, 1e-20, 2e-16, 1e-12), fc.constantFrom('bicgstab', 'gmres'), ({ A: M, b }, tolerance, solver) => {
      const n = b.length;
      const Am = matrix(n, n, (i, j) => M[i]![j]!);
      const r = solver === 'bicgstab' ? bicgstab(Am, b, { tolerance }) : gmres(Am, b, { tolerance });
      if (r.status !== 'converged') return;
      expect(tolerance).toBeGreaterThanOrEqual(2 ** -53);
      const x = toArray(r.x);
      expect(exactResidual(M, b, x)).toBeLessThanOrEqual(tolerance + residualRoundingBound(M, b, x, 2 ** -53));
    }), { numRuns: 300 });
  });
});
