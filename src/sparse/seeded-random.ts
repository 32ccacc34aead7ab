/**
 * A small seeded pseudo-random generator for reproducible test and benchmark matrices.
 *
 * A Weyl sequence (adding the 32-bit golden-ratio constant) passed through the MurmurHash3 32-bit
 * finaliser: fast, stateless apart from one counter, and good enough to scatter sparsity patterns and
 * values. Not for cryptography.
 *
 * @module
 */
import { fail } from '../core/errors.js';

/**
 * A reproducible stream of random numbers.
 * @group Sparse & IO
 */
export interface SeededRandom {
  /** Next uniformly distributed integer in `0 … 2^32 − 1`. */
  nextUint32(): number;
  /** Next uniformly distributed double in `[0, 1)` with 53 random bits. */
  nextDouble(): number;
}

/**
 * Creates a generator; the same seed always gives the same stream.
 *
 * @param seed - any safe integer (only its low 32 bits matter)
 * @returns the generator
 * @throws {@link ModprecError} `INVALID_VALUE` when `seed` is not a safe integer
 * @example
 * ```ts
 * import { seededRandom } from 'modprec';
 *
 * const random = seededRandom(42);
 * const u = random.nextDouble(); // same value on every run
 * ```
 * @group Sparse & IO
 */
export function seededRandom(seed: number): SeededRandom {
  if (!Number.isSafeInteger(seed)) fail('INVALID_VALUE', 'seed', 'must be a safe integer', seed);
  let state = seed >>> 0;
  const nextUint32 = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  const nextDouble = (): number => {
    const high = nextUint32() >>> 5; // 27 bits
    const low = nextUint32() >>> 6; // 26 bits
    return (high * 2 ** 26 + low) / 2 ** 53;
  };
  return { nextUint32, nextDouble };
}
