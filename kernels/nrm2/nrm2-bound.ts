/**
 * A-priori forward error bound of NRM2 (‖x‖₂ computed as 2^e·√(Σ (xᵢ·2^−e)²)).
 *
 * Derivation, with x̂ the stored values, x̃ the reads (r read roundings), β the summation factor
 * (γ_n for the plain loop, which computes s := fl(fl(z·z) + s): one product and at most n − 1 additions per
 * term, Higham, Accuracy and Stability, eq. 3.5), η the arithmetic's underflow unit:
 * 1. Reads: |x̃ᵢ − x̂ᵢ| ≤ γ_r|x̂ᵢ| + 2rη + eᵢ (eᵢ: a scale whose conversion underflows, scaleUnderflowError in
 *    kernels/shared/bound-terms.ts), so |‖x̃‖ − ‖x̂‖| ≤ ‖x̃ − x̂‖ ≤ γ_r‖x̂‖ + 2rη√n + Σeᵢ (added to the 2rη√n terms below).
 * 2. Scaling by σ = 2^−e (max|x̃ᵢ|·σ ∈ [1, 2)) is exact but for underflow: zᵢ = σx̃ᵢ + ζᵢ, |ζᵢ| ≤ 2η,
 *    so |‖z‖ − σ‖x̃‖| ≤ 2η√n. Z = ‖z‖ ≥ 1.
 * 3. The squares are non-negative, so the sum is Ŝ = Z²(1 + θ) + ν with |θ| ≤ β and |ν| ≤ 2nη (squares that
 *    underflow, carried through the additions).
 * 4. √: |√(Z²(1 + θ)) − Z| ≤ ρZ with ρ = β/(1 + √(1 − β)) (the worst case is θ = −β), |√(… + ν) − √(…)| ≤ √|ν|,
 *    and the square root itself rounds once more: relative ρ + u(1 + ρ) in all.
 * 5. Undoing the scaling multiplies by 2^e ≤ M̃ = max|x̂ᵢ|(1 + γ_r) + 2rη exactly, except when the norm is
 *    subnormal in fp64 (one more rounding, ≤ 2^−1074).
 * Together: |nrm2 − ‖x̂‖| ≤ (ρ + u(1 + ρ))·X̃ + M̃(5η√n + 2√(2nη)) + 2^−1074 + γ_r‖x̂‖ + 2rη√n,
 * with X̃ = ‖x̂‖(1 + γ_r) + 2rη√n. To first order that is (n/2 + r + 1)u relative to ‖x̂‖.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { checkRange, checkReadableIn } from '../shared/kernel-options.js';
import { checkBoundOptions, type BoundBackendOptions } from '../shared/bound-options.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { gamma, type Accumulation } from '../shared/accumulation.js';
import { checkSize } from '../../src/core/errors.js';
import { vector } from '../../src/core/vectors.js';
import { arithmeticLimits, elementReadRoundings, flushableRead, returnedDoubleBound, scaledReadOverflows, scaleUnderflowError, storedMagnitude } from '../shared/bound-terms.js';

/**
 * The relative part of {@link nrm2Bound} for n elements read exactly (no read roundings, no underflow):
 * ρ + u(1 + ρ) with ρ = β/(1 + √(1 − β)) and β the summation factor (γ_n for the plain loop) — and, for an
 * arithmetic wider than fp64 (dd, ff, RNS), the rounding of its norm to the double nrm2 returns: 2^-53·(1 + that)
 * more (without it the bound of a dd norm was ≈ n·2^-105, far below the 2^-53 the returned double may lose).
 * @param n - number of elements
 * @param options - `arithmetic` (default fp64) decides u; `accumulation` decides β; `backend`, `strict` and `threads`
 *   are checked as nrm2 checks them for an fp64-stored x
 * @returns the relative bound of the double nrm2 returns, ≈ (n/2 + 1)·u (+ 2^-53 in dd, ff and RNS); ∞ when β ≥ 1
 * @throws {@link ModprecError} `INVALID_SIZE` for an n that is not a non-negative integer; before computing anything,
 *   every option error nrm2 raises for an fp64-stored x with the same options (`INVALID_FORMAT` for an unknown
 *   arithmetic or one the backend cannot run, `INVALID_OPTION` for an unknown accumulation or one the kernel refuses
 *   in the arithmetic (e.g. 'kahan' in dd, any for backend 'gpu'), a bad `backend` or `strict`, any `threads` (nrm2
 *   does not split), or options that are not an object), with the same code and parameter
 * @example
 * ```ts
 * import { nrm2RelativeBound } from 'modprec';
 *
 * nrm2RelativeBound(1000, { arithmetic: 'f32' }); // ≈ 501 · 2^-24
 * ```
 * @group Kernels
 */
export function nrm2RelativeBound(n: number, options: BoundBackendOptions = {}): number {
  checkSize('n', n);
  // The kernel's own option checks, on an empty fp64 vector: the refusals that do not depend on x's storage
  // (this function has no x; before, it checked arithmetic and accumulation only and accepted e.g. threads).
  exactOperand ??= vector([]);
  const { arithmetic: ar, accumulation: acc } = checkBoundOptions(
    { kernel: 'nrm2', operands: [['x', exactOperand]], cpuOperands: [['x', exactOperand, 'read']] }, options,
  );
  const relative = relativeBound(n, ar, acc);
  // fp64 and fp32 norms are doubles already; a wider one is rounded once to the double returned (as returnedDoubleBound).
  return ar.kind === 'number' ? relative : (relative + 2 ** -53 * (1 + relative)) * (1 + 2 ** -50);
}

/** An empty fp64 vector, the x whose call {@link nrm2RelativeBound} checks its options for. */
let exactOperand: Range<1, any> | undefined;

/** {@link nrm2RelativeBound} of a checked arithmetic and accumulation. */
function relativeBound(n: number, ar: ArithmeticFormat, acc: Accumulation): number {
  const u = ar.unitRoundoff;
  const b = acc.bound(n, u);
  const beta = b.ofAbsSum + b.ofResult;
  if (!(beta < 1)) return Infinity;
  const rho = beta / (1 + Math.sqrt(1 - beta));
  return rho + u * (1 + rho);
}

/**
 * Upper bound on |nrm2(x, options) − ‖x̂‖₂|, x̂ the values as stored (derivation in the module comment).
 * @param x - the vector
 * @param options - the kernel's options (arithmetic decides u; accumulation the summation factor; `backend`, `strict` and `threads` are checked as nrm2 checks them)
 * @returns a non-negative number: 0 for an empty vector, ∞ when an element is not finite, cannot be read into
 *   the arithmetic without overflow, or the norm overflows fp64
 * @throws {@link ModprecError} `INVALID_FORMAT` for an unknown arithmetic, `INVALID_OPTION` for an unknown accumulation or one the
 *   kernel refuses in the arithmetic (e.g. 'kahan' in dd)
 *   — and, before computing anything, every error nrm2 raises for the same operands and options, in its order (`backend`,
 *   `strict`, `threads`, the backend's arithmetic and accumulation limits; then `INVALID_VALUE` for a value or
 *   coefficient an RNS arithmetic cannot hold; then what the backend or the pool cannot run), with the same code and
 *   parameter
 * @example
 * ```ts
 * import { vector, nrm2, nrm2Bound } from 'modprec';
 *
 * const x = vector([3, 4]);
 * const r = nrm2(x, { arithmetic: 'f32' });
 * const b = nrm2Bound(x, { arithmetic: 'f32' }); // |r − ‖x̂‖| ≤ b
 * Math.abs(r - 5) <= b; // → true
 * ```
 * @group Kernels
 */
export function nrm2Bound(x: Range<1, any>, options: BoundBackendOptions = {}): number {
  checkRange('x', x, 1);
  const n = x.length();
  // Options are checked as nrm2 checks them, also where the bound is 0.
  const { arithmetic: ar, accumulation: acc } = checkBoundOptions({
    kernel: 'nrm2', operands: [['x', x]], cpuOperands: [['x', x, 'read']],
    values: (arithmetic) => checkReadableIn(arithmetic, [['x', x]]),
  }, options);
  if (n === 0) return 0;
  const u = ar.unitRoundoff;
  const { opEta: eta, max, readEta } = arithmeticLimits(ar);
  let largest = 0;
  let reads = 0;
  // Σ and max of the absolute read errors of scales whose conversion underflows (‖e‖₂ ≤ ‖e‖₁).
  let scaleErrors = 0, largestScaleError = 0;
  const magnitudes = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const m = storedMagnitude(x, i);
    if (!Number.isFinite(m) || scaledReadOverflows(x.accessor, ar, [i])) return Infinity;
    magnitudes[i] = m;
    largest = Math.max(largest, m);
    reads = Math.max(reads, elementReadRoundings(x, ar, i), flushableRead(m, readEta));
    const e = scaleUnderflowError(x, ar, i);
    scaleErrors += e;
    largestScaleError = Math.max(largestScaleError, e);
  }
  const readFactor = gamma(reads, u);
  if (largest * (1 + readFactor) + 2 * reads * readEta + largestScaleError >= max) return Infinity;
  // ‖x̂‖ in fp64 without overflow: largest·√(Σ(|x̂ᵢ|/largest)²), enlarged for its own n + 4 roundings.
  let norm = 0;
  if (largest > 0) {
    let s = 0;
    for (let i = 0; i < n; i++) { const q = magnitudes[i]! / largest; s += q * q; }
    norm = largest * Math.sqrt(s) * (1 + (n + 6) * 2 ** -52);
  }
  if (!Number.isFinite(norm)) return Infinity;
  const relative = relativeBound(n, ar, acc);
  if (!Number.isFinite(relative)) return Infinity;
  const rootN = Math.sqrt(n);
  const readUnderflow = 2 * reads * readEta * rootN + scaleErrors * (1 + 2 ** -50);
  const normOfReads = norm * (1 + readFactor) + readUnderflow;
  const scaleBack = largest * (1 + readFactor) + 2 * reads * readEta + largestScaleError;
  const bound = relative * normOfReads + scaleBack * (5 * eta * rootN + 2 * Math.sqrt(2 * n * eta))
    + 2 ** -1074 + readFactor * norm + readUnderflow;
  // What nrm2 returns is a double: a dd or RNS norm is rounded once more.
  return returnedDoubleBound(ar, norm, bound * (1 + 2 ** -40));
}
