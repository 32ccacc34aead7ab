/**
 * Round-to-odd: exporting a double-double to a narrower format with a single rounding.
 *
 * Rounding hi + lo first to double (giving hi) and then to, say, binary16 rounds twice and can
 * break ties wrongly. Boldo & Melquiond ("Emulation of FMA and correctly rounded sums: proved
 * algorithms using rounding to odd", IEEE TC 2008) show that if the first rounding is *to odd*
 * (an inexact value goes to whichever neighbour has an odd last significand bit), then a second
 * rounding to nearest in any format at least two bits narrower equals the direct rounding.
 * Why: a rounding-to-nearest boundary of the narrow format (a midpoint) is a double with its last
 * two bits zero — even — so round-to-odd never lands on it from an inexact value, and never
 * crosses it; it only records "inexact" in the sticky last bit.
 *
 * @module
 */
import { fail } from '../../core/errors.js';
import { HIGH_WORD, LOW_WORD } from './bit-views.js';

// Scratch views of one binary64, local to this module so that optimised code embeds them
// (imported bindings are reloaded on every call). The word indices are plain numbers V8 inlines.
const F64 = new Float64Array(1);
const U32_OF_F64 = new Uint32Array(F64.buffer);
const LOW = LOW_WORD;
const HIGH = HIGH_WORD;

/**
 * Rounds the exact sum hi + lo of a double-double (normalised or not) to odd at 53 bits.
 *
 * For every binary format with p ≤ 51 significand bits and minimum exponent ≥ −1022
 * (binary32, binary16, bfloat16, …), rounding the result to nearest-even in that format equals
 * rounding the exact hi + lo directly — including overflow to infinity and gradual underflow.
 *
 * @param hi - the leading double (finite, or non-finite, which is returned as hi + lo)
 * @param lo - the trailing double (or ±∞ or NaN, which is returned as hi + lo: a pair stands for hi + lo, so (1, NaN)
 *   is NaN). The pair need not be normalised: one that is not (|lo| > ulp(hi)/2) is first renormalised exactly (TwoSum).
 * @returns for a normalised pair, hi when lo = 0 or hi's last significand bit is odd, otherwise the neighbour of hi
 *   in the direction of lo (which is odd); for any finite pair, the exact hi + lo rounded to odd at 53 bits (±∞ when
 *   it is beyond the doubles).
 * @throws {@link ModprecError} `INVALID_VALUE` when hi or lo is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { roundToF16, roundToOddDd } from 'modprec';
 *
 * // 1 + 2^-11 + 2^-60: the double hi = 1 + 2^-11 is a binary16 tie that would round down to 1;
 * // round-to-odd keeps the sticky bit, so binary16 rounding then goes up, as hi + lo should.
 * roundToF16(roundToOddDd(1 + 2 ** -11, 2 ** -60)); // 1.0009765625
 * ```
 * @group Formats
 */
export function roundToOddDd(hi: number, lo: number): number {
  if (typeof hi !== 'number') fail('INVALID_VALUE', 'hi', 'must be a number', hi);
  if (typeof lo !== 'number') fail('INVALID_VALUE', 'lo', 'must be a number', lo);
  return roundPairToOdd(hi, lo);
}

/** {@link roundToOddDd} without the argument check: the per-element rounding of the arithmetic formats and kernels. */
export function roundPairToOdd(hi: number, lo: number): number {
  if (lo === 0) return hi;
  const s = hi + lo;
  // A part not finite, or finite parts whose sum is beyond the doubles: hi + lo, as IEEE addition gives it.
  if (s - s !== 0) return s;
  if (s !== hi) {
    // Not normalised (hi ≠ fl(hi + lo): a raw stored pair, a user's { hi, lo }, hi = 0): TwoSum first, exactly. Rounding
    // hi alone to odd read (1, −2^-25 − 2^-77) as 1 − 2^-53, which binary32 rounds to 1, not to 1 − 2^-24.
    const t = s - hi;
    lo = (hi - (s - t)) + (lo - t);
    hi = s;
    if (lo === 0) return hi;
  }
  F64[0] = hi;
  const low = U32_OF_F64[LOW]!;
  if ((low & 1) === 1) return hi;
  // hi is even and inexact: its neighbour towards hi + lo is odd. Positive doubles have consecutive
  // bit patterns, so that neighbour is the magnitude's pattern + 1 (lo away from 0) or − 1.
  if ((hi > 0) === (lo > 0)) U32_OF_F64[LOW] = low + 1; // even: no carry
  else if (low === 0) {
    U32_OF_F64[LOW] = 0xffffffff;
    U32_OF_F64[HIGH] -= 1;
  } else U32_OF_F64[LOW] = low - 1;
  return F64[0]!;
}
