/**
 * BiCGStab (van der Vorst, 1992) for nonsymmetric systems, with every vector behind an accessor of the chosen
 * storage and every kernel in the chosen arithmetic.
 * @module
 */
import type { Range } from '../core/range.js';
import { dot } from '../../kernels/dot/dot.js';
import { axpy } from '../../kernels/axpy/axpy.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import type { OperatorLike } from './operator.js';
import { checkVectorInput, type SolverOptions } from './solver-options.js';
import { linearOperator } from './operator.js';
import { startSolve } from './solve-start.js';
import { solverResult, type SolverResult } from './solver-result.js';
import { fail } from '../core/errors.js';

/**
 * Options of {@link bicgstab}.
 * @group Solvers
 */
export interface BicgstabOptions extends SolverOptions {
  /** The shadow residual r̂ (default r₀ = b − A·x₀); must not be orthogonal to r₀ (else the breakdown `rho-zero`). */
  shadow?: ArrayLike<number> | Range<1, any>;
}

/**
 * Solves A·x = b for a general square A by BiCGStab.
 *
 * Each iteration applies A twice and runs four DOTs (r̂ᵀv, tᵀs, tᵀt, r̂ᵀr) and a norm, all through the vectors'
 * accessors in `options.arithmetic`. Stopping as {@link cg} (the true residual is checked when the recurrence
 * residual meets the tolerance; the recurrence restarts from it otherwise). Breakdowns, as results: `rho-zero`
 * (r̂ᵀr = 0), `sigma-zero` (r̂ᵀA·p = 0), `omega-zero` (tᵀs = 0 or t = 0), `stagnation`, `non-finite`.
 * @param A - the matrix or operator (square)
 * @param b - the right-hand side
 * @param options - as {@link cg}, and the shadow residual
 * @returns the solution, status, history and recomputed true residual
 * @throws {@link ModprecError} as {@link cg}; as for b for an invalid `options.shadow`
 * @example
 * ```ts
 * import { bicgstab, matrix } from 'modprec';
 *
 * // a nonsymmetric, diagonally dominant 4×4 matrix
 * const A = matrix(4, 4, (i, j) => (i === j ? 4 : j === i + 1 ? 1 : j === i - 1 ? -2 : 0));
 * const r = bicgstab(A, [1, 2, 3, 4], { tolerance: 1e-12 });
 * r.status; // → 'converged'
 * r.trueResidualNorm <= 1e-12; // → true
 * // a shadow residual orthogonal to r₀ breaks down at once, as a result
 * bicgstab(A, [1, 0, 0, 0], { shadow: [0, 1, 0, 0] }).breakdown; // → 'rho-zero'
 * ```
 * @group Solvers
 */
export function bicgstab(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: BicgstabOptions): SolverResult {
  const op = linearOperator(A);
  const shadowIn = options?.shadow === undefined ? undefined : checkVectorInput('options.shadow', options.shadow, op.size);
  if (options !== undefined && (typeof options !== 'object' || options === null)) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const s0 = startSolve(op, b, options);
  if (s0.done) return s0.done;
  const { vectors: V, b: bv, x, r, stop } = s0;
  const ar = V.arithmetic;
  const opts = { arithmetic: ar };
  const rHat = shadowIn === undefined ? V.make() : V.from(shadowIn);
  if (shadowIn === undefined) V.copy(r, rHat);
  const p = V.make(), v = V.make(), s = V.make(), t = V.make(), w = V.make();
  let rho = 0;
  const restart = (): boolean => {
    rho = dot(rHat, r, opts);
    V.copy(r, p);
    if (!Number.isFinite(rho)) { stop.breakDown('non-finite'); return false; }
    if (rho === 0) { stop.breakDown('rho-zero'); return false; }
    return true;
  };
  // Ends an iteration whose residual (r, or s at the half step) has norm `norm`: record it, and check the true
  // residual when it meets the tolerance. Returns 'stop', 'restart' (r replaced by the true residual) or 'go'.
  const settle = (norm: number): 'stop' | 'restart' | 'go' => {
    const met = stop.record(norm);
    if (stop.trueHistory) stop.recordTrue(V.residual(op, bv, x, w));
    if (!met) return Number.isFinite(norm) ? 'go' : (stop.breakDown('non-finite'), 'stop');
    const verdict = stop.judgeTrue(V.residual(op, bv, x, w));
    if (verdict === 'converged') { stop.converge(); return 'stop'; }
    if (verdict === 'stagnation') { stop.breakDown('stagnation'); return 'stop'; }
    V.copy(w, r);
    return restart() ? 'restart' : 'stop';
  };
  let iterations = 0;
  if (restart()) {
    while (iterations < s0.options.maxIterations) {
      op.apply(1, p, 0, v, ar);
      const sigma = dot(rHat, v, opts);
      if (!Number.isFinite(sigma)) { stop.breakDown('non-finite'); break; }
      if (sigma === 0) { stop.breakDown('sigma-zero'); break; }
      const alpha = rho / sigma;
      if (!Number.isFinite(alpha)) { stop.breakDown('non-finite'); break; }
      waxpby(1, r, -alpha, v, s, opts);            // s = r − α·v
      const sNorm = V.norm(s);
      if (stop.meets(sNorm)) {
        // Half step: x + α·p already meets the tolerance.
        axpy(alpha, p, x, opts);
        V.copy(s, r);
        iterations++;
        const next = settle(sNorm);
        if (next === 'stop') break;
        continue;
      }
      op.apply(1, s, 0, t, ar);
      const tt = dot(t, t, opts);
      const ts = dot(t, s, opts);
      if (!Number.isFinite(tt) || !Number.isFinite(ts)) { stop.breakDown('non-finite'); break; }
      const omega = tt === 0 ? 0 : ts / tt;
      // x + α·p is still progress (the BiCG half step): keep it, with r = s, when ω breaks down.
      axpy(alpha, p, x, opts);
      if (omega === 0 || !Number.isFinite(omega)) {
        V.copy(s, r);
        iterations++;
        stop.record(sNorm);
        if (stop.trueHistory) stop.recordTrue(V.residual(op, bv, x, w));
        stop.breakDown(omega === 0 ? 'omega-zero' : 'non-finite');
        break;
      }
      axpy(omega, s, x, opts);
      waxpby(1, s, -omega, t, r, opts);            // r = s − ω·t
      iterations++;
      const next = settle(V.norm(r));
      if (next === 'stop') break;
      if (next === 'restart') continue;
      const rhoNext = dot(rHat, r, opts);
      if (!Number.isFinite(rhoNext)) { stop.breakDown('non-finite'); break; }
      if (rhoNext === 0) { stop.breakDown('rho-zero'); break; }
      const beta = (rhoNext / rho) * (alpha / omega);
      rho = rhoNext;
      axpy(-omega, v, p, opts);                    // p = r + β·(p − ω·v)
      waxpby(1, r, beta, p, p, opts);
    }
  }
  return solverResult(x, stop, iterations, V.residual(op, bv, x, w) / s0.bNorm);
}
