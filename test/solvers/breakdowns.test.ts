/**
 * Every breakdown reason, provoked on purpose: a result with its reason, never an exception, never NaN.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { matricesFolder } from '../matrix-fixtures.js';
import {
  bicgstab, cg, csrToEll, readMatrixMarketCsr, gmres, jacobiCg, matrix, toArray, formats, functionOperator, laplacianEll, iterativeRefinement,
  type SolverResult,
} from '../../src/index.js';

function expectBreakdown(r: SolverResult, reason: string): void {
  expect(r.status).toBe('breakdown');
  expect(r.breakdown).toBe(reason);
  // No NaN anywhere in the result.
  expect(Number.isNaN(r.residualNorm) || Number.isNaN(r.trueResidualNorm)).toBe(false);
  expect(r.history.some(Number.isNaN)).toBe(false);
  expect(toArray(r.x).some(Number.isNaN)).toBe(false);
  expect(r.residualNorm).toBe(r.history[r.history.length - 1]);
}

const dense = (rows: number[][]) => matrix(rows.length, rows.length, (i, j) => rows[i]![j]!);

describe('breakdowns', () => {
  it("CG: pᵀAp = 0 or < 0 on an indefinite matrix is 'indefinite'", () => {
    expectBreakdown(cg(dense([[1, 0], [0, -1]]), [1, 1]), 'indefinite');          // pᵀAp = 0
    expectBreakdown(cg(dense([[1, 0], [0, -3]]), [1, 1]), 'indefinite');          // pᵀAp < 0
    const neg = cg(dense([[-2, 0], [0, -1]]), [1, 1]);
    expectBreakdown(neg, 'indefinite');
    expect(neg.iterations).toBe(0);
  });

  it("Jacobi CG: a negative diagonal makes rᵀz ≤ 0: 'indefinite'", () => {
    expectBreakdown(jacobiCg(dense([[1, 0], [0, -1]]), [1, 1]), 'indefinite');
  });

  it("BiCGStab: a shadow residual orthogonal to r₀ is 'rho-zero'", () => {
    expectBreakdown(bicgstab(dense([[2, 1], [0, 3]]), [1, 0], { shadow: [0, 1] }), 'rho-zero');
  });

  it("BiCGStab: r̂ᵀA·p = 0 is 'sigma-zero'", () => {
    // A·e₁ = e₂ ⟂ r̂ = e₁
    expectBreakdown(bicgstab(dense([[0, 1], [1, 0]]), [1, 0]), 'sigma-zero');
  });

  it("BiCGStab: tᵀs = 0 is 'omega-zero', keeping the half step's progress", () => {
    // r₀ = e₁, v = (1, 1), α = 1, s = (0, −1), t = A·s = (−1, 0): tᵀs = 0
    const r = bicgstab(dense([[1, 1], [1, 0]]), [1, 0]);
    expectBreakdown(r, 'omega-zero');
    expect(r.iterations).toBe(1);
    expect([...toArray(r.x)]).toEqual([1, 0]);   // x = α·p = e₁
  });

  it("GMRES(1) on a rotation makes no progress: 'stagnation' after stagnationChecks restarts", () => {
    const R = dense([[0, 1], [-1, 0]]);
    const r = gmres(R, [1, 0], { restart: 1 });
    expectBreakdown(r, 'stagnation');
    expect(r.iterations).toBe(2);
    expect(gmres(R, [1, 0], { restart: 1, stagnationChecks: 5 }).iterations).toBe(5);
    // GMRES(2) solves it
    expect(gmres(R, [1, 0], { restart: 2 }).status).toBe('converged');
  });

  it("CG and BiCGStab asked for more than fp64 can attain: 'stagnation', with the true residual at fp64's level", () => {
    const A = laplacianEll([30]);
    const b = Float64Array.from({ length: 30 }, (_, i) => Math.cos(i));
    for (const r of [cg(A, b, { tolerance: 1e-30 }), bicgstab(A, b, { tolerance: 1e-30 })]) {
      expectBreakdown(r, 'stagnation');
      expect(r.trueResidualNorm).toBeLessThan(1e-12);
      expect(r.trueResidualNorm).toBeGreaterThan(1e-30);
    }
  });

  it("an operator that returns NaN is 'non-finite', and the true residual is +∞, not NaN", () => {
    const A = functionOperator({ size: 3, apply: (x, y) => { for (let i = 0; i < 3; i++) y.set(i, x.get(i) === 0 ? 0 : NaN); } });
    for (const r of [cg(A, [1, 2, 3]), bicgstab(A, [1, 2, 3]), gmres(A, [1, 2, 3]), jacobiCg(functionOperator({
      size: 3, apply: (x, y) => { for (let i = 0; i < 3; i++) y.set(i, x.get(i) === 0 ? 0 : NaN); }, diagonal: () => Float64Array.of(1, 1, 1),
    }), [1, 2, 3])]) {
      expectBreakdown(r, 'non-finite');
      expect(r.trueResidualNorm).toBeGreaterThanOrEqual(0);
    }
  });

  it("overflow in the arithmetic is 'non-finite' too (fp32 vectors, huge entries)", () => {
    // A·p itself overflows in fp32 (3e38·p₀ + 1e38·p₁ for b = [1, −2]), whatever q's scale: CG cannot take a step
    // (b itself is solved at ‖b‖ in [1, 2), so huge entries of b alone do not overflow).
    const r = cg(dense([[3e38, 1e38], [1e38, 3e38]]), [1, -2], { storage: formats.f32, arithmetic: formats.f32 });
    expectBreakdown(r, 'non-finite');
  });

  it('CG scales q = A·p down by a power of two where pᵀAp or q\'s storage overflows, and solves on (was non-finite at 0 iterations)', () => {
    // pᵀAp = 2·3e38 > fp32's largest; A·p itself is finite. x = 1/3e38, a binary32 subnormal.
    const r = cg(dense([[3e38, 0], [0, 3e38]]), [1, 1], { storage: formats.f32, arithmetic: formats.f32 });
    expect(r.breakdown).not.toBe('non-finite');
    expect(r.iterations).toBeGreaterThan(0);
    for (const xi of toArray(r.x)) expect(Math.abs(xi * 3e38 - 1)).toBeLessThan(2 ** -10);
  });

  it('CG with fp16 vectors on bcsstk01 (entries to 3·10⁹: A·r overflowed fp16 before the first step) takes real steps, all finite', () => {
    const A = csrToEll(readMatrixMarketCsr(readFileSync(join(matricesFolder, 'bcsstk01.mtx'), 'utf8')));
    const b = Float64Array.from({ length: A.rows }, (_, i) => Math.sin(i + 1));
    const f16 = cg(A, b, { storage: formats.f16, tolerance: 1e-6, maxIterations: 60 });
    expect(f16.breakdown).not.toBe('non-finite');
    expect(f16.iterations).toBeGreaterThan(0);
    expect(f16.history.every(Number.isFinite)).toBe(true);
    expect(toArray(f16.x).every(Number.isFinite)).toBe(true);
    expect(Number.isFinite(f16.trueResidualNorm)).toBe(true);
    // Its first steps follow the fp64 solve's residuals (the same system; fp16 rounds the vectors to 11 bits).
    const f64 = cg(A, b, { tolerance: 1e-6, maxIterations: 60 });
    expect(f16.history[1]!).toBeLessThan(2 * f64.history[1]! + 0.1 * f64.history[0]!);
    // fp64 vectors never overflow here: the solve is the one without scaling (it converges, as before).
    expect(f64.status === 'converged' || f64.status === 'iteration-limit').toBe(true);
  });

  it("iterative refinement: a zero fp32 pivot is 'singular-factor'", () => {
    // Singular once rounded to fp32: 1 + 2⁻³⁰ rounds to 1. Regular in fp64.
    const e = 1 + 2 ** -30;
    expectBreakdown(iterativeRefinement(dense([[1, e], [1, 1]]), [1, 2]), 'singular-factor');
    expect(iterativeRefinement(dense([[1, e], [1, 1]]), [1, 2], { factorization: 'f64' }).breakdown).not.toBe('singular-factor');
  });

  it("iterative refinement: κ(A)·2⁻²⁴ ≫ 1 makes no progress: 'stagnation'", () => {
    // Hilbert 9×9: κ ≈ 5·10¹¹
    const n = 9;
    const H = matrix(n, n, (i, j) => 1 / (i + j + 1));
    const r = iterativeRefinement(H, new Float64Array(n).fill(1));
    expectBreakdown(r, 'stagnation');
  });
});

describe('CG on a singular semidefinite matrix', () => {
  // The Neumann Laplacian: semidefinite, its null space the constant vectors.
  const neumann = (n: number) => matrix(n, n, (i, j) => (i === j ? (i === 0 || i === n - 1 ? 1 : 2) : Math.abs(i - j) === 1 ? -1 : 0));
  const bs = fc.integer({ min: 2, max: 16 }).chain((n) => fc.array(fc.integer({ min: -100, max: 100 }), { minLength: n, maxLength: n }));

  // Regression: an inconsistent system (b not ⟂ the constants) ran to the iteration limit with ‖x‖ ≈ 1e34 and a
  // residual of 1e18·‖b‖ (cg(neumann(6), [1, 2, 3, 4, 5, 6])), or broke down as 'indefinite' with x ≈ 6e32 (jacobiCg):
  // pᵀAp reached the rounding level and α = ρ/pᵀAp blew x up. Now: breakdown 'singular', and x is the iterate of the
  // smallest residual — never worse than x = 0.
  it.each([['cg', cg], ['jacobiCg', jacobiCg]] as const)("%s: an inconsistent system is 'singular', x the iterate of the smallest residual", (_, solve) => {
    fc.assert(fc.property(bs.filter((b) => b.reduce((a, v) => a + v, 0) !== 0), (b) => {
      const n = b.length;
      const r = solve(neumann(n), b, { maxIterations: 10 * n });
      expectBreakdown(r, 'singular');
      expect(r.iterations).toBe(r.history.length - 1);
      expect(r.residualNorm).toBe(Math.min(...r.history));
      // the recomputed residual of that x agrees with the recurrence's (no blow-up between them), and is at most ‖b‖
      expect(r.trueResidualNorm).toBeLessThanOrEqual(1 + 1e-12);
      expect(Math.abs(r.trueResidualNorm - r.residualNorm)).toBeLessThanOrEqual(1e-9);
      // its null-space part stays put: the mean of x is that of the iterates before the blow-up, bounded by ‖A⁺‖·‖b‖ ≤ n²·‖b‖
      const x = toArray(r.x);
      const bNorm = Math.hypot(...b);
      for (const v of x) expect(Math.abs(v)).toBeLessThanOrEqual(n ** 2 * bNorm);
    }), { numRuns: 40, seed: 30 });
  });

  it('b in the null space: singular at once, x = 0', () => {
    const r = cg(neumann(5), [3, 3, 3, 3, 3]);
    expectBreakdown(r, 'singular');
    expect([r.iterations, ...toArray(r.x)]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('a consistent system (b ⟂ the constants) converges: no false singular', () => {
    fc.assert(fc.property(bs, (c) => {
      const mean = c.reduce((a, v) => a + v, 0) / c.length;
      const b = c.map((v) => v - mean);
      fc.pre(b.some((v) => v !== 0));
      const r = cg(neumann(b.length), b, { tolerance: 1e-10, maxIterations: 10 * b.length });
      expect(r.status).toBe('converged');
    }), { numRuns: 40, seed: 31 });
  });
});
