/**
 * When an iterative solver stops: the relative tolerance, the iteration limit, and stagnation of the true residual.
 * It also keeps the convergence history.
 * @module
 */
import type { BreakdownReason, SolveStatus } from './breakdown.js';
import { finiteOrInfinity } from './solver-result.js';

/**
 * A recurrence residual this many times above the smallest one since the last true-residual check is taken as
 * divergence (the recurrence has left b − A·x: fp16 CG short of an unattainable tolerance grew by about 1.2 an
 * iteration from 1e-7 to ±∞) and sends the solver to check the true residual. Large, as CG's ‖r‖₂ may rise by up to
 * √κ and BiCGStab's jumps, while the true residual stays on course: a check that finds it lower is no strike.
 */
export const DIVERGENCE_FACTOR = 2 ** 10;

/** What a check of the true residual decides. */
export type TrueResidualVerdict = 'converged' | 'continue' | 'stagnation';

/**
 * The stopping state of one solve: relative residuals ‖r‖/‖b‖ per iteration, the tolerance test, and the count of
 * true-residual checks that failed to lower the true residual.
 */
export class StoppingCriterion {
  readonly history: number[] = [];
  readonly trueHistory: number[] | undefined;
  private readonly bNorm: number;
  private readonly tolerance: number;
  private readonly stagnationChecks: number;
  // the smallest tolerance a computed true residual can certify (see residualResolution)
  private readonly resolution: number;
  private lastTrue = Infinity;
  private strikes = 0;
  // the smallest relative recurrence residual recorded since the last true-residual check
  private lowSinceCheck = Infinity;
  status: SolveStatus = 'iteration-limit';
  breakdown: BreakdownReason | undefined = undefined;

  constructor(bNorm: number, tolerance: number, stagnationChecks: number, recordTrue: boolean, resolution = 0) {
    this.bNorm = bNorm;
    this.resolution = resolution;
    this.tolerance = tolerance;
    this.stagnationChecks = stagnationChecks;
    this.trueHistory = recordTrue ? [] : undefined;
  }

  /** Records a residual norm (absolute); returns whether it meets the tolerance. */
  record(norm: number): boolean {
    const rel = finiteOrInfinity(norm / this.bNorm);
    this.history.push(rel);
    this.lowSinceCheck = Math.min(this.lowSinceCheck, rel);
    return rel <= this.tolerance;
  }

  /**
   * Whether the last recorded residual, finite, lies more than {@link DIVERGENCE_FACTOR} above the smallest recorded
   * since the last true-residual check: the recurrence diverges, and the true residual must be checked.
   */
  diverges(): boolean {
    const last = this.history[this.history.length - 1]!;
    return Number.isFinite(last) && last > DIVERGENCE_FACTOR * this.lowSinceCheck;
  }

  /** Records a true residual norm (absolute) into the true history, when one is kept. */
  recordTrue(norm: number): void {
    this.trueHistory?.push(finiteOrInfinity(norm / this.bNorm));
  }

  /** Whether an absolute norm meets the tolerance. */
  meets(norm: number): boolean {
    return norm / this.bNorm <= this.tolerance;
  }

  /**
   * Whether a true residual norm (absolute) lets the solve report `converged`: it meets the tolerance, and the tolerance
   * is one a computed residual can tell (at least the resolution: below the unit roundoff of the arithmetic that
   * computes b − A·x, a computed 0 stood for an exact residual of 5.6e-17·‖b‖, and tolerance 0 or 1e-20 'converged').
   */
  certifies(norm: number): boolean {
    return this.tolerance >= this.resolution && this.meets(norm);
  }

  /**
   * Judges a recomputed true residual norm: converged when it meets the tolerance; stagnation when this is the
   * `stagnationChecks`-th consecutive check that did not lower it; else continue.
   */
  judgeTrue(norm: number): TrueResidualVerdict {
    this.lowSinceCheck = Infinity;
    if (this.certifies(norm)) return 'converged';
    if (norm >= this.lastTrue || !Number.isFinite(norm)) this.strikes++;
    else this.strikes = 0;
    this.lastTrue = Math.min(this.lastTrue, norm);
    return this.strikes >= this.stagnationChecks ? 'stagnation' : 'continue';
  }

  /** Ends the solve as converged. */
  converge(): void {
    this.status = 'converged';
    this.breakdown = undefined;
  }

  /** Ends the solve with a breakdown. */
  breakDown(reason: BreakdownReason): void {
    this.status = 'breakdown';
    this.breakdown = reason;
  }

  /** Seeds the stagnation test with the initial true residual. */
  start(norm: number): void {
    this.lastTrue = norm;
  }
}
