/**
 * The bit length of a BigInt, for the exact (BigInt) conversions of every format.
 * @module
 */

/**
 * Bits of a non-negative BigInt (0 for 0): the position of its highest set bit plus one. Read from the hexadecimal
 * digits, not the binary ones: `toString(2)` of an integer above 2^29 bits passes the engine's string length limit
 * (V8: 2^29 − 24 characters) and threw a RangeError, while a hexadecimal string is four times shorter than the
 * largest BigInt (V8: 2^30 bits) is long.
 * @param x - the integer, ≥ 0
 * @returns its bit length
 */
export function bitLength(x: bigint): number {
  if (x === 0n) return 0;
  const hex = x.toString(16);
  return 4 * (hex.length - 1) + 32 - Math.clz32(parseInt(hex[0]!, 16));
}
