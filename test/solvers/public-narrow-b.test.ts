/**
 * The true residual a solve reports, and converges by, is that of the user's b: with fp32, bf16 or fp16 vectors b was
 * rounded to that storage first, so the residual was another system's — BiCGStab with fp32 vectors and fp64 arithmetic
 * reported `converged` to 1e-13 with a true residual of 0 where ‖b − A·x‖/‖b‖ was 3·10⁻⁸. Checked against the exact
 * residual of the returned x (BigInt rationals).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, jacobiCg, matrix, formats, toArray, type OperatorLike, type SolverResult } from '../../src/index.js';
import { exactRelativeResidual } from './dense-residual.js';
import { nonsymmetricSystem, spdSystem } from './solver-fixtures.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;

const cases: [string, Solve, typeof spdSystem][] = [
  ['cg', cg as Solve, spdSystem], ['jacobiCg', jacobiCg as Solve, spdSystem],
  ['bicgstab', bicgstab as Solve, nonsymmetricSystem], ['gmres', gmres as Solve, nonsymmetricSystem],
];

describe('the true residual is that of the b given, not of b rounded to the vectors\' storage', () => {
  it.each(cases)('%s: A = 3, b = 0.1 in fp32 vectors with fp64 arithmetic is not converged to 1e-13', (_, solve) => {
    const s = { n: 1, b: Float64Array.of(0.1), dense: { rows: 1, cols: 1, ld: 1, data: Float64Array.of(3) } };
    const r = solve(matrix(1, 1, () => 3), s.b, { storage: formats.f32, arithmetic: formats.f64, tolerance: 1e-13 });
    const exact = exactRelativeResidual(s, r.x);
    expect(exact).toBeGreaterThan(1e-9);     // x = 0.1/3 rounded to fp32
    expect(r.status).not.toBe('converged');
    expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(1e-6 * exact);
  });

  it.each(cases)('%s: random systems, fp32 / bf16 / fp16 vectors, fp64 arithmetic', (_, solve, system) => {
    fc.assert(fc.property(system, fc.constantFrom(formats.f32, formats.bf16, formats.f16), fc.constantFrom(0, 1e-6, 1e-13), fc.constantFrom(1, 3, 40), (s, storage, tolerance, maxIterations) => {
      const r = solve(s.A, s.b, { storage, arithmetic: formats.f64, tolerance, maxIterations });
      if (!toArray(r.x).every(Number.isFinite)) {
        // a narrow-storage recurrence that diverged short of an unattainable tolerance says so
        expect([r.status, r.breakdown, r.trueResidualNorm]).toEqual(['breakdown', 'non-finite', Infinity]);
        return;
      }
      const exact = exactRelativeResidual(s, r.x);
      // fp64 arithmetic: b − A·x is rounded within a few units of |A|·|x| (the fixtures keep κ small)
      const slack = 8 * s.n * 2 ** -53 * 30;
      expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(1e-6 * exact + slack);
      if (r.status === 'converged') expect(exact).toBeLessThanOrEqual(tolerance + slack);
    }), { numRuns: 40 });
  });
});
