/**
 * Integer helpers the exact RNS conversions share (on the host, for the CPU format and the GPU's host side).
 * @module
 */
import { bitLength } from '../../core/bit-length.js';

export { bitLength };

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
