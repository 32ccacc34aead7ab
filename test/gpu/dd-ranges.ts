/** A dd-stored vector holding given (hi, lo) pairs exactly, for the double-double GPU tests. */
import { formats, vector } from '../../src/index.js';

/** Interleaved pairs as a dd-stored range's bytes (what the device words of its upload are). */
export function ddRange(pairs: readonly { hi: number; lo: number }[]): ReturnType<typeof vector> {
  const v = vector(pairs.map((p) => p.hi), { storage: formats.dd, arithmetic: formats.dd });
  const data = v.accessor.data as Float64Array;
  pairs.forEach((p, k) => {
    data[2 * k] = p.hi;
    data[2 * k + 1] = p.lo;
  });
  return v;
}
