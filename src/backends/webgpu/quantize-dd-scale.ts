/**
 * The device's rounding of a double-double value by an fp64 scale: the scaled store of i8/i16 outputs computed in the
 * dd arithmetic (scaled-store.ts), the CPU's `nearestIntegerOfQuotient(hi, lo, s)` followed by the storage's
 * saturation. A helper function in gpu.js's JavaScript subset, from integer operations on 24-bit limbs only.
 *
 * @module
 */
import type { HelperFunction } from './arithmetic.js';

/**
 * `mpSubnormalShift64(f, l)`: the left shift that brings the leading bit of a subnormal binary64's non-zero fraction
 * (f its 20 high bits, l its low word) to bit 52 — 52 − ⌊log2 (f·2^32 + l)⌋: the leading zeros of f less 11, or those
 * of l plus 21 where f = 0 (`mpSubnormalShift` is its binary32 twin). The normalised significand is the fraction
 * shifted by it (`mpShl64High`, `mpShl64Low`), with unbiased exponent −1022 − shift. `mpQuantizeDd` normalises
 * both hi and the scale by it.
 */
const subnormalShift64: HelperFunction = {
  source: `function mpSubnormalShift64(f, l) {
  if (f !== 0) { return mpClz(f) - 11; }
  return mpClz(l) + 21;
}`,
  argumentTypes: { f: 'Integer', l: 'Integer' },
  returnType: 'Integer',
};

/** `mpShl64High(h, l, k)`: the high word of the 64-bit (h, l) shifted left by k ∈ [0, 64) (WGSL masks shift counts: k ≥ 32 is split). */
const shl64High: HelperFunction = {
  source: `function mpShl64High(h, l, k) {
  if (k >= 32) { return l << (k - 32); }
  if (k > 0) { return (h << k) | (l >>> (32 - k)); }
  return h;
}`,
  argumentTypes: { h: 'Integer', l: 'Integer', k: 'Integer' },
  returnType: 'Integer',
};

/** `mpShl64Low(l, k)`: the low word of a 64-bit value with low word l shifted left by k ∈ [0, 64). */
const shl64Low: HelperFunction = {
  source: `function mpShl64Low(l, k) {
  if (k >= 32) { return mpI32(0); }
  return l << k;
}`,
  argumentTypes: { l: 'Integer', k: 'Integer' },
  returnType: 'Integer',
};

/**
 * `mpQuantizeDd(hl, hh, ll, lh, sl, sh, qmax)`: the exact quotient (hi + lo)/s rounded ONCE to the nearest integer
 * (ties to even), clamped to ±qmax, NaN → 0, where hi, lo and s are the doubles of IEEE words (low, high) (hl, hh),
 * (ll, lh), (sl, sh) — what the CPU's scaled store of the pair gives for every scale: s = ±∞ or NaN gives 0 (the CPU's
 * quotient is ±0 or NaN, stored as 0); s = ±0 gives ±qmax (sign of hi XOR s's) for hi ≠ 0, 0 for hi = 0 (0/0); hi
 * NaN gives 0, hi = ±∞ saturates. Preconditions: (hi, lo) a normalised pair (|lo| ≤ ulp(hi)/2, lo finite where hi is,
 * lo = 0 where hi is not finite — every pair the device's dd writes), qmax < 2^16.
 *
 * Why it is exact. The value v = hi + lo may need 53 + gap + 53 bits, but the rounding needs only ⌊2|v|/|s|⌋ and
 * whether 2|v|/|s| is an integer (a half-integer quotient is a tie only when it is exact). Work on magnitudes (the sign
 * is the XOR of hi's and s's; nearest-even is symmetric), with L_h, L_s the exponents of the leading bits of hi and s.
 * Then 2^L_h(1 − 2^-53) ≤ |v| < 2^(L_h+1) (|lo| ≤ ulp(hi)/2) and 2^L_s ≤ |s| < 2^(L_s+1), so with d = L_h − L_s:
 * d ≤ −2 gives |v/s| < ½ → 0, d ≥ 17 gives |v/s| > 2^16·(1 − 2^-53) > qmax + ½ → saturate. Otherwise p = d + 1 ∈
 * [0, 17]; with the significands normalised to 53-bit integers m_h, m_s ∈ [2^52, 2^53),
 *   2|v|/|s| = (m_h·2^p + ε)/m_s,  ε = ±|lo|·2^(p + 52 − L_h),  |ε| ≤ 2^(p−1) ≤ 2^16 (|lo| ≤ 2^(L_h − 53)).
 * Long division (p + 1 steps of shift and subtract on 24-bit limbs, remainder below 2m_s < 2^54) gives
 * m_h·2^p = F0·m_s + R0 exactly, R0 ∈ [0, m_s). ε = ±(εi + εf) with εi = ⌊|ε|⌋ < 2^17 read from lo's significand by
 * shifting, and εf ∈ [0, 1) known only by whether it is zero (the sticky bit: lo's significand bits below the
 * units). Since |ε| < m_s, R0 ± ε lies in (−m_s, 2m_s): for +ε the floor is F0 + 1 when R0 + εi ≥ m_s (εf cannot
 * carry: R0 + εi is an integer) else F0, exact when the integer remainder is 0 and εf = 0; for −ε it is F0 when
 * R0 − εi ≥ 1 or (R0 = εi and εf = 0) (exact only in the latter), else F0 − 1, never exact (the remainder is then
 * m_s − (εi − R0 + εf) ∈ (0, m_s)). So F = ⌊2|v|/|s|⌋ and its exactness are exact, and the nearest integer is F/2 for
 * F even, (F + 1)/2 for F odd and inexact, and the even one of (F ± 1)/2 at an exact tie.
 */
const quantizeDd: HelperFunction = {
  source: `function mpQuantizeDd(hl, hh, ll, lh, sl, sh, qmax) {
  const eh = (hh >>> 20) & 2047;
  const es = (sh >>> 20) & 2047;
  const fh = hh & 1048575;
  const fs = sh & 1048575;
  const neg = (hh ^ sh) >>> 31;
  let r = mpI32(0);
  if (es === 2047 || (eh === 2047 && (fh !== 0 || hl !== 0)) || (eh === 0 && fh === 0 && hl === 0)) { return r; }
  if (eh === 2047 || (es === 0 && fs === 0 && sl === 0)) { r = qmax; if (neg !== 0) { r = -qmax; } return r; }
  let lh2 = eh - 1023;
  let h1 = fh | 1048576;
  let h0 = hl;
  if (eh === 0) { const k = mpSubnormalShift64(fh, hl); lh2 = -1022 - k; h1 = mpShl64High(fh, hl, k); h0 = mpShl64Low(hl, k); }
  let ls2 = es - 1023;
  let s1 = fs | 1048576;
  let s0 = sl;
  if (es === 0) { const k = mpSubnormalShift64(fs, sl); ls2 = -1022 - k; s1 = mpShl64High(fs, sl, k); s0 = mpShl64Low(sl, k); }
  const d = lh2 - ls2;
  if (d <= -2) { return r; }
  if (d >= 17) { r = qmax; if (neg !== 0) { r = -qmax; } return r; }
  const p = d + 1;
  const m0 = s0 & 16777215;
  const m1 = ((s0 >>> 24) | (s1 << 8)) & 16777215;
  const m2 = (s1 >>> 16) & 31;
  let r0 = h0 & 16777215;
  let r1 = ((h0 >>> 24) | (h1 << 8)) & 16777215;
  let r2 = (h1 >>> 16) & 31;
  let f = mpI32(0);
  for (let i = mpI32(0); i < 18; i++) {
    if (i <= p) {
      if (i > 0) {
        r0 = r0 << 1; r1 = (r1 << 1) | (r0 >> 24); r2 = (r2 << 1) | (r1 >> 24); r0 = r0 & 16777215; r1 = r1 & 16777215;
        f = f << 1;
      }
      if (r2 > m2 || (r2 === m2 && (r1 > m1 || (r1 === m1 && r0 >= m0)))) {
        r0 = r0 - m0; r1 = r1 - m1; r2 = r2 - m2;
        if (r0 < 0) { r0 = r0 + 16777216; r1 = r1 - 1; }
        if (r1 < 0) { r1 = r1 + 16777216; r2 = r2 - 1; }
        f = f | 1;
      }
    }
  }
  const el = (lh >>> 20) & 2047;
  let l2 = (lh >>> 16) & 15;
  if (el !== 0) { l2 = l2 | 16; }
  const l1 = ((ll >>> 24) | (lh << 8)) & 16777215;
  const l0 = ll & 16777215;
  let xl = el - 1075;
  if (el === 0) { xl = mpI32(-1074); }
  const t = xl + p + 52 - lh2;
  let ei = mpI32(0);
  let sticky = mpI32(0);
  if (t >= 0) {
    if (t < 24) { ei = l0 << t; }
  } else {
    const u = -t;
    if (u < 24) { ei = (l0 >> u) | (l1 << (24 - u)) | (l2 << (48 - u)); if ((l0 & ((1 << u) - 1)) !== 0) { sticky = 1; } }
    else if (u < 48) { ei = (l1 >> (u - 24)) | (l2 << (48 - u)); if (l0 !== 0 || (l1 & ((1 << (u - 24)) - 1)) !== 0) { sticky = 1; } }
    else if (u < 72) { ei = l2 >> (u - 48); if (l0 !== 0 || l1 !== 0 || (l2 & ((1 << (u - 48)) - 1)) !== 0) { sticky = 1; } }
    else if (l0 !== 0 || l1 !== 0 || l2 !== 0) { sticky = 1; }
  }
  let exact = mpI32(0);
  if (el === 0 && l2 === 0 && l1 === 0 && l0 === 0) {
    if (r0 === 0 && r1 === 0 && r2 === 0) { exact = 1; }
  } else if ((lh ^ hh) >= 0) {
    r0 = r0 + ei;
    r1 = r1 + (r0 >> 24); r0 = r0 & 16777215;
    r2 = r2 + (r1 >> 24); r1 = r1 & 16777215;
    if (r2 > m2 || (r2 === m2 && (r1 > m1 || (r1 === m1 && r0 >= m0)))) {
      f = f + 1;
      if (sticky === 0 && r2 === m2 && r1 === m1 && r0 === m0) { exact = 1; }
    } else {
      if (sticky === 0 && r0 === 0 && r1 === 0 && r2 === 0) { exact = 1; }
    }
  } else {
    if (r2 > 0 || r1 > 0 || r0 > ei) {
      exact = 0;
    } else if (r0 === ei && sticky === 0) {
      exact = 1;
    } else {
      f = f - 1;
    }
  }
  const k = f >> 1;
  r = k;
  if ((f & 1) !== 0) { r = k + 1; if (exact !== 0) { r = k + (k & 1); } }
  if (r > qmax) { r = qmax; }
  if (neg !== 0) { r = -r; }
  return r;
}`,
  argumentTypes: { hl: 'Integer', hh: 'Integer', ll: 'Integer', lh: 'Integer', sl: 'Integer', sh: 'Integer', qmax: 'Integer' },
  returnType: 'Integer',
};

/** The helpers, callee first (registered with every gpu.js instance next to the format writers). */
export const QUANTIZE_DD_HELPERS: readonly HelperFunction[] = [subnormalShift64, shl64High, shl64Low, quantizeDd];
