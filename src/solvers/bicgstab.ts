/**
 * BiCGStab (van der Vorst, 1992) for nonsymmetric systems, with every vector behind an accessor of the chosen
 * storage and every kernel in the chosen arithmetic.
 * @module
 */
import type { Range } from '../core/range.js';
import type { OperatorLike } from './operator.js';
import { checkCount, checkVectorInput, optionOr, type SolverOptions } from './solver-options.js';
import type { GpuSolverOptions } from './gpu-solve-checks.js';
import { begin, finish, runSolve, unitScaledInput, validateSolve, type ValidatedSolve } from './solve-start.js';
import type { SolverResult } from './solver-result.js';
import { gamma } from '../../kernels/shared/accumulation.js';
import { residual, type Algorithm, type KrylovSpace } from './krylov-space.js';
import { addToSolution, operatorScale } from './solution-scale.js';

/**
 * Options of {@link bicgstab}.
 * @group Solvers
 */
export interface BicgstabOptions extends SolverOptions {
  /**
   * The shadow residual r̂ (default r₀ = b − A·x₀); must not be orthogonal to r₀ (else the breakdown `rho-zero`). Its
   * magnitude does not matter: it is stored scaled by a power of two to a largest |r̂ᵢ| in [1, 2) (the same iteration).
   */
  shadow?: ArrayLike<number> | Range<1, any>;
  /**
   * Breakdown restarts allowed (default {@link DEFAULT_BREAKDOWN_RESTARTS}; an integer ≥ 0, 0: none, the solver stops at
   * the first breakdown). When ρ = r̂ᵀr vanishes (is 0, or at most γₙ·‖r̂‖₂·‖r‖₂, below the DOT's rounding error), or
   * σ = r̂ᵀA·p or ω is 0, after at least one iteration since r̂ was set, the solver checks the true residual b − A·x
   * and restarts from it with the shadow residual reset to it (r̂ = r); only when none is left does it stop with the
   * breakdown (or `converged`, where x's true residual, checked then, meets the tolerance). A breakdown that recurs before the next iteration is reported as the one that made the restart (after
   * ω = 0, r̂ = r = s gives σ = sᵀA·s = tᵀs = 0 again in exact arithmetic: that is `omega-zero`). The first ρ, of r̂
   * and r₀, is never restarted: a given `shadow` orthogonal to r₀ is `rho-zero`.
   */
  breakdownRestarts?: number;
}

/**
 * The default of {@link BicgstabOptions.breakdownRestarts}: a few, as each one costs a true residual; a breakdown that
 * comes back this often after fresh shadows is the matrix's, not the shadow's.
 * @group Solvers
 */
export const DEFAULT_BREAKDOWN_RESTARTS = 3;

/**
 * The result of {@link bicgstab}: a {@link SolverResult} and the breakdown restarts it made.
 * @group Solvers
 */
export interface BicgstabResult<T = any> extends SolverResult<T> {
  /** Restarts with r̂ reset to the true residual after a breakdown (at most `options.breakdownRestarts`). */
  readonly breakdownRestarts: number;
}

/**
 * Solves A·x = b for a general square A by BiCGStab.
 *
 * Each iteration applies A twice and runs four DOTs (r̂ᵀv, tᵀs, tᵀt, r̂ᵀr) and a norm, all through the vectors'
 * accessors in `options.arithmetic`, on the CPU or (`backend: 'gpu'`) the GPU. Stopping as {@link cg} (the true residual
 * is checked when the recurrence residual meets the tolerance or diverges, and the recurrence restarts from it
 * otherwise; a solve that stops short returns its checked iterate of the smallest true residual where its last one is
 * worse, one more vector). Where A·p or A·s overflows the vectors' storage (fp16: 65504), A is applied scaled by a
 * power of two, as in {@link cg}, with α and ω in its units; p itself is stored scaled where a large β overflows it, and s = r − α·v where it
 * overflows (an r that overflows then sends the solve to its true residual, as a diverging recurrence does). A vanishing ρ, σ or ω restarts the solve from the true
 * residual with r̂ reset to it, up to `options.breakdownRestarts` times (counted in the result's `breakdownRestarts`);
 * then breakdowns, as results: `rho-zero` (r̂ᵀr = 0), `sigma-zero` (r̂ᵀA·p = 0), `omega-zero` (tᵀs = 0 or t = 0),
 * `stagnation`, `non-finite`.
 * @param A - the matrix or operator (square)
 * @param b - the right-hand side
 * @param options - as {@link cg}, the shadow residual and the breakdown restarts
 * @returns the solution, status, history, recomputed true residual and breakdown restarts
 * @throws {@link ModprecError} as {@link cg}; as for b for an invalid `options.shadow`; `INVALID_OPTION` naming
 *   `options.breakdownRestarts` unless it is an integer ≥ 0
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
export function bicgstab(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: BicgstabOptions & { backend?: 'cpu' }): BicgstabResult;
/** BiCGStab on the GPU (as {@link cg}'s GPU overload). */
export function bicgstab(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options: BicgstabOptions & GpuSolverOptions): Promise<BicgstabResult>;
export function bicgstab(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: BicgstabOptions & (GpuSolverOptions | { backend?: 'cpu' })): BicgstabResult | Promise<BicgstabResult> {
  const v = validateSolve('bicgstab', A, b, options);
  const restarts = checkCount('options.breakdownRestarts', optionOr(options?.breakdownRestarts, DEFAULT_BREAKDOWN_RESTARTS), 0);
  const shadow = options?.shadow === undefined ? undefined : checkVectorInput('options.shadow', options.shadow, v.A.size);
  return runSolve(v, (s) => bicgstabIteration(s, v, shadow, restarts));
}

/** The breakdowns of BiCGStab's own scalars, after which x's true residual is checked once more. */
const ZERO_BREAKDOWNS: ReadonlySet<string> = new Set(['rho-zero', 'sigma-zero', 'omega-zero']);

function* bicgstabIteration<V>(s: KrylovSpace<V>, v: ValidatedSolve, shadow: ArrayLike<number> | Range<1, any> | undefined, maxBreakdownRestarts: number): Algorithm<BicgstabResult> {
  const start = yield* begin(s, v);
  const { b, x, r, stop } = start;
  const w = start.t;
  let breakdownRestarts = 0;
  const withRestarts = (result: SolverResult): BicgstabResult => Object.freeze({ ...result, breakdownRestarts });
  if (start.done) return withRestarts(yield* finish(s, start, 0));
  const rHat = shadow === undefined ? s.make() : ((yield s.load(unitScaledInput(shadow, s.n))) as V);
  if (shadow === undefined) yield s.copy(r, rHat);
  const p = s.make(), vv = s.make(), sv = s.make(), t = s.make();
  const storage = v.options.storage;
  // p holds p/π, π a power of two raised (2^16 a time, at most to 2^128) where a large β overflows p in the vectors'
  // storage: on 494_bus with fp16 vectors β = −3.3·10⁴ at the 16th step made p ±∞ ('non-finite'), which no scale of A
  // helps. u = p − ω·v (in the units of the last p) is kept, so p = r + β·u is rebuilt as r/π + (β/π)·u; α̃ = ρ/r̂ᵀvv
  // then carries π (vv = A·p/σ_v is A's image of the scaled p), and x += (α̃/σ_v)·p, s, t and r are unchanged; β as
  // computed is π·β, in u's units. π = 1 while nothing overflows (the solve bit for bit as it was); it falls back by
  // 2^16 at every new p (a p at 2^-16 of its size would flush r's smaller entries in fp16) and rises again, from u,
  // only where p overflows once more.
  const u = s.make();
  let pScale = 1;
  let pBeta: number | undefined;   // β of the p last built from u (undefined: p = r, which always fits)
  let rho = 0;
  // vv and t hold A·p/σ and A·s/σ, σ a power of two raised (2^16 a time, at most to 2^128, as CG scales q) where A·p
  // or A·s overflows the vectors' storage or its DOTs: fp16 holds 65504, so 10⁵·I, bcsstk01 and 494_bus stopped
  // 'non-finite' at 0 iterations. The scalars follow: with σ_v and σ_t the scales of this iteration's vv and t,
  // α̃ = ρ/r̂ᵀvv = σ_v·α and ω̃ = tᵀs/tᵀt = σ_t·ω, so s = r − α̃·vv and r = s − ω̃·t are the same, x takes α̃/σ_v and
  // ω̃/σ_t, p − ω·v is p − ω̃·(σ_v/σ_t)·vv and β = (ρ'/ρ)·(α/ω) = (ρ'/ρ)·(α̃/ω̃)·(σ_t/σ_v). σ = 1 (no division, every
  // factor exactly 1) while nothing overflows, so the solve is the one it was.
  let sigma = 1;
  // y := A·x/σ, σ raised while `fits` says the product (or its DOTs) did not fit; returns what `read` read last.
  function* scaledApply<R>(x: V, y: V, read: () => Generator<unknown, R, any>, fits: (value: R) => boolean, xNorm?: number): Generator<unknown, R, any> {
    for (;;) {
      yield s.apply(1 / sigma, x, 0, y);
      const value = (yield* read()) as R;
      if (fits(value) || sigma >= 2 ** 128) return value;
      // An x that is not finite itself (p overflowed its storage after a large β) is not helped by any scale.
      xNorm ??= (yield s.norm(x)) as number;
      if (!Number.isFinite(xNorm)) return value;
      sigma *= 2 ** 16;
    }
  }
  // ‖r̂‖₂, for the test of a vanishing ρ (measured only where a breakdown restart may follow).
  let rHatNorm = maxBreakdownRestarts > 0 ? ((yield s.norm(rHat)) as number) : 0;
  // γₙ of the arithmetic: |ρ| ≤ γₙ·‖r̂‖₂·‖r‖₂ lies within the DOT's rounding error bound (Higham, Thm 3.1/3.5), so the
  // computed ρ cannot tell r̂ from a vector orthogonal to r.
  const gammaN = gamma(s.n, v.options.arithmetic.unitRoundoff);
  // Iterations since r̂ was last set: a breakdown restart right after one would rebuild the same r̂ = r and p = r.
  let sinceShadow = 0;
  const mayRestart = (): boolean => breakdownRestarts < maxBreakdownRestarts && sinceShadow > 0;
  // The breakdown that made the last restart. One that recurs before an iteration is reported as it: the restart did
  // not recover it (after ω = 0, r̂ = r = s gives σ = sᵀA·s = tᵀs = 0 again in exact arithmetic).
  let cause: 'rho-zero' | 'sigma-zero' | 'omega-zero' | undefined;
  const breakDown = (reason: 'rho-zero' | 'sigma-zero' | 'omega-zero'): void => {
    stop.breakDown(sinceShadow === 0 && cause !== undefined ? cause : reason);
  };
  const rhoVanishes = (value: number, rNorm: number): boolean =>
    value === 0 || (maxBreakdownRestarts > 0 && Math.abs(value) <= gammaN * rHatNorm * rNorm);
  // ρ = r̂ᵀr and p = r, with r the true residual of norm rNorm; false when the solve must stop.
  function* restart(rNorm: number): Generator<unknown, boolean, any> {
    rho = (yield s.dot(rHat, r)) as number;
    yield s.copy(r, p);
    pScale = 1;
    pBeta = undefined;
    if (!Number.isFinite(rho)) { stop.breakDown('non-finite'); return false; }
    if (rhoVanishes(rho, rNorm)) {
      if (mayRestart()) return (yield* resetShadow('rho-zero', rNorm)) as boolean;
      if (rho === 0) { breakDown('rho-zero'); return false; }
    }
    return true;
  }
  // The breakdown restart: r̂ = r (r the true residual, already in r), counted. ρ = ‖r‖² then, zero only for an r that
  // the storage flushed to zero, and that is 'rho-zero' (no second restart without an iteration in between).
  function* resetShadow(reason: 'rho-zero' | 'sigma-zero' | 'omega-zero', trueNorm: number): Generator<unknown, boolean, any> {
    // A true residual of exactly 0 that did not converge (a tolerance below its resolution, 0 included): no shadow can
    // be built from it, and no iteration lowers it — the attainable accuracy, as CG and GMRES report it.
    if (trueNorm === 0) { stop.breakDown('stagnation'); return false; }
    breakdownRestarts++;
    cause = reason;
    sinceShadow = 0;
    yield s.copy(r, rHat);
    rHatNorm = (yield s.norm(rHat)) as number;
    return (yield* restart(rHatNorm)) as boolean;
  }
  // Checks the true residual b − A·x (computed in the wide arithmetic, into w): 'stop' (converged, or stagnation: the
  // breakdown `stagnant`), or its norm with r replaced by it.
  function* checkTrue(stagnant: 'stagnation' | 'rho-zero' | 'sigma-zero' | 'omega-zero'): Generator<unknown, number | 'stop', any> {
    const trueNorm = (yield* residual(s, b, x, w, start.xScale.factor)) as number;
    const verdict = stop.judgeTrue(trueNorm);
    if (trueNorm < bestNorm) { bestNorm = trueNorm; yield s.copyExact(x, best); }
    if (verdict === 'converged') { stop.converge(); return 'stop'; }
    if (verdict === 'stagnation') { if (stagnant === 'stagnation') stop.breakDown(stagnant); else breakDown(stagnant); return 'stop'; }
    yield s.copy(w, r);
    return trueNorm;
  }
  // A breakdown (ρ, σ or ω vanished) with restarts left: restart from the true residual with r̂ = r. A true residual
  // that does not improve (the stagnation test) ends the solve with the breakdown itself, not restarted.
  function* breakdownRestart(reason: 'rho-zero' | 'sigma-zero' | 'omega-zero'): Generator<unknown, 'stop' | 'restart', any> {
    const checked = (yield* checkTrue(reason)) as number | 'stop';
    if (checked === 'stop') return 'stop';
    return ((yield* resetShadow(reason, checked)) as boolean) ? 'restart' : 'stop';
  }
  // Ends an iteration whose residual (r, or s at the half step) has norm `norm`: record it, and check the true
  // residual when it meets the tolerance. Returns 'stop', 'restart' (r replaced by the true residual) or 'go'.
  function* settle(norm: number): Generator<unknown, 'stop' | 'restart' | 'go', any> {
    const met = stop.record(norm);
    if (stop.trueHistory) stop.recordTrue((yield* residual(s, b, x, w, start.xScale.factor)) as number);
    // A diverging recurrence (see DIVERGENCE_FACTOR) is checked against the true residual too, and so is an r that
    // overflowed the vectors' storage (it diverged past its range: 494_bus with fp16 vectors at the 250th step), as x
    // may be finite and its true residual finite: the solve restarts from it, or stops on it ('non-finite' where ρ is).
    if (!met && !stop.diverges() && Number.isFinite(norm)) return 'go';
    const checked = (yield* checkTrue('stagnation')) as number | 'stop';
    if (checked === 'stop') return 'stop';
    return ((yield* restart(checked)) as boolean) ? 'restart' : 'stop';
  }
  // The checked iterate of the smallest true residual (x₀ to begin with), one more vector: what a solve that stops short
  // returns where its last x is worse (a recurrence that diverged before a check caught it), as GMRES does.
  const best = s.make();
  yield s.copyExact(x, best);
  let bestNorm = start.rNorm;
  let iterations = 0;
  if ((yield* restart(start.rNorm)) as boolean) {
    // The first scale of v and t, from ‖A·p‖/‖p‖ where the vectors are narrow (see operatorScale).
    sigma = (yield* operatorScale(s, v.options.storage, p, w)) as number;
    while (iterations < v.options.maxIterations) {
      // A non-finite r̂ᵀv from a finite p and the unit-scaled r̂ is an overflow of A·p: scaled down.
      let rHatV: number;
      for (;;) {
        rHatV = (yield* scaledApply(p, vv, function* () { return (yield s.dot(rHat, vv)) as number; }, Number.isFinite)) as number;
        if (Number.isFinite(rHatV) || pBeta === undefined || pScale >= 2 ** 128) break;
        // p itself overflowed (a large β): rebuilt from u at a larger scale, then applied again.
        if (Number.isFinite((yield s.norm(p)) as number)) break;
        pScale *= 2 ** 16;
        yield s.update(1 / pScale, r, pBeta / pScale, u, p);
      }
      const sigmaV = sigma;
      if (!Number.isFinite(rHatV)) { stop.breakDown('non-finite'); break; }
      if (rHatV === 0) {
        if (mayRestart()) { if (((yield* breakdownRestart('sigma-zero')) as string) === 'stop') break; continue; }
        breakDown('sigma-zero');
        break;
      }
      const alpha = rho / rHatV;                            // α̃ = σ_v·α
      if (!Number.isFinite(alpha)) { stop.breakDown('non-finite'); break; }
      yield s.update(1, r, -alpha, vv, sv);                 // s = r − α·v
      let sNorm = (yield s.norm(sv)) as number;
      // sv holds s/ς, ς a power of two > 1 only where s overflowed the vectors' storage from a finite r and α·v: on
      // 494_bus with fp16 vectors the recurrence residual grew past 3·10⁴·‖b‖ and s = r − α·v (65504 at most) became ±∞
      // at the 249th step ('non-finite'). ς is the least power of two that brings ‖r‖ + |α̃|·‖vv‖ (which bounds every
      // |sᵢ|) to half the storage's largest value, so s loses no more low bits than it must. ω̃ = t̃ᵀs̃/t̃ᵀt̃ does not
      // depend on ς; x takes ς·ω̃/σ_t and r = ς·(s̃ − ω̃·t̃). ς = 1 while nothing overflows (the solve bit for bit as it was).
      let sScale = 1;
      if (!Number.isFinite(sNorm) && storage.kind === 'number') {
        const bound = ((yield s.norm(r)) as number) + Math.abs(alpha) * ((yield s.norm(vv)) as number);
        if (bound > 0 && Number.isFinite(bound)) {
          sScale = 2 ** Math.min(1000, Math.max(1, Math.ceil(Math.log2(bound / (storage.maxValue / 2)))));
          yield s.update(1 / sScale, r, -alpha / sScale, vv, sv);
          sNorm = (yield s.norm(sv)) as number;
        }
      }
      // r := ς·s̃ (a copy while ς = 1).
      const sIntoR = (): unknown => (sScale === 1 ? s.copy(sv, r) : s.update(sScale, sv, 0, sv, r));
      if (stop.meets(sScale * sNorm)) {
        // Half step: x + α·p already meets the tolerance.
        yield* addToSolution(s, start.xScale, alpha / sigmaV, p, x);
        yield sIntoR();
        iterations++;
        sinceShadow++;
        if (((yield* settle(sScale * sNorm)) as string) === 'stop') break;
        continue;
      }
      // tᵀt or tᵀs non-finite from a finite s: an overflow of A·s or of tᵀt, scaled down.
      const [tt, ts] = (yield* scaledApply(sv, t, function* () {
        return [(yield s.dot(t, t)) as number, (yield s.dot(t, sv)) as number] as const;
      }, ([tt, ts]) => Number.isFinite(tt) && Number.isFinite(ts), sNorm)) as readonly [number, number];
      const sigmaT = sigma;
      if (!Number.isFinite(tt) || !Number.isFinite(ts)) { stop.breakDown('non-finite'); break; }
      const omega = tt === 0 ? 0 : ts / tt;                 // ω̃ = σ_t·ω
      // x + α·p is still progress (the BiCG half step): keep it, with r = s, when ω breaks down.
      yield* addToSolution(s, start.xScale, alpha / sigmaV, p, x);
      if (omega === 0 || !Number.isFinite(omega)) {
        yield sIntoR();
        iterations++;
        sinceShadow++;
        stop.record(sScale * sNorm);
        if (stop.trueHistory) stop.recordTrue((yield* residual(s, b, x, w, start.xScale.factor)) as number);
        if (omega === 0 && mayRestart()) { if (((yield* breakdownRestart('omega-zero')) as string) === 'stop') break; continue; }
        if (omega === 0) breakDown('omega-zero'); else stop.breakDown('non-finite');
        break;
      }
      yield* addToSolution(s, start.xScale, omega * sScale / sigmaT, sv, x, sNorm);
      yield s.update(sScale, sv, -omega * sScale, t, r);    // r = s − ω·t
      iterations++;
      sinceShadow++;
      const rNorm = (yield s.norm(r)) as number;
      const next = (yield* settle(rNorm)) as string;
      if (next === 'stop') break;
      if (next === 'restart') continue;
      const rhoNext = (yield s.dot(rHat, r)) as number;
      if (!Number.isFinite(rhoNext)) { stop.breakDown('non-finite'); break; }
      if (rhoVanishes(rhoNext, rNorm)) {
        if (mayRestart()) { if (((yield* breakdownRestart('rho-zero')) as string) === 'stop') break; continue; }
        if (rhoNext === 0) { breakDown('rho-zero'); break; }
      }
      const beta = (rhoNext / rho) * (alpha / omega) * (sigmaT / sigmaV);
      rho = rhoNext;
      yield s.update(-omega * (sigmaV / sigmaT), vv, 1, p, u); // p = r + β·(p − ω·v), p/π stored
      pScale = Math.max(1, pScale / 2 ** 16);
      yield s.update(1 / pScale, r, beta / pScale, u, p);
      pBeta = beta;
    }
  }
  if (stop.status !== 'converged') {
    const lastNorm = (yield* residual(s, b, x, w, start.xScale.factor)) as number;
    // A vanishing ρ, σ or ω with no restart left says nothing of x itself: its true residual may meet the tolerance
    // although the recurrence's did not (fp16 vectors, [[1, −2], [0, 1]], b = (−2, 3): 'rho-zero' with x exact).
    if (stop.status === 'breakdown' && ZERO_BREAKDOWNS.has(stop.breakdown!) && stop.certifies(lastNorm)) stop.converge();
    else if (!(lastNorm <= bestNorm)) yield s.copyExact(best, x);
  }
  return withRestarts(yield* finish(s, start, iterations));
}
