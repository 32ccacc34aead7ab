/**
 * The conjugate gradient method (Hestenes–Stiefel), optionally preconditioned, with every vector behind an
 * accessor of the chosen storage and every kernel in the chosen arithmetic, on the CPU or the GPU.
 * @module
 */
import type { Range } from '../core/range.js';
import type { OperatorLike } from './operator.js';
import type { SolverOptions } from './solver-options.js';
import type { GpuSolverOptions } from './gpu-solve-checks.js';
import { begin, finish, runSolve, validateSolve, type ValidatedSolve } from './solve-start.js';
import type { SolverResult } from './solver-result.js';
import { residual, type Algorithm, type KrylovSpace } from './krylov-space.js';
import { addToSolution, operatorScale } from './solution-scale.js';
import type { BreakdownReason } from './breakdown.js';
import { smallestNormal, storageSmallestNormal } from './underflow-level.js';

/**
 * Solves A·x = b for a symmetric positive definite A by conjugate gradients.
 *
 * Each iteration applies A once and runs two DOTs and three vector updates, all through the vectors' accessors
 * in `options.arithmetic`. When the recurrence's residual meets the tolerance, the true residual b − A·x is
 * recomputed: the solve converges only if it meets the tolerance too; otherwise the recurrence restarts from the
 * true residual, and `stagnationChecks` such checks in a row that do not lower it end the solve (breakdown
 * `stagnation`: the accuracy the storage and arithmetic can attain is reached). A recurrence residual more than
 * 2¹⁰ times above its smallest since the last check (divergence), and a pᵀAp ≤ 0 of a p and an A·p within 1/u of the
 * arithmetic's smallest normal, or a q = A·p among the storage's subnormals (underflow), are checked the same way; a solve that stops short returns the checked
 * iterate of the smallest true residual where its last one is worse (one more vector). pᵀAp < 0 ends it with the
 * breakdown `indefinite`; pᵀAp = 0 to working precision (n·u times the largest curvature met) with A·p ≈ 0 with
 * `singular` — a semidefinite A and an inconsistent b, returning the iterate of the smallest residual. With `backend: 'gpu'` the same iteration runs on resident device arrays and returns a
 * promise (see {@link GpuSolverOptions}).
 * @param A - the matrix or operator (square)
 * @param b - the right-hand side (finite)
 * @param options - tolerance, limit, vector storage and arithmetic, x₀ ({@link SolverOptions})
 * @returns the solution, status, history and recomputed true residual
 * @throws {@link ModprecError} for invalid arguments, before any work: `DIMENSION_MISMATCH` (b, x₀, A not square),
 *   `INVALID_VALUE` (a non-finite entry of b or x₀), `INVALID_OPTION`, `INVALID_FORMAT`
 * @example
 * ```ts
 * import { cg, laplacianEll, formats } from 'modprec';
 *
 * const A = laplacianEll([50]);                       // 1-D Laplacian, SPD
 * const b = new Float64Array(50).fill(1);
 * const r = cg(A, b, { tolerance: 1e-10 });
 * r.status; // → 'converged'
 * r.trueResidualNorm <= 1e-10; // → true
 * r.history[r.history.length - 1] === r.residualNorm; // → true
 * // vectors stored in fp32, arithmetic fp64
 * cg(A, b, { storage: formats.f32, arithmetic: formats.f64, tolerance: 1e-5 }).status; // → 'converged'
 * ```
 * @group Solvers
 */
export function cg(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: SolverOptions & { backend?: 'cpu' }): SolverResult;
/** CG on the GPU: vectors resident on the device, only the scalars come back; a promise of the result. */
export function cg(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options: SolverOptions & GpuSolverOptions): Promise<SolverResult>;
export function cg(A: OperatorLike, b: ArrayLike<number> | Range<1, any>, options?: SolverOptions & (GpuSolverOptions | { backend?: 'cpu' })): SolverResult | Promise<SolverResult> {
  const v = validateSolve('cg', A, b, options);
  return runSolve(v, (s) => conjugateGradients(s, v, false));
}

/**
 * The CG iteration in a space, with the space's preconditioner when `preconditioned` (z = M⁻¹r), for at most
 * `limit` iterations (default `maxIterations`).
 */
export function* conjugateGradients<V>(s: KrylovSpace<V>, v: ValidatedSolve, preconditioned: boolean, limit = v.options.maxIterations): Algorithm<SolverResult> {
  const start = yield* begin(s, v);
  const { b, x, r, t, stop } = start;
  if (start.done) return yield* finish(s, start, 0);
  const z = preconditioned ? s.make() : r;
  const p = s.make();
  const q = s.make();
  let rho = 0;
  // ‖p‖²_M (M the preconditioner, I without one), by the recurrence ‖z + βp‖²_M = ρ' + β²‖p‖²_M (pᵀr' = 0), and the
  // largest curvature pᵀAp/‖p‖²_M met: together they tell a pᵀAp that vanished to working precision.
  let pNorm2 = 0, curvature = 0;
  // q holds A·p/σ, σ a power of two raised where A·p overflows q's storage (fp16 holds 65504: bcsstk01's entries reach
  // 3·10⁹, so A·r overflowed before the first step and CG stopped 'non-finite' at 0 iterations). CG does not depend
  // on the scale of q: pᵀq, the curvature and its floor are in the same units, α·A·p = (ρ/pᵀq)·q, and x takes
  // α = ρ/(σ·pᵀq). σ = 1 (no division) while nothing overflows, so the solve is the same as without it.
  let sigma = 1;
  const n = v.options.n;
  const level = n * v.options.arithmetic.unitRoundoff;
  // (Re)starts the recurrence from the current r: z = M⁻¹r, p = z, ρ = rᵀz.
  function* restart(): Generator<unknown, boolean, any> {
    if (preconditioned) yield s.precondition(r, z);
    rho = (yield s.dot(r, z)) as number;
    yield s.copy(z, p);
    pNorm2 = rho;
    if (!Number.isFinite(rho)) { stop.breakDown('non-finite'); return false; }
    // A residual (or M⁻¹r) that flushed to zero in the vectors' storage (fp16 flushes below 2^-24) while the true
    // residual misses the tolerance: the storage cannot hold a smaller one, so CG cannot go on — not an indefinite A.
    if (rho === 0 && (!preconditioned || ((yield s.norm(z)) as number) === 0)) { stop.breakDown('stagnation'); return false; }
    if (!(rho > 0)) { stop.breakDown('indefinite'); return false; }
    return true;
  }
  // The true residual decides where the recurrence's met the tolerance or can go no further: converged, stagnation, or
  // CG goes on from it (residual replacement, with fresh directions). Returns whether CG goes on.
  function* judge(): Generator<unknown, boolean, any> {
    const trueNorm = (yield* residual(s, b, x, t, start.xScale.factor)) as number;
    const verdict = stop.judgeTrue(trueNorm);
    if (trueNorm < bestNorm) { bestNorm = trueNorm; yield s.copyExact(x, best); }
    if (verdict === 'converged') { stop.converge(); return false; }
    if (verdict === 'stagnation') { stop.breakDown('stagnation'); return false; }
    yield s.copy(t, r);
    return (yield* restart()) as boolean;
  }
  // ‖p‖₂·‖q‖₂ at most this: pᵀq's products lie within 1/u of the arithmetic's smallest normal, where underflow errors
  // (up to that normal each, flushing GPUs included) pass the rounding level n·u·‖p‖·‖q‖ the floor below stands for.
  const underflow = n * smallestNormal(v.options.arithmetic) / v.options.arithmetic.unitRoundoff;
  // ‖q‖₂ and the ‖A·p‖₂ the curvature met expects at most this: q's entries sit among the storage's subnormals (or
  // flush), so a q = 0 says nothing about A·p (fp16 vectors on an SPD diagonal: r and p fell to 1e-7, q stored as 0,
  // and CG stopped 'singular' after 7 iterations).
  const storageUnderflow = Math.sqrt(n) * storageSmallestNormal(v.options.storage);
  // Before any curvature is met nothing says how large A·p should be, and a q among the storage's subnormals (or 0) may
  // be an A·p that flushed there — fp32 vectors, fp64 arithmetic, A = 1e-300·I: q = 0 and CG stopped 'singular' at 0
  // iterations on a regular A. A·p measured where true residuals are (fp64 for narrow vectors, into t) tells: not 0
  // means it flushed (an underflow, checked as above), 0 means A·p = 0.
  function* flushedProduct(): Generator<unknown, boolean, any> {
    yield s.wide.apply(1 / sigma, p, 0, t);
    return ((yield s.wide.norm(t)) as number) > 0;
  }
  // The checked iterate of the smallest true residual (x₀ to begin with), one more vector: what a solve that stops short
  // returns where its last x is worse (a recurrence that diverged before a check caught it), as GMRES does.
  const best = s.make();
  yield s.copyExact(x, best);
  let bestNorm = start.rNorm;
  let iterations = 0;
  if ((yield* restart()) as boolean) {
    // q's first scale, from ‖A·p‖/‖p‖ where the vectors are narrow (see operatorScale): curvature is still 0.
    sigma = (yield* operatorScale(s, v.options.storage, p, t)) as number;
    while (iterations < limit) {
      let pq: number;
      for (;;) {
        yield s.apply(1 / sigma, p, 0, q);
        pq = (yield s.dot(p, q)) as number;
        // A non-finite pᵀq from a finite p (ρ and ‖p‖² finite) is an overflow of A·p or of its storage: scaled down by
        // 2^16 a time (fp16's whole range), at most up to 2^128 (an fp32 or bf16 overflow needs more than that).
        if (Number.isFinite(pq) || !Number.isFinite(pNorm2) || sigma >= 2 ** 128) break;
        sigma *= 2 ** 16;
        curvature /= 2 ** 16;
      }
      if (!Number.isFinite(pq)) { stop.breakDown('non-finite'); break; }
      // pᵀAp at the rounding level of the largest curvature met: the step α = ρ/pᵀAp would be a blow-up, so it is not
      // taken. Semidefinite A: then A·p ≈ 0 ('singular', see below for x); else 'indefinite'.
      let floor = level * curvature * pNorm2;
      if (!(pq > floor)) {
        // Before judging, ‖p‖₂ and ‖q‖₂ once (this path only).
        const [qNorm, pNorm] = (yield s.both(s.norm(q), s.norm(p))) as [number, number];
        if (curvature > 0 && !preconditioned) {
          // pNorm2 comes from a recurrence that assumes pᵀr = 0, which narrow vectors lose: with fp16 vectors it reached
          // 5·10¹⁵ for a ‖p‖² near 2, and an SPD diagonal A was called 'indefinite'. The measured one decides
          // (preconditioned, pNorm2 is ‖p‖²_M, which needs M itself, not M⁻¹).
          pNorm2 = pNorm * pNorm;
          floor = level * curvature * pNorm2;
        }
        if (!(pq > floor)) {
          // p and q so small that pᵀq underflowed (fp32, tolerance 0: ρ and ‖p‖² fell to 1e-45 and pᵀq to 0, and an SPD
          // matrix read as 'indefinite'): the attainable accuracy is reached, as where ρ underflows below. Both ‖p‖·‖q‖
          // and the pᵀAp the curvature met expects must be that small: q = 0 from a p of size is an A·p = 0 (singular).
          if ((curvature > 0 && (Math.max(pNorm * qNorm, curvature * pNorm2) <= underflow || Math.max(qNorm, curvature * pNorm) <= storageUnderflow))
            || (curvature === 0 && pq >= 0 && qNorm <= storageUnderflow && ((yield* flushedProduct()) as boolean))) {
            if (!((yield* judge()) as boolean)) break;
            continue;
          }
          stop.breakDown(curvatureBreakdown(pq, floor, curvature, level, qNorm, pNorm));
          break;
        }
      }
      curvature = Math.max(curvature, pq / pNorm2);
      // α̃ = ρ/pᵀq scales q = A·p/σ; x takes α = α̃/σ (σ a power of two: exact unless α underflows).
      const alpha = rho / pq;
      if (!Number.isFinite(alpha)) { stop.breakDown('non-finite'); break; }
      yield* addToSolution(s, start.xScale, alpha / sigma, p, x);
      yield s.update(-alpha, q, 1, r, r);
      iterations++;
      let rhoNext: number, rNorm: number;
      if (preconditioned) {
        yield s.precondition(r, z);
        rhoNext = (yield s.dot(r, z)) as number;
        rNorm = (yield s.norm(r)) as number;
      } else {
        rhoNext = (yield s.dot(r, r)) as number;
        rNorm = Math.sqrt(rhoNext);
      }
      // ρ' = rᵀz = 0 with r ≠ 0 is an underflow of the products (jacobiCg, fp32, tolerance 0: the recurrence residual
      // falls on to 1e-23 while x stagnates), not an indefinite A: check the true residual as when the tolerance is met.
      // A diverging recurrence (see DIVERGENCE_FACTOR) is checked against the true residual too, and so is one that stopped
      // moving (ρ' = ρ: α·q too small to change r in its storage — fp16 vectors on diag(1/2, 1, 1/4) held ‖r‖ at 4.9e-8
      // for 1000 iterations, to the limit, where the true residual had stagnated).
      const met = stop.record(rNorm) || (preconditioned && rhoNext === 0) || stop.diverges() || rhoNext === rho;
      if (stop.trueHistory) stop.recordTrue((yield* residual(s, b, x, t, start.xScale.factor)) as number);
      if (met) {
        if (!((yield* judge()) as boolean)) break;
        continue;
      }
      if (!Number.isFinite(rhoNext) || !Number.isFinite(rNorm)) { stop.breakDown('non-finite'); break; }
      if (!(rhoNext > 0)) { stop.breakDown('indefinite'); break; }
      const beta = rhoNext / rho;
      rho = rhoNext;
      pNorm2 = rhoNext + beta * beta * pNorm2;
      yield s.update(1, z, beta, p, p);
    }
  }
  if (stop.status !== 'converged' && stop.breakdown !== 'singular' && !(((yield* residual(s, b, x, t, start.xScale.factor)) as number) <= bestNorm)) yield s.copyExact(best, x);
  if (stop.breakdown === 'singular') {
    // On an inconsistent system no CG iterate solves anything, and the last ones grow along A's null space (the
    // Galerkin condition asks for the impossible): return the iterate of the smallest residual, by running the same
    // (deterministic) iteration again up to it — a cost paid on this path only, not a copy of x every iteration.
    const best = stop.history.indexOf(Math.min(...stop.history));
    if (best < iterations) {
      const again = (yield* conjugateGradients(s, v, preconditioned, best)) as SolverResult;
      // That iterate may overflow at b's scale (finish): x₀ comes back, and 'non-finite' says why.
      if (again.breakdown === 'non-finite') return again;
      return Object.freeze({ ...again, status: 'breakdown' as const, breakdown: 'singular' as const });
    }
  }
  return yield* finish(s, start, iterations);
}

/**
 * Why pᵀAp ≤ `floor` (zero, or the rounding level of the curvature met so far) stopped CG. Negative beyond that level:
 * `indefinite`. Otherwise it vanished, and a semidefinite A has pᵀAp = 0 only where A·p = 0: `singular` when ‖A·p‖ is
 * within √(n·u) of the largest curvature times ‖p‖ (exactly 0 before any curvature is known) — A is singular along p,
 * b has a part outside A's range (an inconsistent system: the energy CG minimises has no minimum) —, else
 * `indefinite` (pᵀAp = 0 with A·p ≠ 0 happens only for an indefinite A).
 */
function curvatureBreakdown(pq: number, floor: number, curvature: number, level: number, qNorm: number, pNorm: number): BreakdownReason {
  if (pq < -floor || (curvature === 0 && pq < 0)) return 'indefinite';
  return qNorm <= Math.sqrt(level) * curvature * pNorm ? 'singular' : 'indefinite';
}
