/**
 * Exact rational arithmetic on BigInt, the ground truth for oracles.
 *
 * A {@link Rational} is always reduced (gcd(num, den) = 1) with den > 0, so equal values have
 * equal fields. Every finite double is such a rational with a power-of-two denominator; sums and
 * products of doubles stay dyadic, for which reduction only strips common factors of two.
 *
 * @module
 */
import { fail } from '../core/errors.js';

/**
 * An exact rational number num/den, reduced, with den > 0.
 * @group Testing
 */
export interface Rational {
  /** Numerator, carrying the sign. */
  readonly num: bigint;
  /** Denominator, positive. */
  readonly den: bigint;
}

/** Number of trailing zero bits of a nonzero bigint. */
function trailingZeros(x: bigint): bigint {
  let n = 0n;
  while ((x & 0xffffffffn) === 0n) {
    x >>= 32n;
    n += 32n;
  }
  while ((x & 1n) === 0n) {
    x >>= 1n;
    n += 1n;
  }
  return n;
}

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/**
 * Builds the reduced rational num/den.
 *
 * @param num - numerator
 * @param den - denominator, nonzero (default 1)
 * @returns num/den reduced with a positive denominator
 * @throws {@link ModprecError} `INVALID_VALUE` when den is 0
 * @example
 * ```ts
 * import { rational } from 'modprec/testing';
 *
 * rational(6n, -4n); // { num: -3n, den: 2n }
 * ```
 * @group Testing
 */
export function rational(num: bigint, den: bigint = 1n): Rational {
  if (typeof num !== 'bigint') fail('INVALID_VALUE', 'num', 'must be a bigint', num);
  if (typeof den !== 'bigint') fail('INVALID_VALUE', 'den', 'must be a bigint', den);
  if (den === 0n) fail('INVALID_VALUE', 'den', 'must be nonzero', den);
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  if (num === 0n) return { num: 0n, den: 1n };
  if ((den & (den - 1n)) === 0n) {
    // Power-of-two denominator (all doubles and their sums/products): strip shared twos only.
    const shift = trailingZeros(num);
    const denShift = trailingZeros(den);
    const s = shift < denShift ? shift : denShift;
    return { num: num >> s, den: den >> s };
  }
  const g = gcd(num, den);
  return { num: num / g, den: den / g };
}

/** Largest |k| of {@link powerOfTwo}: 2^k must fit V8's largest BigInt (2^30 bits). */
const MAX_SHIFT = 2 ** 30 - 2;

/**
 * Throws unless `r` is a {@link Rational}: an object with a bigint `num` and a positive bigint `den` (an undefined or
 * number-valued one threw a TypeError, "Cannot read properties of undefined" or "Cannot mix BigInt and other types").
 * @throws {@link ModprecError} `INVALID_VALUE` naming `parameter`
 */
export function checkRational(parameter: string, r: unknown): asserts r is Rational {
  const q = r as Partial<Rational> | null;
  if (typeof q !== 'object' || q === null || typeof q.num !== 'bigint' || typeof q.den !== 'bigint' || q.den <= 0n) {
    fail('INVALID_VALUE', parameter, 'must be a rational { num, den } of bigints with den > 0', r);
  }
}

/**
 * The rational 0.
 * @group Testing
 */
export const ZERO: Rational = Object.freeze({ num: 0n, den: 1n });

/**
 * Exact sum a + b.
 * @param a - first term
 * @param b - second term
 * @returns a + b, reduced
 * @example
 * ```ts
 * import { rational, addRational, rationalToString } from 'modprec/testing';
 *
 * rationalToString(addRational(rational(1n, 3n), rational(1n, 6n))); // → '1/2'
 * ```
 * @group Testing
 */
export function addRational(a: Rational, b: Rational): Rational {
  checkRational('a', a);
  checkRational('b', b);
  if (a.den === b.den) return rational(a.num + b.num, a.den);
  return rational(a.num * b.den + b.num * a.den, a.den * b.den);
}

/**
 * Exact difference a − b.
 * @param a - minuend
 * @param b - subtrahend
 * @returns a − b, reduced
 * @example
 * ```ts
 * import { rational, subRational, rationalToString, exactOf } from 'modprec/testing';
 *
 * rationalToString(subRational(exactOf(0.1), rational(1n, 10n))); // → '1/180143985094819840'
 * ```
 * @group Testing
 */
export function subRational(a: Rational, b: Rational): Rational {
  checkRational('a', a);
  checkRational('b', b);
  return addRational(a, { num: -b.num, den: b.den });
}

/**
 * Exact product a·b.
 * @param a - first factor
 * @param b - second factor
 * @returns a·b, reduced
 * @example
 * ```ts
 * import { rational, mulRational, rationalToString } from 'modprec/testing';
 *
 * rationalToString(mulRational(rational(2n, 3n), rational(3n, 4n))); // → '1/2'
 * ```
 * @group Testing
 */
export function mulRational(a: Rational, b: Rational): Rational {
  checkRational('a', a);
  checkRational('b', b);
  return rational(a.num * b.num, a.den * b.den);
}

/**
 * Exact quotient a/b.
 * @param a - dividend
 * @param b - divisor, nonzero
 * @returns a/b, reduced
 * @throws {@link ModprecError} `INVALID_VALUE` when b is 0
 * @example
 * ```ts
 * import { rational, divRational, rationalToString } from 'modprec/testing';
 *
 * rationalToString(divRational(rational(1n), rational(3n))); // → '1/3'
 * ```
 * @group Testing
 */
export function divRational(a: Rational, b: Rational): Rational {
  checkRational('a', a);
  checkRational('b', b);
  if (b.num === 0n) fail('INVALID_VALUE', 'b', 'must be a nonzero divisor', 0);
  return rational(a.num * b.den, a.den * b.num);
}

/**
 * Exact negation.
 * @param a - a rational
 * @returns −a
 * @example
 * ```ts
 * import { rational, negRational, rationalToString } from 'modprec/testing';
 *
 * rationalToString(negRational(rational(1n, 3n))); // → '-1/3'
 * ```
 * @group Testing
 */
export function negRational(a: Rational): Rational {
  checkRational('a', a);
  return { num: -a.num, den: a.den };
}

/**
 * Exact absolute value.
 * @param a - a rational
 * @returns |a|
 * @example
 * ```ts
 * import { rational, absRational, rationalToString } from 'modprec/testing';
 *
 * rationalToString(absRational(rational(-5n, 2n))); // → '5/2'
 * ```
 * @group Testing
 */
export function absRational(a: Rational): Rational {
  checkRational('a', a);
  return a.num < 0n ? { num: -a.num, den: a.den } : a;
}

/**
 * Three-way comparison.
 * @param a - left operand
 * @param b - right operand
 * @returns −1 if a < b, 0 if a = b, 1 if a > b
 * @example
 * ```ts
 * import { rational, compareRational, exactOf } from 'modprec/testing';
 *
 * compareRational(exactOf(0.1), rational(1n, 10n)); // → 1
 * ```
 * @group Testing
 */
export function compareRational(a: Rational, b: Rational): -1 | 0 | 1 {
  checkRational('a', a);
  checkRational('b', b);
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/**
 * Sign of a rational.
 * @param a - a rational
 * @returns −1, 0 or 1
 * @example
 * ```ts
 * import { rational, ZERO, signRational } from 'modprec/testing';
 *
 * signRational(rational(-1n, 7n)); // → -1
 * signRational(ZERO); // → 0
 * ```
 * @group Testing
 */
export function signRational(a: Rational): -1 | 0 | 1 {
  checkRational('a', a);
  return a.num < 0n ? -1 : a.num > 0n ? 1 : 0;
}

/**
 * The exact rational 2^k.
 * @param k - any integer exponent
 * @returns 2^k
 * @example
 * ```ts
 * import { powerOfTwo, rationalToString } from 'modprec/testing';
 *
 * rationalToString(powerOfTwo(-3)); // → '1/8'
 * ```
 * @group Testing
 */
export function powerOfTwo(k: number): Rational {
  // 2^(2^30) is beyond V8's largest BigInt (a RangeError), and a non-integer k threw converting to BigInt.
  if (typeof k !== 'number' || !Number.isInteger(k) || Math.abs(k) > MAX_SHIFT) {
    fail('INVALID_VALUE', 'k', `must be an integer in [−${MAX_SHIFT}, ${MAX_SHIFT}]`, k);
  }
  return k >= 0 ? { num: 1n << BigInt(k), den: 1n } : { num: 1n, den: 1n << BigInt(-k) };
}

/**
 * Writes a rational as `num/den` (or `num` when den = 1), for failure messages.
 * @param a - a rational
 * @returns its decimal text
 * @example
 * ```ts
 * import { rational, rationalToString, exactOf } from 'modprec/testing';
 *
 * rationalToString(exactOf(0.5)); // → '1/2'
 * rationalToString(rational(6n, 3n)); // → '2'
 * ```
 * @group Testing
 */
export function rationalToString(a: Rational): string {
  checkRational('a', a);
  return a.den === 1n ? `${a.num}` : `${a.num}/${a.den}`;
}
