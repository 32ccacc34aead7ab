/**
 * binary32 (single precision) storage conversions.
 *
 * @module
 */
import { fail } from '../../core/errors.js';
import { signBitOf } from './bit-views.js';

// Scratch views of one binary32, local to this module: V8 folds a module's own constants into
// optimised code, but loads imported bindings on every call (measured: ~1.5 ns per element).
const F32 = new Float32Array(1);
const U32_OF_F32 = new Uint32Array(F32.buffer);

/**
 * Bit pattern written for a NaN input: the quiet NaN, with the input's sign bit where the engine keeps it (V8 does).
 * @group Formats
 */
export const F32_QUIET_NAN_BITS = 0x7fc00000;

/**
 * Rounds a double to the nearest binary32 value, ties to even: exactly `Math.fround`, which
 * ECMAScript specifies as IEEE 754 roundTiesToEven to binary32 (subnormals, overflow to ±Infinity,
 * signed zeros and NaN included).
 *
 * @param x - any number
 * @returns the double equal to x correctly rounded to binary32
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { roundToF32 } from 'modprec';
 *
 * roundToF32(0.1); // 0.10000000149011612
 * ```
 * @group Formats
 */
export function roundToF32(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  return Math.fround(x);
}

/**
 * The binary32 bit pattern of x rounded to binary32.
 *
 * @param x - any number
 * @returns an unsigned 32-bit integer; NaN gives {@link F32_QUIET_NAN_BITS} with NaN's sign bit (payloads are not kept: engines need not preserve them)
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { f32ToBits } from 'modprec';
 *
 * f32ToBits(1).toString(16); // '3f800000'
 * ```
 * @group Formats
 */
export function f32ToBits(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  if (x !== x) return (F32_QUIET_NAN_BITS | (signBitOf(x) << 31)) >>> 0; // one canonical payload per sign
  F32[0] = x;
  return U32_OF_F32[0]!;
}

/**
 * The value of a binary32 bit pattern.
 *
 * @param bits - the pattern; only its low 32 bits are used
 * @returns the exact double value (NaN for every NaN pattern)
 * @throws {@link ModprecError} `INVALID_VALUE` when bits is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { f32FromBits } from 'modprec';
 *
 * f32FromBits(0x3f800000); // 1
 * ```
 * @group Formats
 */
export function f32FromBits(bits: number): number {
  if (typeof bits !== 'number') fail('INVALID_VALUE', 'bits', 'must be a number', bits);
  U32_OF_F32[0] = bits;
  return F32[0]!;
}
