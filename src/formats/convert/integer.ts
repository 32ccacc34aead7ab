/**
 * Rounding to signed integer storage (int8, int16, int32) for scaled formats.
 *
 * Clamp first, then round: the bounds are integers, so clamping commutes with rounding and
 * the result saturates. Rounding adds and subtracts 1.5·2^52, where the spacing of doubles is
 * exactly 1, so the double addition itself rounds to nearest, ties to even (valid for |x| < 2^51).
 *
 * @module
 */
import { fail } from '../../core/errors.js';

const SHIFTER = 1.5 * 2 ** 52;

/**
 * Rounds to nearest, ties to even, saturating to [min, max]. NaN gives 0; −0 and tiny negatives give +0.
 *
 * @param x - any number
 * @param min - lowest representable integer (|min| < 2^51)
 * @param max - highest representable integer
 * @returns an integer in [min, max]
 */
function roundToIntegerRange(x: number, min: number, max: number): number {
  const c = x > max ? max : x < min ? min : x;
  const r = c + SHIFTER - SHIFTER; // NaN stays NaN; −0 becomes +0
  return r === r ? r : 0;
}

/**
 * Rounds a number to int8 storage: nearest integer, ties to even, saturated to [−128, 127].
 * NaN is stored as 0 (an integer format has no NaN; 0 keeps sums and products finite and is
 * the value a zero-initialised buffer already holds); −0 becomes 0; ±Infinity saturate.
 *
 * @param x - any number
 * @returns an integer in [−128, 127]
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { roundToInt8 } from 'modprec';
 *
 * roundToInt8(2.5); // 2
 * roundToInt8(-300); // -128
 * ```
 * @group Formats
 */
export function roundToInt8(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  return encodeInt8(x);
}

/**
 * Rounds a number to int16 storage: nearest integer, ties to even, saturated to [−32768, 32767];
 * NaN → 0, −0 → 0, ±Infinity saturate (as {@link roundToInt8}).
 *
 * @param x - any number
 * @returns an integer in [−32768, 32767]
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { roundToInt16 } from 'modprec';
 *
 * roundToInt16(3.5); // 4
 * ```
 * @group Formats
 */
export function roundToInt16(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  return encodeInt16(x);
}

/**
 * Rounds a number to int32 storage: nearest integer, ties to even, saturated to [−2^31, 2^31 − 1];
 * NaN → 0, −0 → 0, ±Infinity saturate (as {@link roundToInt8}).
 *
 * @param x - any number
 * @returns an integer in [−2147483648, 2147483647]
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { roundToInt32 } from 'modprec';
 *
 * roundToInt32(-0.5); // 0
 * roundToInt32(1e10); // 2147483647
 * ```
 * @group Formats
 */
export function roundToInt32(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  return encodeInt32(x);
}

/** {@link roundToInt8} without the argument check: the i8 storage's per-element write (its operands are numbers). */
export function encodeInt8(x: number): number {
  return roundToIntegerRange(x, -128, 127);
}

/** {@link roundToInt16} without the argument check: the i16 storage's per-element write (its operands are numbers). */
export function encodeInt16(x: number): number {
  return roundToIntegerRange(x, -32768, 32767);
}

/** {@link roundToInt32} without the argument check: the i32 storage's per-element write (its operands are numbers). */
export function encodeInt32(x: number): number {
  return roundToIntegerRange(x, -2147483648, 2147483647);
}
