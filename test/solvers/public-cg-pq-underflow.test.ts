/**
 * CG (and Jacobi CG) on an SPD matrix does not report 'indefinite' when pᵀq underflows: with fp32 vectors and
 * arithmetic and a tolerance it cannot meet (1e-30, "run to the limit"), Jacobi CG's ρ = rᵀz and pᵀA·p fell to about
 * 1e-45, fp32's smallest subnormal, pᵀq rounded to 0, and 0 read as 'pᵀAp vanished with A·p ≠ 0: not SPD'. Checked
 * against the exact residual b − A·x of the returned x (BigInt rationals).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cg, jacobiCg, matrix, formats, toArray, type OperatorLike, type SolverResult } from '../../src/index.js';
import { exactDot, exactOf, roundRationalToDouble, subRational } from '../../src/testing/index.js';
import { spdSystem } from './solver-fixtures.js';

/** ‖b − A·x‖₂/‖b‖₂ with each residual entry exact before its one rounding, and Higham's γ_{n+1} bound on computing it. */
function exactResidual(A: (i: number, j: number) => number, b: ArrayLike<number>, x: ArrayLike<number>, u: number): { exact: number; bound: number } {
  const n = b.length;
  let rr = 0, bb = 0, ss = 0;
  for (let i = 0; i < n; i++) {
    const row = Array.from({ length: n }, (_, j) => A(i, j));
    const r = roundRationalToDouble(subRational(exactOf(b[i]!), exactDot(row, Array.from(x))));
    let s = Math.abs(b[i]!);
    for (let j = 0; j < n; j++) s += Math.abs(row[j]! * x[j]!);
    rr += r * r; bb += b[i]! * b[i]!; ss += s * s;
  }
  const gamma = ((n + 2) * u) / (1 - (n + 2) * u);
  return { exact: Math.sqrt(rr / bb), bound: gamma * Math.sqrt(ss / bb) };
}

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;

describe("CG: an underflowing pᵀA·p is not 'indefinite'", () => {
  it('Jacobi CG, an SPD 7×7 system in fp32, tolerance 1e-30 (indefinite after 26 iterations)', () => {
    // column-major, A = BᵀB + 7·I (spdSystem's construction): SPD
    const a = [9.535063, 0.273229, 2.333567, -0.353029, -0.016597, -0.225975, -1.995852, 0.273229, 7.436861, 0.159258, -0.203106, 0.637293, -0.075269, 0.005133,
      2.333567, 0.159258, 10.50599, 0.095485, -0.305318, -0.004735, -1.68275, -0.353029, -0.203106, 0.095485, 8.167011, 0.911131, 1.04311, 0.02342,
      -0.016597, 0.637293, -0.305318, 0.911131, 10.778058, 2.12924, -1.002488, -0.225975, -0.075269, -0.004735, 1.04311, 2.12924, 10.2942, -1.239759,
      -1.995852, 0.005133, -1.68275, 0.02342, -1.002488, -1.239759, 9.758285];
    const entry = (i: number, j: number): number => a[i + 7 * j]!;
    const b = [-0.768, 0.008, 0.602, 0.373, -0.999, -0.334, -0.005];
    const r = jacobiCg(matrix(7, 7, entry), b, { storage: formats.f32, tolerance: 1e-30, maxIterations: 60 });
    expect(r.breakdown).not.toBe('indefinite');
    expect(r.status).not.toBe('converged');
    const { exact, bound } = exactResidual(entry, b, toArray(r.x), 2 ** -24);
    expect(exact).toBeLessThan(1e-5);   // fp32's attainable accuracy, reached before the recurrence underflowed
    expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(bound);
  });

  it.each([['cg', cg as Solve], ['jacobiCg', jacobiCg as Solve]])('%s: random SPD systems in fp32 with tolerance 0 or 1e-30 are never indefinite', (_, solve) => {
    fc.assert(fc.property(spdSystem, fc.constantFrom(0, 1e-30), (s, tolerance) => {
      const r = solve(s.A, s.b, { storage: formats.f32, tolerance, maxIterations: 60 });
      expect(r.breakdown).not.toBe('indefinite');
      const { exact, bound } = exactResidual((i, j) => s.dense.data[i + j * s.n]!, s.b, toArray(r.x), 2 ** -24);
      expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(bound);
      if (r.status === 'converged') expect(exact).toBeLessThanOrEqual(tolerance + bound);
    }), { numRuns: 250 });
  });
});
