/**
 * Correct rounding of exact rationals, to nearest with ties to even, by integer division.
 *
 * For q ≠ 0 let e = ⌊log2 |q|⌋ and the quantum 2^k with k = max(e, emin) − p + 1; then
 * |q|/2^k = m + r with integer m and 0 ≤ r < 1, and the rounded magnitude is m or m + 1 by
 * comparing 2r with 1 (ties: the even one). Overflow is decided after rounding with an
 * unbounded exponent, as IEEE 754 does: a result ≥ 2^(emax+1) becomes ±Infinity.
 *
 * @module
 */
import { fail } from '../core/errors.js';
import { bitLength } from '../core/bit-length.js';
import type { BinaryFormatParameters } from '../formats/convert/binary-parameters.js';
import type { Rational } from './rational.js';
import { checkRational, rational } from './rational.js';

/**
 * Precision and (optional) lower exponent bound for {@link roundRationalExact}.
 * @group Testing
 */
export interface RoundingPrecision {
  /** Significand bits p ≥ 1, the leading bit included. */
  readonly significandBits: number;
  /** Smallest normal exponent emin; omit (or −Infinity) for no subnormal range (unbounded below). */
  readonly minExponent?: number;
}


/** Most bits a rounding keeps, and the largest |minExponent|: far beyond any format, far below BigInt's limit. */
const MAX_ROUNDING_BITS = 2 ** 24;

/**
 * Rounds q to nearest-even with p significand bits and gradual underflow below 2^emin, with
 * the exponent unbounded above (the result is a rational; the caller decides overflow).
 *
 * @param q - the exact value
 * @param precision - p and optional emin
 * @returns the rounded value as a rational (0 when q rounds to zero, whatever its sign)
 * @throws {@link ModprecError} `INVALID_FORMAT` when significandBits is not an integer in [1, 2^24], or minExponent
 *   neither absent, -Infinity nor an integer in [-2^24, 2^24]
 * @example
 * ```ts
 * import { rational, roundRationalExact } from 'modprec/testing';
 *
 * roundRationalExact(rational(1n, 3n), { significandBits: 106 }); // the double-double nearest 1/3
 * ```
 * @group Testing
 */
export function roundRationalExact(q: Rational, precision: RoundingPrecision): Rational {
  checkRational('q', q);
  if (typeof precision !== 'object' || precision === null) fail('INVALID_FORMAT', 'precision', 'must be { significandBits, minExponent? }', precision);
  const p = precision.significandBits;
  // Bounded: 2^53 bits threw a RangeError (BigInt too large) shifting, a NaN or BigInt minExponent a TypeError.
  if (!Number.isInteger(p) || p < 1 || p > MAX_ROUNDING_BITS) fail('INVALID_FORMAT', 'precision.significandBits', `must be an integer in [1, ${MAX_ROUNDING_BITS}]`, p);
  const emin = precision.minExponent ?? -Infinity;
  if (emin !== -Infinity && !(Number.isInteger(emin) && Math.abs(emin) <= MAX_ROUNDING_BITS)) {
    fail('INVALID_FORMAT', 'precision.minExponent', `must be an integer in [-${MAX_ROUNDING_BITS}, ${MAX_ROUNDING_BITS}], or -Infinity or absent (no underflow)`, emin);
  }
  if (q.num === 0n) return q;
  const negative = q.num < 0n;
  const a = negative ? -q.num : q.num;
  const b = q.den;
  let e = bitLength(a) - bitLength(b);
  if (e >= 0 ? a < b << BigInt(e) : a << BigInt(-e) < b) e -= 1;
  const k = Math.max(e, emin) - p + 1;
  const numerator = k >= 0 ? a : a << BigInt(-k);
  const denominator = k >= 0 ? b << BigInt(k) : b;
  let m = numerator / denominator;
  const twiceRemainder = 2n * (numerator - m * denominator);
  if (twiceRemainder > denominator || (twiceRemainder === denominator && (m & 1n) === 1n)) m += 1n;
  const signed = negative ? -m : m;
  return k >= 0 ? rational(signed << BigInt(k)) : rational(signed, 1n << BigInt(-k));
}

/**
 * Rounds an exact rational to nearest-even in a binary format that is a subset of binary64,
 * with subnormals and IEEE overflow, and returns the result as a double.
 *
 * @param q - the exact value
 * @param format - p ≤ 53, emin ≥ −1022, emax ≤ 1023 (e.g. binary16: 11, −14, 15)
 * @returns the rounded value; ±Infinity on overflow; −0 when a negative q rounds to zero
 * @throws {@link ModprecError} `INVALID_FORMAT` when the format does not fit in binary64
 * @example
 * ```ts
 * import { rational, roundRationalToFormat } from 'modprec/testing';
 *
 * roundRationalToFormat(rational(1n, 3n), { significandBits: 11, minExponent: -14, maxExponent: 15 }); // 0.333251953125
 * ```
 * @group Testing
 */
export function roundRationalToFormat(q: Rational, format: BinaryFormatParameters): number {
  checkRational('q', q);
  if (typeof format !== 'object' || format === null) {
    fail('INVALID_FORMAT', 'format', 'must be { significandBits, minExponent, maxExponent }', format);
  }
  const { significandBits: p, minExponent: emin, maxExponent: emax } = format;
  if (!Number.isInteger(p) || p < 1 || p > 53) fail('INVALID_FORMAT', 'format.significandBits', 'must be an integer in [1, 53]', p);
  if (!Number.isInteger(emin) || emin < -1022) fail('INVALID_FORMAT', 'format.minExponent', 'must be an integer ≥ −1022', emin);
  if (!Number.isInteger(emax) || emax > 1023 || emax < emin) fail('INVALID_FORMAT', 'format.maxExponent', 'must be an integer in [minExponent, 1023]', emax);
  const r = roundRationalExact(q, format);
  if (r.num === 0n) return q.num < 0n ? -0 : 0;
  // Overflow: |r| ≥ 2^(emax+1). r's denominator is a power of two, so compare |num| with den·2^(emax+1).
  const magnitude = r.num < 0n ? -r.num : r.num;
  const limit = emax + 1 >= 0 ? r.den << BigInt(emax + 1) : null;
  if (limit !== null ? magnitude >= limit : magnitude << BigInt(-(emax + 1)) >= r.den) {
    return r.num < 0n ? -Infinity : Infinity;
  }
  // |num| < 2^53 when den > 1, and the value is a double, so both conversions below are exact.
  return r.den === 1n ? Number(r.num) : Number(r.num) * 2 ** -(bitLength(r.den) - 1);
}

/** binary64's parameters, local so that the oracle imports no constants it is meant to check. */
const DOUBLE: BinaryFormatParameters = { significandBits: 53, minExponent: -1022, maxExponent: 1023 };

/**
 * Rounds an exact rational to the nearest double (ties to even), as IEEE 754 arithmetic would.
 *
 * @param q - the exact value
 * @returns the correctly rounded double; ±Infinity beyond the overflow threshold; −0 for negative q rounding to zero
 * @example
 * ```ts
 * import { rational, roundRationalToDouble } from 'modprec/testing';
 *
 * roundRationalToDouble(rational(1n, 10n)) === 0.1; // true
 * ```
 * @group Testing
 */
export function roundRationalToDouble(q: Rational): number {
  checkRational('q', q);
  return roundRationalToFormat(q, DOUBLE);
}

/**
 * Rounds an exact rational to the nearest integer, ties to even.
 *
 * @param q - the exact value
 * @returns the nearest integer as a bigint
 * @example
 * ```ts
 * import { rational, roundRationalToInteger } from 'modprec/testing';
 *
 * roundRationalToInteger(rational(5n, 2n)); // 2n
 * roundRationalToInteger(rational(-7n, 2n)); // -4n
 * ```
 * @group Testing
 */
export function roundRationalToInteger(q: Rational): bigint {
  checkRational('q', q);
  // BigInt division truncates towards zero; work on |q| and restore the sign (RNE is symmetric).
  const negative = q.num < 0n;
  const a = negative ? -q.num : q.num;
  let m = a / q.den;
  const twiceRemainder = 2n * (a - m * q.den);
  if (twiceRemainder > q.den || (twiceRemainder === q.den && (m & 1n) === 1n)) m += 1n;
  return negative ? -m : m;
}
