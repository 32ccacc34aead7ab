/**
 * The start and the end every Krylov solve shares: validate everything (before any work, synchronously, on every
 * backend), then make the vectors and r₀ = b − A·x₀; at the end, recompute the true residual and assemble the result.
 * @module
 */
import { Range } from '../core/range.js';
import { fail } from '../core/errors.js';
import { chooseBackend } from '../backends/backend.js';
import { linearOperator, type LinearOperator, type OperatorLike } from './operator.js';
import { checkVectorInput, resolveSolverOptions, type ResolvedSolverOptions, type SolverOptions } from './solver-options.js';
import { StoppingCriterion } from './stopping-criterion.js';
import { solverResult, type SolverResult } from './solver-result.js';
import { residual, runAwaiting, runNow, type Algorithm, type KrylovSpace, type Step } from './krylov-space.js';
import { cpuSpace } from './cpu-krylov-space.js';
import { checkGpuSolve } from './gpu-solve-checks.js';
import { isRnsArithmetic } from '../backends/webgpu-bridge/gpu-backend.js';
import type { Preconditioner } from './jacobi.js';

/** A solve's validated inputs. */
export interface ValidatedSolve {
  readonly A: LinearOperator;
  readonly b: ArrayLike<number> | Range<1, any>;
  readonly options: ResolvedSolverOptions;
  readonly backend: 'cpu' | 'gpu';
  /** `options.strict` of a GPU solve. */
  readonly strict: boolean;
}

/**
 * Validates A, b and the options (and, for `backend: 'gpu'`, that the GPU runs the storage, arithmetic and operator).
 * @throws {@link ModprecError} for any invalid argument, before any work
 */
export function validateSolve(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options: (SolverOptions & { backend?: 'cpu' | 'gpu'; strict?: boolean }) | undefined, extraFormats: readonly (readonly [string, unknown])[] = []): ValidatedSolve {
  if (options !== undefined && (typeof options !== 'object' || options === null)) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const backend = chooseBackend(options);
  // A solver runs its kernels on the CPU (each picking WebAssembly or generated JavaScript, as the kernels do by
  // default) or resident on the GPU; naming one CPU code path for a whole solve is not an option of its own.
  if (backend !== 'cpu' && backend !== 'gpu') fail('INVALID_OPTION', 'options.backend', "must be 'cpu' or 'gpu' for a solver", backend);
  const op = linearOperator(A);
  const bIn = checkVectorInput('b', b, op.size);
  const opts = resolveSolverOptions(options, op.size);
  checkStorable(bIn, opts);
  const strict = backend === 'gpu' ? checkGpuSolve(op, opts, options!, extraFormats) : false;
  return { A: op, b: bIn, options: opts, backend, strict };
}

/**
 * A nonzero b whose every entry rounds to zero in the solver's storage (fp32 below 2^-150, fp16 below 2^-25) would be
 * solved as b = 0 — `converged` with x = 0 — so it is refused, before any work. (Overflow is the breakdown non-finite.)
 * @throws {@link ModprecError} `INVALID_VALUE` naming `b`
 */
function checkStorable(b: ArrayLike<number> | Range<1, any>, o: ResolvedSolverOptions): void {
  const st = o.storage;
  if (st.kind !== 'number') return;   // double-double and RNS storage hold every double
  let max = 0;
  if (b instanceof Range) {
    const ar = b.accessor.arithmetic;
    for (let i = 0; i < o.n; i++) max = Math.max(max, Math.abs(ar.toNumber(b.get(i))));
  } else {
    for (let i = 0; i < o.n; i++) max = Math.max(max, Math.abs(b[i]!));
  }
  if (max === 0) return;
  const probe = st.allocate(1);
  st.encode(probe as never, 0, max as never);
  if (st.decode(probe as never, 0) === 0) {
    fail('INVALID_VALUE', 'b', `must have an entry that is not zero once stored in ${st.name} (options.storage): its largest |bᵢ| underflows; scale the system`, max);
  }
}

/** The vectors and state a Krylov iteration starts from. */
export interface Start<V> {
  readonly b: V;
  readonly x: V;
  /** r₀ = b − A·x₀. */
  readonly r: V;
  /** ‖b‖₂ (1 when b = 0). */
  readonly bNorm: number;
  /** ‖r₀‖₂. */
  readonly rNorm: number;
  readonly stop: StoppingCriterion;
  /** The solve is already over: b = 0 (x = 0), x₀ meets the tolerance, or r₀ is not finite. */
  readonly done: boolean;
  /** b and x₀ were loaded times 2^-scaleExponent (see {@link begin}); the solution is scaled back at the end. */
  readonly scaleExponent: number;
}

/** ‖b‖₂ in [2^-32, 2^32] is solved as given; outside, b and x₀ are scaled by a power of two to ‖b‖₂ in [1, 2). */
const UNSCALED_EXPONENT = 32;

/** v := 2^k·v in the space, in two steps so that no factor overflows (|k| reaches 1074); exact but for over/underflow. */
function* scaleBy<V>(s: KrylovSpace<V>, v: V, k: number): Generator<Step<unknown>, void, any> {
  const h = Math.trunc(k / 2);
  if (h !== 0) yield s.update(2 ** h, v, 0, v, v);
  if (k - h !== 0) yield s.update(2 ** (k - h), v, 0, v, v);
}

/** Makes b, x₀ and r₀ in the space, and the stopping state. */
export function* begin<V>(s: KrylovSpace<V>, v: ValidatedSolve): Generator<Step<unknown>, Start<V>, any> {
  const o = v.options;
  const b = (yield s.load(v.b)) as V;
  let bNorm = (yield s.norm(b)) as number;
  // The Krylov recurrences form squares and products of residual-sized numbers: with ‖b‖₂ beyond about 2^±500 they
  // overflow or underflow (an SPD matrix reported 'indefinite' for b = 1e-170·sin). Scaling b, x₀ and so x by a
  // power of two changes no rounding (away from the storage's limits) and no relative residual.
  const scaleExponent = bNorm > 0 && Number.isFinite(bNorm) && Math.abs(Math.log2(bNorm)) > UNSCALED_EXPONENT
    ? Math.floor(Math.log2(bNorm)) : 0;
  if (scaleExponent !== 0) {
    yield* scaleBy(s, b, -scaleExponent);
    bNorm = (yield s.norm(b)) as number;
  }
  const stop = new StoppingCriterion(bNorm === 0 ? 1 : bNorm, o.tolerance, o.stagnationChecks, o.recordTrueResidual);
  if (bNorm === 0) {
    // x = 0 solves A·x = 0 exactly, whatever x₀ was.
    stop.record(0);
    stop.recordTrue(0);
    stop.converge();
    return { b, x: s.make(), r: s.make(), bNorm: 1, rNorm: 0, stop, done: true, scaleExponent: 0 };
  }
  const x = (yield s.load(o.x0)) as V;
  if (scaleExponent !== 0 && o.x0 !== undefined) yield* scaleBy(s, x, -scaleExponent);
  const r = s.make();
  const rNorm = (yield* residual(s, b, x, r)) as number;
  stop.start(rNorm);
  stop.recordTrue(rNorm);
  let done = false;
  if (stop.record(rNorm)) { stop.converge(); done = true; } else if (!Number.isFinite(rNorm)) { stop.breakDown('non-finite'); done = true; }
  return { b, x, r, bNorm, rNorm, stop, done, scaleExponent };
}

/** Recomputes the true residual of x (into `scratch`) and assembles the result. */
export function* finish<V>(s: KrylovSpace<V>, start: Start<V>, scratch: V, iterations: number): Generator<Step<unknown>, SolverResult, any> {
  const trueNorm = (yield* residual(s, start.b, start.x, scratch)) as number;
  if (start.scaleExponent !== 0) yield* scaleBy(s, start.x, start.scaleExponent);
  const x = (yield s.result(start.x)) as Range<1, any>;
  return solverResult(x, start.stop, iterations, trueNorm / start.bNorm);
}

/**
 * Runs a validated solve on its backend: at once on the CPU, as a promise on the GPU (the GPU space is loaded lazily,
 * so CPU-only code never loads gpu.js).
 */
export function runSolve<R>(v: ValidatedSolve, algorithm: (s: KrylovSpace<any, any>) => Algorithm<R>, M?: Preconditioner): R | Promise<R> {
  if (v.backend === 'cpu') return runNow(algorithm(cpuSpace(v.A, v.options, M)));
  return (async () => {
    const g = isRnsArithmetic(v.options.arithmetic)
      ? await (await import('./rns-gpu-krylov-space.js')).rnsGpuSpace(v, M)
      : await (await import('./gpu-krylov-space.js')).gpuSpace(v, M);
    try {
      return await runAwaiting(algorithm(g.space));
    } finally {
      g.release();
    }
  })();
}
