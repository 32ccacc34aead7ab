/**
 * Where an arithmetic stops keeping its full precision at the small end of its range, for solvers that must tell an
 * underflowed product from a true zero.
 * @module
 */
import type { ArithmeticFormat } from '../formats/common/format.js';

const levels = new WeakMap<ArithmeticFormat<any>, number>();

/**
 * The smallest power of two 2^e at which `arithmetic` still holds 2^e·(1 + 2^(1−p)) exactly (p its significand bits,
 * at most a double's): its smallest normal number (2^-126 for fp32, 2^-1022 for fp64; float-float, whose low word is
 * an fp32, 2^-79). Below it, products and sums carry absolute errors of about this size, whatever their relative
 * precision above it. Probed once per arithmetic (fromNumber/toNumber), so a user's format needs no declared range;
 * 0 where no power of two down to 2^-1022 fails to hold it.
 */
export function smallestNormal(arithmetic: ArithmeticFormat<any>): number {
  let level = levels.get(arithmetic);
  if (level !== undefined) return level;
  const p = Math.min(arithmetic.significandBits, 53);
  const holds = (e: number): boolean => {
    const v = 2 ** e * (1 + 2 ** (1 - p));
    return arithmetic.toNumber(arithmetic.fromNumber(v)) === v;
  };
  level = 0;
  for (let e = -1022; e <= 0; e++) if (holds(e)) { level = 2 ** e; break; }
  levels.set(arithmetic, level);
  return level;
}
