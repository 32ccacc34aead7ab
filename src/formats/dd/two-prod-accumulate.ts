/**
 * The double-double multiply-accumulate for two plain doubles: c := a·b + c with a, b doubles and c a
 * double-double (a DD DOT or GEMV on fp64 or fp32 data). The kernels inline the same steps
 * (`ddTwoProdAccumulateSource` in dd-templates.ts) whenever both factors of the dd arithmetic's
 * multiply-add are exact doubles.
 * @module
 */
import { productError, type DdBuffer } from './eft.js';
import { ddAddSloppy } from './add.js';
import { NAMES_A_B_CH_CL, failDdCall } from './dd-arguments.js';

/**
 * `out := a·b + (ch + cl)` for doubles a, b: TwoProd (p + e = ab exactly), then {@link ddAddSloppy} of c and
 * (p, e): TwoSum(ch, p), the low parts in two roundings, FastTwoSum. The sloppy addition has no relative bound
 * in general; with an exact product as the second operand it has the one proved here. 28 flops against 35 for {@link ddMulAccumulate} with zero low parts (no cross
 * terms; FastTwoSum instead of TwoSum at the end). Error ≤ (3 + 8u)u²·(|ab| + |c|)
 * ({@link DD_TWO_PROD_ACCUMULATE_BOUND}; u = 2^-53), below the 2^-104 = 4u² of the accurate addition, so every
 * γ_n(2^-104) bound of a DD kernel on fp64 data holds; the result is normalised.
 *
 * Proof (c normalised: |cl| ≤ ulp(ch)/2 ≤ u|ch|; no underflow or overflow). TwoProd gives p = RN(ab) and
 * e = ab − p exactly, |e| ≤ ulp(p)/2 ≤ u|p| (Dekker 1971). (h, t) = TwoSum(ch, p) is exact, |t| ≤ u|h|.
 * v = RN(cl + e) errs by ≤ u(|cl| + |e|) ≤ u²(|ch| + |p|), and |v| ≤ (1 + u)u(|ch| + |p|).
 * w = RN(t + v) errs by ≤ u(|t| + |v|) ≤ 2(1 + u)u²(|ch| + |p|), using |h| ≤ (1 + u)(|ch| + |p|).
 * (hi, lo) = FastTwoSum(h, w) is exact when h = 0 or the exponent of h is ≥ that of w (Dekker's condition;
 * Muller et al., Handbook of Floating-Point Arithmetic, 2nd ed., Thm 4.3; it is the final step of
 * Joldes–Muller–Popescu 2017 Algorithms 4–6). Let M = max(|ch|, |p|), m = min(|ch|, |p|):
 * - same signs (or one of them 0): |h| ≥ M, since RN is monotone and M is a double; so
 *   |w| ≤ (1 + u)(u|h| + 2(1 + u)uM) < |h|;
 * - opposite signs, m ≤ M/2: |ch + p| ≥ M/2, so |h| ≥ M/2 and |w| ≤ (1 + u)(u|h| + 4(1 + u)u|h|) < |h|;
 * - opposite signs, m > M/2: h = ch + p exactly (Sterbenz), t = 0 and w = v. ch and p are multiples of
 *   g = min(ulp(ch), ulp(p)), and the two ulps differ by at most a factor 2 (M < 2m), so h is a multiple of g
 *   and |cl + e| ≤ ulp(ch)/2 + ulp(p)/2 ≤ 1.5g, hence |w| ≤ 1.5g < 2g while h = 0 or |h| ≥ g.
 * In every case |w| < 2^(exponent of h + 1), so FastTwoSum is exact. Total error ≤ (3 + 2u)u²(|ch| + |p|), and
 * with |ch| ≤ |c|/(1 − u), |p| ≤ (1 + u)|ab|: ≤ (3 + 6u)u²(|ab| + |c|). The general {@link ddMulAccumulate}
 * cannot use FastTwoSum: its rounded cross terms make |w| up to ~3 ulp(p) in the third case.
 * @param out - receives [hi, lo]
 * @param a - first factor
 * @param b - second factor
 * @param ch - high part of c
 * @param cl - low part of c
 * @example
 * ```ts
 * import { ddTwoProdAccumulate } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddTwoProdAccumulate(r, 1 + 2 ** -30, 1 - 2 ** -30, 0.5, 0); // r = [1.5, -2^-60] (exact)
 * ```
 * @group Double-double
 */
export function ddTwoProdAccumulate(out: DdBuffer, a: number, b: number, ch: number, cl: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof a !== 'number' ||
    typeof b !== 'number' || typeof ch !== 'number' || typeof cl !== 'number'
  ) failDdCall(out, NAMES_A_B_CH_CL, a, b, ch, cl);
  const p = a * b;
  ddAddSloppy(out, ch, cl, p, productError(a, b, p));
}
