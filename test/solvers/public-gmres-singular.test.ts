/**
 * GMRES solves its small least-squares problem min‖β·e₁ − H·y‖ by back substitution in R (H after Givens rotations).
 * On a singular A a diagonal entry of R is zero in exact arithmetic but comes out at the rounding level, and dividing
 * by it sent y — and x — along A's null space: on diag(1, 2, 0) with b = (1, 1, 1) (inconsistent) GMRES returned
 * x₃ = 1.5e16 in fp64 (at b = 2^1000 that x overflowed when scaled back), and with fp32 or fp16 vectors the true
 * residual of such an x was worse than x₀'s, so x₀ = 0 came back with a residual of 1 where 1/√3 is attainable; on
 * the Jordan block J₃ with fp32 vectors x₁ grew to 5.7e8. An entry of R within k·u·‖A‖ (u at least fp64's: H is fp64)
 * now counts as zero and its yᵢ as 0 — the least-squares solution over the other directions —, and so does an hₖ₊₁,ₖ
 * at that level (an invariant subspace, not a new direction). This does not make GMRES stable on every inconsistent
 * system: close nonzero eigenvalues (diag(0, 1.75, 1.8125), b = (−6, −8, 1)) leave pivots above that level that are
 * still noise, and x can grow there (docs/solvers.md, "Singular A"; a solution that overflows is 'non-finite').
 */
import { describe, expect, it } from 'vitest';
import { formats, gmres, matrix, toArray } from '../../src/index.js';

describe('GMRES on a singular A', () => {
  it('the reported cases: diag(1, 2, 0) with b = (1, 1, 1), fp64, fp32 and dd vectors, reaches the least-squares residual 1/√3 with x moderate', () => {
    const A = matrix(3, 3, (i, j) => (i === j ? [1, 2, 0][i]! : 0));
    for (const storage of [formats.f64, formats.f32, formats.dd]) {
      const r = gmres(A, [1, 1, 1], { storage, tolerance: 1e-12, maxIterations: 200 });
      expect(r.trueResidualNorm).toBeCloseTo(1 / Math.sqrt(3), 6);
      const x = Array.from(toArray(r.x));
      expect(Math.abs(x[0]! - 1) + Math.abs(x[1]! - 0.5)).toBeLessThan(1e-6);
      expect(Math.abs(x[2]!)).toBeLessThan(10);
    }
    const J = matrix(3, 3, (i, j) => (j === i + 1 ? 1 : 0));
    const j = gmres(J, [1, 1, 0], { storage: formats.f32, tolerance: 1e-12 });
    expect(j.trueResidualNorm).toBeCloseTo(Math.SQRT1_2, 6);
    expect(Math.max(...Array.from(toArray(j.x), Math.abs))).toBeLessThan(10);
  });
});
