/**
 * Restarted GMRES whose Krylov basis is stored in any format (CB-GMRES, after Ginkgo): the basis is a range
 * through an accessor of `basisStorage`, read and written in the solver's arithmetic.
 * @module
 */
import type { Range } from '../core/range.js';
import { range } from '../core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { span } from '../core/span.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { fail } from '../core/errors.js';
import { asStorage, type FormatLike } from '../formats/common/registry.js';
import { linearOperator, type OperatorLike } from './operator.js';
import { checkCount, type SolverOptions } from './solver-options.js';
import { startSolve } from './solve-start.js';
import { solverResult, type SolverResult } from './solver-result.js';
import { KrylovBasis } from './krylov-basis.js';
import type { StorageFormat } from '../formats/common/format.js';

/**
 * Options of {@link gmres}.
 * @group Solvers
 */
export interface GmresOptions extends SolverOptions {
  /** Krylov dimension m: the basis has m+1 vectors, and GMRES restarts after m iterations (default 30). */
  restart?: number;
  /**
   * Storage of the Krylov basis (default: the vectors' storage), independent of the arithmetic: fp32 or fp16
   * halve or quarter the basis traffic (CB-GMRES). Integer storage is refused.
   */
  basisStorage?: FormatLike;
}

// Classical Gram–Schmidt is repeated once when it cancels more than this fraction of w (Daniel–Gragg–Kaufman–Stewart).
const REORTHOGONALISE_BELOW = Math.SQRT1_2;

/**
 * Solves A·x = b for a general square A by restarted GMRES(m) with a compressed Krylov basis.
 *
 * Each iteration applies A once, orthogonalises against the basis with classical Gram–Schmidt as two GEMVs (Vᵀw,
 * then w − V·h) — repeated once when it cancels much of w — and writes the new basis vector, rounded to
 * `basisStorage`. The small Hessenberg least-squares problem is solved in fp64 with Givens rotations. At each
 * restart x is updated through one more GEMV with the basis and the true residual b − A·x is recomputed: the solve
 * converges when it meets the tolerance; `stagnationChecks` restarts in a row that do not lower it end the solve
 * (breakdown `stagnation`). The history holds Arnoldi's residual estimate after each iteration, replaced by the true
 * residual at each restart.
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
export function gmres(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: GmresOptions): SolverResult {
  const op = linearOperator(A);
  if (options !== undefined && (typeof options !== 'object' || options === null)) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const m = checkCount('options.restart', options?.restart ?? 30, 1);
  let basisStorage: StorageFormat | undefined;
  if (options?.basisStorage !== undefined) {
    basisStorage = asStorage(options.basisStorage, 'options.basisStorage');
    if (basisStorage.isInteger) fail('INVALID_FORMAT', 'options.basisStorage', 'must be a floating-point or multiple-precision storage (integer storage needs a scaled accessor)', basisStorage.name);
  }
  const s0 = startSolve(op, b, options);
  if (s0.done) return s0.done;
  const { vectors: V, b: bv, x, r, stop } = s0;
  const n = op.size;
  const ar = V.arithmetic;
  const opts = { arithmetic: ar };
  const basis = new KrylovBasis(n, m + 1, basisStorage ?? s0.options.storage, ar);
  const w = V.make();
  // Small fp64 vectors the GEMVs read and write: h (Gram–Schmidt coefficients), y (the least-squares solution).
  const hAll = range(rowMajor<1>({ size: [m + 1] }));
  const h2All = range(rowMajor<1>({ size: [m + 1] }));
  const yAll = range(rowMajor<1>({ size: [m] }));
  const H = new Float64Array((m + 1) * m);      // column-major, leading dimension m+1
  const cs = new Float64Array(m), sn = new Float64Array(m), g = new Float64Array(m + 1);
  // x += V·y with y = R⁻¹·g over the k columns used (R upper triangular after the rotations).
  const addCorrection = (k: number, into: Range<1, any>): void => {
    for (let i = k - 1; i >= 0; i--) {
      let t = g[i]!;
      for (let l = i + 1; l < k; l++) t -= H[i + l * (m + 1)]! * yAll.get(l);
      const d = H[i + i * (m + 1)]!;
      yAll.set(i, d === 0 ? 0 : t / d);
    }
    if (k > 0) gemv({ alpha: 1, A: basis.leading(k), x: yAll.sub(span(0, k)), beta: 1, y: into, trans: 'N' }, opts);
  };
  // For recordTrueResidual only: the true residual of the iterate after k iterations of this cycle.
  let scratch: [Range<1, any>, Range<1, any>] | undefined;
  const residualOfIterate = (k: number): number => {
    scratch ??= [V.make(), V.make()];
    V.copy(x, scratch[0]);
    addCorrection(k, scratch[0]);
    return V.residual(op, bv, scratch[0], scratch[1]);
  };
  let beta = s0.rNorm;
  let iterations = 0;
  outer: while (iterations < s0.options.maxIterations) {
    waxpby(1 / beta, r, 0, r, basis.column(0), opts);
    g.fill(0);
    g[0] = beta;
    let k = 0;                                   // columns of the basis used in this cycle
    while (k < m && iterations < s0.options.maxIterations) {
      const j = k;
      op.apply(1, basis.column(j), 0, w, ar);
      const Vj = basis.leading(j + 1);
      const h = hAll.sub(span(0, j + 1));
      const before = V.norm(w);
      gemv({ alpha: 1, A: Vj, x: w, beta: 0, y: h, trans: 'T' }, opts);
      gemv({ alpha: -1, A: Vj, x: h, beta: 1, y: w, trans: 'N' }, opts);
      let hn = V.norm(w);
      if (hn < REORTHOGONALISE_BELOW * before) {
        const h2 = h2All.sub(span(0, j + 1));
        gemv({ alpha: 1, A: Vj, x: w, beta: 0, y: h2, trans: 'T' }, opts);
        gemv({ alpha: -1, A: Vj, x: h2, beta: 1, y: w, trans: 'N' }, opts);
        for (let i = 0; i <= j; i++) h.set(i, h.get(i) + h2.get(i));
        hn = V.norm(w);
      }
      for (let i = 0; i <= j; i++) H[i + j * (m + 1)] = h.get(i);
      H[j + 1 + j * (m + 1)] = hn;
      if (!Number.isFinite(hn) || !Number.isFinite(before)) { stop.breakDown('non-finite'); break outer; }
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
      if (hn === 0 || met || k === m || iterations >= s0.options.maxIterations) break;
      if (stop.trueHistory) stop.recordTrue(residualOfIterate(k));
      waxpby(1 / hn, w, 0, w, basis.column(j + 1), opts);
    }
    addCorrection(k, x);
    beta = V.residual(op, bv, x, r);
    const trueRel = beta / s0.bNorm;
    if (stop.trueHistory) stop.recordTrue(beta);
    stop.history[stop.history.length - 1] = Number.isNaN(trueRel) ? Infinity : trueRel;
    if (!Number.isFinite(beta)) { stop.breakDown('non-finite'); break; }
    const verdict = stop.judgeTrue(beta);
    if (verdict === 'converged') { stop.converge(); break; }
    if (verdict === 'stagnation') { stop.breakDown('stagnation'); break; }
  }
  return solverResult(x, stop, iterations, V.residual(op, bv, x, w) / s0.bNorm);
}
