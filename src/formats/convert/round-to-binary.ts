/**
 * Correct rounding of a double to any narrower binary floating-point format, without bit access.
 *
 * Normal range: Veltkamp's splitting. With C = 2^(53−p) + 1, γ = C·x, δ = x − γ, the sum γ + δ
 * (each step rounded to nearest-even in double) is x rounded to nearest on p bits (Dekker 1971;
 * Boldo, "Pitfalls of a full floating-point proof", IJCAR 2006, for 2 ≤ 53 − p ≤ 51). That ties
 * go to even is what the tests check: every binary16 and bfloat16 midpoint exhaustively, and the
 * ties of randomly drawn formats — the splitting commutes with scaling by powers of two, so one
 * binade stands for all. One rounding, straight from the double: no double rounding through
 * binary32.
 *
 * Subnormal range: the format's grid there is fixed (spacing 2^(emin−p+1)), so adding and
 * subtracting S = 1.5·2^52·2^(emin−p+1) rounds x to that grid; the double addition rounds
 * to nearest-even, so ties go to the even grid point (S itself is an even multiple of the spacing).
 *
 * Overflow: IEEE round-to-nearest gives ±Infinity exactly when |x| ≥ (2 − 2^−p)·2^emax.
 *
 * @module
 */
import { type BinaryFormatParameters, binaryFormatLimits, checkBinaryFormatParameters } from './binary-parameters.js';
import { fail } from '../../core/errors.js';

/**
 * Builds a function that rounds a double to nearest-even in the given binary format, with
 * gradual underflow, IEEE overflow to ±Infinity, signed zeros and NaN kept.
 *
 * @param params - significand bits p (2 ≤ p ≤ 51) and exponent range (within binary64's)
 * @returns `round(x)`: the double equal to x correctly rounded to the format
 * @throws {@link ModprecError} `INVALID_FORMAT` for parameters outside those ranges
 * @example
 * ```ts
 * import { createBinaryRounder } from 'modprec';
 *
 * // 8-bit float with 4 exponent bits and 3 stored significand bits (IEEE-style E4M3 with infinities)
 * const roundToE4m3 = createBinaryRounder({ significandBits: 4, minExponent: -6, maxExponent: 7 });
 * roundToE4m3(0.3); // 0.3125
 * ```
 * @group Formats
 */
export function createBinaryRounder(params: BinaryFormatParameters): (x: number) => number {
  checkBinaryFormatParameters('params', params);
  const p = params.significandBits;
  if (p > 51) fail('INVALID_FORMAT', 'params.significandBits', 'must be at most 51 for Veltkamp splitting', p);
  const { minNormal, overflowThreshold } = binaryFormatLimits(params);
  const split = 2 ** (53 - p) + 1;
  const shifter = 1.5 * 2 ** (52 + params.minExponent - p + 1);
  // C·x must stay finite: above this magnitude, scale by 2^−64 first (exact in the normal range).
  const scaleAbove = 2 ** (1023 - (54 - p));
  return (x: number): number => {
    const a = Math.abs(x);
    if (a >= minNormal) {
      if (a >= overflowThreshold) return x > 0 ? Infinity : -Infinity;
      if (a < scaleAbove) {
        const g = split * x;
        return g + (x - g);
      }
      const y = x * 2 ** -64;
      const g = split * y;
      return (g + (y - g)) * 2 ** 64;
    }
    if (a < minNormal) {
      const r = x + shifter - shifter;
      return r === 0 ? x * 0 : r; // x·0 keeps the sign of x for zero results
    }
    return x; // NaN, returned as is (its sign kept)
  };
}
