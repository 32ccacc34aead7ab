/**
 * A Krylov solve of a finite SPD system never hands back ±∞ in x: fp16 CG short of a tolerance fp16 cannot attain
 * (1e-8) restarted from the true residual once, then its recurrence residual grew by about 1.2 an iteration from 1e-7
 * — no check of the true residual ran, as it never met the tolerance again — and x reached ±∞ after 194 iterations
 * ('non-finite'). Now a recurrence that diverges is checked against the true residual, and a solve that stops short
 * returns its best checked iterate. Checked against the exact residual b − A·x of the returned x (BigInt rationals).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, jacobiCg, matrix, formats, toArray, type OperatorLike, type SolverResult } from '../../src/index.js';
import { exactDot, exactOf, roundRationalToDouble, subRational } from '../../src/testing/index.js';
import { exactRelativeResidual } from './diagonal-residual.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg as Solve], ['jacobiCg', jacobiCg as Solve], ['bicgstab', bicgstab as Solve]];

const fp16 = { storage: formats.f16, arithmetic: formats.f64 };

describe('fp16 vectors short of an unattainable tolerance do not diverge to ±∞', () => {
  const d = [0.5 + 2 ** -21, 1, 0.25 + 2 ** -23];
  const A = matrix(3, 3, (i, j) => (i === j ? d[i]! : 0));
  const b = [1, 2, 4];

  it.each(solvers)('%s: diag(1/2 + 2^-21, 1, 1/4 + 2^-23), b = (1, 2, 4), tolerance 1e-8 (CG: ±∞ after 194 iterations)', (_, solve) => {
    for (const x0 of [undefined, b.map((v, i) => Math.fround(v / d[i]!))]) {
      const r = solve(A, b, { ...fp16, tolerance: 1e-8, x0 });
      const x = toArray(r.x);
      expect(x.every(Number.isFinite)).toBe(true);
      expect([r.status, r.breakdown]).toEqual(['breakdown', 'stagnation']);
      const exact = exactRelativeResidual(d, x, b);
      // fp64 arithmetic, one product per entry: within a few roundings (the norm's) of the exact one
      expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(8 * 2 ** -53 * exact);
      // every x fp16 holds near the solution (2, 2, 16) misses by at least 2^-21-ish; the best reachable is about 5e-7
      expect(exact).toBeGreaterThan(1e-8);
      expect(exact).toBeLessThan(1e-6);
    }
  });

  it('jacobiCg on a nonsymmetric 2×2 (outside CG\'s promise) stops short with its best checked iterate (x₀), not a worse last one (1.41·‖b‖ before)', () => {
    const a = [3, -0.851, 0.714, 3];   // column-major
    const entry = (i: number, j: number): number => a[i + 2 * j]!;
    const rhs = [0.995, -0.009];
    const r = jacobiCg(matrix(2, 2, entry), rhs, { ...fp16, tolerance: 0, maxIterations: 400 });
    expect(r.status).not.toBe('converged');
    const x = toArray(r.x);
    let rr = 0;
    for (let i = 0; i < 2; i++) {
      const ri = roundRationalToDouble(subRational(exactOf(rhs[i]!), exactDot([entry(i, 0), entry(i, 1)], [x[0]!, x[1]!])));
      rr += ri * ri;
    }
    const exact = Math.sqrt(rr / (rhs[0]! ** 2 + rhs[1]! ** 2));
    expect(exact).toBeLessThanOrEqual(1);
    expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(8 * 2 ** -53 * exact);
  });

  it.each(solvers)('%s: random positive diagonals, tolerances fp16 cannot attain: x finite, its exact residual reported, never worse than x₀', (_, solve) => {
    const diag = fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 12, max: 45 }), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 6 })
      .map((ds) => ds.map(([k, m, e]) => 2 ** e * (1 + k * 2 ** -m)));
    fc.assert(fc.property(diag, fc.constantFrom(1e-8, 1e-10, 0), (dg, tolerance) => {
      const m = dg.length;
      const rhs = dg.map((_, i) => 2 ** (i % 3));
      const r = solve(matrix(m, m, (i, j) => (i === j ? dg[i]! : 0)), rhs, { ...fp16, tolerance, maxIterations: 400 });
      const x = toArray(r.x);
      expect(x.every(Number.isFinite)).toBe(true);
      const exact = exactRelativeResidual(dg, x, rhs);
      expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(1e-6 * exact + 8 * m * 2 ** -53);
      expect(exact).toBeLessThanOrEqual(1);   // x₀ = 0 leaves ‖b‖
      if (r.status === 'converged') expect(exact).toBeLessThanOrEqual(tolerance + 8 * m * 2 ** -53);
    }), { numRuns: 60 });
  });
});
