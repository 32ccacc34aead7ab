/**
 * Exact conversions between doubles / double-doubles and BigInt rationals, and correctly rounded
 * conversions back. Every double is a dyadic rational m·2^e, so these are exact; they are for the
 * convenient path and tests, not for hot loops.
 * @module
 */
import { fail } from '../../core/errors.js';
import { bitLength } from '../../core/bit-length.js';
import type { DdBuffer } from './eft.js';
import { failDdOut } from './dd-arguments.js';

/**
 * An exact rational num/den with den > 0 (not necessarily in lowest terms).
 * @group Double-double
 */
export interface Rational {
  /** Numerator. */
  readonly num: bigint;
  /** Denominator, positive. */
  readonly den: bigint;
}

const view = new DataView(new ArrayBuffer(8));

/**
 * The exact value of a finite double as m·2^e with an integer m (possibly negative or zero).
 * @param x - a finite double
 * @returns `{ mantissa, exponent }` with x = mantissa · 2^exponent
 */
export function decomposeNumber(x: number): { mantissa: bigint; exponent: number } {
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let m = bits & 0xfffffffffffffn;
  let e: number;
  if (biased === 0) e = -1074;
  else { m |= 1n << 52n; e = biased - 1075; }
  return { mantissa: bits >> 63n ? -m : m, exponent: e };
}

/**
 * The exact value of a finite double as a rational.
 * @param x - a finite double
 * @returns x as num/den in lowest terms, den a power of two
 * @throws {@link ModprecError} `INVALID_VALUE` if x is not finite
 * @example
 * ```ts
 * import { numberToRational } from 'modprec';
 *
 * numberToRational(0.75); // → { num: 3n, den: 4n }
 * ```
 * @group Double-double
 */
export function numberToRational(x: number): Rational {
  if (!Number.isFinite(x)) fail('INVALID_VALUE', 'x', 'must be a finite number', x);
  const { mantissa, exponent } = decomposeNumber(x);
  return dyadic(mantissa, exponent);
}

/** m·2^e as a rational in lowest terms (trailing zero bits of m cancelled against the power of two). */
function dyadic(m: bigint, e: number): Rational {
  if (m === 0n) return { num: 0n, den: 1n };
  while (e < 0 && (m & 1n) === 0n) { m >>= 1n; e += 1; }
  return e >= 0 ? { num: m << BigInt(e), den: 1n } : { num: m, den: 1n << BigInt(-e) };
}

/**
 * The exact value hi + lo of a double-double as a rational.
 * @param hi - high part, finite
 * @param lo - low part, finite
 * @returns hi + lo as num/den in lowest terms, den a power of two
 * @throws {@link ModprecError} `INVALID_VALUE` if a part is not finite
 * @example
 * ```ts
 * import { ddToRational } from 'modprec';
 *
 * ddToRational(0.5, 2 ** -60); // → { num: 576460752303423489n, den: 1152921504606846976n }
 * ```
 * @group Double-double
 */
export function ddToRational(hi: number, lo: number): Rational {
  if (!Number.isFinite(hi)) fail('INVALID_VALUE', 'hi', 'must be a finite number', hi);
  if (!Number.isFinite(lo)) fail('INVALID_VALUE', 'lo', 'must be a finite number', lo);
  const a = decomposeNumber(hi);
  const b = decomposeNumber(lo);
  const e = Math.min(a.exponent, b.exponent);
  return dyadic((a.mantissa << BigInt(a.exponent - e)) + (b.mantissa << BigInt(b.exponent - e)), e);
}


/**
 * num/den rounded to the nearest double, ties to even (as IEEE 754 and `Number("…")` do), including
 * subnormal results; values ≥ 2^1024 − 2^970 round to ±Infinity.
 * @param num - numerator
 * @param den - denominator, non-zero
 * @returns the correctly rounded double
 * @throws {@link ModprecError} `INVALID_VALUE` naming `num` or `den` when either is not a bigint, or den = 0
 * @example
 * ```ts
 * import { roundRationalToNumber } from 'modprec';
 *
 * roundRationalToNumber(1n, 3n); // → 0.3333333333333333
 * roundRationalToNumber(1n, 10n) === 0.1; // → true
 * ```
 * @group Double-double
 */
export function roundRationalToNumber(num: bigint, den: bigint): number {
  // Checked as ddFromRational checks them: a number mixed into BigInt arithmetic, or den = 0, threw a TypeError or
  // RangeError from deep inside.
  if (typeof num !== 'bigint') fail('INVALID_VALUE', 'num', 'must be a bigint', num);
  if (typeof den !== 'bigint' || den === 0n) fail('INVALID_VALUE', 'den', 'must be a non-zero bigint', den);
  if (den < 0n) { num = -num; den = -den; }
  if (num === 0n) return 0;
  const negative = num < 0n;
  const a = negative ? -num : num;
  // e = ⌊log2(a/den)⌋.
  let e = bitLength(a) - bitLength(den);
  // a/den < 2^(e + 1) ≤ 2^-1075, half the least subnormal: a zero (without shifting a up by den's length, which for a
  // den near the engine's largest BigInt would not fit one).
  if (e < -1075) return negative ? -0 : 0;
  if (e >= 0 ? a < den << BigInt(e) : a << BigInt(-e) < den) e -= 1;
  if (e > 1023) return negative ? -Infinity : Infinity;
  // Quantum 2^q: 53 significant bits, but never below the subnormal quantum 2^-1074.
  const q = Math.max(e - 52, -1074);
  const n2 = q >= 0 ? a : a << BigInt(-q);
  const d2 = q >= 0 ? den << BigInt(q) : den;
  let m = n2 / d2;
  const twiceRemainder = (n2 - m * d2) * 2n;
  if (twiceRemainder > d2 || (twiceRemainder === d2 && (m & 1n) === 1n)) m += 1n;
  // m ≤ 2^53, so Number(m) is exact; scaling by 2^q is exact (or overflows to ∞ exactly when it should).
  const magnitude = Number(m) * 2 ** q;
  return negative ? -magnitude : magnitude;
}

/**
 * Rounds num/den correctly to a double-double: hi = RN(x), lo = RN(x − hi), then renormalised so that
 * hi = RN(hi + lo). Relative error ≤ u² = 2^-106 ({@link DD_ROUNDING_BOUND}) while lo is a normal double
 * (|x| ≥ 2^-969); below that, lo loses bits (absolute error ≤ 2^-1075).
 * @param out - receives [hi, lo]
 * @param num - numerator
 * @param den - denominator
 * @param parameter - name used in error messages
 * @throws {@link ModprecError} `INVALID_VALUE` if den = 0 or |x| rounds beyond the largest double
 * @example
 * ```ts
 * import { ddFromRational } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddFromRational(r, 1n, 3n);   // 1/3 correctly rounded to a double-double
 * r[0]; // → 0.3333333333333333
 * r[1]; // → 1.850371707708594e-17
 * ```
 * @group Double-double
 */
export function ddFromRational(out: DdBuffer, num: bigint, den: bigint, parameter = 'value'): void {
  if (!(out instanceof Float64Array) || out.length < 2) failDdOut(out);
  if (typeof num !== 'bigint') fail('INVALID_VALUE', `${parameter}.num`, 'must be a bigint', num);
  if (typeof den !== 'bigint' || den === 0n) fail('INVALID_VALUE', `${parameter}.den`, 'must be a non-zero bigint', den);
  if (den < 0n) { num = -num; den = -den; }
  const hi = roundRationalToNumber(num, den);
  if (!Number.isFinite(hi)) fail('INVALID_VALUE', parameter, 'must lie within the double range (|x| < 2^1024)', `${num}/${den}`);
  const h = numberToRational(hi);
  // x − hi = (num·h.den − h.num·den) / (den·h.den).
  const lo = roundRationalToNumber(num * h.den - h.num * den, den * h.den);
  // The rounding of lo can land on ulp(hi)/2 exactly; FastTwoSum restores hi = RN(hi + lo), value unchanged.
  const s = hi + lo;
  out[0] = s;
  out[1] = lo - (s - hi);
}
