/**
 * Mixed-precision iterative refinement: an LU factorisation in a low precision, residuals in a higher one.
 * @module
 */
import { Range, range } from '../core/range.js';
import { fail } from '../core/errors.js';
import { rowMajor } from '../../accessors/row-major.js';
import { scaledReducedRowMajor } from '../../accessors/scaled-reduced.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { axpy } from '../../kernels/axpy/axpy.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { nrm2 } from '../../kernels/nrm2/nrm2.js';
import { asArithmetic, asStorage, findFormat, f64, type FormatLike } from '../formats/common/registry.js';
import type { DenseMatrix } from '../sparse/dense-matrix.js';
import { luFactor, type LuFactors } from '../linalg/lu.js';
import { luFactorF32, type LuFactorsF32 } from '../linalg/lu-f32.js';
import { packedSolver } from '../linalg/lu-run.js';
import { linearOperator } from './operator.js';
import { checkCount, checkVectorInput, optionOr } from './solver-options.js';
import { refuseSolverOptionsNotTaken } from './solver-option-keys.js';
import { checkGpuOptions } from '../backends/backend.js';
import { StoppingCriterion } from './stopping-criterion.js';
import { finiteOrInfinity, solverResult, type SolverResult } from './solver-result.js';

/**
 * Options of {@link iterativeRefinement}.
 * @group Solvers
 */
export interface RefinementOptions {
  /** Precision of the LU factorisation and of the correction solves (default `'f32'`). */
  factorization?: 'f32' | 'f64';
  /** Arithmetic of the residual b − A·x and of the update x + d (default fp64; `dd` or an RNS format for more). */
  residualArithmetic?: FormatLike;
  /**
   * Storage of the solution x (default fp64; `dd` keeps what a double-double residual finds). In a storage of doubles
   * narrower than fp64 x is a scaled view of its words with one power-of-two scale (as the Krylov solvers return
   * theirs): always in fp16 (narrower than 2^±64), in fp32 and bf16 where max|xᵢ| lies outside [2^-32, 2^33); so a
   * solution beyond the storage's range (10⁵ in fp16, 10³⁹ in fp32) is held, not ±∞, and a tiny one keeps its digits.
   */
  storage?: FormatLike;
  /**
   * The backward error ‖b − A·x‖∞ / (‖A‖∞·‖x‖∞) that counts as converged once corrections stop shrinking
   * (default √n · the storage's unit roundoff, at least the resolution below). One below the unit roundoff of the arithmetic that computes the deciding
   * residual (fp64's 1.1e-16 for an fp32, float-float or fp64 `residualArithmetic`; dd's, RNS's) is never met: the solve
   * ends in `stagnation` or at its limit, as a Krylov solve does.
   */
  tolerance?: number;
  /** Most corrections (default 40; the averaged ones below count among them). */
  maxIterations?: number;
  /**
   * Corrections averaged once the residual's rounding is the limit (default 16; 0 turns averaging off). At that floor
   * each correction moves x by noise of the size of its error; the mean of this many iterates has about 1/√k of it.
   */
  averaging?: number;
  /**
   * Where the factorisation and the correction solves run: `'cpu'` (default: WebAssembly SIMD where the engine has
   * it), `'wasm'` or `'js'` (the same bits). Refinement runs on the CPU only — the LU factorisation has no GPU kernel —
   * so `'gpu'` is `INVALID_OPTION` naming `options.backend`, never a silent CPU run.
   */
  backend?: 'cpu' | 'wasm' | 'js';
}

/**
 * Solves a dense A·x = b by mixed-precision iterative refinement: factor P·A = L·U once in `factorization`'s
 * precision, solve, then repeat r = b − A·x (in `residualArithmetic`, A and x read through their accessors),
 * d = U⁻¹L⁻¹P·r (low precision), x = x + d, while the O(n³) work runs on fp32 data, as long as κ(A)·2⁻²⁴ is well below
 * 1. With fp64 residuals the result is backward stable and its forward error within 2× of an fp64 solve's (averaged at
 * the limiting accuracy, below); with double-double residuals it is that of x's own rounding (docs/performance.md).
 *
 * It refines until a correction no longer changes x in its storage (‖d‖∞ ≤ u·‖x‖∞): converged. A correction no
 * smaller than the previous one means the limiting accuracy is reached, if the backward error meets the tolerance;
 * else it is the breakdown `stagnation` (A too ill conditioned for the factorisation's precision). At that limit the
 * residual's own rounding (an fp64 residual: about κ·√n·u) moves x by noise as large as its error, so the solver takes
 * `averaging` more corrections and returns the mean of those iterates (in place of the last one):
 * the fp32-LU, fp64-residual solution's forward error is then that of an fp64 LU solve or smaller up to κ ≈ 10⁷.
 * A zero pivot of the low-precision LU is the breakdown `singular-factor`. The history holds
 * ‖b − A·x‖₂/‖b‖₂ of the first solve and after each correction. When `maxIterations` corrections are spent (0
 * included: the first solve alone), the solve is `converged` if its backward error meets `tolerance`, else
 * `iteration-limit` — as a Krylov solver converges on an x₀ that meets its tolerance, whatever its limit.
 * @param A - a square dense matrix: a plain fp64 {@link DenseMatrix} or a 2-D range (any storage; its values, as
 *   doubles, are factorised)
 * @param b - the right-hand side (finite)
 * @param options - precisions, tolerance, limit
 * @returns the solution, status, history and true residual
 * @throws {@link ModprecError} before any work: `DIMENSION_MISMATCH` (A not square, b), `INVALID_VALUE` (non-finite b),
 *   `INVALID_OPTION` (A not dense, bad options), `INVALID_FORMAT`
 * @example
 * ```ts
 * import { iterativeRefinement, matrix, formats } from 'modprec';
 *
 * const n = 50;
 * const A = matrix(n, n, (i, j) => 1 / (i + j + 1) + (i === j ? 1 : 0));   // well conditioned
 * const b = Array.from({ length: n }, (_, i) => i % 3);
 * const r = iterativeRefinement(A, b);                // fp32 LU, fp64 residual
 * r.status; // → 'converged'
 * r.trueResidualNorm < 1e-15; // → true
 * // a double-double residual and solution go past fp64
 * iterativeRefinement(A, b, { residualArithmetic: formats.dd, storage: formats.dd }).trueResidualNorm < 1e-25; // → true
 * ```
 * @group Solvers
 */
export function iterativeRefinement(A: DenseMatrix | Range<2, any>, b: ArrayLike<number> | Range<1, any>, options: RefinementOptions = {}): SolverResult {
  const op = linearOperator(A);
  if (op.kind !== 'dense') fail('INVALID_OPTION', 'A', 'must be a dense matrix (a DenseMatrix or a 2-D range) to be factorised');
  const n = op.size;
  const bIn = checkVectorInput('b', b, n);
  if (typeof options !== 'object' || options === null) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const backend = optionOr(options.backend, 'cpu');
  if (backend !== 'cpu' && backend !== 'wasm' && backend !== 'js') {
    fail('INVALID_OPTION', 'options.backend', `must be 'cpu', 'wasm' or 'js': iterative refinement runs on the CPU (its LU factorisation has no GPU kernel)`, backend);
  }
  const lu = { backend };
  const factorization = optionOr(options.factorization, 'f32');
  if (factorization !== 'f32' && factorization !== 'f64') fail('INVALID_OPTION', 'options.factorization', "must be 'f32' or 'f64'", factorization);
  const ar = asArithmetic(optionOr(options.residualArithmetic, f64), 'options.residualArithmetic');
  const storage = asStorage(optionOr(options.storage, f64), 'options.storage');
  if (storage.isInteger) fail('INVALID_FORMAT', 'options.storage', 'must be a floating-point or multiple-precision storage', storage.name);
  // The smallest tolerance the deciding residual can tell (see below): the default is never below it.
  const fp64 = asArithmetic(f64);
  const coarse = ar.unitRoundoff > fp64.unitRoundoff;
  const resolution = coarse ? Math.min(fp64.unitRoundoff, (findFormat(storage.name)?.arithmetic ?? fp64).unitRoundoff) : ar.unitRoundoff;
  const tolerance = optionOr(options.tolerance, Math.max(Math.sqrt(Math.max(1, n)) * storage.unitRoundoff, resolution));
  if (typeof tolerance !== 'number' || !(tolerance >= 0) || !Number.isFinite(tolerance)) fail('INVALID_OPTION', 'options.tolerance', 'must be a finite number ≥ 0', tolerance);
  const maxIterations = checkCount('options.maxIterations', optionOr(options.maxIterations, 40), 0);
  const averaging = checkCount('options.averaging', optionOr(options.averaging, 16), 0);
  // strict is the kernels' option of every backend, checked as they check it; what refinement does not take is refused.
  checkGpuOptions(options);
  refuseSolverOptionsNotTaken(options, 'iterativeRefinement', n);

  const Ar = op.dense!;
  const dense = denseValues(A, Ar);
  // b as doubles (the residual starts from it); x in its own storage, read and written in its own arithmetic.
  const bv = range(rowMajor<1>({ size: [n] }));
  for (let i = 0; i < n; i++) bv.set(i, bIn instanceof Range ? bIn.accessor.arithmetic.toNumber(bIn.get(i)) : bIn[i]!);
  let x = range(rowMajor<1, any>({ size: [n], storage, arithmetic: findFormat(storage.name)?.arithmetic ?? ar }));
  const bNorm = nrm2(bv);
  const stop = new StoppingCriterion(bNorm === 0 ? 1 : bNorm, 0, 1, false);
  if (bNorm === 0) { stop.record(0); stop.converge(); return solverResult(x, stop, 0, 0); }

  let normA = 0;   // ‖A‖∞, for the backward error
  const rowSums = new Float64Array(n);  // column by column: A is read contiguously
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) rowSums[i] += Math.abs(dense.data[i + j * dense.ld]!);
  for (let i = 0; i < n; i++) normA = Math.max(normA, rowSums[i]!);
  const aExponent = factorScale(dense);
  const factored = aExponent === 0 ? dense : { ...dense, data: timesPowerOfTwo(Float64Array.from(dense.data), -aExponent) };
  const factors = factorization === 'f32' ? luFactorF32(factored, lu) : luFactor(factored, lu);
  // x = 0: its residual is b (the criterion records norms relative to ‖b‖).
  if (factors.firstZeroPivot >= 0) { stop.record(bNorm); stop.breakDown('singular-factor'); return solverResult(x, stop, 0, 1); }
  // One solver for all corrections: on WebAssembly the factors are copied into its memory once.
  const solve = scaledSolve(factorization === 'f32'
    ? packedSolver('f32', { n, a: (factors as LuFactorsF32).lu, pivots: factors.pivots }, lu)
    : packedSolver('f64', { n, a: (factors as LuFactors).lu.data, pivots: factors.pivots }, lu), aExponent);

  const first = solve(Float64Array.from(bv.accessor.data as Float64Array));
  x = narrowStorageView(x, first);
  for (let i = 0; i < n; i++) x.set(i, first[i]!);
  const r = range(rowMajor<1>({ size: [n] }));
  const d = range(rowMajor<1>({ size: [n] }));
  const rData = r.accessor.data as Float64Array, dData = d.accessor.data as Float64Array;
  // A b stored wider than a double (dd, RNS) keeps its digits in the residual: rounded to doubles first, b − A·x was
  // the residual of another system (b = 1 + 2^-80 in dd was solved as 1 and reported converged with residual 0).
  const bWide = bIn instanceof Range && bIn.accessor.storage.kind !== 'number' ? bIn : undefined;
  const rWide = bWide && range(rowMajor<1, any>({ size: [n], storage: bWide.accessor.storage, arithmetic: ar }));
  /** rData := b − A·x, computed in the residual arithmetic. */
  const computeResidual = (): void => {
    // An x beyond its storage's range (±∞) is NaN's business in IEEE arithmetic; an RNS arithmetic has no NaN, and its
    // GEMV refused such an x with INVALID_VALUE part-way through the solve (x = 10³³⁰ from A = 10⁻³⁰⁰, b = 10³⁰), where
    // an fp64 residual breaks down 'non-finite': the residual is NaN, as there.
    if (ar.kind === 'mp' && !Number.isFinite(normInf(x))) { rData.fill(NaN); return; }
    if (!bWide || !rWide) {
      rData.set(bv.accessor.data as Float64Array);
      gemv({ alpha: -1, A: Ar, x, beta: 1, y: r, trans: 'N' }, { arithmetic: ar });
      return;
    }
    waxpby(1, bWide, 0, bWide, rWide, { arithmetic: ar });
    gemv({ alpha: -1, A: Ar, x, beta: 1, y: rWide, trans: 'N' }, { arithmetic: ar });
    for (let i = 0; i < n; i++) rData[i] = ar.toNumber(rWide.get(i));
  };
  // A residual arithmetic coarser than fp64 (fp32, float-float) reads x rounded to it: its b − A·x of 0 stood for a
  // backward error of 1e-8 (fp32) and 1e-15 (float-float), reported 'converged' to 1e-14 and 2.2e-16 with a true
  // residual of 0. Where it says the tolerance is met, fp64 must say so too, and the final residual is fp64's.
  const wide = range(rowMajor<1>({ size: [n] }));
  /**
   * b − A·x into `wide`, in fp64 or x's own arithmetic where that is finer (a double-double x read as doubles was
   * another x); b as doubles (its digits beyond them are beyond a coarse residual too).
   */
  const wideResidual = (): Float64Array => {
    const w = wide.accessor.data as Float64Array;
    w.set(bv.accessor.data as Float64Array);
    const own = x.accessor.arithmetic;
    gemv({ alpha: -1, A: Ar, x, beta: 1, y: wide, trans: 'N' }, { arithmetic: own.unitRoundoff < fp64.unitRoundoff ? own : fp64 });
    return w;
  };
  // A tolerance below the unit roundoff of the arithmetic that decides it (resolution) is never met: a computed residual
  // of 0 there stood for a nonzero one (tolerance 1e-20 'converged' with an fp64 residual), as in the Krylov solvers.
  const backwardErrorMet = (rInf: number, xNorm: number): boolean =>
    tolerance >= resolution && rInf <= tolerance * normA * xNorm && (!coarse || maxAbs(wideResidual()) <= tolerance * normA * xNorm);
  let previous = Infinity;
  let settled = false;          // the last correction was below the resolution of x's storage, or x is the average
  let iterations = 0;
  // Averaging at the floor: x_ref (the iterate where corrections stopped shrinking), the running offset x − x_ref and
  // the sum of the offsets of the iterates after it.
  let floor: { ref: Range<1, any>; offset: Float64Array; sum: Float64Array; count: number } | undefined;
  let lastFinite: Range<1, any> | undefined;
  for (;;) {
    computeResidual();
    const rNorm = nrm2(r);
    stop.record(rNorm);
    const xNorm = normInf(x);
    const rInf = maxAbs(rData);
    if (!Number.isFinite(rNorm) || !Number.isFinite(xNorm)) {
      // Never a NaN in the result: x goes back to its last finite iterate (zero before the first).
      if (!Number.isFinite(xNorm)) {
        for (let i = 0; i < n; i++) x.set(i, lastFinite ? lastFinite.get(i) : 0);
        // The final entry is the residual of the x returned (its trueResidualNorm), not that of the discarded one.
        computeResidual();
        stop.record(nrm2(r));
      }
      stop.breakDown('non-finite');
      break;
    }
    lastFinite = copyOf(x, lastFinite);
    // Settled is converged only within the tolerance: corrections below x's resolution also happen when x is
    // nowhere near a solution (b so small that A⁻¹b underflows).
    if (settled) {
      if (backwardErrorMet(rInf, xNorm)) stop.converge();
      else if (!floor) stop.breakDown('stagnation');
      else {
        // The mean missed the tolerance that the iterate where averaging began met (a float-float residual's noise
        // averaged to a backward error of 1.1e-14 from one of 1.2e-15, 'converged' to 1e-14): that iterate, then.
        averageInto(x, floor, 0, ar);
        computeResidual();
        stop.history[stop.history.length - 1] = finiteOrInfinity(nrm2(r) / bNorm);
        stop.converge();
      }
      break;
    }
    if (floor && iterations >= maxIterations - 1) { averageInto(x, floor, floor.count, ar); iterations++; settled = true; continue; }
    if (iterations >= maxIterations) {
      // Out of corrections: converged if the backward error meets the tolerance (an exact first solve with
      // maxIterations 0 included), as a Krylov solver converges on an x₀ whose residual meets its tolerance.
      if (backwardErrorMet(rInf, xNorm)) stop.converge();
      break;
    }
    dData.set(solve(rData));
    const dNorm = maxAbs(dData);
    if (!Number.isFinite(dNorm)) { stop.breakDown('non-finite'); break; }
    if (!floor && dNorm >= previous) {
      // Corrections stopped shrinking: the limiting accuracy if the backward error is small, else no progress.
      if (!backwardErrorMet(rInf, xNorm)) { stop.breakDown('stagnation'); break; }
      if (averaging === 0 || maxIterations - iterations < 2) { stop.converge(); break; }
      // At this floor the residual's rounding (fp64: about κ·√n·u) moves x by noise as large as its error, so where
      // the refinement stops is chance; the mean of the next iterates has less of it (the noise of successive
      // residuals is nearly independent: x changes in its low bits, and with it every rounding of the GEMV).
      floor = { ref: copyOf(x), offset: new Float64Array(n), sum: new Float64Array(n), count: 0 };
    }
    previous = Math.min(previous, dNorm);
    axpy(1, d, x, { arithmetic: ar });
    iterations++;
    if (floor) {
      const { offset, sum } = floor;
      for (let i = 0; i < n; i++) { offset[i] += dData[i]!; sum[i] += offset[i]!; }
      if (++floor.count === averaging) { averageInto(x, floor, floor.count, ar); settled = true; } // the mean replaces the last iterate
      continue;
    }
    settled = dNorm <= storage.unitRoundoff * xNorm;
  }
  const history = stop.history;
  if (coarse && Number.isFinite(normInf(x))) history[history.length - 1] = finiteOrInfinity(nrm2(range(rowMajor<1>({ size: [n], data: wideResidual() }))) / bNorm);
  return solverResult(x, stop, iterations, history[history.length - 1]!);
}

/** Storages narrower than 2^±64 (fp16: 2^-24 … 65504, or a user's format), as the Krylov solvers count them. */
const NARROW_STORAGE = 2 ** 64;

/** Exponents of max|xᵢ| a storage of doubles narrower than fp64 holds x at unscaled: [-32, 32], as the Krylov solvers' b. */
const UNSCALED_EXPONENT = 32;

/**
 * x for a storage of doubles narrower than fp64, as the Krylov solvers keep theirs: a {@link scaledReducedRowMajor}
 * view with one power-of-two scale, the exponent k of the first solve's max|xᵢ| (read in fp64), so that its words stay
 * in the storage's range — always for a storage narrower than {@link NARROW_STORAGE} (in fp16 a solution of 10⁵ would be
 * ±∞ and one of 10⁻⁷ subnormal), for fp32 and bf16 where |k| > 32 (x = 10³⁹ broke down non-finite with x = 0, and
 * x = 3·10⁻⁴² lost its digits: stagnation). Others (fp64, dd, RNS, and fp32 or bf16 x in [2^-32, 2^33)): x as it is.
 */
function narrowStorageView(x: Range<1, any>, first: Float64Array): Range<1, any> {
  const storage = x.accessor.storage;
  if (storage.kind !== 'number' || storage.maxValue === Number.MAX_VALUE) return x;
  const m = maxAbs(first);
  if (!(m > 0) || !Number.isFinite(m)) return x;
  const k = Math.floor(Math.log2(m));
  if (storage.maxValue >= NARROW_STORAGE && Math.abs(k) <= UNSCALED_EXPONENT) return x;
  return range(scaledReducedRowMajor<1, any>({ size: [x.length()], storage, arithmetic: f64, scaleMask: [false], scale: Float64Array.of(2 ** k) }));
}

/** A copy of x in its own storage (with its scale, for a scaled x). */
function copyOf(x: Range<1, any>, into?: Range<1, any>): Range<1, any> {
  const scale = x.accessor.scale;
  const c = into ?? range(scale
    ? scaledReducedRowMajor<1, any>({ size: [x.length()], storage: x.accessor.storage, arithmetic: x.accessor.arithmetic, scaleMask: [false], scale: Float64Array.of(x.accessor.readScale(0)) })
    : rowMajor<1, any>({ size: [x.length()], storage: x.accessor.storage, arithmetic: x.accessor.arithmetic }));
  for (let i = 0; i < x.length(); i++) c.set(i, x.get(i));
  return c;
}

/** x := x_ref + (Σ offsets) / count, the mean of the iterates after x_ref (x_ref itself when none was taken). */
function averageInto(x: Range<1, any>, floor: { ref: Range<1, any>; sum: Float64Array }, count: number, ar: ReturnType<typeof asArithmetic>): void {
  const n = x.length();
  for (let i = 0; i < n; i++) x.set(i, floor.ref.get(i));
  if (count <= 0) return;
  const mean = range(rowMajor<1>({ size: [n] }));
  const m = mean.accessor.data as Float64Array;
  for (let i = 0; i < n; i++) m[i] = floor.sum[i]! / count;
  axpy(1, mean, x, { arithmetic: ar });
}

/** The fp64 matrix to factorise: a DenseMatrix as it is, a range's values rounded to doubles. */
function denseValues(A: DenseMatrix | Range<2, any>, Ar: Range<2, any>): DenseMatrix {
  if (!(A instanceof Object) || 'ld' in A) return A as DenseMatrix;
  const n = Ar.length(0);
  const ar = Ar.accessor.arithmetic;
  const data = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) data[i + j * n] = ar.toNumber(Ar.get(i, j));
  return { rows: n, cols: n, ld: Math.max(1, n), data };
}

/** max |xᵢ| as a double. */
/**
 * The LU solve of v through v·2^-e (e: the exponent of max|v|), scaled back by 2^e: powers of two are exact, and an fp32
 * factorisation would otherwise turn a right-hand side beyond binary32's range into ±∞ (or flush a tiny one to zero).
 * `aExponent`: the factors are those of 2^-aExponent·A (see {@link factorScale}), whose solution is 2^aExponent times A's.
 */
function scaledSolve(solve: (v: Float64Array) => Float64Array, aExponent: number): (v: Float64Array) => Float64Array {
  return (v) => {
    const m = maxAbs(v);
    if (!(m > 0) || !Number.isFinite(m)) return solve(v);
    const e = Math.floor(Math.log2(m));
    const y = solve(timesPowerOfTwo(Float64Array.from(v), -e));
    return timesPowerOfTwo(y, e - aExponent);
  };
}

/**
 * The exponent k of max|A| when it lies outside [2^-32, 2^32], else 0: refinement factorises 2^-k·A, so that an fp32
 * LU of a well-conditioned A with entries beyond binary32's range (1e39, 1e-40) neither overflows nor underflows.
 */
function factorScale(A: DenseMatrix): number {
  let m = 0;
  for (let j = 0; j < A.cols; j++) for (let i = 0; i < A.rows; i++) m = Math.max(m, Math.abs(A.data[i + j * A.ld]!));
  if (!(m > 0) || !Number.isFinite(m)) return 0;
  const k = Math.floor(Math.log2(m));
  return Math.abs(k) > 32 ? k : 0;
}

/** v := 2^k·v in place, in steps of at most 2^±1000 (no step overflows; exact but for over/underflow of the result). */
function timesPowerOfTwo(v: Float64Array, k: number): Float64Array {
  while (k !== 0) {
    const step = Math.max(-1000, Math.min(1000, k));
    const f = 2 ** step;
    for (let i = 0; i < v.length; i++) v[i] = v[i]! * f;
    k -= step;
  }
  return v;
}

function normInf(x: Range<1, any>): number {
  const a = x.accessor.arithmetic;
  let m = 0;
  for (let i = 0; i < x.length(); i++) m = Math.max(m, Math.abs(a.toNumber(x.get(i))));
  return m;
}

/** max |vᵢ| (NaN propagates as NaN). */
function maxAbs(v: Float64Array): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) { const a = Math.abs(v[i]!); if (Number.isNaN(a)) return NaN; if (a > m) m = a; }
  return m;
}
