/**
 * The start and the end every Krylov solve shares: validate everything (before any work, synchronously, on every
 * backend), then make the vectors and r₀ = b − A·x₀; at the end, recompute the true residual and assemble the result.
 * @module
 */
import { Range, range } from '../core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { scaledReducedRowMajor } from '../../accessors/scaled-reduced.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { dot } from '../../kernels/dot/dot.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { trsv } from '../../kernels/trsv/trsv.js';
import { ellSpmv } from '../../kernels/ell-spmv/ell-spmv.js';
import { ellOperand } from '../../kernels/ell-spmv/ell-operand.js';
import { asum } from '../../kernels/asum/asum.js';
import { nrm2 } from '../../kernels/nrm2/nrm2.js';
import { provideHostKernels } from '../backends/webgpu/host-kernels.js';
import type { StorageFormat } from '../formats/common/format.js';
import { f64 } from '../formats/common/registry.js';
import { fail } from '../core/errors.js';
import { chooseBackend } from '../backends/backend.js';
import { linearOperator, type LinearOperator, type OperatorLike } from './operator.js';
import { checkVectorInput, ownArithmetic, residualResolution, resolveSolverOptions, type ResolvedSolverOptions, type SolverOptions } from './solver-options.js';
import { StoppingCriterion } from './stopping-criterion.js';
import { solverResult, type SolverResult } from './solver-result.js';
import { residual, runAwaiting, runNow, type Algorithm, type KrylovSpace, type Step } from './krylov-space.js';
import { cpuSpace } from './cpu-krylov-space.js';
import { checkGpuSolve } from './gpu-solve-checks.js';
import { refuseSolverOptionsNotTaken, type SolverName } from './solver-option-keys.js';
import { isRnsArithmetic } from '../backends/webgpu-bridge/gpu-backend.js';
import type { Preconditioner } from './jacobi.js';
import { smallestNormal } from './underflow-level.js';
import { SolutionScale } from './solution-scale.js';

/** A solve's validated inputs. */
export interface ValidatedSolve {
  readonly A: LinearOperator;
  readonly b: ArrayLike<number> | Range<1, any>;
  readonly options: ResolvedSolverOptions;
  readonly backend: 'cpu' | 'gpu';
  /** `options.strict` of a GPU solve. */
  readonly strict: boolean;
  /** b and x₀ are solved as 2^-scaleExponent·b, 2^-scaleExponent·x₀ (see {@link chooseScale}). */
  readonly scaleExponent: number;
  /** ⌊log₂‖b‖₂⌋ of the b given (0 for b = 0): the floor under b's scale when a large r₀ scales the solve further. */
  readonly bExponent: number;
}

/**
 * Validates A, b and the options of solver `call` (refusing the options modprec knows that it does not take) and, for
 * `backend: 'gpu'`, that the GPU runs the storage, arithmetic and operator.
 * @throws {@link ModprecError} for any invalid argument, before any work
 */
export function validateSolve(call: SolverName, A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options: (SolverOptions & { backend?: 'cpu' | 'gpu'; strict?: boolean }) | undefined, extraFormats: readonly (readonly [string, unknown])[] = []): ValidatedSolve {
  if (options !== undefined && (typeof options !== 'object' || options === null)) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const backend = chooseBackend(options);
  // A solver runs its kernels on the CPU (each picking WebAssembly or generated JavaScript, as the kernels do by
  // default) or resident on the GPU; naming one CPU code path for a whole solve is not an option of its own.
  if (backend !== 'cpu' && backend !== 'gpu') fail('INVALID_OPTION', 'options.backend', "must be 'cpu' or 'gpu' for a solver", backend);
  const op = linearOperator(A);
  const bIn = checkVectorInput('b', b, op.size);
  const opts = resolveSolverOptions(options, op.size);
  refuseSolverOptionsNotTaken(options, call, op.size);
  const bNormExponent = normExponent(valuesOf(bIn, opts.n), opts.n);
  const scaleExponent = chooseScale(bNormExponent, opts);
  checkStorable(bIn, opts, scaleExponent);
  const strict = backend === 'gpu' ? checkGpuSolve(op, opts, options!, extraFormats) : false;
  const bExponent = bNormExponent ?? 0;
  return { A: op, b: bIn, options: opts, backend, strict, scaleExponent, bExponent };
}

/** The values of b as doubles (a range read through its arithmetic). */
function valuesOf(b: ArrayLike<number> | Range<1, any>, n: number): ArrayLike<number> {
  if (!(b instanceof Range)) return b;
  const ar = b.accessor.arithmetic;
  return Float64Array.from({ length: n }, (_, i) => ar.toNumber(b.get(i)));
}

/**
 * ⌊log₂‖v‖₂⌋ of doubles without overflow or underflow, from max|vᵢ| · ‖v / max|vᵢ|‖₂ (undefined for v = 0). ‖v‖₂ itself
 * may lie beyond the double range — entries all finite, (1.7e308, −1.7e308) has ‖v‖₂ = 2.4e308 — and its exponent
 * still scales v into range (taken as 'no scale', such a b broke down 'non-finite' at 0 iterations with x = 0).
 */
function normExponent(v: ArrayLike<number>, n: number): number | undefined {
  let max = 0;
  for (let i = 0; i < n; i++) max = Math.max(max, Math.abs(v[i]!));
  if (max === 0) return undefined;
  // Divide by the power of two of max: exact, so the sum of squares lies in [1, n·4).
  const e = Math.floor(Math.log2(max));
  let sum = 0;
  for (let i = 0; i < n; i++) { const t = timesPowerOfTwo(v[i]!, -e); sum += t * t; }
  const norm = timesPowerOfTwo(Math.sqrt(sum), e);
  return Number.isFinite(norm) ? Math.floor(Math.log2(norm)) : e + Math.floor(Math.log2(Math.sqrt(sum)));
}

/** v·2^k, in at most two exact steps (2^k itself may not be a double for k < -1074 + … or k > 1023). */
function timesPowerOfTwo(v: number, k: number): number {
  if (k >= -1022 && k <= 1023) return v * 2 ** k;
  const h = Math.trunc(k / 2);
  return v * 2 ** h * 2 ** (k - h);
}

/**
 * The power of two b and x₀ are divided by before they are stored (see {@link UNSCALED_EXPONENT}): 0 when ‖b‖₂ lies in
 * [2^-32, 2^32] and the storage holds 2^±64 with room to spare (fp64, fp32, bf16, dd, RNS); otherwise ⌊log₂‖b‖₂⌋, so
 * that the solve runs on ‖b‖₂ in [1, 2). A storage narrower than that (fp16: 2^-24 … 65504, or a user's format) is
 * always solved at that scale: its vectors must fit its range, whatever b's magnitude.
 */
function chooseScale(e: number | undefined, o: ResolvedSolverOptions): number {
  if (e === undefined) return 0;
  const wide = o.storage.kind !== 'number' || o.storage.maxValue >= 2 ** (2 * UNSCALED_EXPONENT);
  return wide && Math.abs(e) <= UNSCALED_EXPONENT ? 0 : Math.min(e, MAX_SCALE_EXPONENT);
}

/**
 * The input scaled by 2^k, exactly (but for underflow below the double range), in a form every space loads: doubles
 * for a range of numbers, a range of the same storage for double-double and RNS ranges (which hold more than a double).
 */
function scaledInput(values: ArrayLike<number> | Range<1, any> | undefined, n: number, k: number): ArrayLike<number> | Range<1, any> | undefined {
  if (k === 0 || values === undefined) return values;
  if (values instanceof Range && values.accessor.storage.kind !== 'number') {
    const { storage, arithmetic } = values.accessor;
    const out = range(rowMajor<1, any>({ size: [n], storage, arithmetic }));
    const h = k >= -1022 && k <= 1023 ? k : Math.trunc(k / 2);
    waxpby(2 ** h, values, 0, values, out, { arithmetic });
    if (k !== h) waxpby(2 ** (k - h), out, 0, out, out, { arithmetic });
    return out;
  }
  const v = valuesOf(values, n);
  return Float64Array.from({ length: n }, (_, i) => timesPowerOfTwo(v[i]!, k));
}

/**
 * A vector whose scale does not change the solve (BiCGStab's shadow residual r̂: ρ = r̂ᵀr and σ = r̂ᵀA·p scale with it,
 * α and β do not) scaled by the power of two that brings its largest |vᵢ| into [1, 2). Where the given vector fits the
 * storage the iteration is the same bit for bit (a power of two changes no rounding); where it did not, it now fits:
 * a shadow of 1e5 in fp16 vectors was stored as ±∞ (breakdown 'non-finite' at once), one of 1e-9 flushed to zero
 * ('rho-zero'), and one of 1e300 in fp64 overflowed ρ.
 * @param values - the vector (validated finite)
 * @param n - its length
 * @returns the scaled vector, or `values` itself when it is zero
 */
export function unitScaledInput(values: ArrayLike<number> | Range<1, any>, n: number): ArrayLike<number> | Range<1, any> {
  const max = largestMagnitude(valuesOf(values, n), n);
  if (max === 0) return values;
  return scaledInput(values, n, -Math.floor(Math.log2(max)))!;
}

/**
 * b as the solve stores it, 2^-k·b, must keep a nonzero entry and no infinite one in the solver's storage: a b that
 * rounded to zero would be solved as b = 0 (`converged` with x = 0), one that overflowed would hold ±∞. After the
 * scaling ‖2^-k·b‖₂ lies in [1, 2) wherever the storage is narrow, so only a format that cannot hold numbers near 1
 * is refused here, before any work. x₀ is stored at b's scale, 2^-k·x₀, and must not overflow there (an x₀ of 1 with a
 * b of 2^-700 in fp32 vectors was stored as ±∞, and the solve of the zero matrix reported `converged` with x = −∞);
 * entries that flush to zero only change the guess. With b = 0, x₀ is not read (x = 0).
 * @throws {@link ModprecError} `INVALID_VALUE` naming `b` or `options.x0`
 */
function checkStorable(b: ArrayLike<number> | Range<1, any>, o: ResolvedSolverOptions, k: number): void {
  const st = o.storage;
  if (st.kind !== 'number') return;   // double-double and RNS storage hold every double
  const max = largestMagnitude(valuesOf(b, o.n), o.n);
  if (max === 0) return;
  const probe = st.allocate(1);
  const stored = (v: number): number => {
    st.encode(probe as never, 0, timesPowerOfTwo(v, -k) as never);
    return st.decode(probe as never, 0) as number;
  };
  const bStored = stored(max);
  if (bStored === 0 || !Number.isFinite(bStored)) {
    fail('INVALID_VALUE', 'b', `must be representable in ${st.name} (options.storage): its largest |bᵢ|, scaled by 2^${-k}, ${bStored === 0 ? 'underflows' : 'overflows'}`, max);
  }
  if (o.x0 === undefined) return;
  const x0Max = largestMagnitude(valuesOf(o.x0, o.n), o.n);
  if (!Number.isFinite(stored(x0Max))) {
    fail('INVALID_VALUE', 'options.x0', `must be representable in ${st.name} (options.storage) at b's scale: its largest |x0ᵢ|, scaled by 2^${-k} as b is, overflows`, x0Max);
  }
}

/** max |vᵢ|. */
function largestMagnitude(v: ArrayLike<number>, n: number): number {
  let max = 0;
  for (let i = 0; i < n; i++) max = Math.max(max, Math.abs(v[i]!));
  return max;
}

/** The vectors and state a Krylov iteration starts from. */
export interface Start<V> {
  readonly b: V;
  readonly x: V;
  /** r₀ = b − A·x₀. */
  readonly r: V;
  /**
   * A vector for true residuals, of {@link KrylovSpace.makeWide}'s storage: r₀ was measured in it, and it holds r₀
   * unflushed (the solvers recompute b − A·x into it; `finish` too).
   */
  readonly t: V;
  /** ‖b‖₂ (1 when b = 0). */
  readonly bNorm: number;
  /** ‖r₀‖₂. */
  readonly rNorm: number;
  readonly stop: StoppingCriterion;
  /** The solve is already over: b = 0 (x = 0), x₀ meets the tolerance, or r₀ is not finite. */
  readonly done: boolean;
  /** The solver's vector storage. */
  readonly storage: StorageFormat;
  /** x₀ as given (undefined: zero), the fallback of a solution that overflows at b's scale (see {@link finish}). */
  readonly x0: ArrayLike<number> | Range<1, any> | undefined;
  /** b and x₀ were loaded times 2^-scaleExponent (see {@link chooseScale}); the solution is scaled back at the end. */
  readonly scaleExponent: number;
  /** x holds x/2^xScale.exponent (see {@link SolutionScale}); scaled back at the end with b's scale. */
  readonly xScale: SolutionScale;
}

/**
 * ‖b‖₂ in [2^-32, 2^32] is solved as given (in a storage that holds 2^±64); outside, b and x₀ are scaled by a power of
 * two to ‖b‖₂ in [1, 2) before they are stored. The Krylov recurrences form squares and products of residual-sized
 * numbers: with ‖b‖₂ beyond about 2^±500 they overflow or underflow (an SPD matrix reported 'indefinite' for
 * b = 1e-170·sin). Scaling by a power of two changes no rounding (away from the storage's limits) and no relative residual.
 */
const UNSCALED_EXPONENT = 32;

/**
 * The largest exponent a solve is scaled by: 2^k must be a double, as a narrow storage's x comes back as a view with the
 * scale 2^k (a ‖b‖₂ of 2^1024 or more, finite entries, asked for 2^1024 = +∞: `INVALID_VALUE` 'scale[0]'). Scaled by
 * 2^1023, such a b has ‖b‖₂ below 4√n: still far from the recurrences' limits.
 */
const MAX_SCALE_EXPONENT = 1023;

/**
 * v := 2^k·v on the host, in the storage's own arithmetic (fp64 for a storage of doubles, dd, RNS), in two steps so that
 * no factor overflows (|k| reaches 1074): exact but for over/underflow. Not in the solve's arithmetic: with fp32
 * arithmetic on fp64 vectors, 2^±350 overflowed or flushed there and x came back as ±∞ or 0 (status converged), and
 * dd vectors lost their low words.
 */
function scaleExactly(v: Range<1, any>, k: number, storage: StorageFormat): void {
  const arithmetic = ownArithmetic(storage);
  const h = Math.trunc(k / 2);
  if (h !== 0) waxpby(2 ** h, v, 0, v, v, { arithmetic });
  if (k - h !== 0) waxpby(2 ** (k - h), v, 0, v, v, { arithmetic });
}

/**
 * The solution 2^k·x of the scaled solve. A double-double, RNS or fp64 x is scaled in place (exact: they hold the
 * double range). A narrower storage (fp32, bf16, fp16, a user's) gets a range over the same words with the scale 2^k
 * (a {@link scaledReducedRowMajor} view, one scale, read in fp64: stored·2^k is a double, not always an fp32): scaling
 * its words back would overflow to ±∞ or flush to zero wherever x lies beyond the storage's range (fp16 beyond 65504),
 * while the scaled view reads every value exactly.
 */
function* scaleBack<V>(s: KrylovSpace<V>, x: V, k: number, storage: StorageFormat): Generator<Step<unknown>, Range<1, any>, any> {
  const out = inOwnArithmetic((yield s.result(x)) as Range<1, any>, storage);
  if (k === 0) return out;
  if (storage.kind !== 'number' || storage.maxValue === Number.MAX_VALUE) { scaleExactly(out, k, storage); return out; }
  const n = out.length();
  return range(scaledReducedRowMajor<1, any>({
    size: [n], storage, arithmetic: f64, data: out.accessor.data, offset: out.accessor.offset,
    stride: out.accessor.strides[0], scaleMask: [false], scale: Float64Array.of(2 ** k),
  }));
}

/**
 * x read in its storage's own arithmetic (fp64 for fp64 and fp16 vectors, dd, RNS): the same words, not rounded on
 * every read to the solve's arithmetic — with fp32 arithmetic on fp64 vectors a solution beyond 2^128 read as ±∞.
 */
function inOwnArithmetic(x: Range<1, any>, storage: StorageFormat): Range<1, any> {
  const arithmetic = ownArithmetic(storage);
  if (x.accessor.arithmetic === arithmetic) return x;
  return range(rowMajor<1, any>({ size: [x.length()], storage, arithmetic, data: x.accessor.data, offset: x.accessor.offset, stride: x.accessor.strides[0] }));
}

/** Whether every entry of x reads as a finite double. */
function allFinite(x: Range<1, any>): boolean {
  const ar = x.accessor.arithmetic;
  for (let i = 0; i < x.length(); i++) if (!Number.isFinite(ar.toNumber(x.get(i)))) return false;
  return true;
}

/**
 * How far below 2^ℓ the solve keeps ‖r₀‖₂ (scaled), ℓ = 32 for a storage that holds 2^±64 with room to spare (as b's
 * window, {@link UNSCALED_EXPONENT}), else half the storage's exponent range (fp16: ℓ = 7, its r must hold r₀).
 */
function residualLimit(storage: StorageFormat): number {
  const wide = storage.kind !== 'number' || storage.maxValue >= 2 ** (2 * UNSCALED_EXPONENT);
  return wide ? UNSCALED_EXPONENT : Math.max(1, Math.floor(Math.log2(storage.maxValue) / 2));
}

/**
 * The scale of a solve whose r₀ = b − A·x₀ (norm `rNorm`, measured at 2^-k) is far larger than b — an x₀ far from the
 * solution, or far larger than it: the recurrences run on residual-sized numbers and form their squares, which
 * overflowed fp32 arithmetic on fp64 or dd vectors (b = O(1), x₀ = 2^70: 'non-finite' at 0 iterations; x₀ = 2^130
 * came back ±∞). Scaled by 2^-k', ‖r₀‖₂ ≤ 2^ℓ ({@link residualLimit}), but ‖b‖₂ is never scaled below
 * {@link smallestBExponent} (the residual must fall to tolerance·‖b‖: further down, the narrow end of the arithmetic
 * is lost instead; where even that does not bring r₀ down, its squares may still overflow: 'non-finite'). An r₀
 * that overflowed the residual's arithmetic (A·x₀ beyond its range) is measured again with x₀ scaled to ‖x₀‖₂ < 1.
 * Powers of two: nothing rounds differently where nothing over- or underflows, and every relative residual is the same.
 * @param k - the exponent b and x₀ are scaled by now
 * @param rNorm - ‖r₀‖₂ at that scale (+∞ when it or x₀ overflowed)
 * @param v - the solve (its storage, and b's exponent)
 * @param xExponent - ⌊log₂‖x₀‖₂⌋ of the x₀ given (-Infinity for x₀ = 0)
 * @returns the exponent to scale b and x₀ by (k when the scale is right)
 */
function residualScale(k: number, rNorm: number, v: ValidatedSolve, xExponent: number): number {
  const most = v.bExponent + smallestBExponent(v.options.arithmetic);
  let wanted: number;
  if (Number.isFinite(rNorm)) {
    const limit = residualLimit(v.options.storage);
    if (!(rNorm > 2 ** limit)) return k;
    wanted = k + Math.floor(Math.log2(rNorm)) + 1 - limit;
  } else {
    wanted = xExponent + 1;
  }
  return Math.max(k, Math.min(most, wanted, MAX_SCALE_EXPONENT));
}

/**
 * How far below 1 a further scaling may take ‖b‖₂: 2^-32, or a quarter of the arithmetic's exponent range below 1
 * where that is more (fp64: 2^-255), so that tolerance·‖b‖ and its square stay among the arithmetic's normal numbers
 * (fp32 and float-float, whose smallest normals are 2^-126 and 2^-102, keep 2^-32).
 */
function smallestBExponent(arithmetic: ResolvedSolverOptions['arithmetic']): number {
  const level = smallestNormal(arithmetic);
  return level > 0 ? Math.max(UNSCALED_EXPONENT, Math.floor(-Math.log2(level) / 4)) : UNSCALED_EXPONENT;
}

/** ⌊log₂‖x₀‖₂⌋ of the x₀ given (-Infinity for none or a zero x₀). */
function x0Exponent(o: ResolvedSolverOptions): number {
  if (o.x0 === undefined) return -Infinity;
  return normExponent(valuesOf(o.x0, o.n), o.n) ?? -Infinity;
}

/** Makes b, x₀ and r₀ in the space, and the stopping state. */
export function* begin<V>(s: KrylovSpace<V>, v: ValidatedSolve): Generator<Step<unknown>, Start<V>, any> {
  const o = v.options;
  // b and x₀ are scaled before they are stored (see UNSCALED_EXPONENT): stored first, they could overflow or flush.
  let scaleExponent = v.scaleExponent;
  // b is held where every double fits (fp64 for f32, bf16, f16 vectors): rounded to the vectors' storage, the true
  // residual would be that of another system.
  let b = (yield s.load(scaledInput(v.b, s.n, -scaleExponent), true)) as V;
  let bNorm = (yield s.wide.norm(b)) as number;   // as the true residuals are measured
  if (bNorm === 0) {
    const stop = new StoppingCriterion(1, o.tolerance, o.stagnationChecks, o.recordTrueResidual);
    // x = 0 solves A·x = 0 exactly, whatever x₀ was.
    stop.record(0);
    stop.recordTrue(0);
    stop.converge();
    return { b, x: s.make(), r: s.make(), t: s.makeWide(), bNorm: 1, rNorm: 0, stop, done: true, scaleExponent: 0, storage: o.storage, x0: undefined, xScale: new SolutionScale(o.storage, true) };
  }
  let x = (yield s.load(scaledInput(o.x0, s.n, -scaleExponent))) as V;
  const r = s.make();
  // r₀ is measured where it does not flush (fp16 flushes below 2^-24, far above a tolerance of 1e-8·‖b‖), then stored.
  const t = s.makeWide();
  let rNorm = (yield* residual(s, b, x, t)) as number;
  // An x₀ far larger than b makes r₀ far larger than b: the solve runs further scaled (see residualScale), b, x₀ and
  // r₀ loaded again at that scale (at most twice: an r₀ that overflowed, then the r₀ of the x₀ scaled to 1).
  for (let again = 0; again < 2 && o.x0 !== undefined; again++) {
    const k = residualScale(scaleExponent, rNorm, v, x0Exponent(o));
    if (k === scaleExponent) break;
    scaleExponent = k;
    b = (yield s.load(scaledInput(v.b, s.n, -k), true)) as V;
    bNorm = (yield s.wide.norm(b)) as number;
    x = (yield s.load(scaledInput(o.x0, s.n, -k))) as V;
    rNorm = (yield* residual(s, b, x, t)) as number;
  }
  const stop = new StoppingCriterion(bNorm, o.tolerance, o.stagnationChecks, o.recordTrueResidual, residualResolution(o.arithmetic));
  yield s.copy(t, r);
  stop.start(rNorm);
  stop.recordTrue(rNorm);
  let done = false;
  stop.record(rNorm);
  if (stop.certifies(rNorm)) { stop.converge(); done = true; } else if (!Number.isFinite(rNorm)) { stop.breakDown('non-finite'); done = true; }
  return { b, x, r, t, bNorm, rNorm, stop, done, scaleExponent, storage: o.storage, x0: o.x0, xScale: new SolutionScale(o.storage, o.x0 !== undefined) };
}

/** Recomputes the true residual of x (into `start.t`) and assembles the result. */
export function* finish<V>(s: KrylovSpace<V>, start: Start<V>, iterations: number): Generator<Step<unknown>, SolverResult, any> {
  const trueNorm = (yield* residual(s, start.b, start.x, start.t, start.xScale.factor)) as number;
  const exponent = start.scaleExponent + start.xScale.exponent;
  // x's own scale and b's together may pass 2^±1023, where a narrow x's view has no double scale (an x below or beyond
  // the double range): as a solution that overflows, below.
  const representable = start.storage.kind !== 'number' || start.storage.maxValue === Number.MAX_VALUE || (exponent >= -1074 && exponent <= 1023);
  const x = representable ? yield* scaleBack(s, start.x, exponent, start.storage) : undefined;
  // An RNS x holds numbers beyond the double range (its exponent is wider): only its reads as doubles overflow.
  if (x && (exponent === 0 || !Number.isFinite(trueNorm) || start.storage.kind === 'mp' || allFinite(x))) return solverResult(x, start.stop, iterations, trueNorm / start.bNorm);
  // The solve ran scaled by 2^-k, and x, finite there, overflows the double range at b's own scale (an iterate that
  // grew along the null space of a singular A, or a solution beyond 1.8e308): the breakdown 'non-finite', and x₀ —
  // finite, as given — in its place with its true residual, never a silent ±∞ in x.
  start.stop.breakDown('non-finite');
  const x0 = (yield s.load(scaledInput(start.x0, s.n, -start.scaleExponent))) as V;
  return solverResult(yield* scaleBack(s, x0, start.scaleExponent, start.storage), start.stop, iterations, start.rNorm / start.bNorm);
}

/**
 * Runs a validated solve on its backend: at once on the CPU, as a promise on the GPU (the GPU space is loaded lazily,
 * so CPU-only code never loads gpu.js).
 */
export function runSolve<R>(v: ValidatedSolve, algorithm: (s: KrylovSpace<any, any>) => Algorithm<R>, M?: Preconditioner): R | Promise<R> {
  if (v.backend === 'cpu') return runNow(algorithm(cpuSpace(v.A, v.options, M)));
  return (async () => {
    // The GPU spaces get their CPU kernels from here, not by import (src/backends/webgpu/host-kernels.ts says why).
    provideHostKernels({ dot, gemv, trsv, ellSpmv, ellOperand, waxpby, asum, nrm2 });
    const g = isRnsArithmetic(v.options.arithmetic)
      ? await (await import('./rns-gpu-krylov-space.js')).rnsGpuSpace(v, cpuSpace, M)
      : await (await import('./gpu-krylov-space.js')).gpuSpace(v, M);
    try {
      return await runAwaiting(algorithm(g.space));
    } finally {
      g.release();
    }
  })();
}
