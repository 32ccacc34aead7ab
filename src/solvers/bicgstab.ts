/**
 * BiCGStab (van der Vorst, 1992) for nonsymmetric systems, with every vector behind an accessor of the chosen
 * storage and every kernel in the chosen arithmetic.
 * @module
 */
import type { Range } from '../core/range.js';
import type { OperatorLike } from './operator.js';
import { checkVectorInput, type SolverOptions } from './solver-options.js';
import type { GpuSolverOptions } from './gpu-solve-checks.js';
import { begin, finish, runSolve, validateSolve, type ValidatedSolve } from './solve-start.js';
import type { SolverResult } from './solver-result.js';
import { residual, type Algorithm, type KrylovSpace } from './krylov-space.js';

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
 * accessors in `options.arithmetic`, on the CPU or (`backend: 'gpu'`) the GPU. Stopping as {@link cg} (the true residual
 * is checked when the recurrence residual meets the tolerance or diverges, and the recurrence restarts from it
 * otherwise; a solve that stops short returns its checked iterate of the smallest true residual where its last one is
 * worse, one more vector). Breakdowns, as results: `rho-zero`
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
export function bicgstab(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: BicgstabOptions & { backend?: 'cpu' }): SolverResult;
/** BiCGStab on the GPU (as {@link cg}'s GPU overload). */
export function bicgstab(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options: BicgstabOptions & GpuSolverOptions): Promise<SolverResult>;
export function bicgstab(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: BicgstabOptions & (GpuSolverOptions | { backend?: 'cpu' })): SolverResult | Promise<SolverResult> {
  const v = validateSolve(A, b, options);
  const shadow = options?.shadow === undefined ? undefined : checkVectorInput('options.shadow', options.shadow, v.A.size);
  return runSolve(v, (s) => bicgstabIteration(s, v, shadow));
}

function* bicgstabIteration<V>(s: KrylovSpace<V>, v: ValidatedSolve, shadow: ArrayLike<number> | Range<1, any> | undefined): Algorithm<SolverResult> {
  const start = yield* begin(s, v);
  const { b, x, r, stop } = start;
  const w = start.t;
  if (start.done) return yield* finish(s, start, 0);
  const rHat = shadow === undefined ? s.make() : ((yield s.load(shadow)) as V);
  if (shadow === undefined) yield s.copy(r, rHat);
  const p = s.make(), vv = s.make(), sv = s.make(), t = s.make();
  let rho = 0;
  function* restart(): Generator<unknown, boolean, any> {
    rho = (yield s.dot(rHat, r)) as number;
    yield s.copy(r, p);
    if (!Number.isFinite(rho)) { stop.breakDown('non-finite'); return false; }
    if (rho === 0) { stop.breakDown('rho-zero'); return false; }
    return true;
  }
  // Ends an iteration whose residual (r, or s at the half step) has norm `norm`: record it, and check the true
  // residual when it meets the tolerance. Returns 'stop', 'restart' (r replaced by the true residual) or 'go'.
  function* settle(norm: number): Generator<unknown, 'stop' | 'restart' | 'go', any> {
    const met = stop.record(norm);
    if (stop.trueHistory) stop.recordTrue((yield* residual(s, b, x, w)) as number);
    // A diverging recurrence (see DIVERGENCE_FACTOR) is checked against the true residual too.
    if (!met && !stop.diverges()) {
      if (Number.isFinite(norm)) return 'go';
      stop.breakDown('non-finite');
      return 'stop';
    }
    const trueNorm = (yield* residual(s, b, x, w)) as number;
    const verdict = stop.judgeTrue(trueNorm);
    if (trueNorm < bestNorm) { bestNorm = trueNorm; yield s.copy(x, best); }
    if (verdict === 'converged') { stop.converge(); return 'stop'; }
    if (verdict === 'stagnation') { stop.breakDown('stagnation'); return 'stop'; }
    yield s.copy(w, r);
    return ((yield* restart()) as boolean) ? 'restart' : 'stop';
  }
  // The checked iterate of the smallest true residual (x₀ to begin with), one more vector: what a solve that stops short
  // returns where its last x is worse (a recurrence that diverged before a check caught it), as GMRES does.
  const best = s.make();
  yield s.copy(x, best);
  let bestNorm = start.rNorm;
  let iterations = 0;
  if ((yield* restart()) as boolean) {
    while (iterations < v.options.maxIterations) {
      yield s.apply(1, p, 0, vv);
      const sigma = (yield s.dot(rHat, vv)) as number;
      if (!Number.isFinite(sigma)) { stop.breakDown('non-finite'); break; }
      if (sigma === 0) { stop.breakDown('sigma-zero'); break; }
      const alpha = rho / sigma;
      if (!Number.isFinite(alpha)) { stop.breakDown('non-finite'); break; }
      yield s.update(1, r, -alpha, vv, sv);                 // s = r − α·v
      const sNorm = (yield s.norm(sv)) as number;
      if (stop.meets(sNorm)) {
        // Half step: x + α·p already meets the tolerance.
        yield s.update(alpha, p, 1, x, x);
        yield s.copy(sv, r);
        iterations++;
        if (((yield* settle(sNorm)) as string) === 'stop') break;
        continue;
      }
      yield s.apply(1, sv, 0, t);
      const tt = (yield s.dot(t, t)) as number;
      const ts = (yield s.dot(t, sv)) as number;
      if (!Number.isFinite(tt) || !Number.isFinite(ts)) { stop.breakDown('non-finite'); break; }
      const omega = tt === 0 ? 0 : ts / tt;
      // x + α·p is still progress (the BiCG half step): keep it, with r = s, when ω breaks down.
      yield s.update(alpha, p, 1, x, x);
      if (omega === 0 || !Number.isFinite(omega)) {
        yield s.copy(sv, r);
        iterations++;
        stop.record(sNorm);
        if (stop.trueHistory) stop.recordTrue((yield* residual(s, b, x, w)) as number);
        stop.breakDown(omega === 0 ? 'omega-zero' : 'non-finite');
        break;
      }
      yield s.update(omega, sv, 1, x, x);
      yield s.update(1, sv, -omega, t, r);                  // r = s − ω·t
      iterations++;
      const next = (yield* settle((yield s.norm(r)) as number)) as string;
      if (next === 'stop') break;
      if (next === 'restart') continue;
      const rhoNext = (yield s.dot(rHat, r)) as number;
      if (!Number.isFinite(rhoNext)) { stop.breakDown('non-finite'); break; }
      if (rhoNext === 0) { stop.breakDown('rho-zero'); break; }
      const beta = (rhoNext / rho) * (alpha / omega);
      rho = rhoNext;
      yield s.update(-omega, vv, 1, p, p);                  // p = r + β·(p − ω·v)
      yield s.update(1, r, beta, p, p);
    }
  }
  if (stop.status !== 'converged' && !(((yield* residual(s, b, x, w)) as number) <= bestNorm)) yield s.copy(best, x);
  return yield* finish(s, start, iterations);
}
