/**
 * The start every Krylov solve shares: validate everything (before any work), make the vectors, form
 * r₀ = b − A·x₀ and the stopping state.
 * @module
 */
import type { Range } from '../core/range.js';
import { linearOperator, type LinearOperator, type OperatorLike } from './operator.js';
import { checkVectorInput, resolveSolverOptions, type ResolvedSolverOptions, type SolverOptions } from './solver-options.js';
import { SolverVectors } from './solver-vectors.js';
import { StoppingCriterion } from './stopping-criterion.js';
import { solverResult, type SolverResult } from './solver-result.js';

/** Everything a Krylov solver starts from. */
export interface SolveStart {
  readonly A: LinearOperator;
  readonly options: ResolvedSolverOptions;
  readonly vectors: SolverVectors;
  readonly b: Range<1, any>;
  readonly x: Range<1, any>;
  /** r₀ = b − A·x₀. */
  readonly r: Range<1, any>;
  /** ‖b‖₂ (> 0). */
  readonly bNorm: number;
  /** ‖r₀‖₂. */
  readonly rNorm: number;
  readonly stop: StoppingCriterion;
  /** Set when the solve is already over (b = 0, or x₀ already meets the tolerance). */
  readonly done: SolverResult | undefined;
}

/**
 * Validates A, b and the options, then builds the vectors and r₀. With b = 0 the answer is x = 0 at once.
 * @throws {@link ModprecError} for any invalid argument (see {@link resolveSolverOptions}, {@link linearOperator})
 */
export function startSolve(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options: SolverOptions | undefined): SolveStart {
  const op = linearOperator(A);
  const n = op.size;
  const bIn = checkVectorInput('b', b, n);
  const opts = resolveSolverOptions(options, n);
  const vectors = new SolverVectors(opts);
  const bv = vectors.from(bIn);
  const bNorm = vectors.norm(bv);
  const stop = new StoppingCriterion(bNorm, opts.tolerance, opts.stagnationChecks, opts.recordTrueResidual);
  if (bNorm === 0) {
    // x = 0 solves A·x = 0 exactly, whatever x₀ was.
    const x = vectors.make();
    stop.record(0);
    stop.recordTrue(0);
    stop.converge();
    return { A: op, options: opts, vectors, b: bv, x, r: vectors.make(), bNorm: 1, rNorm: 0, stop, done: solverResult(x, stop, 0, 0) };
  }
  const x = vectors.from(opts.x0);
  const r = vectors.make();
  const rNorm = vectors.residual(op, bv, x, r);
  stop.start(rNorm);
  stop.recordTrue(rNorm);
  let done: SolverResult | undefined;
  if (stop.record(rNorm)) {
    stop.converge();
    done = solverResult(x, stop, 0, rNorm / bNorm);
  } else if (!Number.isFinite(rNorm)) {
    stop.breakDown('non-finite');
    done = solverResult(x, stop, 0, rNorm / bNorm);
  }
  return { A: op, options: opts, vectors, b: bv, x, r, bNorm, rNorm, stop, done };
}
