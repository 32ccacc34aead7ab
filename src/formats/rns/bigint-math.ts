/**
 * Integer helpers the exact RNS conversions share (on the host, for the CPU format and the GPU's host side).
 * @module
 */

/**
 * Bits of a non-negative BigInt (0 for 0).
 * @param x - the integer, ≥ 0
 * @returns the position of its highest set bit plus one
 */
export function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/**
 * ⌊√n⌋ by Newton's iteration from above (every iterate stays ≥ ⌊√n⌋, so the first one that does not fall is it).
 * @param n - the integer, ≥ 0
 * @returns the integer square root
 */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
