/**
 * Double-double square root, allocation-free.
 * @module
 */
import { productError, type DdBuffer } from './eft.js';
import { NAMES_AH_AL, failDdCall } from './dd-arguments.js';

/**
 * `out := √(ah + al)`: one Newton (Karp–Markstein) correction of the double square root, algorithm
 * SQRTDWtoDW of Lefèvre, Louvet, Muller, Picot and Rideau (ACM TOMS 2023), relative error ≤ 25/8·u²
 * ({@link DD_SQRT_BOUND}). The residual ah − sh² they take from an FMA is computed exactly here with TwoProd.
 * √(±0) = (±0, 0), √(+∞) = (+∞, 0), negative input gives NaN.
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @example
 * ```ts
 * import { ddSqrt } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddSqrt(r, 2, 0);
 * r[0]; // → 1.4142135623730951
 * r[1]; // → -9.667293313452912e-17
 * ```
 * @group Double-double
 */
export function ddSqrt(out: DdBuffer, ah: number, al: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' || typeof al !== 'number'
  ) failDdCall(out, NAMES_AH_AL, ah, al);
  if (!(ah > 0 && ah < Infinity)) {
    out[0] = ah === 0 || ah === Infinity ? ah : NaN;
    out[1] = ah === 0 || ah === Infinity ? 0 : NaN;
    return;
  }
  // The residual needs sh² and its TwoProd error as normal doubles: near 2^1024 the split of sh·sh overflowed
  // (√MAX_VALUE gave (−∞, NaN)), and below ~2^−916 the error fell under 2^−1074 (√(7·2^−1074) lost its lo). Scaling
  // by an even power of two is exact and keeps √ in range, so those inputs go through it.
  if (ah > 2 ** 1000 || ah < 2 ** -900) {
    const big = ah > 2 ** 1000;
    sqrtInRange(out, big ? ah * 2 ** -200 : ah * 2 ** 600, big ? al * 2 ** -200 : al * 2 ** 600);
    const back = big ? 2 ** 100 : 2 ** -300;
    out[0] = out[0]! * back;
    out[1] = out[1]! * back;
    return;
  }
  sqrtInRange(out, ah, al);
}

/** SQRTDWtoDW for 2^−900 ≤ ah ≤ 2^1000, where every intermediate is a normal double. */
function sqrtInRange(out: DdBuffer, ah: number, al: number): void {
  const sh = Math.sqrt(ah);
  const p = sh * sh;
  // ah − p is exact (Sterbenz: p lies within a few ulps of ah), so r1 = RN(ah − sh²) as an FMA would give.
  const r1 = (ah - p) - productError(sh, sh, p);
  const sl = (al + r1) / (2 * sh);
  const hi = sh + sl;
  out[0] = hi;
  out[1] = sl - (hi - sh);
}
