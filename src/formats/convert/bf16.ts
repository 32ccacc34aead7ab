/**
 * bfloat16 storage conversions, rounded once, straight from the double.
 *
 * bfloat16 is binary32 with the low 16 significand bits dropped (p = 8, emin = −126, emax = 127).
 * The common "round the binary32 bits" recipe starts from `Math.fround(x)`, which for a double
 * input is a first rounding: 1 + 2^−8 + 2^−30 becomes the tie 1 + 2^−8 and then goes to 1, while
 * the correct result is 1 + 2^−7. Here the double is rounded once, by Veltkamp splitting with
 * C = 2^45 + 1 (normal range) or a fixed-point shift on the 2^−133 grid (subnormal range).
 *
 * @module
 */
import { fail } from '../../core/errors.js';
import { signBitOf } from './bit-views.js';

// Scratch views of one binary32, local to this module: V8 folds a module's own constants into
// optimised code, but loads imported bindings on every call (measured: ~1.5 ns per element).
const F32 = new Float32Array(1);
const U32_OF_F32 = new Uint32Array(F32.buffer);

const SPLIT = 2 ** 45 + 1;
const MIN_NORMAL = 2 ** -126;
const OVERFLOW_THRESHOLD = (2 - 2 ** -8) * 2 ** 127; // midpoint of max finite and 2^128
const SUBNORMAL_SHIFTER = 1.5 * 2 ** -81; // 1.5·2^52 times the subnormal spacing 2^−133

/**
 * Bit pattern written for a NaN input: the quiet NaN, with the input's sign bit where the engine keeps it (V8 does).
 * @group Formats
 */
export const BF16_QUIET_NAN_BITS = 0x7fc0;

/**
 * Rounds a double to the nearest bfloat16 value, ties to even, with gradual underflow,
 * overflow to ±Infinity for |x| ≥ (2 − 2^−8)·2^127, signed zeros kept and NaN kept.
 *
 * @param x - any number
 * @returns the double equal to x correctly rounded to bfloat16
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { roundToBf16 } from 'modprec';
 *
 * roundToBf16(0.1); // 0.10009765625
 * roundToBf16(1 + 2 ** -8 + 2 ** -30); // 1.0078125 (via Math.fround it would wrongly be 1)
 * ```
 * @group Formats
 */
export function roundToBf16(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  const a = Math.abs(x);
  if (a >= MIN_NORMAL) {
    if (a >= OVERFLOW_THRESHOLD) return x > 0 ? Infinity : -Infinity;
    const g = SPLIT * x;
    return g + (x - g);
  }
  if (a < MIN_NORMAL) {
    const r = x + SUBNORMAL_SHIFTER - SUBNORMAL_SHIFTER;
    return r === 0 ? x * 0 : r;
  }
  return x; // NaN, returned as is (its sign kept)
}

/**
 * The bfloat16 bit pattern of x correctly rounded to bfloat16 (as {@link roundToBf16}).
 *
 * @param x - any number
 * @returns an unsigned 16-bit integer; NaN gives {@link BF16_QUIET_NAN_BITS} with NaN's sign bit (0xffc0 for a negative NaN)
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { bf16BitsFromNumber } from 'modprec';
 *
 * bf16BitsFromNumber(1).toString(16); // '3f80'
 * ```
 * @group Formats
 */
export function bf16BitsFromNumber(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  return encodeBf16(x);
}

/**
 * The value of a bfloat16 bit pattern.
 *
 * @param bits - the pattern; only its low 16 bits are used
 * @returns the exact double value (NaN for every NaN pattern, −0 for 0x8000)
 * @throws {@link ModprecError} `INVALID_VALUE` when bits is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { numberFromBf16Bits } from 'modprec';
 *
 * numberFromBf16Bits(0x3f80); // 1
 * ```
 * @group Formats
 */
export function numberFromBf16Bits(bits: number): number {
  if (typeof bits !== 'number') fail('INVALID_VALUE', 'bits', 'must be a number', bits);
  return decodeBf16(bits);
}

/** {@link bf16BitsFromNumber} without the argument check: the bf16 storage's per-element write (its operands are numbers). */
export function encodeBf16(x: number): number {
  // The rounding of roundToBf16, fused with the bit extraction.
  const a = Math.abs(x);
  if (a >= MIN_NORMAL) {
    if (a >= OVERFLOW_THRESHOLD) return x > 0 ? 0x7f80 : 0xff80;
    const g = SPLIT * x;
    // A bfloat16 value is a binary32 value whose low 16 bits are zero: the store is exact.
    F32[0] = g + (x - g);
    return U32_OF_F32[0]! >>> 16;
  }
  if (a < MIN_NORMAL) {
    // Subnormal or zero: the rounded significand is |x|·2^133 on the fixed grid (128 = min normal's pattern).
    const sign = x < 0 || (x === 0 && 1 / x < 0) ? 0x8000 : 0;
    return sign | ((a + SUBNORMAL_SHIFTER - SUBNORMAL_SHIFTER) * 2 ** 133);
  }
  return (signBitOf(x) << 15) | BF16_QUIET_NAN_BITS; // NaN: rare, so the slow sign read is fine
}

/** {@link numberFromBf16Bits} without the argument check: the bf16 storage's per-element read (its operands are numbers). */
export function decodeBf16(bits: number): number {
  U32_OF_F32[0] = (bits & 0xffff) << 16;
  return F32[0]!;
}
