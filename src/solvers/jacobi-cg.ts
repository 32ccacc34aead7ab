/**
 * Jacobi-preconditioned conjugate gradients.
 * @module
 */
import type { Range } from '../core/range.js';
import type { OperatorLike } from './operator.js';
import type { SolverOptions } from './solver-options.js';
import type { GpuSolverOptions } from './gpu-solve-checks.js';
import type { SolverResult } from './solver-result.js';
import { runSolve, validateSolve } from './solve-start.js';
import { conjugateGradients } from './cg.js';
import { jacobiPreconditioner } from './jacobi.js';

/**
 * Solves A·x = b for a symmetric positive definite A by conjugate gradients preconditioned with M = diag(A)
 * (z = D⁻¹r, applied as a one-slot-per-row ELL SpMV). Stopping, breakdowns, results and backends as {@link cg}; the
 * residual history is of the unpreconditioned residual ‖r‖₂/‖b‖₂. A diagonal entry ≤ 0 makes rᵀz ≤ 0 possible:
 * the breakdown `indefinite`.
 * @param A - the matrix or operator (a function operator must give its diagonal)
 * @param b - the right-hand side
 * @param options - as {@link cg}
 * @throws {@link ModprecError} as {@link cg}; `INVALID_VALUE` naming `A[i, i]` for a zero or non-finite diagonal
 *   entry; `INVALID_OPTION` for a function operator without a diagonal
 * @example
 * ```ts
 * import { jacobiCg, cg, csrMatrix, csrToEll } from 'modprec';
 *
 * // A badly scaled SPD matrix: diag(1, 100, 10000) plus small couplings
 * const A = csrToEll(csrMatrix({ rows: 3, cols: 3, rowPtr: Int32Array.of(0, 2, 5, 7),
 *   colIndex: Int32Array.of(0, 1, 0, 1, 2, 1, 2), values: Float64Array.of(1, 0.1, 0.1, 100, 1, 1, 10000) }));
 * const pre = jacobiCg(A, [1, 1, 1], { tolerance: 1e-12 });
 * pre.status; // → 'converged'
 * pre.iterations <= cg(A, [1, 1, 1], { tolerance: 1e-12 }).iterations; // → true
 * ```
 * @group Solvers
 */
export function jacobiCg(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: SolverOptions & { backend?: 'cpu' }): SolverResult;
/** Jacobi CG on the GPU (as {@link cg}'s GPU overload). */
export function jacobiCg(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options: SolverOptions & GpuSolverOptions): Promise<SolverResult>;
export function jacobiCg(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: SolverOptions & (GpuSolverOptions | { backend?: 'cpu' })): SolverResult | Promise<SolverResult> {
  const v = validateSolve('jacobiCg', A, b, options);
  const M = jacobiPreconditioner(v.A, v.options.storage);   // validated before any work, as the rest
  return runSolve(v, (s) => conjugateGradients(s, v, true), M);
}
