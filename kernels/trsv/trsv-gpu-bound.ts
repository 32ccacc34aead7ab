/**
 * The error bound of the GPU's TRSV (kernels/trsv/trsv-webgpu.ts), which is not substitution: op(A) = T is cut into
 * diagonal blocks D_k of bs rows (the `blockSize` option: 64, the default, 128 or 256), each block's inverse X̂_k is computed on the
 * device, and in substitution order x̂_k = fl(X̂_k·r̂_k), then r̂_i −= fl(Σ_{j∈k} t_ij·x̂_j) for the rows still
 * to solve; x̂ stays in the arithmetic until the last pass writes it to x's storage (x̄).
 *
 * Model: each GPU operation errs by at most u relatively (f32: 2^-24, fma or not; ff: FF_UNIT_ROUNDOFF), a
 * division by u_d (WGSL allows 2.5 ulp for binary32 division: u_d = 5·2^-24; the float-float division's one
 * correction then errs by < 64u₃₂² = 4·FF_UNIT_ROUNDOFF); a read into the arithmetic rounds as on the CPU
 * (ρ_A, ρ_b: one u where the storage is wider), the last write once to the storage (w, and η absolute for
 * subnormals; 2^-126 into f32/bf16 words, which a GPU may flush). No overflow (a run that overflows is redone: step 7). Underflow inside the arithmetic is
 * Higham's absolute term: fl(x ∘ y) = (x ∘ y)(1 + δ) + η, |η| ≤ λ = arithmeticLimits' opEta (2^-126 for f32, since a
 * GPU may flush binary32 results and operands below 2^-126 to ±0; 32·2^-126 a float-float operation), see step 6.
 *
 * Claim and proof sketch (after Higham, Accuracy and Stability, §8.1–8.2 and §14.3; Du Croz & Higham 1992):
 * 1. Inverse. Column c of X̂_k is a substitution on D̃·y = e_c (a row's fma chain over ≤ bs − 1 terms, one
 *    subtraction, one division), so (D_k + Δ_c)·ŷ_c = e_c with |Δ_c| ≤ ω·|D_k|,
 *    ω = ρ_A ⊕ max(γ_{bs+1}, γ_1 ⊕ γ_1(u_d)) (⊕: composed relative errors). Hence |D_k·X̂_k − I| ≤ ω|D_k||X̂_k|,
 *    and since M(D + Δ_c) ≥ M_ω(D) := (|d_jj|(1 − ω) on the diagonal, −|d_jl|(1 + ω) off it), both triangular
 *    M-matrices, |ŷ_c| ≤ M(D + Δ_c)⁻¹e_c ≤ M_ω(D)⁻¹e_c (Thm 8.12): Z_k := M_ω(D_k)⁻¹ ≥ |X̂_k|.
 *    (The inverse pass runs the same chain for every bs; only its length, ≤ bs − 1, depends on it.)
 * 2. Block solve: four accumulators of bs/4 fma steps and two combining additions (the loop reads 16 entries per
 *    iteration into accumulator q mod 4, for any bs a multiple of 16: 64, 128, 256), so
 *    x̂_k = (X̂_k + F)·r̂_k with |F| ≤ γ_s|X̂_k|, s = bs/4 + 3; thus D_k·x̂_k = r̂_k + g_k with
 *    |g_k| ≤ c·|D_k|·Z_k·|r̂_k|, c = ω + γ_s.
 *    (The one-dispatch solve of 64-row blocks, kernels/trsv/trsv-walker-source.ts, multiplies by X̂_k the same
 *    way: four quarters of 16 fma steps each, then three additions.)
 * 3. Updates: each block's sum (the same four accumulators over the block's bs columns) errs by φ,
 *    |φ| ≤ e·Σ|t_ij||x̂_j| with e = ρ_A ⊕ γ_s; the subtraction adds η_t
 *    (the one-dispatch solve sums all earlier columns of a row at once — per thread a chain over its 16 columns
 *    of every earlier tile, the four quarters combined, the helper's and walker's parts added: at most
 *    L = c/4 + 10 roundings for c earlier columns — and subtracts once, so there e = ρ_A ⊕ γ_L and K = 1;
 *    its forms under test (TrsvKernelSwitches: a thread over every fourth column instead of 16 adjacent ones, float-float
 *    terms added lazily, each within one float-float rounding unit, quarters added pairwise) keep these counts or lower them;
 *    the bound below takes e = ρ_A ⊕ γ_max(s, L) and the blocked solve's K ≥ 1, covering both algorithms)
 *    with |η_t| ≤ γ_1·|the new residual|. For row i with K updates, every intermediate residual is at most
 *    Q_i + Σ|η| with Q_i = |r̂_i| + (1 + e)·S_i, S_i = Σ_{j in earlier blocks}|t_ij||x̂_j|, so Σ|η| ≤
 *    E_i = Q_i·((1 + γ_1)^K − 1).
 * 4. Putting the blocks together, T·x̂ − b = Δ with Δ = (b̃ − b) + Σ η − Σ φ + g, and |b̃ − b| ≤ γ(ρ_b)·(Q + E)
 *    (b̃ = r̂ + Σ ŝ − Σ η is the b read), so |x̂ − x| = |T⁻¹Δ| ≤ M(T)⁻¹|Δ| (Thm 8.12) with
 *    |Δ_i| ≤ γ(ρ_b)(Q_i + E_i) + E_i + e·S_i + |g_i| + β_i + Σ_{0 < |t_ij| < η_r} |t_ij|·|x̂_j|.
 *    The last two terms are the reads' underflow: a value below the arithmetic's normal range η_r (arithmeticLimits'
 *    readEta: 2^-126 for f32 and ff, whose reads of a wider storage give ±0 there) errs absolutely, not relatively —
 *    an entry t_ij by at most |t_ij| (T̃·x̂ carries it times |x̂_j|), and bᵢ, gone after the call, by β_i = η_r where
 *    its storage is wider than the arithmetic (0 otherwise: the read is exact).
 * 5. |x̂| ≤ (1 + w)(|x̄| + η) and |x̄ − x| ≤ |x̂ − x| + w(|x̄| + η) + η.
 * 6. Underflow in the arithmetic, propagated as the relative terms are. Inverse: row i of a column's substitution
 *    adds ≤ m absolute errors λ in its chain (m ≤ bs the block's rows: an fma whose product is an exact zero adds
 *    none; each carried on by ≤ (1 + γ_m)) and the division's, which the
 *    residual sees times |d_ii| — λ·|d_ii| for f32; float-float's correction step divides its own flushed parts by
 *    d_ii again, λ(|d_ii| + 1) in all: (D + Δ_c)ŷ_c = e_c + h_c, |h_c| ≤ h̄ = λ(m(1 + γ_m) + (|d_ii| + 1)(1 + 2u_d)), so
 *    |X̂_k| ≤ Z_k + Z_k·h̄·1ᵀ and D_k·X̂_k = I + H − [Δ_c ŷ_c]. Block product: ≤ m + 3 operations with a non-zero
 *    product per entry, so x̂_k = (X̂_k + F)r̂_k + a, |a| ≤ λ(m + 3)(1 + γ_s), and |g_k| ≤ c|D_k|(Z_k|r̂_k| + Z_k h̄·Σ|r̂_k|) + h̄·Σ|r̂_k|
 *    + |D_k|·a — still non-negative and linear in |r̂_k| plus a constant, which the search for R (below) takes as it
 *    is. Updates: row i's sums and subtractions are its earlier columns' fmas plus 4K
 *    (blocked: three additions and a subtraction per update) or plus 11 (one dispatch), each λ: that many λ(1 + γ) join Δ_i and the residual's magnitude Q_i. The term matters only where
 *    products or entries of the inverse fall near 2^-126 (test/gpu/trsv-gpu-bound-flush.test.ts: a JavaScript copy of
 *    this algorithm that flushes every operation stays inside, as does llvmpipe, which keeps subnormals).
 * 7. Redo. Where a computed x̂ is ±∞ or NaN the GPU solves again by substitution (kernels/trsv/trsv-substitution-source.ts),
 *    and an inverse entry overflows where substitution does not: dd, T = [[0.25], [9.56e-299, 9.56e-299],
 *    [5e-324, 2.99e-300, 3e-310]] (1/3e-310 is ∞), whose substituted x₃ errs by 8.2e-15 (a product rounded to a
 *    subnormal, divided by 3e-310) against the steps above's 4.6e-31. So the bound is the larger of the above and the
 *    substitution's (trsvBound's CPU bound in the arithmetic, for x̃ kept in it: times 1 + 2w, plus the write) unless
 *    the blocked run stayed finite, which is checked from x̄ alone: were the run redone, x̄ would be the substitution's
 *    and |b̃| ≤ 4(|T||x̃| + η's); from that bound, block by block, |X̂_k| ≤ Z_k + Z_k h̄·1ᵀ (and the inverse's sums
 *    |D_k||X̂_k|), |r̂_k| and |x̂_k| = |X̂_k r̂_k| (factors 4 over the model's) all stay below max·2^-20 — then that run
 *    was finite, so no redo: a contradiction, and x̄ is the blocked run's.
 * Every quantity is evaluated in fp64 as an upper bound: each sum of non-negative terms inflated for its roundings, and
 * each product or quotient raised by the smallest double (`mul`, `div`), which a result rounded into fp64's subnormals
 * may lose — the underflow terms live there in double-double (λ = 2^-1074): dd, T = [0.06640625], b = 8.289046e-317 had
 * a bound of 0 (λ·|d| flushed) for an x̂ = b/d off by up to 2^-1075.
 * b is gone after the call, so |r̂_k| is bounded from x̂: |r̂_k| ≤ |D_k||x̂_k| + |g_k| ≤ v + B·|r̂_k| with
 * v = |D_k||x̂_k|, B = c|D_k|Z_k ≥ 0. Any R ≥ 0 with v + B·R ≤ R bounds |r̂_k| (then ρ(B) < 1 and
 * (I − B)⁻¹ ≥ 0); R is found by iterating R ← v + B·R and checked; where no such R is found (a block
 * conditioned so badly that the inverse may carry no correct digit) the block's rows, and every row that
 * depends on them, get +∞. Every quantity is a non-negative sum evaluated in fp64 and inflated
 * (accessor-rounding.ts), so each computed value is an upper bound of the exact one. Compared with
 * substitution's bound M(T)⁻¹·γ_n|T||x̂|, the extra factor is |D_k|·|D_k⁻¹| per block: the price of the
 * explicit inverses, large exactly when a diagonal block is ill conditioned.
 * @module
 */
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { gamma } from '../shared/accumulation.js';
import { arithmeticGpuFacts } from '../../src/formats/common/gpu-facts.js';
import { compose, inflate, matrixMagnitudes, orInfinity, readRoundings, vectorMagnitudes, vectorScales, writeError } from '../shared/accessor-rounding.js';
import type { CheckedTrsv } from './trsv-arguments.js';
import { arithmeticLimits, scaleUnderflowErrorAt, storageLimits } from '../shared/bound-terms.js';

/** The diagonal block size TRSV runs with on `backend: 'gpu'` (gpuTrsv's default blockSize). */
export const GPU_TRSV_BLOCK_SIZE = 64;

/** Relative error of one GPU division, as the arithmetic's GPU part states it (CPU-only arithmetics: 4u). */
function divisionError(ar: ArithmeticFormat): number {
  return arithmeticGpuFacts(ar)?.divisionError ?? 4 * ar.unitRoundoff;
}

/**
 * How the GPU's last pass writes x̂ into x's storage: rounds once to it unless the value fits (f32 into ≥ 24 bits).
 * The absolute part is per unit of x's scale (the stored word errs by it; the value by it times |s|).
 */
function gpuWriteError(x: CheckedTrsv['x'], ar: ArithmeticFormat): { relative: number; absolute: number } {
  const st = x.accessor.storage;
  const cpu = writeError(x.accessor, ar);
  // A binary32 or bfloat16 word below 2^-126 may be flushed to ±0 as it is written.
  const flush = !st.isInteger && st.maxValue < 2 ** 128 && storageLimits(st).eta < 2 ** -126 ? 2 ** -126 : 0;
  const absolute = Math.max(cpu.absolutePerScale, flush);
  const fits = arithmeticGpuFacts(ar)?.valueBits;
  if (fits !== undefined && st.significandBits >= fits && !st.isInteger) return { relative: 0, absolute };
  // A float-float value may need more than 53 bits: even an f64 write rounds.
  return { relative: gamma(1, st.unitRoundoff), absolute };
}

/**
 * Per-component bounds on |x̄ᵢ − xᵢ| after `trsv(args, { backend: 'gpu', … })` (see the module comment).
 * @param t - the validated arguments (x holding the GPU's x̄)
 * @param ar - the arithmetic the GPU ran (f32 or ff)
 * @param bs - the diagonal block size ({@link GPU_TRSV_BLOCK_SIZE} in f32 and ff)
 * @param substitution - the substitution's bound (trsvBound's CPU bound in `ar`), for a run that may have been redone by it
 * @returns a Float64Array of length n (+∞ where nothing finite can be promised)
 * @example
 * ```ts
 * // what trsvBound(args, { backend: 'gpu', arithmetic: formats.f32 }) returns after the GPU run
 * const bound = gpuTrsvBound(checkTrsvArguments(args), formats.f32, 64, () => trsvBound(args, { arithmetic: formats.f32 }));
 * ```
 */
export function gpuTrsvBound(t: CheckedTrsv, ar: ArithmeticFormat, bs: number, substitution: () => Float64Array): Float64Array {
  const { T, x, lower, unit, n } = t;
  const u = ar.unitRoundoff;
  const rhoA = gamma(readRoundings(T, ar), u);
  const rhoB = gamma(readRoundings(x.accessor, ar), u);
  const omega = compose(rhoA, Math.max(gamma(bs + 1, u), compose(gamma(1, u), gamma(1, divisionError(ar)))));
  const gs = gamma(bs / 4 + 3, u);
  const c = omega + gs;
  const g1 = gamma(1, u);
  const gpuWrite = gpuWriteError(x, ar);
  const { readEta, opEta: lambda } = arithmeticLimits(ar);
  const scaleX = vectorScales(x.accessor);
  // The write's absolute error is per unit of x's scale: element i's is that times |sᵢ| (an f64 x under a scale of 1e38
  // kept 0 for 0.001, q = 1e-41 being below 2^-126; the bound took 2^-149).
  const write = { relative: gpuWrite.relative, absolute: 0 };
  const absoluteOf = (i: number): number => gpuWrite.absolute * scaleX(i);
  // b is gone after the call: a read that rounds, or a binary32 subnormal that a read may flush, errs by ≤ readEta —
  // on the stored q: under a scale, by readEta·|sᵢ| where q may lie below 2^-126 (the device reads it as ±0).
  const mayFlush = !x.accessor.storage.isInteger && storageLimits(x.accessor.storage).eta < readEta;
  const bReadEta = readRoundings(x.accessor, ar) > 0 || mayFlush ? readEta : 0;
  const bReadOf = (i: number): number => bReadEta + (x.accessor.scale && mayFlush ? readEta * scaleX(i) : 0);
  const absT = matrixMagnitudes(T);
  const t_ = (i: number, j: number): number => (i === j && unit ? 1 : absT(i, j));
  const xbar = Float64Array.from({ length: n }, (_, i) => vectorMagnitudes(x.accessor)(i));
  const out = new Float64Array(n);
  if (!xbar.every(Number.isFinite) || !triangleIsFinite(n, lower, t_)) return out.fill(Infinity);
  const xh = xbar.map((v, i) => inflate(mul(1 + write.relative, v + absoluteOf(i)), 3));
  const blocks = Math.ceil(n / bs);
  const delta = new Float64Array(n);
  // The overflow check (step 7): |b̃| if the run was redone (from x̄), the blocked run's |r̂| and |x̂| bounded from it.
  const limit = arithmeticLimits(ar).max * 2 ** -20;
  const beta = redoneRightHandSide(n, lower, t_, xh, readEta, lambda);
  const xBlocked = new Float64Array(n);
  let finiteRun = true;
  for (let k = 0; k < blocks; k++) {
    const k0 = k * bs, k1 = Math.min(n, k0 + bs);
    const m = k1 - k0;
    // Updates row i received: one per block solved before its own.
    const updates = lower ? k : blocks - 1 - k;
    // The earlier columns' sum: the blocked solve's per-block sums (γ_s) or the one-dispatch solve's single sum (γ_L).
    const e = compose(rhoA, Math.max(gs, gamma(Math.ceil((updates * bs) / 4) + 10, u)));
    const S = new Float64Array(m);
    for (let i = k0; i < k1; i++) {
      const [from, to] = lower ? [0, k0] : [k1, n];
      let s = 0;
      for (let j = from; j < to; j++) s += mul(t_(i, j), xh[j]!);
      S[i - k0] = inflate(s, 2 * (to - from));
    }
    const D = (i: number, j: number): number => t_(k0 + i, k0 + j);
    // Underflow (step 6): the inverse's residual h̄, the block product's absolute error a and D·a.
    const hBar = Float64Array.from({ length: m }, (_, i) => inflate(mul(lambda, m * (1 + gamma(m, u)) + (D(i, i) + 1) * (1 + 2 * divisionError(ar))), 6));
    const zh = comparisonSolve(D, m, lower, omega, hBar);
    const blockProductEta = inflate(mul(lambda, (m + 3) * (1 + gs)), 3);
    if (finiteRun) finiteRun = blockStaysFinite(D, m, lower, omega, hBar, blockProductEta, limit, k0, beta, xBlocked, (i, j) => t_(i, j), lower ? [0, k0] : [k1, n], lambda * (n + 64));
    const v = new Float64Array(m);
    const Da = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      const [from, to] = lower ? [0, i + 1] : [i, m];
      let s = 0, d = 0;
      for (let j = from; j < to; j++) { s += mul(D(i, j), xh[k0 + j]!); d += D(i, j); }
      Da[i] = inflate(mul(d, blockProductEta), 2 * (to - from) + 1);
      v[i] = inflate(s + Da[i]!, 2 * (to - from) + 1);
    }
    // |g| ≤ c|D|(Z|r̂| + Z h̄·Σ|r̂|) + h̄·Σ|r̂| + |D|·a (the last part, a constant, sits in v).
    const spread = scaledProduct(D, m, lower, c, zh).map((value, i) => inflate(value + hBar[i]!, 1));
    const B = (y: Float64Array): Float64Array => {
      let total = 0;
      for (let i = 0; i < m; i++) total += y[i]!;
      total = inflate(total, m);
      return add(scaledProduct(D, m, lower, c, comparisonSolve(D, m, lower, omega, y)), spread.map((value) => inflate(mul(value, total), 1)));
    };
    const R = superSolution(v, B);
    const G = R ? add(B(R), Da) : undefined;
    const growth = powerMinusOne(g1, updates);
    // The updates' sums and subtractions: an fma per earlier column (a zero product adds no error), then 3 additions
    // and a subtraction per update (blocked) or ≤ 11 in all (one dispatch).
    const earlier = lower ? k0 : n - k1;
    const updateOps = updates > 0 ? earlier + Math.max(4 * updates, 11) : 0;
    const updateEta = inflate(mul(lambda, updateOps * (1 + gamma(updateOps, u))), 3);
    for (let i = 0; i < m; i++) {
      const r = R ? R[i]! : Infinity;
      const q = inflate(r + mul(1 + e, S[i]!) + updateEta, 3);
      const eta = inflate(mul(q, growth), 1);
      // Reads that underflow (step 4): b̃ᵢ, and row i's tiny referenced entries times |x̂ⱼ|.
      const row = k0 + i;
      const [from, to] = lower ? [0, row + 1] : [row, n];
      let tiny = 0;
      for (let j = from; j < to; j++) if (!(j === row && unit) && t_(row, j) > 0 && t_(row, j) < readEta) tiny += mul(t_(row, j), xh[j]!);
      // (A scaled entry whose stored value or scale lies below the normal range errs absolutely by up to
      // scaleUnderflowErrorAt, times |x̂ⱼ|, however large the entry it represents.)
      if (T.scale) for (let j = from; j < to; j++) if (!(j === row && unit)) tiny += mul(scaleUnderflowErrorAt(T, ar, [row, j]), xh[j]!);
      const readUnderflow = inflate(bReadOf(row) + tiny, 2 * (to - from) + 2);
      delta[row] = inflate(mul(rhoB, q + eta) + eta + mul(e, S[i]!) + (G ? G[i]! : Infinity) + readUnderflow + updateEta, 10);
    }
  }
  // |x̂ − x| ≤ M(T)⁻¹|Δ|: a substitution on non-negative numbers, each step inflated (an upper bound).
  for (let step = 0; step < n; step++) {
    const i = lower ? step : n - 1 - step;
    const [from, to] = lower ? [0, i] : [i + 1, n];
    let s = delta[i]!;
    for (let j = from; j < to; j++) s += mul(t_(i, j), out[j]!);
    out[i] = orInfinity(inflate(div(s, t_(i, i)), 2 * (to - from) + 4));
  }
  for (let i = 0; i < n; i++) out[i] = orInfinity(inflate(out[i]! + mul(write.relative, xbar[i]! + absoluteOf(i)) + absoluteOf(i), 4));
  if (finiteRun) return out;
  // Possibly redone by substitution (x̃ in the arithmetic, written once): the substitution's bound, in terms of
  // |x̃| ≤ (1 + w)(|x̄| + η), plus the write.
  const redone = substitution();
  for (let i = 0; i < n; i++) {
    const r = inflate(mul(1 + 2 * write.relative, redone[i]!) + mul(write.relative, xbar[i]! + absoluteOf(i)) + absoluteOf(i), 4);
    out[i] = orInfinity(Math.max(out[i]!, r));
  }
  return out;
}

/**
 * Bounds on |b̃ᵢ| (b as read into the arithmetic) if the run was redone by substitution, from x̃ (|x̃| ≤ xh): the
 * substitution's row i gives b̃ᵢ − ŝᵢ = t̃ᵢᵢx̃ᵢ(1 + δ)⁻¹ + η with ŝᵢ its sum, so |b̃ᵢ| ≤ Σⱼ|tᵢⱼ||x̃ⱼ| up to factors
 * (1 + γ) and absolute terms that the factor 4 and the additions here exceed.
 */
function redoneRightHandSide(n: number, lower: boolean, t: (i: number, j: number) => number, xh: Float64Array, readEta: number, lambda: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => {
    const [from, to] = lower ? [0, i + 1] : [i, n];
    let s = 0, sx = 0;
    for (let j = from; j < to; j++) { s += t(i, j) * xh[j]!; sx += xh[j]!; }
    return inflate(4 * (s + readEta * sx + lambda * (n + 4) + readEta), 2 * (to - from) + 4);
  });
}

/**
 * Whether block k's part of the blocked run stays finite (step 7), given bounds beta on |b̃| and xBlocked on the
 * blocked run's |x̂ⱼ| of the earlier blocks (filled in here for block k's rows): its inverse (|X̂_k| ≤ Z_k + Z_k h̄·1ᵀ,
 * the chains' sums ≤ |D_k|·|X̂_k|), its residuals (|r̂ᵢ| ≤ |b̃ᵢ| + (1 + e)Σ|tᵢⱼ||x̂ⱼ| + the updates' η, every
 * intermediate sum too) and its product X̂_k·r̂_k, each below `limit` — far enough below the arithmetic's largest
 * value that no operation of the chains overflows (each bound carries factors ≥ 4 over the model's (1 + γ)).
 */
function blockStaysFinite(D: (i: number, j: number) => number, m: number, lower: boolean, omega: number, hBar: Float64Array,
  productEta: number, limit: number, k0: number, beta: Float64Array, xBlocked: Float64Array, t: (i: number, j: number) => number,
  earlier: [number, number], updateEta: number): boolean {
  const below = (v: Float64Array): boolean => v.every((value) => value < limit);
  const zh = comparisonSolve(D, m, lower, omega, hBar);
  let hSum = 0;
  for (let i = 0; i < m; i++) hSum += zh[i]!;
  // Row sums of |X̂_k| (each entry's bound) and |D_k|·those (the inverse's chains).
  const rows = comparisonSolve(D, m, lower, omega, new Float64Array(m).fill(1)).map((value, i) => inflate(value + zh[i]! * m, 2));
  if (!below(rows) || !below(scaledProduct(D, m, lower, 4, rows))) return false;
  const r = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = 0;
    for (let j = earlier[0]; j < earlier[1]; j++) s += t(k0 + i, j) * xBlocked[j]!;
    r[i] = inflate(4 * (beta[k0 + i]! + s + updateEta), 2 * (earlier[1] - earlier[0]) + 4);
  }
  let total = 0;
  for (let i = 0; i < m; i++) total += r[i]!;
  const product = comparisonSolve(D, m, lower, omega, r).map((value, i) => inflate(4 * (value + zh[i]! * total * (1 + hSum) + productEta), 4 + m));
  product.forEach((value, i) => { xBlocked[k0 + i] = value; });
  return below(r) && below(product);
}

/**
 * a·b and a/b for a, b ≥ 0, never below the exact value by more than the relative rounding that {@link inflate} covers:
 * a result in the subnormal range loses up to 2^-1075 absolutely, which one smallest double makes up (the bound's
 * underflow terms, λ = 2^-1074 in double-double, live there: λ·|d| for a pivot d < 1 became 0 and x̂ = b/d, rounded to a
 * multiple of 2^-1074, had a bound of 0). Sums need nothing: an addition into the subnormal range is exact.
 */
function mul(a: number, b: number): number {
  return a * b + Number.MIN_VALUE;
}

/** See {@link mul}. */
function div(a: number, b: number): number {
  return a / b + Number.MIN_VALUE;
}

/** Whether every entry of T's triangle (the diagonal included) is finite. */
function triangleIsFinite(n: number, lower: boolean, t: (i: number, j: number) => number): boolean {
  for (let i = 0; i < n; i++) {
    const [from, to] = lower ? [0, i + 1] : [i, n];
    for (let j = from; j < to; j++) if (!Number.isFinite(t(i, j))) return false;
  }
  return true;
}

/** (1 + g)^k − 1 as a sum of non-negative terms, rounded up. */
function powerMinusOne(g: number, k: number): number {
  let r = 0;
  for (let q = 0; q < k; q++) r = compose(r, g);
  return inflate(r, 3 * k);
}

/**
 * M_ω(D)⁻¹·y for y ≥ 0 (rows solved in substitution order), an upper bound: M_ω(D) has |d_jj|(1 − ω) on the
 * diagonal and −|d_jl|(1 + ω) off it, so the substitution adds and divides non-negative numbers only.
 */
function comparisonSolve(D: (i: number, j: number) => number, m: number, lower: boolean, omega: number, y: Float64Array): Float64Array {
  const z = new Float64Array(m);
  for (let step = 0; step < m; step++) {
    const i = lower ? step : m - 1 - step;
    const [from, to] = lower ? [0, i] : [i + 1, m];
    let s = 0;
    for (let j = from; j < to; j++) s += mul(D(i, j), z[j]!);
    z[i] = inflate(div(div(y[i]! + mul(1 + omega, s), D(i, i)), 1 - omega), 2 * (to - from) + 8);
  }
  return z;
}

/** c·|D|·z for z ≥ 0, an upper bound. */
function scaledProduct(D: (i: number, j: number) => number, m: number, lower: boolean, c: number, z: Float64Array): Float64Array {
  const out = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const [from, to] = lower ? [0, i + 1] : [i, m];
    let s = 0;
    for (let j = from; j < to; j++) s += mul(D(i, j), z[j]!);
    out[i] = inflate(mul(c, s), 2 * (to - from) + 1);
  }
  return out;
}

/**
 * Some R ≥ 0 with v + B(R) ≤ R componentwise (B linear with non-negative entries, evaluated as an upper
 * bound), or undefined when iterating R ← v + B(R) does not settle (ρ(B) near or above 1). The candidate is
 * made positive and the check strict (B·R ≤ (1 − 2^-40)·R), which proves ρ(B) < 1; then (I − B)⁻¹ ≥ 0 and
 * |r̂| ≤ v + B|r̂| gives |r̂| ≤ (I − B)⁻¹v ≤ R. With v = 0 that is |r̂| = 0.
 */
function superSolution(v: Float64Array, B: (y: Float64Array) => Float64Array): Float64Array | undefined {
  let y = v;
  for (let iteration = 0; iteration < 200; iteration++) {
    const next = add(v, B(y));
    let settled = true;
    for (let i = 0; i < y.length; i++) {
      const a = next[i]!, b = y[i]!;
      if (!(a <= b * (1 + 2 ** -40)) || (a > 0 && b === 0)) settled = false;
    }
    y = next;
    if (settled) break;
  }
  const top = y.reduce((a, b) => Math.max(a, b), 0);
  const floor = top > 0 ? top * 2 ** -60 : 1;
  const candidate = y.map((value) => value * (1 + 2 ** -20) + floor);
  const check = add(v, B(candidate));
  for (let i = 0; i < v.length; i++) if (!(check[i]! <= candidate[i]! * (1 - 2 ** -40))) return undefined;
  return top > 0 ? candidate : new Float64Array(v.length);
}

/** a + b for non-negative vectors, rounded up. */
function add(a: Float64Array, b: Float64Array): Float64Array {
  return a.map((value, i) => inflate(value + b[i]!, 1));
}
