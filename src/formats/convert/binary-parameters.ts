/**
 * Parameters of a binary floating-point format in IEEE 754 terms, and the limits they imply.
 *
 * A format with `significandBits` p (the hidden bit included), `minExponent` emin and
 * `maxExponent` emax holds ±m·2^(e−p+1) for integers 0 ≤ m < 2^p and emin ≤ e ≤ emax, where
 * m ≥ 2^(p−1) unless e = emin (subnormals). binary16: p = 11, emin = −14, emax = 15.
 *
 * @module
 */
import { fail } from '../../core/errors.js';

/**
 * Significand precision and exponent range of a binary floating-point format.
 * @group Formats
 */
export interface BinaryFormatParameters {
  /** Significand precision p in bits, the implicit leading bit included (binary16: 11). */
  readonly significandBits: number;
  /** Exponent of the smallest normal number, emin (binary16: −14). */
  readonly minExponent: number;
  /** Exponent of the largest finite numbers, emax (binary16: 15). */
  readonly maxExponent: number;
}

/**
 * IEEE 754 binary16 (half precision).
 * @group Formats
 */
export const BINARY16: BinaryFormatParameters = Object.freeze({ significandBits: 11, minExponent: -14, maxExponent: 15 });
/**
 * bfloat16: binary32's exponent range with an 8-bit significand.
 * @group Formats
 */
export const BFLOAT16: BinaryFormatParameters = Object.freeze({ significandBits: 8, minExponent: -126, maxExponent: 127 });
/**
 * IEEE 754 binary32 (single precision).
 * @group Formats
 */
export const BINARY32: BinaryFormatParameters = Object.freeze({ significandBits: 24, minExponent: -126, maxExponent: 127 });
/**
 * IEEE 754 binary64 (double precision, a JavaScript number).
 * @group Formats
 */
export const BINARY64: BinaryFormatParameters = Object.freeze({ significandBits: 53, minExponent: -1022, maxExponent: 1023 });

/**
 * Landmark values of a binary format, all exact doubles.
 * @group Formats
 */
export interface BinaryFormatLimits {
  /** Largest finite value, (2 − 2^(1−p))·2^emax. */
  readonly maxFinite: number;
  /** Smallest positive normal value, 2^emin. */
  readonly minNormal: number;
  /** Smallest positive subnormal value, 2^(emin−p+1). */
  readonly minSubnormal: number;
  /** Round-to-nearest sends |x| ≥ this to infinity: the midpoint (2 − 2^−p)·2^emax between maxFinite and 2^(emax+1). */
  readonly overflowThreshold: number;
  /** Unit roundoff u = 2^−p. */
  readonly unitRoundoff: number;
}

/**
 * Checks that `params` describe a format whose values and rounding midpoints are all doubles:
 * integer fields, 2 ≤ p ≤ 52, −1022 ≤ emin < emax ≤ 1023.
 *
 * @param parameter - name used in the error message
 * @param params - the format parameters to check
 * @returns `params`, unchanged
 * @throws {@link ModprecError} `INVALID_FORMAT` when a field is out of that range
 * @example
 * ```ts
 * import { checkBinaryFormatParameters } from 'modprec';
 *
 * // fp8 E4M3 without its NaN encoding trick: 4 significand bits, exponents −6 … 7
 * checkBinaryFormatParameters('e4m3', { significandBits: 4, minExponent: -6, maxExponent: 7 }).significandBits; // → 4
 * // { significandBits: 60, … } throws INVALID_FORMAT naming e4m3.significandBits
 * ```
 * @group Formats
 */
export function checkBinaryFormatParameters(parameter: string, params: BinaryFormatParameters): BinaryFormatParameters {
  // The name goes into template strings below (a Symbol threw a TypeError there).
  if (typeof parameter !== 'string') fail('INVALID_OPTION', 'parameter', 'must be a string (the name errors give)', parameter);
  const { significandBits: p, minExponent: emin, maxExponent: emax } = params ?? ({} as BinaryFormatParameters);
  if (!Number.isInteger(p) || p < 2 || p > 52) fail('INVALID_FORMAT', `${parameter}.significandBits`, 'must be an integer in [2, 52]', p);
  if (!Number.isInteger(emin) || emin < -1022) fail('INVALID_FORMAT', `${parameter}.minExponent`, 'must be an integer ≥ −1022', emin);
  if (!Number.isInteger(emax) || emax > 1023 || emax <= emin) {
    fail('INVALID_FORMAT', `${parameter}.maxExponent`, `must be an integer in (minExponent, 1023]`, emax);
  }
  return params;
}

/**
 * Computes the landmark values of a binary format.
 *
 * @param params - significand precision and exponent range: integers, 1 ≤ p ≤ 53, −1022 ≤ emin ≤ emax ≤ 1023
 * @returns maxFinite, minNormal, minSubnormal, overflowThreshold and unitRoundoff as exact doubles
 * @throws {@link ModprecError} `INVALID_FORMAT` naming the field (`params.significandBits`, …) outside that range,
 *   where the landmarks would not be exact doubles (p = 60 gave maxFinite 2^16 for binary16's exponents)
 * @example
 * ```ts
 * import { BINARY16, binaryFormatLimits } from 'modprec';
 *
 * binaryFormatLimits(BINARY16).maxFinite; // 65504
 * binaryFormatLimits(BINARY16).overflowThreshold; // 65520
 * ```
 * @group Formats
 */
export function binaryFormatLimits(params: BinaryFormatParameters): BinaryFormatLimits {
  const { significandBits: p, minExponent: emin, maxExponent: emax } = params ?? ({} as BinaryFormatParameters);
  // The same ranges as the testing oracle's roundRationalToFormat: every landmark below is then an exact double.
  if (!Number.isInteger(p) || p < 1 || p > 53) fail('INVALID_FORMAT', 'params.significandBits', 'must be an integer in [1, 53]', p);
  if (!Number.isInteger(emin) || emin < -1022) fail('INVALID_FORMAT', 'params.minExponent', 'must be an integer ≥ −1022', emin);
  if (!Number.isInteger(emax) || emax > 1023 || emax < emin) fail('INVALID_FORMAT', 'params.maxExponent', 'must be an integer in [minExponent, 1023]', emax);
  // Written as products of powers of two so that emax = 1023 does not overflow on the way.
  return {
    maxFinite: (2 - 2 ** (1 - p)) * 2 ** emax,
    minNormal: 2 ** emin,
    minSubnormal: 2 ** (emin - p + 1),
    overflowThreshold: p >= 53 ? Infinity : (2 - 2 ** -p) * 2 ** emax,
    unitRoundoff: 2 ** -p,
  };
}
