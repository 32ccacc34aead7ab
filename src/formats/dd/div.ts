/**
 * Double-double division, allocation-free.
 * @module
 */
import { SPLIT_LIMIT, twoProdErrorScaled, type DdBuffer } from './eft.js';
import { NAMES_AH_AL_BH_BL, failDdCall } from './dd-arguments.js';
import { divScaledInto, divScales } from './div-window.js';

const SPLITTER = 134217729;

/**
 * `out := (ah + al) / (bh + bl)`: JMP 2017 Algorithm 17 (DWDivDW2), relative error ≤ 15u² + 56u³
 * ({@link DD_DIV_BOUND}) wherever the quotient's parts are normal (≥ 2^-969) and finite, for operands anywhere in the
 * double range, subnormal ones included (operands beyond 2^±900 are scaled by powers of two first, ./div-window.ts). Division by zero
 * gives a non-finite `out[0]` (as the double division does); a quotient that overflows is (±∞, 0).
 * @param out - receives [hi, lo]
 * @param ah - high part of the dividend
 * @param al - low part of the dividend
 * @param bh - high part of the divisor
 * @param bl - low part of the divisor
 * @example
 * ```ts
 * import { ddDiv } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddDiv(r, 1, 0, 3, 0);   // 1/3 to about 106 bits
 * r[0]; // → 0.3333333333333333
 * r[1]; // → 1.850371707708594e-17
 * ```
 * @group Double-double
 */
export function ddDiv(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' ||
    typeof al !== 'number' || typeof bh !== 'number' || typeof bl !== 'number'
  ) failDdCall(out, NAMES_AH_AL_BH_BL, ah, al, bh, bl);
  if (divScales(ah, bh)) divScaledInto(out, ah, al, bh, bl, divPairs);
  else divPairs(out, ah, al, bh, bl); // inside the window, and zeros, infinities and NaN: the bare algorithm's results
}

/**
 * {@link ddDiv} without the argument check, for the kernels' guarded division (dd-templates.ts) where
 * {@link divScales}: the operands scaled to [1, 2), divided, and the quotient scaled back (./div-window.ts).
 * @param out - receives [hi, lo]
 * @param ah - high part of the dividend
 * @param al - low part of the dividend
 * @param bh - high part of the divisor
 * @param bl - low part of the divisor
 */
export function ddDivOutsideWindow(out: Float64Array, ah: number, al: number, bh: number, bl: number): void {
  divScaledInto(out, ah, al, bh, bl, divPairs);
}

/** {@link ddDiv} without the argument check and the range window: Algorithm 17 as published. */
function divPairs(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
  const th = ah / bh;
  // r = (bh + bl) · th with DWTimesFP1 (JMP Algorithm 7).
  const p = bh * th;
  let e: number;
  if (Math.abs(bh) <= SPLIT_LIMIT && Math.abs(th) <= SPLIT_LIMIT) {
    let t = SPLITTER * bh;
    const b1 = t - (t - bh);
    const b2 = bh - b1;
    t = SPLITTER * th;
    const q1 = t - (t - th);
    const q2 = th - q1;
    e = (((b1 * q1 - p) + b1 * q2) + b2 * q1) + b2 * q2;
  } else {
    e = twoProdErrorScaled(bh, th, p);
  }
  const c2 = bl * th;
  const sh = p + c2;
  const sl1 = c2 - (sh - p);
  const sl2 = sl1 + e;
  const rh = sh + sl2;
  const rl = sl2 - (rh - sh);
  // ah − rh is exact (Sterbenz); the remainder divided by bh corrects the quotient.
  const tl = ((ah - rh) + (al - rl)) / bh;
  const hi = th + tl;
  out[0] = hi;
  out[1] = tl - (hi - th);
}
