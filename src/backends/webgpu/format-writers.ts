/**
 * Device-side writers of the wide and scaled formats: a float-float value as the two words of the IEEE
 * double nearest to it, and the pieces of scaled-integer storage (the block scale, the rounded integer).
 * All are helper functions in gpu.js's JavaScript subset, built from integer bit operations and exact
 * float operations only (so the result does not depend on the GPU's division or rounding modes).
 *
 * @module
 */
import type { HelperFunction } from './arithmetic.js';

/**
 * `mpF64Words(hi, lo)`: [low word, high word] of the double nearest hi + lo (ties to even), as two f32
 * carrying the raw bits. hi + lo must be a normalised pair (|lo| ≤ ulp(hi)/2, what every float-float
 * operation returns; lo = 0 for single words).
 *
 * With e = exponent of hi and u = 2^(e−52) (2^(e−53) when hi is a power of two and lo lowers it below
 * 2^e), hi/u = m_hi·2^29 is an integer and lo/u (|lo/u| ≤ 2^28) is exact in binary32 — a power-of-two
 * scaling, done in two steps so no factor overflows. The significand S = m_hi·2^29 + rne(lo/u) is kept as
 * (S div 2^29, S mod 2^29) in two i32, since it needs 53 bits. A tie needs lo/u to end in exactly .5,
 * which one binary32 can only do when it is not tiny, so a lo/u that underflows never decides one.
 * Subnormal binary32 (possible only with lo = 0) are normalised by finding their leading bit.
 */
const f64Words: HelperFunction = {
  source: `function mpF64Words(hi, lo) {
  const b = mpBits(hi);
  const s = b & -2147483648;
  const a = b & 2147483647;
  if (a >= 2139095040) {
    if (a > 2139095040) { return [0.0, mpFloat(s | 2146959360)]; }
    return [0.0, mpFloat(s | 2146435072)];
  }
  if (a < 8388608) {
    if (a === 0) { return [0.0, mpFloat(s)]; }
    let p = mpI32(0);
    for (let t = mpI32(1); t < 23; t++) { if ((a >> t) !== 0) { p = t; } }
    const f = a - (1 << p);
    const ed = p + 874;
    let h = mpI32(0);
    let l = mpI32(0);
    if (p <= 20) { h = f << (20 - p); } else { h = f >> (p - 20); l = f << (52 - p); }
    return [mpFloat(l), mpFloat(s | (ed << 20) | h)];
  }
  const eh = (a >> 23) - 127;
  const mh = (a & 8388607) | 8388608;
  const ls = mpBits(lo) & -2147483648;
  let c = mpI32(0);
  if (mh === 8388608 && lo !== 0.0 && ls !== s) { c = 1; }
  let lm = lo;
  if (s !== 0) { lm = -lo; }
  const t = 52 + c - eh;
  let f1 = t;
  if (f1 > 100) { f1 = 100; }
  const f2 = t - f1;
  const lu = mpKeep(lm * mpFloat((f1 + 127) << 23)) * mpFloat((f2 + 127) << 23);
  const fl = Math.floor(lu);
  const fr = mpKeep(lu - fl);
  let li = mpToInt(fl);
  if (fr > 0.5) { li = li + 1; }
  if (fr === 0.5) { li = li + (li & 1); }
  let sh = mh << c;
  let sl = li;
  if (sl < 0) { sh = sh - 1; sl = sl + 536870912; }
  if (sl >= 536870912) { sh = sh + 1; sl = sl - 536870912; }
  let e = eh - c + 1023;
  if (sh >= 16777216) { sh = sh >> 1; e = e + 1; }
  const hw = s | (e << 20) | ((sh & 8388607) >> 3);
  const lw = ((sh & 7) << 29) | sl;
  return [mpFloat(lw), mpFloat(hw)];
}`,
  argumentTypes: { hi: 'Number', lo: 'Number' },
  returnType: 'Array(2)',
};

/**
 * `mpScaleOf(mh, ml, qmax)`: the smallest binary32 s with s·qmax ≥ mh + ml (the block maximum as a
 * normalised pair; the host encoder's scale), 1 for a zero maximum, −1 when the maximum is not finite or
 * s would not be a normal binary32 (a NaN literal cannot be written: WGSL folds it as a constant error). s·qmax is compared exactly: TwoProd gives it as p + e, and two
 * normalised pairs compare as their heads, then their tails. Starting from mh·(1/qmax), within a few ulp,
 * s moves up while too small and down while its predecessor still suffices. A maximum of 2^96 or more is
 * compared scaled by 2^-32 (exact; Dekker's split of s would overflow near the top of the range); a tail that
 * scaling makes smaller than 2^-100 only matters through its sign (the products' tails are then multiples of
 * 2^26 or 0), so it is kept as ±2^-100.
 */
const scaleOf: HelperFunction = {
  source: `function mpScaleOf(mh, ml, qmax) {
  if (mh === 0.0) { return 1.0; }
  if (mpBits(mh) >= 2139095040) { return -1.0; }
  let s = mpKeep(mh * (1.0 / qmax));
  if (mpBits(s) < 8388608) { return -1.0; }
  let c = 1.0;
  let ci = 1.0;
  if (mh >= 7.922816251426434e28) { c = 2.3283064365386963e-10; ci = 4294967296.0; }
  const mc = mpKeep(mh * c);
  let lc = mpKeep(ml * c);
  const lb = mpBits(ml);
  if ((lb & 2147483647) !== 0 && lc < 7.888609052210118e-31 && lc > -7.888609052210118e-31) {
    lc = 7.888609052210118e-31;
    if (lb < 0) { lc = -7.888609052210118e-31; }
  }
  s = mpKeep(s * c);
  for (let r1 = mpI32(0); r1 < 4; r1++) {
    const q = ffTwoProd(s, qmax);
    if (q[0] < mc || (q[0] === mc && q[1] < lc)) { s = mpFloat(mpBits(s) + 1); }
  }
  for (let r2 = mpI32(0); r2 < 4; r2++) {
    const d = mpFloat(mpBits(s) - 1);
    const qd = ffTwoProd(d, qmax);
    if (mpBits(d) >= 8388608 && (qd[0] > mc || (qd[0] === mc && qd[1] >= lc))) { s = d; }
  }
  return mpKeep(s * ci);
}`,
  argumentTypes: { mh: 'Number', ml: 'Number', qmax: 'Number' },
  returnType: 'Number',
};

/**
 * `mpQuantize(v, s, qmax)`: the exact quotient (v[0] + v[1])/s rounded ONCE to the nearest integer (ties to
 * even), clamped to ±qmax; NaN gives 0. As the CPU's scaled-integer write (nearestIntegerOfQuotient): a
 * quotient formed in the arithmetic and then rounded would round twice, and near-ties would go astray.
 * Preconditions: v is a normalised pair (|v[1]| ≤ ulp(v[0])/2 ≤ 2^-24·|v[0]|, what every read and float-float
 * operation returns), s a positive normal binary32, qmax < 2^16.
 *
 * Why it is exact. Work on |v| (the rule is symmetric) and scale by 2^-k, k = s's exponent: s' ∈ [1, 2), and
 * h' = |v[0]|·2^-k is exact whenever h' ≥ ¼ (a normal number times a power of two, in two steps so no
 * factor leaves the normal range). h' < ¼ means |v'| < ½ ≤ s'/2: the answer is 0.
 * 1. q0 = h'/s' (WGSL: within 2.5 ulp) differs from q = v'/s' by ≤ 2^-21·q; q0 > qmax + 1 saturates (then
 *    q > qmax + ½). Otherwise q < 2^15 + 2, |q0 − q| < 2^-5, and n = ⌊q0 + ½⌋ (exact) has |q − n| < ½ + 2^-5:
 *    the answer is n − 1, n or n + 1.
 * 2. r = v' − n·s' exactly: (p, e) = TwoProd(n, s') is exact (17 × 24 bits, a multiple of 2^-23, far from
 *    underflow); (a1, a2) = TwoSum(h', −p) is exact. Split the tail l' = l_hi + l_lo with l_hi a multiple
 *    of 2^-25 (l' + 0.375 − 0.375; 0.375's ulp is 2^-25, and |l'| ≤ 2^-24·h' < 2^-7) and |l_lo| ≤ 2^-26
 *    (the rounding error of that sum, exact). h' ≥ ¼, p, e, a1, a2 and l_hi are all multiples of 2^-25, and
 *    |r| < (½ + 2^-5)·2, so R = (a1 − e + a2 + l_hi)·2^25 is an integer below 2^27 in magnitude: each term
 *    converts to i32 exactly and their sum is exact in i32. r = R·2^-25 + l_lo.
 * 3. The half scale H = s'·2^24 is an integer, and |l_lo| ≤ ½ unit: r > s'/2 ⟺ R > H, or R = H and l_lo > 0;
 *    r = s'/2 ⟺ R = H and l_lo = 0 (a tie: the even of n, n + 1); likewise at −s'/2 with n − 1.
 * A tail too small to survive the scaling (|l'| < 2^-30, flushed or subnormal) only ever decides through its
 * sign, so it is replaced by ±2^-30 with the sign of v[1]'s bits. (Limit: an adapter that flushes binary32
 * subnormals loses the magnitude of a subnormal v[1] that the scaling would lift above 2^-30 — only with
 * s < 2^-95; llvmpipe keeps subnormals.)
 */
const quantize: HelperFunction = {
  source: `function mpQuantize(v, s, qmax) {
  const hb = mpBits(v[0]);
  if ((hb & 2147483647) > 2139095040) { return 0; }
  const sign = hb & -2147483648;
  const h = mpFloat(hb ^ sign);
  const lb = mpBits(v[1]) ^ sign;
  const m = mpToInt(qmax);
  const sb = mpBits(s);
  const k = ((sb >> 23) & 255) - 127;
  const s1 = mpFloat((sb & 8388607) | 1065353216);
  const k1 = k >> 1;
  const k2 = k - k1;
  const f1 = mpFloat((127 - k1) << 23);
  const f2 = mpFloat((127 - k2) << 23);
  const h1 = mpKeep(mpKeep(h * f1) * f2);
  let q = mpI32(0);
  if ((mpBits(h1) & 2147483647) >= 2139095040) {
    q = m;
  } else if (h1 >= 0.25) {
    const q0 = mpKeep(h1 / s1);
    if (q0 > qmax + 1.0) {
      q = m;
    } else {
      const n = Math.floor(q0 + 0.5);
      const pe = ffTwoProd(n, s1);
      const a1 = mpKeep(h1 - pe[0]);
      const ab = mpKeep(a1 - h1);
      const a2 = mpKeep(mpKeep(h1 - mpKeep(a1 - ab)) + mpKeep(mpKeep(-pe[0]) - ab));
      let l1 = mpKeep(mpKeep(mpFloat(lb) * f1) * f2);
      if ((lb & 2147483647) !== 0 && l1 < 9.313225746154785e-10 && l1 > -9.313225746154785e-10) {
        l1 = 9.313225746154785e-10;
        if (lb < 0) { l1 = -9.313225746154785e-10; }
      }
      const lh = mpKeep(mpKeep(l1 + 0.375) - 0.375);
      const ll = mpKeep(l1 - lh);
      const r = mpToInt(a1 * 33554432.0) - mpToInt(pe[1] * 33554432.0) + mpToInt(a2 * 33554432.0) + mpToInt(lh * 33554432.0);
      const half = mpToInt(s1 * 16777216.0);
      q = mpToInt(n);
      if (r > half || (r === half && ll > 0.0)) {
        q = q + 1;
      } else if (r === half && ll === 0.0) {
        q = q + (q & 1);
      } else if (r < -half || (r === -half && ll < 0.0)) {
        q = q - 1;
      } else if (r === -half && ll === 0.0) {
        q = q - (q & 1);
      }
      if (q > m) { q = m; }
    }
  }
  if (sign !== 0) { q = -q; }
  return q;
}`,
  argumentTypes: { v: 'Array(2)', s: 'Number', qmax: 'Number' },
  returnType: 'Integer',
};

/** The writer helpers (registered with every gpu.js instance next to the format readers). */
export const WRITER_HELPERS: readonly HelperFunction[] = [f64Words, scaleOf, quantize];
