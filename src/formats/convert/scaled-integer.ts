/**
 * The integer a scaled integer storage keeps for a value v and scale s: v / s rounded to the nearest integer
 * (ties to even) in ONE step, whatever the arithmetic v was computed in. Dividing first in the arithmetic and
 * then rounding the quotient would round twice: a quotient just off a half-integer can land on it (or across it)
 * and go to the non-nearest integer, and fp32's division alone can move it by more than the half quantum.
 *
 * The quotient is first formed in fp64 from a double-double approximation of v (relative error below 2^-50 in
 * all): its nearest integer is the right one unless the quotient lies within that error of a half-integer; only
 * then is the decision made exactly, with BigInt rationals (rare: a slow path for near-ties).
 * @module
 */

/** Adding and subtracting it rounds a double of magnitude < 2^51 to an integer, ties to even. */
const SHIFTER = 1.5 * 2 ** 52;
/** Beyond this every integer storage (at most 32 bits) saturates, so the quotient passes through unrounded. */
const SATURATED = 2 ** 50;
/** Below this a value's rounding to a double may be absolute (subnormal), not relative: decided exactly. */
const TINY = 2 ** -960;

/** An exact rational num/den (den > 0). */
export interface ExactRational {
  /** Numerator. */
  readonly num: bigint;
  /** Denominator, positive. */
  readonly den: bigint;
}

const view = new DataView(new ArrayBuffer(8));

/** A finite double exactly as a rational with a power-of-two denominator. */
function rationalOfDouble(x: number): ExactRational {
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let m = bits & 0xfffffffffffffn;
  if (biased !== 0) m |= 1n << 52n;
  const e = (biased === 0 ? 1 : biased) - 1075;
  const signed = bits >> 63n ? -m : m;
  return e >= 0 ? { num: signed << BigInt(e), den: 1n } : { num: signed, den: 1n << BigInt(-e) };
}

/** The nearest integer to num/den (den > 0), ties to even, exactly. */
function nearestIntegerOfRational(num: bigint, den: bigint): number {
  let n = num / den;
  let r = num - n * den; // same sign as num (BigInt division truncates)
  if (r < 0n) { n -= 1n; r += den; } // now num/den = n + r/den with 0 ≤ r < den
  const twice = 2n * r;
  if (twice > den || (twice === den && (n & 1n) === 1n)) n += 1n;
  return Number(n);
}

/** The nearest integer to the exact value / s, for a value given exactly as a rational. */
function exactQuotient(value: ExactRational, s: number): number {
  const sq = rationalOfDouble(s);
  let num = value.num * sq.den;
  let den = value.den * sq.num;
  if (den < 0n) { num = -num; den = -den; }
  const n = nearestIntegerOfRational(num, den);
  return n === 0 ? 0 : n; // never −0 (the storage keeps +0 anyway)
}

/**
 * The fast decision: the nearest integer of the exact quotient, from `approx` (the value within 2^-52 relative,
 * as a double) and s, when the fp64 quotient is clearly away from a half-integer; `undefined` when undecided (a
 * near-tie, or a value so small that its rounding to a double was not relative). NaN, infinite or huge quotients
 * pass through, for the storage to store NaN as 0 or saturate.
 */
function fastNearest(approx: number, s: number): number | undefined {
  const q = approx / s;
  if (!(Math.abs(q) < SATURATED)) return q;
  if (approx === 0) return 0;
  if (Math.abs(approx) < TINY) return undefined;
  const n = q + SHIFTER - SHIFTER;
  const distance = Math.abs(q - n); // exact: n is q's nearest integer, so q − n needs no rounding
  return 0.5 - distance > Math.abs(q) * 2 ** -48 ? n + 0 : undefined;
}

/**
 * The integer to store for the double-double value hi + lo (a double when lo = 0) under scale s: the exact
 * (hi + lo)/s rounded to the nearest integer, ties to even, in one rounding. Non-finite values pass through.
 * @param hi - the value's high part (or the value)
 * @param lo - its low part (0 for a double)
 * @param s - the scale, finite and non-zero
 * @returns an integer, or a non-finite or very large quotient for the storage to saturate
 * @example
 * ```ts
 * nearestIntegerOfQuotient(0.5, 0, 1); // 0 (ties to even)
 * ```
 */
export function nearestIntegerOfQuotient(hi: number, lo: number, s: number): number {
  const approx = hi + lo;
  // Finite parts whose double sum overflows (hi = −MAX, lo = −ulp(hi)/2) are a finite value: decided exactly, as a
  // quotient of it by a large scale can be small (it used to pass through as −∞ and saturate).
  const n = Number.isFinite(approx) || !Number.isFinite(hi) || !Number.isFinite(lo) ? fastNearest(approx, s) : undefined;
  if (n !== undefined) return n;
  const h = rationalOfDouble(hi), l = rationalOfDouble(lo);
  return exactQuotient({ num: h.num * l.den + l.num * h.den, den: h.den * l.den }, s);
}

/** In generated code, quotients below 2^31 in magnitude (every integer storage's range) are decided inline. */
const INLINE_RANGE = 2 ** 31;
/**
 * Below 2^31 the fp64 quotient is within 2^31·2^-51 = 2^-20 of the exact one; a distance to the nearest integer
 * under 1/2 − 2^-17 leaves the exact quotient on the same side of the half-integer.
 */
const INLINE_DISTANCE = 0.5 - 2 ** -17;

/**
 * Source of statements that declare `const <name>` = {@link nearestIntegerOfQuotient}(hi, lo, s) for generated
 * kernels: the common case inline (one division, the shifter rounding and one distance test), the helper
 * `nearestIntegerOfQuotient` for near-ties, quotients of 2^31 or more (which saturate), non-finite values and,
 * for a double-double, values so small that hi + lo may have rounded absolutely.
 * @param name - the constant to declare
 * @param hi - expression of the value's high part
 * @param lo - expression of its low part (`'0'` for a double: the value is then exact)
 * @param s - expression of the scale
 * @returns the statements
 * @example
 * ```ts
 * nearestIntegerSource('q', 'v', '0', 'scale[k]'); // "const q$v = v, … const q = …;"
 * ```
 */
export function nearestIntegerSource(name: string, hi: string, lo: string, s: string): string {
  const v = `${name}$v`, sc = `${name}$s`, q = `${name}$q`, n = `${name}$n`, d = `${name}$d`;
  const exact = lo === '0';
  const tiny = exact ? '' : ` && (${v} >= ${TINY} || ${v} <= ${-TINY})`;
  return `const ${v} = ${exact ? hi : `${hi} + ${lo}`}, ${sc} = ${s}, ${q} = ${v} / ${sc}, ${n} = ${q} + ${SHIFTER} - ${SHIFTER}, ${d} = ${q} - ${n};
const ${name} = ${d} < ${INLINE_DISTANCE} && ${d} > ${-INLINE_DISTANCE} && ${q} < ${INLINE_RANGE} && ${q} > ${-INLINE_RANGE}${tiny}
  ? ${n} : nearestIntegerOfQuotient(${hi}, ${lo}, ${sc});`;
}

/** A multiple-precision value that can give a double-double approximation and its exact value. */
export interface ExactMpValue {
  /** The value as a double-double, within 2^-106 relative. */
  toDoubleDouble(out: { hi: number; lo: number }): void;
  /** The exact value. */
  toRational(): ExactRational;
}

const mpPair = { hi: 0, lo: 0 };

/**
 * {@link nearestIntegerOfQuotient} for a multiple-precision value: the exact v/s rounded once to the nearest
 * integer, ties to even.
 * @param v - the value (an mp register)
 * @param s - the scale, finite and non-zero
 * @returns an integer, or a non-finite or very large quotient for the storage to saturate
 * @example
 * ```ts
 * nearestIntegerOfMpQuotient(rnsValue, 2 ** -10);
 * ```
 */
export function nearestIntegerOfMpQuotient(v: ExactMpValue, s: number): number {
  v.toDoubleDouble(mpPair);
  // A value beyond the doubles' range reads as ±∞ or 0 here; the exact path decides both (an RNS 2^1030 under the
  // scale 2^1000 is 2^30, not a saturation: it was stored as int32's maximum).
  const approx = mpPair.hi + mpPair.lo;
  const n = Number.isFinite(approx) ? fastNearest(approx, s) : undefined;
  return n !== undefined ? n : exactQuotient(v.toRational(), s);
}
