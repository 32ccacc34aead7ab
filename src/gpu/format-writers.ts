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
 * s moves up while too small and down while its predecessor still suffices.
 */
const scaleOf: HelperFunction = {
  source: `function mpScaleOf(mh, ml, qmax) {
  if (mh === 0.0) { return 1.0; }
  if (mpBits(mh) >= 2139095040) { return -1.0; }
  let s = mpKeep(mh * (1.0 / qmax));
  if (mpBits(s) < 8388608) { return -1.0; }
  for (let r1 = mpI32(0); r1 < 4; r1++) {
    const q = ffTwoProd(s, qmax);
    if (q[0] < mh || (q[0] === mh && q[1] < ml)) { s = mpFloat(mpBits(s) + 1); }
  }
  for (let r2 = mpI32(0); r2 < 4; r2++) {
    const d = mpFloat(mpBits(s) - 1);
    const qd = ffTwoProd(d, qmax);
    if (mpBits(d) >= 8388608 && (qd[0] > mh || (qd[0] === mh && qd[1] >= ml))) { s = d; }
  }
  return s;
}`,
  argumentTypes: { mh: 'Number', ml: 'Number', qmax: 'Number' },
  returnType: 'Number',
};

/**
 * `mpQuantize(v, s, qmax)`: the integer nearest v/s (ties to even), clamped to ±qmax. The quotient is a
 * float-float (`ffDiv`, relative error ~2^-44), split exactly into an integer part and a fraction; the
 * result is the correctly rounded quotient unless v/s lies within ~2^-44·|v/s| ≤ 2^-29 of a half-integer.
 */
const quantize: HelperFunction = {
  source: `function mpQuantize(v, s, qmax) {
  const y = ffDiv(v, [s, 0.0]);
  const fl = Math.floor(y[0]);
  const fr = mpKeep(mpKeep(y[0] - fl) + y[1]);
  let q = mpToInt(fl);
  if (fr > 0.5) { q = q + 1; }
  if (fr === 0.5) { q = q + (q & 1); }
  if (fr < -0.5) { q = q - 1; }
  if (fr === -0.5) { q = q - (q & 1); }
  const m = mpToInt(qmax);
  if (q > m) { q = m; }
  if (q < -m) { q = -m; }
  return q;
}`,
  argumentTypes: { v: 'Array(2)', s: 'Number', qmax: 'Number' },
  returnType: 'Integer',
};

/** The writer helpers (registered with every gpu.js instance next to the format readers). */
export const WRITER_HELPERS: readonly HelperFunction[] = [f64Words, scaleOf, quantize];
