/**
 * Exact host-side conversions between JS doubles and the bit patterns of GPU storage formats
 * (binary16, bfloat16, binary32 pairs). Rounding is to nearest, ties to even, directly from the double
 * (never through binary32 first, which would round twice).
 *
 * @module
 */

/**
 * Rounds `x` to a binary format with `p` significand bits, minimum normal exponent `emin` and
 * largest finite value `max` (overflow → ±Infinity), ties to even. Exact: every step is a power-of-two
 * scaling or an integer rounding of a double.
 * @param x - the value
 * @param p - significand bits (11 for binary16, 8 for bfloat16)
 * @param emin - exponent of the smallest normal number (-14 for binary16, -126 for bfloat16)
 * @param max - largest finite value of the format
 * @returns the rounded value, as a double
 */
export function roundToBinary(x: number, p: number, emin: number, max: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  // log2 can be off by one near powers of two; fix it exactly.
  if (2 ** e > a) e -= 1;
  else if (2 ** (e + 1) <= a) e += 1;
  const quantumExponent = Math.max(e, emin) - (p - 1);
  const scaled = a / 2 ** quantumExponent; // exact: power-of-two scaling within double range
  let q = Math.floor(scaled);
  const rest = scaled - q;
  if (rest > 0.5 || (rest === 0.5 && q % 2 === 1)) q += 1;
  const r = q * 2 ** quantumExponent;
  // Overflow: anything at or beyond the midpoint to the next (nonexistent) binade step rounds to infinity.
  if (r > max) return x < 0 ? -Infinity : Infinity;
  return x < 0 ? -r : r;
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** Bits of the binary32 nearest to `x`. */
export function f32Bits(x: number): number {
  f32Scratch[0] = x;
  return u32Scratch[0]!;
}

/** The binary32 value with bits `bits`. */
export function f32FromBits(bits: number): number {
  u32Scratch[0] = bits >>> 0;
  return f32Scratch[0]!;
}

/** binary16 bits of `x`, rounded to nearest even. */
export function f16Bits(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const r = roundToBinary(x, 11, -14, 65504);
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(r);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  if (a < 2 ** -14) return sign | (a / 2 ** -24); // subnormal: an integer multiple of 2^-24
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;
  else if (2 ** (e + 1) <= a) e += 1;
  return sign | ((e + 15) << 10) | (a / 2 ** (e - 10) - 1024);
}

/** The value of binary16 bits `h`. */
export function f16Value(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 31;
  const m = h & 1023;
  if (e === 31) return m === 0 ? sign * Infinity : NaN;
  if (e === 0) return sign * m * 2 ** -24;
  return sign * (1024 + m) * 2 ** (e - 25);
}

/** bfloat16 bits of `x`, rounded to nearest even. */
export function bf16Bits(x: number): number {
  if (Number.isNaN(x)) return 0x7fc0;
  const r = roundToBinary(x, 8, -126, 3.3895313892515355e38);
  // r is exactly representable in bfloat16, hence in binary32: its top half is the bfloat16.
  return f32Bits(r) >>> 16;
}

/** The value of bfloat16 bits `h`. */
export function bf16Value(h: number): number {
  return f32FromBits((h & 0xffff) << 16);
}
