/**
 * Restarted GMRES whose Krylov basis is stored in any format (CB-GMRES, after Ginkgo): the basis is a range
 * through an accessor of `basisStorage`, read and written in the solver's arithmetic.
 * @module
 */
import type { Range } from '../core/range.js';
import { fail } from '../core/errors.js';
import { asStorage, type FormatLike } from '../formats/common/registry.js';
import type { OperatorLike } from './operator.js';
import { checkCount, optionOr, type SolverOptions } from './solver-options.js';
import type { GpuSolverOptions } from './gpu-solve-checks.js';
import { begin, finish, runSolve, validateSolve, type ValidatedSolve } from './solve-start.js';
import type { SolverResult } from './solver-result.js';
import { operatorScale } from './solution-scale.js';
import { residual, type Algorithm, type KrylovSpace } from './krylov-space.js';
import type { StorageFormat } from '../formats/common/format.js';

/**
 * Options of {@link gmres}.
 * @group Solvers
 */
export interface GmresOptions extends SolverOptions {
  /**
   * Krylov dimension m: the basis has m+1 vectors, and GMRES restarts after m iterations (default 30). A restart above
   * n, the order of A, is taken as n: a Krylov space of A has at most n dimensions.
   */
  restart?: number;
  /**
   * Storage of the Krylov basis (default: the vectors' storage), independent of the arithmetic: fp32 or fp16
   * halve or quarter the basis traffic (CB-GMRES). Integer storage is refused.
   */
  basisStorage?: FormatLike;
  /**
   * Orthogonalisation of each new vector against the basis, always classical Gram–Schmidt as two GEMVs (all the
   * coefficients of one pass in one GEMV T, the update in one GEMV N): `'dgks'` (default) repeats the pass once
   * when it cancels more than 1 − 1/√2 of the vector (Daniel–Gragg–Kaufman–Stewart); `'cgs2'` always repeats it
   * (CGS2: orthogonal to working precision, at twice the basis reads).
   */
  orthogonalization?: 'dgks' | 'cgs2';
}

// Classical Gram–Schmidt is repeated once when it cancels more than this fraction of w (Daniel–Gragg–Kaufman–Stewart).
const REORTHOGONALISE_BELOW = Math.SQRT1_2;

/**
 * Solves A·x = b for a general square A by restarted GMRES(m) with a compressed Krylov basis.
 *
 * Each iteration applies A once, orthogonalises against the basis with classical Gram–Schmidt as two GEMVs (Vᵀw,
 * then w − V·h) — repeated once when it cancels much of w (`orthogonalization: 'dgks'`, the default; `'cgs2'` always
 * repeats it) — and writes the new basis vector, rounded to `basisStorage`. How much a pass cancelled is judged
 * from ‖h‖ and ‖w − V·h‖ (‖w‖² = ‖h‖² + ‖w − V·h‖² for an orthonormal V), so one pass needs one read-back: its
 * coefficients and the new norm, fetched together. The small Hessenberg least-squares problem is solved in fp64 with Givens rotations;
 * a diagonal entry of its triangular factor (or a new hₖ₊₁,ₖ) at the rounding level of the Gram–Schmidt counts as 0, as
 * it is for a singular A (see docs/solvers.md, "Singular A"). At each
 * restart x is updated through one more GEMV with the basis and the true residual b − A·x is recomputed: the solve
 * converges when it meets the tolerance; `stagnationChecks` restarts in a row that do not lower it end the solve
 * (breakdown `stagnation`). A solve that stops short returns the iterate of the smallest true residual among x₀ and the
 * restarts (never one worse than x₀). The history holds Arnoldi's residual estimate after each iteration, replaced by
 * the true residual at each restart. With `backend: 'gpu'` the basis, the vectors and the Gram–Schmidt coefficients stay on the
 * device; only the coefficients (j+1 numbers per iteration), the norms and the least-squares solution travel.
 * @param A - the matrix or operator (square)
 * @param b - the right-hand side
 * @param options - as {@link cg}, and the Krylov dimension and basis storage
 * @returns the solution, status, history and recomputed true residual
 * @throws {@link ModprecError} as {@link cg}; `INVALID_OPTION` for a bad `restart`; `INVALID_FORMAT` for an unknown
 *   or integer `basisStorage`
 * @example
 * ```ts
 * import { gmres, laplacianEll, formats } from 'modprec';
 *
 * const A = laplacianEll([20, 20]);
 * const b = new Float64Array(400).fill(1);
 * const full = gmres(A, b, { restart: 20, tolerance: 1e-10 });
 * const half = gmres(A, b, { restart: 20, tolerance: 1e-10, basisStorage: formats.f16 });   // fp16 basis, fp64 arithmetic
 * full.status; // → 'converged'
 * half.status; // → 'converged'
 * half.trueResidualNorm <= 1e-10; // → true
 * half.iterations === full.iterations; // → false
 * ```
 * @group Solvers
 */
export function gmres(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: GmresOptions & { backend?: 'cpu' }): SolverResult;
/** GMRES on the GPU (as {@link cg}'s GPU overload); the basis storage must be one the GPU holds (f64, f32, f16, bf16). */
export function gmres(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options: GmresOptions & GpuSolverOptions): Promise<SolverResult>;
export function gmres(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: GmresOptions & (GpuSolverOptions | { backend?: 'cpu' })): SolverResult | Promise<SolverResult> {
  if (options !== undefined && (typeof options !== 'object' || options === null)) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const m = checkCount('options.restart', optionOr(options?.restart, 30), 1);
  let basisStorage: StorageFormat | undefined;
  if (options?.basisStorage !== undefined) {
    basisStorage = asStorage(options.basisStorage, 'options.basisStorage');
    if (basisStorage.isInteger) fail('INVALID_FORMAT', 'options.basisStorage', 'must be a floating-point or multiple-precision storage (integer storage needs a scaled accessor)', basisStorage.name);
  }
  const orthogonalization = optionOr(options?.orthogonalization, 'dgks');
  if (orthogonalization !== 'dgks' && orthogonalization !== 'cgs2') fail('INVALID_OPTION', 'options.orthogonalization', "must be 'dgks' or 'cgs2'", orthogonalization);
  const v = validateSolve('gmres', A, b, options, basisStorage ? [['options.basisStorage', basisStorage]] : []);
  // Beyond n the Arnoldi vectors are rounding noise, and a basis of m + 1 vectors (with m² coefficients) for a huge
  // restart exhausted memory (restart 10⁶ on a 2×2 system killed the process).
  return runSolve(v, (s) => gmresIteration(s, v, Math.min(m, Math.max(v.options.n, 1)), basisStorage ?? v.options.storage, orthogonalization === 'cgs2'));
}

function* gmresIteration<V, M>(s: KrylovSpace<V, M>, v: ValidatedSolve, m: number, basisStorage: StorageFormat, alwaysTwice: boolean): Algorithm<SolverResult> {
  const start = yield* begin(s, v);
  // r: the restart residual, measured where it does not flush (start.t: fp64 for fp16 vectors on the CPU).
  const { b, x, t: r, stop } = start;
  const w = s.make();
  if (start.done) return yield* finish(s, start, 0);
  const maxIterations = v.options.maxIterations;
  const basis = s.basis(m + 1, basisStorage);
  // Small fp64 vectors the GEMVs read and write: h_j (Gram–Schmidt coefficients of column j), y (least squares).
  const hs = Array.from({ length: m }, (_, j) => s.small(j + 1));
  const h2s = Array.from({ length: m }, (_, j) => s.small(j + 1));
  const H = new Float64Array((m + 1) * m);      // column-major, leading dimension m+1
  const cs = new Float64Array(m), sn = new Float64Array(m), g = new Float64Array(m + 1);
  // The largest ‖A·vⱼ‖₂ met (an estimate of ‖A‖₂ from below, kept across restarts: a restart residual in A's null
  // space makes every ‖A·vⱼ‖ of its cycle rounding noise), for the rounding level of R's diagonal.
  let hScale = 0;
  // w holds A·vⱼ/σ, σ a power of two raised where A·vⱼ overflows w's storage (fp16 vectors hold 65504: bcsstk01's
  // entries reach 3·10⁹, and GMRES stopped 'non-finite' at 0 iterations, where CG solves on). Its Hessenberg column is
  // σ times the Gram–Schmidt coefficients of w, and the next basis vector w/‖w‖ does not depend on σ.
  let sigma = 1;
  // H and its rotations are fp64, whatever the arithmetic: their rounding is at least fp64's.
  const u = Math.max(v.options.arithmetic.unitRoundoff, 2 ** -53);
  // into += V·y with y = R⁻¹·g over the k columns used (R upper triangular after the rotations). A diagonal entry of R
  // at the rounding level of the Gram–Schmidt that made it (8·(k + 1)·u·‖A‖) is a zero of a singular A's Hessenberg matrix, not
  // a pivot: dividing by it sent y, and x, along A's null space (GMRES on diag(1, 2, 0), b = (1, 1, 1): x₃ = 1.5e16 in
  // fp64; in fp32 the true residual of that x was worse than x₀'s, and x₀ = 0 came back). Its yᵢ is 0 (the least-
  // squares solution over the other directions, as for an exactly zero entry).
  // No √n factor: that worst case would reach 5e-4·‖A‖ for fp32 arithmetic at n = 10⁶ and zero real pivots of a
  // matrix with κ ≈ 2000; a singular A's zero pivots come out far below it (rounding errors add up like √n at worst
  // in practice, and the null direction's noise is what one column's products leave).
  const roundingLevel = (k: number): number => 8 * (k + 1) * u * hScale;
  function* addCorrection(k: number, into: V): Generator<unknown, void, any> {
    if (k === 0) return;
    const y = new Float64Array(k);
    const tiny = roundingLevel(k);
    for (let i = k - 1; i >= 0; i--) {
      let t = g[i]!;
      for (let l = i + 1; l < k; l++) t -= H[i + l * (m + 1)]! * y[l]!;
      const d = H[i + i * (m + 1)]!;
      y[i] = Math.abs(d) <= tiny ? 0 : t / d;
    }
    // V·y has the norm of y (V orthonormal): the first correction fixes the scale x is stored at (SolutionScale).
    start.xScale.settle(Math.hypot(...y));
    const yv = (yield s.upload(y)) as V;
    yield s.gemv(1 / start.xScale.factor, basis.leading(k), yv, 1, into, 'N');
    s.free(yv);
  }
  // For recordTrueResidual only: the true residual of the iterate after k iterations of this cycle.
  let scratch: [V, V] | undefined;
  function* residualOfIterate(k: number): Generator<unknown, number, any> {
    scratch ??= [s.make(), s.makeWide()];
    yield s.copyExact(x, scratch[0]);
    yield* addCorrection(k, scratch[0]);
    return (yield* residual(s, b, scratch[0], scratch[1], start.xScale.factor)) as number;
  }
  let beta = start.rNorm;
  let iterations = 0;
  // The iterate with the smallest true residual so far (x₀ to begin with): what a solve that stops short returns, so a
  // basis too coarse for the matrix (its corrections then raise the residual) never leaves x worse than it found it.
  const best = s.make(), cycleStart = s.make();
  yield s.copyExact(x, best);
  let bestNorm = start.rNorm;
  outer: while (iterations < maxIterations) {
    yield s.update(1 / beta, r, 0, r, basis.column(0));
    // w's first scale, from ‖A·v₀‖ where the vectors are narrow (see operatorScale); r is free until the cycle ends.
    if (iterations === 0) sigma = (yield* operatorScale(s, v.options.storage, basis.column(0), r)) as number;
    g.fill(0);
    g[0] = beta;
    let k = 0;                                   // columns of the basis used in this cycle
    while (k < m && iterations < maxIterations) {
      const j = k;
      const Vj = basis.leading(j + 1);
      // One classical Gram–Schmidt pass into hv: hv := Vjᵀw, w := w − Vj·hv; then ‖w‖ and hv, read back together.
      function* pass(hv: V): Generator<unknown, [number, Float64Array], any> {
        yield s.gemv(1, Vj, w, 0, hv, 'T');
        yield s.gemv(-1, Vj, hv, 1, w, 'N');
        const [norm, coefficients] = (yield s.both(s.norm(w), s.read(hv))) as [number, Float64Array];
        return [norm, Float64Array.from(coefficients)];
      }
      let first: [number, Float64Array];
      for (;;) {
        yield s.apply(1 / sigma, basis.column(j), 0, w);
        first = (yield* pass(hs[j]!)) as [number, Float64Array];
        // A non-finite pass over a unit vⱼ is an overflow of A·vⱼ in w's storage: scaled down by 2^16 a time (fp16's
        // whole range), at most to 2^-128, as CG scales q (an fp32 or bf16 overflow needs more than that).
        if ((Number.isFinite(first[0]) && first[1].every(Number.isFinite)) || sigma >= 2 ** 128) break;
        sigma *= 2 ** 16;
      }
      const h = first[1];
      let hw = first[0];                             // ‖w‖ after the passes, w = A·vⱼ/σ
      const before = sigma * Math.hypot(hw, ...h);  // ‖A·vⱼ‖ before the pass, for an orthonormal basis
      hScale = Math.max(hScale, before);
      if (alwaysTwice || hw < REORTHOGONALISE_BELOW * (before / sigma)) {
        const [hn2, h2] = (yield* pass(h2s[j]!)) as [number, Float64Array];
        for (let i = 0; i <= j; i++) h[i] = h[i]! + h2[i]!;
        hw = hn2;
      }
      // H in the units of A (σ a power of two: exact, and σ = 1 while nothing overflows).
      const hn = sigma * hw;
      for (let i = 0; i <= j; i++) H[i + j * (m + 1)] = sigma * h[i]!;
      H[j + 1 + j * (m + 1)] = hn;
      if (!Number.isFinite(hn) || !Number.isFinite(before) || h.some((e) => !Number.isFinite(sigma * e))) { stop.breakDown('non-finite'); break outer; }
      // Apply the previous rotations to the new column, then make one that zeroes H[j+1, j].
      for (let i = 0; i < j; i++) {
        const a = H[i + j * (m + 1)]!, c = H[i + 1 + j * (m + 1)]!;
        H[i + j * (m + 1)] = cs[i]! * a + sn[i]! * c;
        H[i + 1 + j * (m + 1)] = -sn[i]! * a + cs[i]! * c;
      }
      const a = H[j + j * (m + 1)]!, c = H[j + 1 + j * (m + 1)]!;
      const rho = Math.hypot(a, c);
      cs[j] = rho === 0 ? 1 : a / rho;
      sn[j] = rho === 0 ? 0 : c / rho;
      H[j + j * (m + 1)] = rho;
      H[j + 1 + j * (m + 1)] = 0;
      g[j + 1] = -sn[j]! * g[j]!;
      g[j] = cs[j]! * g[j]!;
      k++;
      iterations++;
      const met = stop.record(Math.abs(g[j + 1]!));
      // An invariant subspace (exact in it), the estimate meeting the tolerance, or the cycle's end: update x.
      // hn at the rounding level of the Gram–Schmidt counts as 0: w/hn would be rounding noise scaled to a unit vector.
      if (hn <= roundingLevel(k) || met || k === m || iterations >= maxIterations) break;
      if (stop.trueHistory) stop.recordTrue((yield* residualOfIterate(k)) as number);
      yield s.update(1 / hw, w, 0, w, basis.column(j + 1));
    }
    // A GMRES correction minimises the residual over a space that holds 0: one that raises the true residual was made
    // of rounding noise taken for pivots (a coarse basis on a singular A: diag(1, 0), b = (4, 4), an fp32 basis,
    // restart 6 sent x₂ to −6·10¹¹ and alternated between 0.71 and 1.5…3.0 until the iteration limit). It is cut to
    // fewer columns until it does not raise it (0 columns: x unchanged, and the check counts as one that did not
    // lower the true residual). So is one that overflows x's storage (x sent along the null space past fp16's 65504:
    // diag(0, 0.5, 1.87), b = (−2, −4, −2), fp16 vectors and basis, restart 2 broke down 'non-finite' after 4
    // iterations, returning its best x, finite, at the least-squares residual). Exact arithmetic never takes this path.
    const betaBefore = beta;
    yield s.copyExact(x, cycleStart);
    yield* addCorrection(k, x);
    beta = (yield* residual(s, b, x, r, start.xScale.factor)) as number;
    for (let used = k; !(beta <= betaBefore) && used > 0;) {
      used--;
      yield s.copyExact(cycleStart, x);
      yield* addCorrection(used, x);
      beta = (yield* residual(s, b, x, r, start.xScale.factor)) as number;
    }
    const trueRel = beta / start.bNorm;
    if (stop.trueHistory) stop.recordTrue(beta);
    stop.history[stop.history.length - 1] = Number.isNaN(trueRel) ? Infinity : trueRel;
    if (!Number.isFinite(beta)) { stop.breakDown('non-finite'); break; }
    const verdict = stop.judgeTrue(beta);
    if (verdict === 'converged') { stop.converge(); break; }
    if (beta < bestNorm) { bestNorm = beta; yield s.copyExact(x, best); }
    // A true residual of exactly 0 that does not converge (a tolerance below its resolution, 0 included) leaves no
    // direction to build a basis from (r/‖r‖ was NaN: 'non-finite'): the attainable accuracy is reached.
    if (verdict === 'stagnation' || beta === 0) { stop.breakDown('stagnation'); break; }
  }
  if (stop.status !== 'converged' && !(beta <= bestNorm)) yield s.copyExact(best, x);
  return yield* finish(s, start, iterations);
}
