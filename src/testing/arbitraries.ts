/**
 * fast-check arbitraries of doubles aimed at a storage format's hard cases.
 *
 * Generic in the format's parameters (p, emin, emax), so they serve built-in and custom formats
 * alike. Every case is built from integers and powers of two, never by calling the conversion
 * under test.
 *
 * @module
 */
import fc from 'fast-check';
import { fail } from '../core/errors.js';
import { type BinaryFormatParameters, binaryFormatLimits } from '../formats/convert/binary-parameters.js';
import { nextDown, nextUp } from '../formats/convert/double-neighbours.js';
import { type BinaryFormatLike, resolveBinaryFormat } from './format-descriptors.js';

/**
 * A rounding tie: the midpoint of two adjacent finite values of a format, and which one is even.
 * @group Testing
 */
export interface MidpointCase {
  /** The exact midpoint (a double). */
  readonly midpoint: number;
  /** The neighbour nearer to zero. */
  readonly lower: number;
  /** The neighbour farther from zero. */
  readonly upper: number;
  /** The neighbour whose significand is even: the correct ties-to-even result. */
  readonly even: number;
}

/**
 * A value whose rounding through a wider format first lands exactly on a tie of the narrow format.
 * @group Testing
 */
export interface DoubleRoundingCase {
  /** The input: a midpoint nudged by less than half a quantum of the wider format. */
  readonly value: number;
  /** The midpoint it rounds to in the wider format. */
  readonly midpoint: number;
  /** The correct (direct) rounding of value: the neighbour on value's side of the midpoint. */
  readonly expected: number;
}

function withSign(sign: boolean, x: number): number {
  return sign ? -x : x;
}

function significandArbitrary(p: number): fc.Arbitrary<number> {
  return fc.bigInt({ min: 0n, max: (1n << BigInt(p)) - 1n }).map(Number);
}

/** Exponents in [emin, emax], the two ends (subnormals, overflow's neighbourhood) drawn often. */
function exponentArbitrary(emin: number, emax: number): fc.Arbitrary<number> {
  return fc.oneof(fc.constantFrom(emin, emax), fc.integer({ min: emin, max: emax }));
}

function checkFitsInDouble(format: BinaryFormatParameters, needsMidpoints: boolean): void {
  const maxP = needsMidpoints ? 52 : 53;
  const { significandBits: p, minExponent: emin, maxExponent: emax } = format;
  if (!Number.isInteger(p) || p < 2 || p > maxP) fail('INVALID_FORMAT', 'format.significandBits', `must be an integer in [2, ${maxP}]`, p);
  if (!Number.isInteger(emin) || emin < -1022) fail('INVALID_FORMAT', 'format.minExponent', 'must be an integer ≥ −1022', emin);
  if (!Number.isInteger(emax) || emax > 1023 || emax <= emin) fail('INVALID_FORMAT', 'format.maxExponent', 'must be an integer in (minExponent, 1023]', emax);
}

/**
 * Finite values exactly representable in a format: random sign, exponent and significand,
 * subnormals and ±0 included; the lowest and highest exponents are drawn often.
 *
 * @param format - `'f16'`, `'bf16'`, `'f32'`, `'f64'` or format parameters (p ≤ 53, exponents within binary64's)
 * @returns an arbitrary of doubles x with round(x) = x in that format
 * @throws {@link ModprecError} `INVALID_FORMAT` for an unknown name or parameters outside those ranges
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToF16 } from 'modprec';
 * import { representableIn } from 'modprec/testing';
 *
 * fc.assert(fc.property(representableIn('f16'), (x) => roundToF16(x) === x));
 * ```
 * @group Testing
 */
export function representableIn(format: BinaryFormatLike): fc.Arbitrary<number> {
  const f = resolveBinaryFormat(format);
  checkFitsInDouble(f, false);
  const { significandBits: p, minExponent: emin, maxExponent: emax } = f;
  const hidden = 2 ** (p - 1);
  return fc
    .tuple(fc.boolean(), exponentArbitrary(emin, emax), significandArbitrary(p))
    .map(([sign, e, m]) => withSign(sign, (e === emin || m >= hidden ? m : m + hidden) * 2 ** (e - p + 1)));
}

/** A tie of a format before signs: magnitudes m·q and (m+1)·q, midpoint (2m+1)·q/2, binade of the midpoint. */
interface Tie {
  readonly sign: boolean;
  readonly m: number;
  readonly quantum: number;
  readonly binade: number;
}

/** ⌊log2 n⌋ for a positive integer n < 2^53, exactly (Math.log2 alone can be off by one near powers of two). */
function floorLog2(n: number): number {
  let e = Math.floor(Math.log2(n));
  if (2 ** e > n) e -= 1;
  else if (2 ** (e + 1) <= n) e += 1;
  return e;
}

function tiesOf(f: BinaryFormatParameters): fc.Arbitrary<Tie> {
  checkFitsInDouble(f, true);
  const { significandBits: p, minExponent: emin, maxExponent: emax } = f;
  const hidden = 2 ** (p - 1);
  return fc.tuple(fc.boolean(), exponentArbitrary(emin, emax), significandArbitrary(p)).map(([sign, e, raw]) => {
    let m = e === emin || raw >= hidden ? raw : raw + hidden;
    if (e === emax && m === 2 * hidden - 1) m -= 1; // its upper neighbour would be 2^(emax+1): overflow, not a tie
    const quantum = 2 ** (e - p + 1);
    // The midpoint lies in binade e, or lower in the subnormal range (e = emin, m < hidden).
    return { sign, m, quantum, binade: m >= hidden ? e : floorLog2(2 * m + 1) + e - p };
  });
}

function midpointCaseOf(t: Tie): MidpointCase {
  const lower = t.m * t.quantum;
  const upper = (t.m + 1) * t.quantum;
  return {
    midpoint: withSign(t.sign, (2 * t.m + 1) * (t.quantum / 2)),
    lower: withSign(t.sign, lower),
    upper: withSign(t.sign, upper),
    even: withSign(t.sign, t.m % 2 === 0 ? lower : upper),
  };
}

/**
 * Exact ties: midpoints between adjacent finite values of a format (p ≤ 52), with both neighbours
 * and the even one, the result that round-to-nearest-even must give. Both signs.
 *
 * @param format - a built-in name or format parameters
 * @returns an arbitrary of {@link MidpointCase}
 * @throws {@link ModprecError} `INVALID_FORMAT` when midpoints are not doubles (p > 52)
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToF16 } from 'modprec';
 * import { midpointCasesOf } from 'modprec/testing';
 *
 * fc.assert(fc.property(midpointCasesOf('f16'), (c) => roundToF16(c.midpoint) === c.even));
 * ```
 * @group Testing
 */
export function midpointCasesOf(format: BinaryFormatLike): fc.Arbitrary<MidpointCase> {
  return tiesOf(resolveBinaryFormat(format)).map(midpointCaseOf);
}

/**
 * Exact ties of a format (see {@link midpointCasesOf}), as plain doubles.
 *
 * @param format - a built-in name or format parameters (p ≤ 52)
 * @returns an arbitrary of midpoints
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToBf16 } from 'modprec';
 * import { midpointsOf } from 'modprec/testing';
 *
 * // every tie of bf16 is a double, exactly halfway: rounding it must move it
 * fc.assert(fc.property(midpointsOf('bf16'), (m) => roundToBf16(m) !== m));
 * ```
 * @group Testing
 */
export function midpointsOf(format: BinaryFormatLike): fc.Arbitrary<number> {
  return midpointCasesOf(format).map((c) => c.midpoint);
}

/**
 * The doubles adjacent to a format's ties (one double ulp either side): the cases a rounding
 * with a sloppy sticky bit or the wrong threshold gets wrong.
 *
 * @param format - a built-in name or format parameters (p ≤ 52)
 * @returns an arbitrary of doubles
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToF16 } from 'modprec';
 * import { exactOf, roundRationalToFormat, F16_DESCRIPTOR, nearMidpointsOf } from 'modprec/testing';
 *
 * fc.assert(fc.property(nearMidpointsOf('f16'), (x) => roundToF16(x) === roundRationalToFormat(exactOf(x), F16_DESCRIPTOR)));
 * ```
 * @group Testing
 */
export function nearMidpointsOf(format: BinaryFormatLike): fc.Arbitrary<number> {
  return fc.tuple(midpointsOf(format), fc.boolean()).map(([m, up]) => (up ? nextUp(m) : nextDown(m)));
}

/**
 * Inputs on which rounding through a wider format `via` first (double rounding) goes wrong: a tie
 * of `format` nudged by j/1024 of `via`'s quantum there (0 < j < 512), so `via` rounds it back onto
 * the tie and the tie then breaks to even, while the direct rounding goes to the nudged side.
 *
 * @param format - the narrow format (p ≤ 52)
 * @param via - the wider intermediate format: p + 1 ≤ p_via ≤ 43, emin_via ≤ emin (default binary32)
 * @returns an arbitrary of {@link DoubleRoundingCase}
 * @throws {@link ModprecError} `INVALID_FORMAT` when `via` is not wider than `format` that way
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToF16 } from 'modprec';
 * import { doubleRoundingCasesOf } from 'modprec/testing';
 *
 * // rounding to fp16 through fp32 goes wrong on these; the direct rounding must not
 * fc.assert(fc.property(doubleRoundingCasesOf('f16', 'f32'), (c) => roundToF16(c.value) === c.expected));
 * ```
 * @group Testing
 */
export function doubleRoundingCasesOf(
  format: BinaryFormatLike,
  via: BinaryFormatLike = 'f32',
): fc.Arbitrary<DoubleRoundingCase> {
  const f = resolveBinaryFormat(format);
  const v = resolveBinaryFormat(via, 'via');
  const pv = v.significandBits;
  if (pv < f.significandBits + 1 || pv > 43) fail('INVALID_FORMAT', 'via.significandBits', `must be in [${f.significandBits + 1}, 43]`, pv);
  if (v.minExponent > f.minExponent || v.minExponent - pv - 9 < -1074) {
    fail('INVALID_FORMAT', 'via.minExponent', `must be ≤ ${f.minExponent} and leave 10 bits below via's smallest subnormal`, v.minExponent);
  }
  return fc.tuple(tiesOf(f), fc.integer({ min: 1, max: 511 }), fc.boolean()).map(([t, j, away]) => {
    const c = midpointCaseOf(t);
    // via's quantum at the midpoint; just below a power of two (only the tie 2m + 1 = 1) it halves.
    const below = !away && t.m === 0 && t.binade > v.minExponent ? 0.5 : 1;
    const viaQuantum = 2 ** (Math.max(t.binade, v.minExponent) - pv + 1) * below;
    const nudge = (j / 1024) * viaQuantum; // < half of via's quantum: via rounds back to the midpoint
    return {
      value: withSign(t.sign, Math.abs(c.midpoint) + (away ? nudge : -nudge)),
      midpoint: c.midpoint,
      expected: away ? c.upper : c.lower,
    };
  });
}

/**
 * Values around the overflow threshold of a format: max finite, the threshold (which rounds to
 * infinity), their neighbouring doubles, 2^(emax+1), the largest double, and random values in
 * [max finite, 2·threshold]. Both signs.
 *
 * @param format - a built-in name or format parameters (p ≤ 52)
 * @returns an arbitrary of doubles
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToF16 } from 'modprec';
 * import { nearOverflowOf } from 'modprec/testing';
 *
 * fc.assert(fc.property(nearOverflowOf('f16'), (x) => Math.abs(roundToF16(x)) <= 65504 || !Number.isFinite(roundToF16(x))));
 * ```
 * @group Testing
 */
export function nearOverflowOf(format: BinaryFormatLike): fc.Arbitrary<number> {
  const f = resolveBinaryFormat(format);
  checkFitsInDouble(f, true);
  const { maxFinite, overflowThreshold } = binaryFormatLimits(f);
  const top = Math.min(2 * overflowThreshold, Number.MAX_VALUE);
  const magnitude = fc.oneof(
    fc.constantFrom(maxFinite, nextUp(maxFinite), nextDown(overflowThreshold), overflowThreshold, nextUp(overflowThreshold),
      Math.min(2 ** (f.maxExponent + 1), Number.MAX_VALUE), Number.MAX_VALUE),
    fc.double({ min: maxFinite, max: top, noNaN: true }),
  );
  return fc.tuple(fc.boolean(), magnitude).map(([s, x]) => withSign(s, x));
}

/**
 * Values in and around a format's subnormal range: the smallest subnormal, half of it (a tie
 * with zero), its neighbours, the largest subnormal, the min normal and the tie between them,
 * and random values in [0, 2·min normal] — half of all draws on a grid up to 2^12 times finer than the subnormals'
 * spacing (about half of those subnormal, most between two subnormals), a quarter any double there (most of those far
 * below the smallest subnormal). Both signs.
 *
 * @param format - a built-in name or format parameters (p ≤ 52)
 * @returns an arbitrary of doubles
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToF16 } from 'modprec';
 * import { nearUnderflowOf } from 'modprec/testing';
 *
 * fc.assert(fc.property(nearUnderflowOf('f16'), (x) => Number.isInteger(roundToF16(x) / 2 ** -24)));
 * ```
 * @group Testing
 */
export function nearUnderflowOf(format: BinaryFormatLike): fc.Arbitrary<number> {
  const f = resolveBinaryFormat(format);
  checkFitsInDouble(f, true);
  const { minNormal, minSubnormal } = binaryFormatLimits(f);
  const half = minSubnormal / 2;
  // fc.double is uniform over bit patterns, so below 2·min normal it lands in the format's subnormal range about once in
  // a hundred draws for fp16 or fp32 (a subnormal rounding bug went unseen by lawGradualUnderflow): draw
  // m·2^-k·minSubnormal with m ≤ 2^(p+k), which is [0, 2·min normal], exact (p + k ≤ 53, no step below 2^-1074).
  const k = Math.min(12, 53 - f.significandBits, f.minExponent - f.significandBits + 1075);
  const step = minSubnormal / 2 ** k;
  const grid = fc.bigInt({ min: 0n, max: 1n << BigInt(f.significandBits + k) }).map((m) => Number(m) * step);
  const magnitude = fc.oneof(
    fc.constantFrom(minSubnormal, half, nextUp(half), nextDown(half), minNormal - minSubnormal,
      minNormal - half, minNormal, nextDown(minNormal), 3 * half),
    { arbitrary: grid, weight: 2 },
    fc.double({ min: 0, max: 2 * minNormal, noNaN: true }),
  );
  return fc.tuple(fc.boolean(), magnitude).map(([s, x]) => withSign(s, x));
}

/**
 * Doubles spread over every binade from below the format's smallest subnormal to above its
 * overflow threshold, with random 53-bit significands. Both signs.
 *
 * @param format - a built-in name or format parameters
 * @returns an arbitrary of finite doubles
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToBf16 } from 'modprec';
 * import { acrossBinadesOf } from 'modprec/testing';
 *
 * fc.assert(fc.property(acrossBinadesOf('bf16'), (x) => Object.is(roundToBf16(-x), -roundToBf16(x))));
 * ```
 * @group Testing
 */
export function acrossBinadesOf(format: BinaryFormatLike): fc.Arbitrary<number> {
  const f = resolveBinaryFormat(format);
  checkFitsInDouble(f, false);
  const low = Math.max(f.minExponent - f.significandBits - 2, -1074);
  const high = Math.min(f.maxExponent + 2, 1023);
  return fc
    .tuple(fc.boolean(), fc.integer({ min: low, max: high }), fc.double({ min: 1, max: 2, maxExcluded: true, noNaN: true }))
    .map(([s, e, m]) => withSign(s, m * 2 ** e));
}

/**
 * The special values of a format: NaN, ±0, ±Infinity, ±smallest subnormal, ±min normal,
 * ±max finite, ±overflow threshold.
 *
 * @param format - a built-in name or format parameters (p ≤ 52)
 * @returns an arbitrary choosing among them
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToF16 } from 'modprec';
 * import { specialValuesOf } from 'modprec/testing';
 *
 * fc.assert(fc.property(specialValuesOf('f16'), (x) => Object.is(roundToF16(roundToF16(x)), roundToF16(x))));
 * ```
 * @group Testing
 */
export function specialValuesOf(format: BinaryFormatLike): fc.Arbitrary<number> {
  const f = resolveBinaryFormat(format);
  checkFitsInDouble(f, true);
  const { maxFinite, minNormal, minSubnormal, overflowThreshold } = binaryFormatLimits(f);
  const values = [NaN, 0, -0, Infinity, -Infinity];
  for (const v of [minSubnormal, minNormal, maxFinite, overflowThreshold]) values.push(v, -v);
  return fc.constantFrom(...values);
}

/**
 * Every kind of hard input for rounding into a format, mixed: specials, representable values,
 * ties and their neighbours, near overflow, near underflow, every binade, and any double.
 *
 * @param format - a built-in name or format parameters (p ≤ 52)
 * @returns an arbitrary of doubles (NaN and ±Infinity included)
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToBf16 } from 'modprec';
 * import { interestingDoublesFor } from 'modprec/testing';
 *
 * fc.assert(fc.property(interestingDoublesFor('bf16'), (x) => roundToBf16(roundToBf16(x)) === roundToBf16(x) || x !== x));
 * ```
 * @group Testing
 */
export function interestingDoublesFor(format: BinaryFormatLike): fc.Arbitrary<number> {
  return fc.oneof(
    specialValuesOf(format),
    representableIn(format),
    midpointsOf(format),
    nearMidpointsOf(format),
    nearOverflowOf(format),
    nearUnderflowOf(format),
    acrossBinadesOf(format),
    fc.double(),
  );
}
