/**
 * The few operations of the RNS device kernels that run on the host, exactly in BigInt on single values: the
 * square root of NRM2 and the reciprocals of TRSV's pivots. Each touches one number (or one per row), so the
 * device's work stays the sums.
 *
 * @module
 */
import type { RnsExactValue } from './rns-device-array.js';
import { bitLength, isqrt } from '../bigint-math.js';

/**
 * r·2^e rounded to p bits, to nearest with ties to even, where the true value is (r + f)·2^e with f ∈ [0, 1) and
 * `inexact` saying f > 0 (so a tail equal to one half with f > 0 rounds up).
 */
function roundTruncated(sign: 0 | 1, r: bigint, inexact: boolean, e: number, p: number): RnsExactValue {
  const k = bitLength(r) - p;
  if (k <= 0) return { sign, X: r, exp: r === 0n ? 0 : e };
  let q = r >> BigInt(k);
  const rem = r - (q << BigInt(k));
  const half = 1n << BigInt(k - 1);
  if (rem > half || (rem === half && (inexact || (q & 1n) === 1n))) q += 1n;
  return { sign, X: q, exp: e + k };
}

/**
 * v rounded to p bits (to nearest, ties to even; exact when X ≤ 2^p already), as the CPU rounds a number of a wider
 * set read into a narrower arithmetic.
 * @param v - an exact value
 * @param p - the precision
 * @returns the rounded value
 */
export function roundToPrecision(v: RnsExactValue, p: number): RnsExactValue {
  if (v.X <= 1n << BigInt(p)) return v;
  return roundTruncated(v.sign, v.X, false, v.exp, p);
}

/**
 * √v rounded once to p bits (to nearest, ties to even): |δ| ≤ 2^-p.
 * @param v - a non-negative exact value (the sign of a zero is kept, as IEEE's √−0 = −0)
 * @param p - the precision
 * @returns the rounded root
 */
export function sqrtRounded(v: RnsExactValue, p: number): RnsExactValue {
  if (v.X === 0n) return v;
  let X = v.X, e = v.exp;
  if ((e & 1) !== 0) { X <<= 1n; e -= 1; }
  // Scale by 2^(2s) so that ⌊√X⌋ has at least p + 2 bits: the rounding then sees the exact round bit.
  const s = Math.max(0, p + 2 - Math.floor(bitLength(X) / 2));
  X <<= BigInt(2 * s);
  const r = isqrt(X);
  return roundTruncated(0, r, r * r !== X, e / 2 - s, p);
}

/**
 * c/v as hi + lo, two p-bit values with |hi + lo − c/v| < 5·2^-(2p)·|c/v| (hi the quotient truncated to p bits, lo
 * the rest truncated to p bits): a division becomes a two-term sum of products that the device adds exactly and
 * rounds once.
 * @param v - a non-zero exact value
 * @param negate - whether c = −1 (else 1)
 * @param p - the precision
 * @returns [hi, lo]
 */
export function reciprocalSplit(v: RnsExactValue, negate: boolean, p: number): [RnsExactValue, RnsExactValue] {
  const sign = ((v.sign ^ (negate ? 1 : 0)) & 1) as 0 | 1;
  // q = ⌊2^t/X⌋ ≥ 2^(2p) (t = bitLength(X) + 2p + 1) errs by < 1; hi and lo drop < 4 more units of q.
  const t = bitLength(v.X) + 2 * p + 1;
  const q = (1n << BigInt(t)) / v.X;
  const e = -t - v.exp;
  const k = bitLength(q) - p;
  const hiX = q >> BigInt(k);
  const rest = q - (hiX << BigInt(k));
  const hi: RnsExactValue = { sign, X: hiX, exp: e + k };
  const kl = Math.max(0, bitLength(rest) - p);
  const loX = rest >> BigInt(kl);
  const lo: RnsExactValue = { sign, X: loX, exp: loX === 0n ? 0 : e + kl };
  return [hi, lo];
}
