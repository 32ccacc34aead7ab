/**
 * The device's rounding of a value by an fp64 scale (any finite non-zero double, not only a binary32): the scaled
 * store of i8/i16 outputs (scaled-store.ts). Helper functions in gpu.js's JavaScript subset, from integer bit
 * operations and exact float operations only, as format-writers.ts's `mpQuantize` (binary32 scales), whose proof
 * this one extends.
 *
 * @module
 */
import type { HelperFunction } from './arithmetic.js';

/**
 * `mpHalfSide(h2, y, t, s1, s2, s3)`: the sign (−1, 0, 1) of D = h2 + y·2^-52 − t·(s1 + s2 + s3), exactly.
 * Preconditions (met by `mpQuantize64`): t an odd integer, |t| < 2^17; s1 ∈ [1, 2) a multiple of 2^-23, s2 ∈ [0, 2^-23)
 * a multiple of 2^-47, s3 ∈ [0, 2^-47) a multiple of 2^-52; h2 a multiple of 2^-24 below 2^18; |y| ≤ 2^46; |D| < 8.
 *
 * Why it is exact. D·2^52 is split into a coarse integer HC (units of 2^-24), a fine integer LF (units of 2^-52) and a
 * fraction f ∈ (−1, 1) (the part of y below one unit), each term converted to i32 exactly:
 * - (P1, E1) = TwoProd(t, s1) and (a1, a2) = TwoSum(h2, −P1) are exact, all multiples of 2^-24 (t·s1 is a multiple of
 *   2^-23); |a1|, |a2|, |E1| < 8, so each ·2^24 is an integer below 2^27.
 * - (P2, E2) = TwoProd(t, s2) is exact, both multiples of 2^-47, |P2| < 2^-6, |E2| ≤ 2^-30. P2 = P2c + P2f with
 *   P2c = (P2 + 0.75) − 0.75 (0.75's ulp is 2^-24; Sterbenz makes the subtraction exact) a multiple of 2^-24 and
 *   P2f = P2 − P2c (exact) of magnitude ≤ 2^-25: P2f·2^52 and E2·2^52 are integers below 2^27.
 * - P3 = t·s3 is exact (at most 17 + 5 bits), P3·2^52 an integer below 2^22.
 * - y = Y·2^28 + Z + f with Y = trunc(y·2^-28) (|Y| ≤ 2^18), Z = trunc(y − Y·2^28) (the bits of y below 2^28: exact,
 *   |Z| < 2^28) and f the rest (exact, same sign).
 * Then D·2^52 = HC·2^28 + LF + f with |HC| < 2^30 and |LF| < 2^29, both sums exact in i32. Moving LF's multiples of
 * 2^28 into HC (arithmetic shift) leaves LF ∈ [0, 2^28): the sign is HC's when HC ≠ 0 (|LF + f| < 2^28), else LF's
 * when LF > 0, else f's.
 */
const halfSide: HelperFunction = {
  source: `function mpHalfSide(h2, y, t, s1, s2, s3) {
  const p1 = ffTwoProd(t, s1);
  const a1 = mpKeep(h2 - p1[0]);
  const ab = mpKeep(a1 - h2);
  const a2 = mpKeep(mpKeep(h2 - mpKeep(a1 - ab)) + mpKeep(mpKeep(-p1[0]) - ab));
  const p2 = ffTwoProd(t, s2);
  const p2c = mpKeep(mpKeep(p2[0] + 0.75) - 0.75);
  const p2f = mpKeep(p2[0] - p2c);
  const p3 = mpKeep(t * s3);
  const yh = mpToInt(mpKeep(y * mpFloat(830472192)));
  const yr = mpKeep(y - mpKeep(mpToFloat(yh) * 268435456.0));
  const yi = mpToInt(yr);
  const f = mpKeep(yr - mpToFloat(yi));
  let hc = mpToInt(a1 * 16777216.0) + mpToInt(a2 * 16777216.0) - mpToInt(p1[1] * 16777216.0) - mpToInt(p2c * 16777216.0) + yh;
  let lf = yi - mpToInt(p2f * 4503599627370496.0) - mpToInt(p2[1] * 4503599627370496.0) - mpToInt(p3 * 4503599627370496.0);
  hc = hc + (lf >> 28);
  lf = lf & 268435455;
  let r = mpI32(0);
  if (hc > 0 || (hc === 0 && (lf > 0 || f > 0.0))) {
    r = mpI32(1);
  } else if (hc < 0 || f < 0.0) {
    r = mpI32(-1);
  }
  return r;
}`,
  argumentTypes: { h2: 'Number', y: 'Number', t: 'Number', s1: 'Number', s2: 'Number', s3: 'Number' },
  returnType: 'Integer',
};

/**
 * `mpQuantize64(v, sl, sh, qmax)`: the exact quotient (v[0] + v[1])/s rounded ONCE to the nearest integer (ties to
 * even), clamped to ±qmax, NaN → 0, where s is the double whose IEEE words are sl (low) and sh (high) — the CPU's
 * `nearestIntegerOfQuotient` for any finite non-zero s (subnormal, negative, far outside binary32's range), and what
 * the CPU's scaled store gives for the other scales, whose quotient is not a number it rounds:
 * - s = ±∞ or NaN (exponent field 2047): 0 for every v (the CPU's quotient v/s is ±0 or NaN, and NaN stores as 0);
 * - s = ±0: ±qmax for v ≠ 0 (the CPU's v/s is ±∞ with the sign of v XOR s's, which saturates; NaN v → 0), 0 for
 *   v = ±0 (0/0 is NaN → 0) — the branch below that saturates s < 2^-199 (k = −1023) with that sign, and v = 0 → 0.
 * Preconditions: v a normalised pair (|v[1]| ≤ ulp(v[0])/2; v[1] = 0 for a single word), qmax < 2^16.
 *
 * Why it is exact. Work on |v| and |s| (the sign of the answer is the XOR of theirs; rounding to nearest even is
 * symmetric). Let k be s's exponent (subnormal s: k < −1022).
 * - v = ±∞ saturates; v = 0 gives 0. k > 130: |v| < 2^128·(1 + 2^-24) and s ≥ 2^131, so |v/s| < ½: 0.
 *   k < −200: |v| > 2^-150 and s < 2^-199, so |v/s| > 2^49: saturate.
 * - Otherwise scale by 2^-k, in two steps of normal binary32 powers (|k/2| ≤ 100): s' = s·2^-k ∈ [1, 2) and h' = |v[0]|·2^-k
 *   is exact whenever h' ≥ ¼ or overflows (mpQuantize's argument); h' < ¼ gives 0, an overflow saturates.
 * - s' = s1 + s2 + s3 exactly, from the 52 fraction bits with integer operations: s1 = 1 + the top 23 (binary32 [1, 2)),
 *   s2 = the next 24 (a multiple of 2^-47 below 2^-23), s3 = the last 5 (a multiple of 2^-52 below 2^-47).
 * - q0 = h'/s1 is within 2^-21·q of q = v'/s' (2.5 ulp of division, 2^-24 of v's tail, 2^-23 of s2 + s3), so
 *   q0 > qmax + 1 saturates; else |q0 − q| < 2^-5 and n = ⌊q0 + ½⌋ has |q − n| < ½ + 2^-5: the answer is n − 1, n or n + 1.
 * - q vs n ± ½ is the sign of D = 2v' − (2n ± 1)·s', decided exactly by `mpHalfSide` with h2 = 2h' (a multiple of
 *   2^-24 below 2^18) and y = 2l'·2^52 (l' = v[1]·2^-k, exact when it is at least 2^-60 — as for h'; |y| ≤ 2^46);
 *   |D| = s'·|2q − 2n ∓ 1| < 8. D > 0 above n + ½: n + 1; D = 0: the even of the two; likewise below n − ½.
 * A tail l' under 2^-60 adds less than one unit (2^-52) to D·2^52, whose other terms are integers: only its sign
 * decides, so it is replaced by ±2^-60 with the sign of v[1]'s bits (an adapter that flushes binary32 subnormals
 * loses the magnitude of a subnormal v[1] that the scaling would lift above 2^-60 — only with s < 2^-66).
 */
const quantize64: HelperFunction = {
  source: `function mpQuantize64(v, sl, sh, qmax) {
  const hb = mpBits(v[0]);
  const a = hb & 2147483647;
  if (a > 2139095040 || ((sh >> 20) & 2047) === 2047) { return 0; }
  const sign = (hb ^ sh) & -2147483648;
  const m = mpToInt(qmax);
  const k = ((sh >> 20) & 2047) - 1023;
  let q = mpI32(0);
  if (a === 2139095040 || (a !== 0 && k < -200)) {
    q = m;
  } else if (a !== 0 && k <= 130) {
    const h = mpFloat(a);
    const lb = mpBits(v[1]) ^ (hb & -2147483648);
    const k1 = k >> 1;
    const k2 = k - k1;
    const f1 = mpFloat((127 - k1) << 23);
    const f2 = mpFloat((127 - k2) << 23);
    const h1 = mpKeep(mpKeep(h * f1) * f2);
    if ((mpBits(h1) & 2147483647) >= 2139095040) {
      q = m;
    } else if (h1 >= 0.25) {
      const s1 = mpFloat(1065353216 | ((sh & 1048575) << 3) | ((sl >> 29) & 7));
      const s2 = mpKeep(mpToFloat((sl >> 5) & 16777215) * mpFloat(671088640));
      const s3 = mpKeep(mpToFloat(sl & 31) * mpFloat(629145600));
      const q0 = mpKeep(h1 / s1);
      if (q0 > qmax + 1.0) {
        q = m;
      } else {
        const n = Math.floor(q0 + 0.5);
        let l1 = mpKeep(mpKeep(mpFloat(lb) * f1) * f2);
        const tiny = mpFloat(562036736);
        if ((lb & 2147483647) !== 0 && l1 < tiny && l1 > -tiny) {
          l1 = tiny;
          if (lb < 0) { l1 = -tiny; }
        }
        const h2 = mpKeep(h1 * 2.0);
        const y = mpKeep(l1 * 9007199254740992.0);
        q = mpToInt(n);
        const up = mpHalfSide(h2, y, 2.0 * n + 1.0, s1, s2, s3);
        if (up > 0) {
          q = q + 1;
        } else if (up === 0) {
          q = q + (q & 1);
        } else {
          const down = mpHalfSide(h2, y, 2.0 * n - 1.0, s1, s2, s3);
          if (down < 0) {
            q = q - 1;
          } else if (down === 0) {
            q = q - (q & 1);
          }
        }
      }
    }
  }
  if (q > m) { q = m; }
  if (sign !== 0) { q = -q; }
  return q;
}`,
  argumentTypes: { v: 'Array(2)', sl: 'Integer', sh: 'Integer', qmax: 'Number' },
  returnType: 'Integer',
};

/** The helpers, callee first (registered with every gpu.js instance next to the format writers). */
export const QUANTIZE_F64_HELPERS: readonly HelperFunction[] = [halfSide, quantize64];
