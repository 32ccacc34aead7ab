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
 * p = 52 (53 − p = 1, outside that proof): for |x| in [2^e, 2^(e+1)), |x| + 2^(e+1) lies in [2^(e+1), 2^(e+2)],
 * whose spacing 2^(e−51) is the format's grid at x; 2^(e+1) is an even multiple of it, so the double addition rounds
 * |x| to the grid with ties to even, and subtracting 2^(e+1) again is exact (Sterbenz).
 *
 * Overflow: IEEE round-to-nearest gives ±Infinity exactly when |x| ≥ (2 − 2^−p)·2^emax.
 *
 * @module
 */
import { type BinaryFormatParameters, binaryFormatLimits, checkBinaryFormatParameters } from './binary-parameters.js';

/**
 * Builds a function that rounds a double to nearest-even in the given binary format, with
 * gradual underflow, IEEE overflow to ±Infinity, signed zeros and NaN kept.
 *
 * @param params - significand bits p (2 ≤ p ≤ 52, as {@link checkBinaryFormatParameters}) and exponent range (within
 *   binary64's)
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
  const { minNormal, overflowThreshold } = binaryFormatLimits(params);
  if (p === 52) return roundTo52Bits(minNormal, overflowThreshold, 1.5 * 2 ** (52 + params.minExponent - p + 1));
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

/** The p = 52 rounder (see the module comment): the normal range through one shifter per binade. */
function roundTo52Bits(minNormal: number, overflowThreshold: number, shifter: number): (x: number) => number {
  return (x: number): number => {
    const a = Math.abs(x);
    if (a >= minNormal) {
      if (a >= overflowThreshold) return x > 0 ? Infinity : -Infinity;
      // 2^(e+1) for the binade [2^e, 2^(e+1)) of a (log2 can be off by one next to a power of two: corrected).
      let e = Math.floor(Math.log2(a));
      if (2 ** e > a) e--;
      else if (2 ** (e + 1) <= a) e++;
      // Above 2^1022 the shifter 2^(e+1) overflows: round a·2^-64 instead (exact in the normal range).
      const k = e >= 1000 ? 64 : 0;
      const shift = 2 ** (e + 1 - k);
      const r = (a * 2 ** -k + shift - shift) * 2 ** k;
      return x < 0 ? -r : r;
    }
    if (a < minNormal) {
      const r = x + shifter - shifter;
      return r === 0 ? x * 0 : r; // x·0 keeps the sign of x for zero results
    }
    return x; // NaN, returned as is (its sign kept)
  };
}
