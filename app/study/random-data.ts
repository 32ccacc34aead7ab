/**
 * Reproducible random inputs of the accuracy experiments: uniform [−1, 1] and normal(0, 1), as in
 * seed 004 (section 4 and appendix). Each (seed, stream) pair gives its own independent sequence so the
 * matrix and the vector of one problem never share values.
 * @module
 */
import { seededRandom, type SeededRandom } from '../modprec.js';
import type { Distribution } from './types.js';

/** A generator for stream `stream` of seed `seed` (streams: 0 matrix, 1 first vector, 2 second vector, …). */
export function studyRandom(seed: number, stream: number): SeededRandom {
  // Mix the stream into the seed with an odd multiplier so neighbouring seeds do not share streams.
  return seededRandom(((seed >>> 0) * 0x2545f491 + stream * 0x9e3779b1) >>> 0);
}

/**
 * `n` values of `distribution`: uniform in [−1, 1) or standard normal (Box–Muller).
 * @param n - how many
 * @param distribution - `uniform` or `normal`
 * @param random - the generator
 * @returns a new Float64Array
 */
export function randomValues(n: number, distribution: Distribution, random: SeededRandom): Float64Array {
  const out = new Float64Array(n);
  if (distribution === 'uniform') {
    for (let i = 0; i < n; i++) out[i] = 2 * random.nextDouble() - 1;
    return out;
  }
  for (let i = 0; i < n; i += 2) {
    // 1 − u lies in (0, 1], so the logarithm is finite.
    const radius = Math.sqrt(-2 * Math.log(1 - random.nextDouble()));
    const angle = 2 * Math.PI * random.nextDouble();
    out[i] = radius * Math.cos(angle);
    if (i + 1 < n) out[i + 1] = radius * Math.sin(angle);
  }
  return out;
}
