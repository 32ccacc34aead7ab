/**
 * Shared scratch typed arrays for reinterpreting numbers as bit patterns, and the word order of
 * a double. Allocated once at module load so that bit conversions allocate nothing. The hot
 * conversions (f16, bf16, f32, round-to-odd) keep their own module-local views instead, which
 * V8 embeds in optimised code. Internal to the conversions; not exported from the package.
 *
 * @module
 */

/** One-element binary64 view; aliases {@link U32_OF_F64}. */
export const F64 = new Float64Array(1);
/** The same eight bytes as {@link F64}, as two unsigned 32-bit words. */
export const U32_OF_F64 = new Uint32Array(F64.buffer);

// Word order of a double in memory follows the platform's byte order.
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Index in {@link U32_OF_F64} of the word holding sign, exponent and the top 20 significand bits. */
export const HIGH_WORD = littleEndian ? 1 : 0;
/** Index in {@link U32_OF_F64} of the word holding the low 32 significand bits. */
export const LOW_WORD = littleEndian ? 0 : 1;

/**
 * The sign bit of a number as stored (1 for −0, for negative numbers and for a NaN whose sign bit
 * is set). JavaScript engines may canonicalise NaNs; V8 keeps their sign through negation and
 * typed-array stores, so this recovers it where the engine kept it. Not for hot paths.
 *
 * @param x - any number
 * @returns 0 or 1
 */
export function signBitOf(x: number): 0 | 1 {
  F64[0] = x;
  return (U32_OF_F64[HIGH_WORD]! >>> 31) as 0 | 1;
}
