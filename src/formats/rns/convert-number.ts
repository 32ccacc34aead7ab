/**
 * Conversions between {@link RnsNumber} and JavaScript doubles / double-double pairs.
 * number → RNS is exact (p ≥ 53); RNS → number rounds correctly (to nearest, ties to even; or to odd,
 * for a later correct rounding to a narrower format without double rounding).
 * @module
 */
import { checkWritableFields } from '../../core/writable.js';
import { checkFinite, fail } from '../../core/errors.js';
import { DOWN, EXT, UP, exponentOf, normalize, pow2 } from './ext-float.js';
import { LIMB_BITS, type RnsModuliSet, rnsTables } from './moduli-set.js';
import { rnsAdd, rnsSub } from './arithmetic.js';
import { anyBitBelow, significandBitsUpper, significandLimbs } from './rounding.js';
import { RnsNumber, checkRnsNumber, checkSameSet, installNumberConversions, markOwnOrdinary, setZero } from './rns-number-class.js';
import { resolveNumber } from './resolve.js';
import { rnsToRational, setRoundedRational } from './convert-exact.js';
import { decomposeNumber } from '../dd/rational.js';

const LIMB = 2 ** LIMB_BITS;

/**
 * z := the double `value`, exactly (−0 keeps its sign).
 * @param z - destination
 * @param value - a finite double
 * @throws {@link ModprecError} `INVALID_VALUE` if `value` is not a finite number (z untouched), or naming `z` when it is
 *   not an RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromNumber, rnsToNumber } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(106));
 * rnsFromNumber(x, 0.1);   // exact: every double fits
 * rnsToNumber(x); // → 0.1
 * ```
 * @group RNS
 */
export function rnsFromNumber(z: RnsNumber, value: number): void {
  checkRnsNumber('z', z);
  fromFiniteNumber(z, value);
}

/** rnsFromNumber without the check of z (the kernels' conversions of a stored double: value is still checked). */
export function fromFiniteNumber(z: RnsNumber, value: number): void {
  if (typeof value !== 'number' || value !== value || value === Infinity || value === -Infinity) checkFinite('value', value);
  setFromNumber(z, value);
}

/** rnsFromNumber without the check (the caller guarantees a finite number). */
export function setFromNumber(z: RnsNumber, value: number): void {
  if (value === 0) { setZero(z, Object.is(value, -0) ? 1 : 0); return; }
  const set = z.set;
  const a = value < 0 ? -value : value;
  let mant: number;
  let exp: number;
  if (a >= 2 ** -1022) {
    const e = exponentOf(a);
    const s = 53 - e; // 2^s may overflow for the smallest normals: scale in two exact steps
    mant = s > 1000 ? a * pow2(s - 1000) * pow2(1000) : a * pow2(s); // integer in [2^52, 2^53)
    exp = e - 53;
  } else {
    mant = a * 2 ** 1022 * 2 ** 52; // subnormal: integer < 2^52 (2^1074 itself overflows)
    exp = -1074;
  }
  markOwnOrdinary(z);
  const n = set.size;
  const m = set.moduli;
  const inv = set.inverseModuli;
  const d = z.digits;
  for (let i = 0; i < n; i++) {
    const mm = m[i]!;
    const r = mant - Math.floor(mant * inv[i]!) * mm; // exact: both terms < 2^53
    d[i] = r < 0 ? r + mm : r >= mm ? r - mm : r;
  }
  z.sign = value < 0 ? 1 : 0;
  z.exp = exp;
  // X/M = mant/M with M ∈ [MfLo, MfUp]·2^Me: one division each, widened outward.
  normalize(mant, 0);
  const f = EXT.f, e = EXT.e;
  normalize((f / set.MfUp) * DOWN, e - set.Me);
  z.lf = EXT.f; z.le = EXT.e;
  normalize((f / set.MfLo) * UP, e - set.Me);
  z.uf = EXT.f; z.ue = EXT.e;
}

/**
 * A new number of `set` equal to `value`.
 * @param set - the moduli set
 * @param value - a finite double
 * @returns the number
 * @throws {@link ModprecError} `INVALID_VALUE` for a non-finite `value`
 * @example
 * ```ts
 * import { rnsModuliSet, rnsFromDouble, rnsToNumber } from 'modprec';
 *
 * const x = rnsFromDouble(rnsModuliSet(212), 0.1);
 * rnsToNumber(x); // 0.1
 * ```
 * @group RNS
 */
export function rnsFromDouble(set: RnsModuliSet, value: number): RnsNumber {
  const z = new RnsNumber(set);
  rnsFromNumber(z, value);
  return z;
}

/** Bits [from, from + count) of the integer held in 21-bit limbs (count ≤ 53, and the integer < 2^(from+count)). */
function highBits(limbs: Float64Array, count: number, from: number): number {
  const jl = Math.floor(from / LIMB_BITS);
  const r = from - jl * LIMB_BITS;
  let q = Math.floor(limbs[jl]! / 2 ** r);
  const top = Math.floor((from + count - 1) / LIMB_BITS);
  for (let j = jl + 1; j <= top; j++) q += limbs[j]! * 2 ** (LIMB_BITS * (j - jl) - r);
  return q;
}

/**
 * x rounded to a double: to nearest, ties to even (`roundToOdd` false), or to odd (`roundToOdd` true: the
 * result's last bit is set when inexact, so a later rounding to ≤ 51 bits is correct). Overflow gives ±Infinity,
 * underflow rounds into the subnormals.
 * @param x - the number
 * @param roundToOdd - round to odd instead of to nearest
 * @returns the double
 * @throws {@link ModprecError} `INVALID_VALUE` naming `x` when it is not an RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsToNumber, rnsFromRational } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(212));
 * rnsFromRational(x, 1n, 3n);
 * rnsToNumber(x); // → 0.3333333333333333
 * ```
 * @group RNS
 */
export function rnsToNumber(x: RnsNumber, roundToOdd = false): number {
  checkRnsNumber('x', x);
  return toNumberOf(x, roundToOdd);
}

/** rnsToNumber without the operand check: the kernels' per-element path (the format's helpers), free of it. */
export function toNumberOf(x: RnsNumber, roundToOdd = false): number {
  resolveNumber(x);
  if (x.uf === 0) return x.sign ? -0 : 0;
  const B = significandBitsUpper(x);
  significandLimbs(x, B + 1);
  const limbs = rnsTables(x.set).scratchLimbs;
  // Exact bit length of X from the top non-zero limb.
  let j = Math.ceil((B + 1) / LIMB_BITS);
  while (j > 0 && limbs[j] === 0) j--;
  const bl = LIMB_BITS * j + exponentOf(limbs[j]!);
  const e = x.exp;
  const t = Math.max(bl - 53, -1074 - e);
  let v: number;
  if (t <= 0) {
    let X = 0;
    for (let k = j; k >= 0; k--) X = X * LIMB + limbs[k]!; // < 2^53: exact
    v = e > 1023 ? Infinity : X * pow2(e);
  } else if (t > bl) {
    v = roundToOdd ? pow2(-1074) : 0; // below half the smallest subnormal
  } else {
    let q = highBits(limbs, bl - t, t);
    const roundBit = Math.floor(limbs[Math.floor((t - 1) / LIMB_BITS)]! / 2 ** ((t - 1) % LIMB_BITS)) % 2;
    const sticky = anyBitBelow(limbs, t - 1);
    if (roundToOdd) { if ((roundBit || sticky) && q % 2 === 0) q += 1; }
    else if (roundBit && (sticky || q % 2 === 1)) q += 1;
    const s = t + e;
    v = s > 1023 ? Infinity : q * pow2(s);
  }
  return x.sign ? -v : v;
}

/**
 * z := hi + lo (a double-double pair, or any two doubles), rounded to the set's precision (exact when the
 * pair's significand fits p bits).
 * @throws {@link ModprecError} `INVALID_VALUE` if hi or lo is not finite (z untouched), or naming `z` when it is not an
 *   RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromDoubleDouble, rnsToRational } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(212));
 * rnsFromDoubleDouble(x, 1, 2 ** -80);
 * const { num, den } = rnsToRational(x);   // exactly 1 + 2^-80
 * num * 2n ** 80n === den * (2n ** 80n + 1n); // → true
 * ```
 * @group RNS
 */
export function rnsFromDoubleDouble(z: RnsNumber, hi: number, lo: number): void {
  checkRnsNumber('z', z);
  fromDoubleDoubleOf(z, hi, lo);
}

/** rnsFromDoubleDouble without the check of z (the kernels' conversions: hi and lo are still checked). */
export function fromDoubleDoubleOf(z: RnsNumber, hi: number, lo: number): void {
  checkFinite('hi', hi);
  checkFinite('lo', lo);
  if (lo !== 0 && hi !== 0) {
    // A pair whose significand spans p or p + 1 bits may still fit p bits (a carry, or lo of the other sign), where
    // rnsAdd's conservative overflow test can round off its last bit: (2^53 − 1, 2^-53) was read inexactly by rns106.
    const span = topExponent(hi) - lowestSetBitExponent(lo) + 1;
    const p = z.set.precision;
    if (span === p || span === p + 1) { setExactPair(z, hi, lo); return; }
  }
  setFromNumber(z, hi);
  if (lo !== 0) {
    const t = loScratch(z.set);
    setFromNumber(t, lo);
    rnsAdd(z, z, t);
  }
}

const pairView = new DataView(new ArrayBuffer(8));

/** ⌊log2 |x|⌋ of a finite nonzero double (subnormals included). */
function topExponent(x: number): number {
  pairView.setFloat64(0, x);
  const biased = (pairView.getUint32(0) >>> 20) & 0x7ff;
  if (biased !== 0) return biased - 1023;
  return Math.floor(Math.log2(Math.abs(x))); // subnormal: exact, a power of two times an integer below 2^52
}

/** The exponent of the lowest set bit of a finite nonzero double. */
function lowestSetBitExponent(x: number): number {
  pairView.setFloat64(0, x);
  const high = pairView.getUint32(0), low = pairView.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  const ulpExponent = (biased === 0 ? 1 : biased) - 1075;
  const ctz = (w: number): number => 31 - Math.clz32(w & -w);
  const mantissaHigh = (high & 0xfffff) | (biased === 0 ? 0 : 0x100000);
  return ulpExponent + (low !== 0 ? ctz(low) : 32 + ctz(mantissaHigh));
}

/** A finite double as a BigInt multiple of 2^-1074. */
function scaledToSubnormalGrid(x: number): bigint {
  const { mantissa, exponent } = decomposeNumber(x);
  return mantissa << BigInt(exponent + 1074);
}

/** z := hi + lo exactly when it fits p bits, else rounded once (BigInt: only pairs at the precision's edge). */
function setExactPair(z: RnsNumber, hi: number, lo: number): void {
  const n = scaledToSubnormalGrid(hi) + scaledToSubnormalGrid(lo);
  setRoundedRational(z, n < 0n, n < 0n ? -n : n, 1n, -1074);
}

const loScratchBySet = new WeakMap<RnsModuliSet, RnsNumber>();
function loScratch(set: RnsModuliSet): RnsNumber {
  let s = loScratchBySet.get(set);
  if (!s) { s = new RnsNumber(set); loScratchBySet.set(set, s); }
  return s;
}

/** Result slot of {@link rnsToDoubleDouble}. */
export const DD_OUT = { hi: 0, lo: 0 };

/**
 * x as a double-double: hi = x rounded to nearest, lo = (x − hi) rounded to nearest, into `DD_OUT` buffer
 * and returned as a pair. hi + lo approximates x with relative error ≤ 2^-106 (plus u if x − hi needs rounding).
 * @param x - the number
 * @param out - where to write (default: the shared `DD_OUT` buffer)
 * @throws {@link ModprecError} `INVALID_VALUE` naming `x` when it is not an RnsNumber, `out` when it is not an object
 *   whose hi and lo can be assigned (frozen, or getters without setters)
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsToDoubleDouble, rnsFromRational } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(212));
 * rnsFromRational(x, 1n, 3n);
 * rnsToDoubleDouble(x, { hi: 0, lo: 0 }); // → { hi: 0.3333333333333333, lo: 1.850371707708594e-17 }
 * ```
 * @group RNS
 */
export function rnsToDoubleDouble(x: RnsNumber, out: { hi: number; lo: number } = DD_OUT): { hi: number; lo: number } {
  checkRnsNumber('x', x);
  // A frozen out (or one with getters) threw a TypeError assigning hi.
  checkWritableFields('out', out, ['hi', 'lo']);
  return toDoubleDoubleOf(x, out);
}

/** rnsToDoubleDouble without the checks (the kernels' export of a dd value). */
export function toDoubleDoubleOf(x: RnsNumber, out: { hi: number; lo: number }): { hi: number; lo: number } {
  const hi = toNumberOf(x);
  let lo = hi === 0 ? hi : 0;   // a zero as (±0, ±0): hi + lo of (−0, +0) would be +0
  if (Number.isFinite(hi) && hi !== 0) {
    const t = loScratch(x.set);
    setFromNumber(t, hi);
    rnsSub(t, x, t);
    lo = toNumberOf(t);
  }
  out.hi = hi;
  out.lo = lo;
  return out;
}

/** Throws unless `x` is an RnsNumber of `set` (public-boundary check). */
export function checkNumberOfSet(parameter: string, x: unknown, set: RnsModuliSet): asserts x is RnsNumber {
  if (!(x instanceof RnsNumber)) fail('INVALID_VALUE', parameter, `must be an RnsNumber of ${set.name}`, x);
  checkSameSet(parameter, x, set);
}

// RnsNumber's methods (isZero, toNumber, setNumber, setDd) run these; the class cannot import them itself.
installNumberConversions({
  resolve: resolveNumber, toNumber: (x) => toNumberOf(x), fromNumber: fromFiniteNumber, fromDoubleDouble: fromDoubleDoubleOf,
  toDoubleDouble: rnsToDoubleDouble, toRational: rnsToRational,
});
