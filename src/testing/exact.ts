/**
 * Doubles as exact rationals: conversion, exact sums and dot products, error measures.
 *
 * Every finite double is m·2^e with integer m (|m| < 2^53) and −1074 ≤ e ≤ 971. The bits are
 * read with BigInt from a Float64Array here — deliberately a different route from the
 * conversions in src/formats/convert, which never look at bits to round — so this oracle
 * checks them independently.
 *
 * @module
 */
import { fail } from '../core/errors.js';
import type { BinaryFormatParameters } from '../formats/convert/binary-parameters.js';
import { type Rational, ZERO, absRational, checkRational, divRational, mulRational, rational, subRational } from './rational.js';
import { roundRationalToDouble, roundRationalToFormat } from './round-rational.js';

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);
const MANTISSA_MASK = (1n << 52n) - 1n;

/**
 * Throws unless `value` is array-like (an object with a non-negative integer length): undefined threw a TypeError
 * reading its length, and a number or a plain object summed nothing.
 * @throws {@link ModprecError} `INVALID_VALUE` naming `parameter`
 */
function checkArrayLike(parameter: string, value: unknown): void {
  const length = (value as { length?: unknown } | null)?.length;
  if (typeof value !== 'object' || value === null || typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    fail('INVALID_VALUE', parameter, 'must be an array', value);
  }
}

/**
 * Checks what {@link exactTriangularSolve} reads: lower and unit booleans, T's rows i < n as arrays and T[i][j] (the
 * triangle, the diagonal unless unit) and b[i] as rationals, each named.
 * @throws {@link ModprecError} `INVALID_OPTION` (lower, unit), `INVALID_VALUE` (T, b entries)
 */
function checkTriangle(T: unknown, b: ArrayLike<unknown>, lower: unknown, unit: unknown): void {
  if (typeof lower !== 'boolean') fail('INVALID_OPTION', 'lower', 'must be a boolean', lower);
  if (typeof unit !== 'boolean') fail('INVALID_OPTION', 'unit', 'must be a boolean', unit);
  checkArrayLike('T', T);
  const n = b.length;
  const rows = T as ArrayLike<ArrayLike<unknown>>;
  if (rows.length < n) fail('DIMENSION_MISMATCH', 'T', `must have b.length = ${n} rows`, `${rows.length} rows`);
  for (let i = 0; i < n; i++) {
    checkRational(`b[${i}]`, b[i]);
    checkArrayLike(`T[${i}]`, rows[i]);
    const from = lower ? 0 : unit ? i + 1 : i;
    const to = lower ? (unit ? i : i + 1) : n;
    if (rows[i]!.length < to) fail('DIMENSION_MISMATCH', `T[${i}]`, `must have at least ${to} entries`, `${rows[i]!.length} entries`);
    for (let j = from; j < to; j++) checkRational(`T[${i}][${j}]`, rows[i]![j]);
  }
}

/** A finite double as integer significand and exponent: value = significand·2^exponent. */
interface Dyadic {
  significand: bigint;
  exponent: number;
}

function decompose(parameter: string, x: number): Dyadic {
  if (typeof x !== 'number' || !Number.isFinite(x)) fail('INVALID_VALUE', parameter, 'must be a finite number', x);
  F64[0] = x;
  const bits = U64[0]!;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & MANTISSA_MASK;
  const magnitude = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = biased === 0 ? -1074 : biased - 1075;
  return { significand: bits >> 63n ? -magnitude : magnitude, exponent };
}

/**
 * The exact value of a finite double as a rational (−0 and +0 both give 0).
 *
 * @param x - a finite number
 * @returns x as num/den with den a power of two
 * @throws {@link ModprecError} `INVALID_VALUE` when x is NaN or infinite
 * @example
 * ```ts
 * import { exactOf } from 'modprec/testing';
 *
 * exactOf(0.1); // { num: 3602879701896397n, den: 36028797018963968n }  (= 0.1's double, 2^55 below)
 * ```
 * @group Testing
 */
export function exactOf(x: number): Rational {
  return exactOfNamed('x', x);
}

/** {@link exactOf}, naming `parameter` when x is not a finite number. */
function exactOfNamed(parameter: string, x: number): Rational {
  const { significand, exponent } = decompose(parameter, x);
  return exponent >= 0 ? rational(significand << BigInt(exponent)) : rational(significand, 1n << BigInt(-exponent));
}

/**
 * The exact sum of finite doubles.
 *
 * @param xs - the terms (an array or typed array); empty gives 0
 * @returns Σ xs[i] exactly
 * @throws {@link ModprecError} `INVALID_VALUE` when a term is NaN or infinite
 * @example
 * ```ts
 * import { exactSum, roundRationalToDouble } from 'modprec/testing';
 *
 * roundRationalToDouble(exactSum([1e100, 1, -1e100])); // 1
 * ```
 * @group Testing
 */
export function exactSum(xs: ArrayLike<number>): Rational {
  checkArrayLike('xs', xs);
  // Accumulate an integer count of 2^−1074 units: shifts and adds only, no reductions per term.
  let units = 0n;
  for (let i = 0; i < xs.length; i++) {
    const { significand, exponent } = decompose(`xs[${i}]`, xs[i]!);
    units += significand << BigInt(exponent + 1074);
  }
  return rational(units, 1n << 1074n);
}

/**
 * The exact dot product of two vectors of finite doubles.
 *
 * @param x - first vector
 * @param y - second vector, same length
 * @returns Σ x[i]·y[i] exactly
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` when the lengths differ; `INVALID_VALUE` for a non-finite entry
 * @example
 * ```ts
 * import { exactDot } from 'modprec/testing';
 *
 * const q = exactDot([1e16, 1, -1e16], [1, 1, 1]); // exactly 1, where naive summation gives 0
 * ```
 * @group Testing
 */
export function exactDot(x: ArrayLike<number>, y: ArrayLike<number>): Rational {
  checkArrayLike('x', x);
  checkArrayLike('y', y);
  if (x.length !== y.length) {
    fail('DIMENSION_MISMATCH', 'y', `must have the length of x (${x.length})`, `length ${y.length}`);
  }
  // Products of doubles are integers times 2^−2148.
  let units = 0n;
  for (let i = 0; i < x.length; i++) {
    const a = decompose(`x[${i}]`, x[i]!);
    const b = decompose(`y[${i}]`, y[i]!);
    units += (a.significand * b.significand) << BigInt(a.exponent + b.exponent + 2148);
  }
  return rational(units, 1n << 2148n);
}

/**
 * The exact solution of a triangular system T·x = b by substitution in rationals: the oracle for TRSV.
 *
 * @param T - op(A) by rows (n×n); only the triangle substitution reads (and the diagonal unless `unit`) is used
 * @param b - the right-hand side (length n)
 * @param lower - T lower triangular (forward substitution) or upper (backward)
 * @param unit - unit diagonal: the diagonal of T is not read
 * @returns x with T·x = b exactly
 * @throws {@link ModprecError} `INVALID_VALUE` naming `T[i][i]` for a zero pivot
 * @example
 * ```ts
 * import { exactOf, exactTriangularSolve } from 'modprec/testing';
 *
 * const T = [[exactOf(2), exactOf(0)], [exactOf(1), exactOf(4)]];
 * exactTriangularSolve(T, [exactOf(2), exactOf(9)], true, false); // x = [1, 2] as rationals
 * ```
 * @group Testing
 */
export function exactTriangularSolve(T: readonly (readonly Rational[])[], b: readonly Rational[], lower: boolean, unit: boolean): Rational[] {
  checkArrayLike('b', b);
  const n = b.length;
  checkTriangle(T, b, lower, unit);
  const x: Rational[] = new Array<Rational>(n);
  for (let k = 0; k < n; k++) {
    const i = lower ? k : n - 1 - k;
    let s = b[i]!;
    for (let j = lower ? 0 : i + 1; j < (lower ? i : n); j++) s = subRational(s, mulRational(T[i]![j]!, x[j]!));
    if (!unit && T[i]![i]!.num === 0n) fail('INVALID_VALUE', `T[${i}][${i}]`, 'must be non-zero (a zero pivot)', 0);
    x[i] = unit ? s : divRational(s, T[i]![i]!);
  }
  return x;
}

/**
 * The exact absolute error |computed − exact|.
 *
 * @param computed - a finite double
 * @param exact - the true value
 * @returns |computed − exact| as a rational
 * @throws {@link ModprecError} `INVALID_VALUE` when computed is not finite
 * @example
 * ```ts
 * import { exactDot, absoluteError, roundRationalToDouble } from 'modprec/testing';
 *
 * const exact = exactDot([0.1, 0.2], [0.3, 0.4]);   // of the doubles, exactly
 * const err = absoluteError(0.1 * 0.3 + 0.2 * 0.4, exact);
 * roundRationalToDouble(err) < 2 ** -56; // → true
 * ```
 * @group Testing
 */
export function absoluteError(computed: number, exact: Rational): Rational {
  checkRational('exact', exact);
  return absRational(subRational(exactOfNamed('computed', computed), exact));
}

/**
 * The relative error |computed − exact| / |exact|, rounded to the nearest double.
 *
 * @param computed - a finite double
 * @param exact - the true value
 * @returns the relative error; 0 when both are 0, Infinity when only exact is 0
 * @throws {@link ModprecError} `INVALID_VALUE` when computed is not finite
 * @example
 * ```ts
 * import { rational, relativeError } from 'modprec/testing';
 *
 * relativeError(0.1, rational(1n, 10n)) <= 2 ** -53; // true: 0.1 is correctly rounded
 * ```
 * @group Testing
 */
export function relativeError(computed: number, exact: Rational): number {
  checkRational('exact', exact);
  const error = absoluteError(computed, exact);
  if (exact.num === 0n) return error.num === 0n ? 0 : Infinity;
  return roundRationalToDouble(divRational(error, absRational(exact)));
}

/**
 * The oracle for a storage conversion: a double rounded to nearest-even in a binary format by
 * exact arithmetic, with IEEE special cases (NaN → NaN, ±Infinity and ±0 kept, −0 for a negative
 * value that rounds to zero, ±Infinity on overflow).
 *
 * @param x - any number
 * @param format - p ≤ 53 and exponents within binary64's
 * @returns the correctly rounded value as a double
 * @throws {@link ModprecError} `INVALID_FORMAT` when the format does not fit in binary64
 * @example
 * ```ts
 * import { oracleRoundToFormat } from 'modprec/testing';
 *
 * oracleRoundToFormat(1 + 2 ** -11, { significandBits: 11, minExponent: -14, maxExponent: 15 }); // 1 (tie to even)
 * ```
 * @group Testing
 */
export function oracleRoundToFormat(x: number, format: BinaryFormatParameters): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  if (x !== x) return NaN;
  if (x === 0 || x === Infinity || x === -Infinity) {
    roundRationalToFormat(ZERO, format); // still validate the format
    return x;
  }
  return roundRationalToFormat(exactOf(x), format);
}
