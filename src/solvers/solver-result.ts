/**
 * What every solver returns: the solution, how the solve ended, and its convergence history.
 * @module
 */
import type { Range } from '../core/range.js';
import type { BreakdownReason, SolveStatus } from './breakdown.js';

/**
 * The result of a solve. Every number in it is finite or +∞ (an operator that returned non-finite values makes
 * the true residual +∞); none is NaN.
 * @group Solvers
 */
export interface SolverResult<T = any> {
  /**
   * The solution, in the solver's vector storage (a double-double solve keeps all its digits), read in that storage's
   * own arithmetic (fp64 for fp64 vectors, whatever the solve's arithmetic was).
   */
  readonly x: Range<1, T>;
  /** How the solve ended. */
  readonly status: SolveStatus;
  /** Why it broke down, when `status` is `breakdown`. */
  readonly breakdown: BreakdownReason | undefined;
  /** Iterations done (GMRES: inner iterations over all restarts; refinement: corrections applied). */
  readonly iterations: number;
  /**
   * Relative residual norms ‖r‖₂/‖b‖₂ the solver worked with: entry 0 before the first iteration, entry k after
   * iteration k (CG, BiCGStab: the recurrence's residual; GMRES: Arnoldi's estimate, with the true residual at each
   * restart; refinement: the residual each correction was computed from, then the final one).
   */
  readonly history: readonly number[];
  /** `history`'s last entry. */
  readonly residualNorm: number;
  /** ‖b − A·x‖₂/‖b‖₂ recomputed from the returned x, in the solver's arithmetic. */
  readonly trueResidualNorm: number;
  /** With `recordTrueResidual: true`: the true relative residual after each iteration (entry 0: the initial one). */
  readonly trueHistory: readonly number[] | undefined;
}

/** Replaces NaN by +∞: results never carry NaN. */
export function finiteOrInfinity(v: number): number {
  return Number.isNaN(v) ? Infinity : v;
}

/** Assembles the result from the stopping state, the iteration count and the recomputed true residual norm (relative). */
export function solverResult<T>(
  x: Range<1, T>, stop: { status: SolveStatus; breakdown: BreakdownReason | undefined; history: readonly number[]; trueHistory: readonly number[] | undefined },
  iterations: number, trueResidualNorm: number,
): SolverResult<T> {
  const history = Object.freeze([...stop.history]);
  return Object.freeze({
    x, status: stop.status, breakdown: stop.breakdown, iterations, history,
    residualNorm: history[history.length - 1] ?? 0,
    trueResidualNorm: finiteOrInfinity(trueResidualNorm),
    trueHistory: stop.trueHistory ? Object.freeze([...stop.trueHistory]) : undefined,
  });
}
