/**
 * The true residual a solve reports (and judges convergence by) is the residual of the x it returns, even where the
 * vectors are fp16: it was computed into an fp16 vector, which flushes below 2^-24, so a residual of 2^-30 read as 0
 * and the solve said `converged` for a tolerance of 1e-12 (and at once, for an x₀ that nearly solved the system).
 * Checked against the exact residual b − A·x of the returned x (BigInt rationals).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, jacobiCg, matrix, formats, toArray, type OperatorLike, type SolverResult } from '../../src/index.js';
import { exactRelativeResidual } from './diagonal-residual.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg as Solve], ['jacobiCg', jacobiCg as Solve], ['bicgstab', bicgstab as Solve], ['gmres', gmres as Solve]];

describe('true residuals of fp16 vectors are not flushed to zero', () => {
  const n = 4, d = 1 + 2 ** -30;
  const A = matrix(n, n, (i, j) => (i === j ? d : 0));
  const b = [1, 1, 1, 1];

  it.each(solvers)('%s: A = (1 + 2^-30)·I, x = 1 in fp16 is not converged to 1e-12 (its residual is 2^-30)', (_, solve) => {
    for (const x0 of [undefined, [1, 1, 1, 1]]) {
      const r = solve(A, b, { storage: formats.f16, arithmetic: formats.f64, tolerance: 1e-12, x0 });
      const exact = exactRelativeResidual(Array(n).fill(d), toArray(r.x), b);
      expect(exact).toBe(2 ** -30);   // every x fp16 holds near 1 leaves at least this
      expect(r.status).not.toBe('converged');
      expect(r.trueResidualNorm).toBe(exact);
      // not 'indefinite' (A is SPD): the storage cannot hold a smaller residual
      expect(r.breakdown).not.toBe('indefinite');
    }
  });

  it.each(solvers)('%s: on random diagonal SPD systems the reported true residual is the exact one, and converged meets the tolerance', (_, solve) => {
    const diag = fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 20, max: 45 }), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 6 })
      .map((ds) => ds.map(([k, m, e]) => 2 ** e * (1 + k * 2 ** -m)));
    fc.assert(fc.property(diag, fc.constantFrom(1e-8, 1e-10, 1e-13), fc.boolean(), (dg, tolerance, startNear) => {
      const m = dg.length;
      const Am = matrix(m, m, (i, j) => (i === j ? dg[i]! : 0));
      const rhs = dg.map((_, i) => 2 ** (i % 3));
      // x₀ = b/A rounded to fp16 nearly solves the system: its residual lies far below fp16's smallest number
      const x0 = startNear ? rhs.map((v, i) => Math.fround(v / dg[i]!)) : undefined;
      const r = solve(Am, rhs, { storage: formats.f16, arithmetic: formats.f64, tolerance, x0 });
      // fp16 CG short of a tolerance fp16 cannot attain diverged to ±∞ (public-narrow-divergence.test.ts): no more
      expect(toArray(r.x).every(Number.isFinite)).toBe(true);
      const exact = exactRelativeResidual(dg, toArray(r.x), rhs);
      // fp64 arithmetic: b − A·x is rounded within a few units of |A|·|x| ≈ |b|
      expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(1e-6 * exact + 8 * m * 2 ** -53);
      if (r.status === 'converged') expect(exact).toBeLessThanOrEqual(tolerance + 8 * m * 2 ** -53);
    }), { numRuns: 60 });
  });
});
