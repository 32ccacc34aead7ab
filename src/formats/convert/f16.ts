/**
 * IEEE 754 binary16 (half precision) storage conversions, rounded once, straight from the double.
 *
 * The algorithm is {@link createBinaryRounder}'s with the binary16 constants written inline
 * (this sits in storage hot loops): Veltkamp splitting with C = 2^42 + 1 in the normal range,
 * a fixed-point shift on the 2^−24 grid in the subnormal range. Rounding via `Math.fround` first
 * would round twice (binary32, then binary16) and break ties wrongly, e.g. 1 + 2^−11 + 2^−40.
 *
 * @module
 */
import { fail } from '../../core/errors.js';
import { signBitOf } from './bit-views.js';

// Scratch views of one binary32, local to this module: V8 folds a module's own constants into
// optimised code, but loads imported bindings on every call (measured: ~1.5 ns per element).
const F32 = new Float32Array(1);
const U32_OF_F32 = new Uint32Array(F32.buffer);

const SPLIT = 2 ** 42 + 1;
const MIN_NORMAL = 2 ** -14;
const OVERFLOW_THRESHOLD = 65520; // midpoint of 65504 (max finite) and 65536
const SUBNORMAL_SHIFTER = 1.5 * 2 ** 28; // 1.5·2^52 times the subnormal spacing 2^−24

/**
 * Bit pattern written for a NaN input: the quiet NaN, with the input's sign bit where the engine keeps it (V8 does).
 * @group Formats
 */
export const F16_QUIET_NAN_BITS = 0x7e00;

/**
 * Rounds a double to the nearest binary16 value, ties to even, with gradual underflow,
 * overflow to ±Infinity for |x| ≥ 65520, signed zeros kept and NaN kept.
 *
 * @param x - any number
 * @returns the double equal to x correctly rounded to binary16
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { roundToF16 } from 'modprec';
 *
 * roundToF16(0.1); // 0.0999755859375
 * roundToF16(65519.99); // 65504
 * roundToF16(65520); // Infinity
 * ```
 * @group Formats
 */
export function roundToF16(x: number): number {
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
 * The binary16 bit pattern of x correctly rounded to binary16 (as {@link roundToF16}).
 *
 * @param x - any number
 * @returns an unsigned 16-bit integer; NaN gives {@link F16_QUIET_NAN_BITS} with NaN's sign bit (0xfe00 for a negative NaN)
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { f16BitsFromNumber } from 'modprec';
 *
 * f16BitsFromNumber(1).toString(16); // '3c00'
 * f16BitsFromNumber(-0).toString(16); // '8000'
 * ```
 * @group Formats
 */
export function f16BitsFromNumber(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  return encodeF16(x);
}

/**
 * The value of a binary16 bit pattern.
 *
 * @param bits - the pattern; only its low 16 bits are used
 * @returns the exact double value (NaN for every NaN pattern, −0 for 0x8000)
 * @throws {@link ModprecError} `INVALID_VALUE` when bits is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { numberFromF16Bits } from 'modprec';
 *
 * numberFromF16Bits(0x3555); // 0.333251953125
 * ```
 * @group Formats
 */
export function numberFromF16Bits(bits: number): number {
  if (typeof bits !== 'number') fail('INVALID_VALUE', 'bits', 'must be a number', bits);
  return decodeF16(bits);
}

/** {@link f16BitsFromNumber} without the argument check: the f16 storage's per-element write (its operands are numbers). */
export function encodeF16(x: number): number {
  // The rounding of roundToF16, fused with the bit extraction (≈3× faster than calling it and re-reading).
  const a = Math.abs(x);
  if (a >= MIN_NORMAL) {
    if (a >= OVERFLOW_THRESHOLD) return x > 0 ? 0x7c00 : 0xfc00;
    const g = SPLIT * x;
    // Every binary16 value is a binary32 value, so this store is exact; then re-bias the exponent
    // field from 127 to 15 (subtract 112 << 10 from exponent·2^10 + top 10 significand bits).
    F32[0] = g + (x - g);
    const b = U32_OF_F32[0]!;
    return ((b >>> 16) & 0x8000) | (((b >>> 13) & 0x3ffff) - 0x1c000);
  }
  if (a < MIN_NORMAL) {
    // Subnormal or zero: the rounded significand is |x|·2^24 on the fixed grid (1024 = min normal's pattern).
    const sign = x < 0 || (x === 0 && 1 / x < 0) ? 0x8000 : 0;
    return sign | ((a + SUBNORMAL_SHIFTER - SUBNORMAL_SHIFTER) * 16777216);
  }
  return (signBitOf(x) << 15) | F16_QUIET_NAN_BITS; // NaN: rare, so the slow sign read is fine
}

/** {@link numberFromF16Bits} without the argument check: the f16 storage's per-element read (its operands are numbers). */
export function decodeF16(bits: number): number {
  const e = bits & 0x7c00;
  if (e !== 0 && e !== 0x7c00) {
    // Normal: the binary32 pattern with the sign moved to bit 31 and the exponent re-biased from 15
    // to 127 (add 112 << 23). No branch on the sign: with mixed signs that branch cost ~4 ns.
    U32_OF_F32[0] = ((bits & 0x8000) << 16) | (((bits & 0x7fff) << 13) + 0x38000000);
    return F32[0]!;
  }
  const v = e === 0 ? (bits & 0x3ff) * 2 ** -24 : (bits & 0x3ff) === 0 ? Infinity : NaN;
  return bits & 0x8000 ? -v : v;
}
