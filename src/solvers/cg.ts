/**
 * The conjugate gradient method (Hestenes–Stiefel), optionally preconditioned, with every vector behind an
 * accessor of the chosen storage and every kernel in the chosen arithmetic.
 * @module
 */
import type { Range } from '../core/range.js';
import { dot } from '../../kernels/dot/dot.js';
import { axpy } from '../../kernels/axpy/axpy.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import type { OperatorLike } from './operator.js';
import type { SolverOptions } from './solver-options.js';
import { startSolve, type SolveStart } from './solve-start.js';
import { solverResult, type SolverResult } from './solver-result.js';
import type { Preconditioner } from './jacobi.js';

/**
 * Solves A·x = b for a symmetric positive definite A by conjugate gradients.
 *
 * Each iteration applies A once and runs two DOTs and three vector updates, all through the vectors' accessors
 * in `options.arithmetic`. When the recurrence's residual meets the tolerance, the true residual b − A·x is
 * recomputed: the solve converges only if it meets the tolerance too; otherwise the recurrence restarts from the
 * true residual, and `stagnationChecks` such checks in a row that do not lower it end the solve (breakdown
 * `stagnation`: the accuracy the storage and arithmetic can attain is reached). pᵀAp ≤ 0 ends it with the
 * breakdown `indefinite`.
 * @param A - the matrix or operator (square)
 * @param b - the right-hand side (finite)
 * @param options - tolerance, limit, vector storage and arithmetic, x₀ ({@link SolverOptions})
 * @returns the solution, status, history and recomputed true residual
 * @throws {@link ModprecError} for invalid arguments, before any work: `DIMENSION_MISMATCH` (b, x₀, A not square),
 *   `INVALID_VALUE` (a non-finite entry of b or x₀), `INVALID_OPTION`, `INVALID_FORMAT`
 * @example
 * ```ts
 * import { cg, laplacianEll, formats } from 'modprec';
 *
 * const A = laplacianEll([50]);                       // 1-D Laplacian, SPD
 * const b = new Float64Array(50).fill(1);
 * const r = cg(A, b, { tolerance: 1e-10 });
 * r.status; // → 'converged'
 * r.trueResidualNorm <= 1e-10; // → true
 * r.history[r.history.length - 1] === r.residualNorm; // → true
 * // vectors stored in fp32, arithmetic fp64
 * cg(A, b, { storage: formats.f32, arithmetic: formats.f64, tolerance: 1e-5 }).status; // → 'converged'
 * ```
 * @group Solvers
 */
export function cg(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: SolverOptions): SolverResult {
  const start = startSolve(A, b, options);
  return start.done ?? conjugateGradients(start, undefined);
}

/** The CG iteration from a validated start, with an optional preconditioner M⁻¹ (z = M⁻¹r). */
export function conjugateGradients(s: SolveStart, M: Preconditioner | undefined): SolverResult {
  const { A, vectors: V, b, x, r, stop } = s;
  const ar = V.arithmetic;
  const opts = { arithmetic: ar };
  const z = M ? V.make() : r;
  const p = V.make();
  const q = V.make();
  const t = V.make();
  let rho = 0;
  let rNorm = s.rNorm;
  // (Re)starts the recurrence from the current r: z = M⁻¹r, p = z, ρ = rᵀz.
  const restart = (): boolean => {
    if (M) M.apply(r, z, ar);
    rho = dot(r, z, opts);
    V.copy(z, p);
    if (!Number.isFinite(rho)) { stop.breakDown('non-finite'); return false; }
    if (!(rho > 0)) { stop.breakDown('indefinite'); return false; }
    return true;
  };
  let iterations = 0;
  if (restart()) {
    while (iterations < s.options.maxIterations) {
      A.apply(1, p, 0, q, ar);
      const pq = dot(p, q, opts);
      if (!Number.isFinite(pq)) { stop.breakDown('non-finite'); break; }
      if (!(pq > 0)) { stop.breakDown('indefinite'); break; }
      const alpha = rho / pq;
      if (!Number.isFinite(alpha)) { stop.breakDown('non-finite'); break; }
      axpy(alpha, p, x, opts);
      axpy(-alpha, q, r, opts);
      iterations++;
      let rhoNext: number;
      if (M) {
        M.apply(r, z, ar);
        rhoNext = dot(r, z, opts);
        rNorm = V.norm(r);
      } else {
        rhoNext = dot(r, r, opts);
        rNorm = Math.sqrt(rhoNext);
      }
      const met = stop.record(rNorm);
      if (stop.trueHistory) stop.recordTrue(V.residual(A, b, x, t));
      if (met) {
        const verdict = stop.judgeTrue(V.residual(A, b, x, t));
        if (verdict === 'converged') { stop.converge(); break; }
        if (verdict === 'stagnation') { stop.breakDown('stagnation'); break; }
        // Residual replacement: continue from the true residual, with fresh directions.
        V.copy(t, r);
        if (!restart()) break;
        continue;
      }
      if (!Number.isFinite(rhoNext) || !Number.isFinite(rNorm)) { stop.breakDown('non-finite'); break; }
      if (!(rhoNext > 0)) { stop.breakDown('indefinite'); break; }
      const beta = rhoNext / rho;
      rho = rhoNext;
      waxpby(1, z, beta, p, p, opts);
    }
  }
  return solverResult(x, stop, iterations, V.residual(A, b, x, t) / s.bNorm);
}
