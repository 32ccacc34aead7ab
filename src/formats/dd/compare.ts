/**
 * Comparison, absolute value and negation of double-doubles. All exact; operands normalised.
 * @module
 */
import type { DdBuffer } from './eft.js';
import { NAMES_AH_AL, NAMES_AH_AL_BH_BL, failDdCall, failDdOperands } from './dd-arguments.js';

/**
 * Three-way comparison of a = ah + al and b = bh + bl (normalised pairs, so comparing the high parts
 * first and then the low parts is exact).
 * @param ah - high part of a
 * @param al - low part of a
 * @param bh - high part of b
 * @param bl - low part of b
 * @returns −1 if a < b, 1 if a > b, 0 if equal (+0 equals −0), NaN if any part is NaN
 * @example
 * ```ts
 * import { ddCompare } from 'modprec';
 *
 * ddCompare(1, 2 ** -60, 1, 0); // → 1
 * ddCompare(1, 0, 1, -0); // → 0
 * ```
 * @group Double-double
 */
export function ddCompare(ah: number, al: number, bh: number, bl: number): number {
  if (
    typeof ah !== 'number' || typeof al !== 'number' || typeof bh !== 'number' || typeof bl !== 'number'
  ) failDdOperands(NAMES_AH_AL_BH_BL, ah, al, bh, bl);
  if (ah < bh) return -1;
  if (ah > bh) return 1;
  if (ah === bh) {
    if (al < bl) return -1;
    if (al > bl) return 1;
    if (al === bl) return 0;
  }
  return NaN;
}

/**
 * `out := |a|` (exact).
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @example
 * ```ts
 * import { ddAbs } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddAbs(r, -1, 2 ** -60);
 * r[0]; // → 1
 * r[1] === -(2 ** -60); // → true
 * ```
 * @group Double-double
 */
export function ddAbs(out: DdBuffer, ah: number, al: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' || typeof al !== 'number'
  ) failDdCall(out, NAMES_AH_AL, ah, al);
  // For a normalised pair the sign of a is the sign of ah (ah = 0 implies al = 0).
  if (ah < 0 || (ah === 0 && al < 0)) {
    out[0] = -ah;
    out[1] = -al;
  } else {
    // + 0 clears the sign of a zero (|−0| = +0, as Math.abs), and changes no other double.
    out[0] = ah + 0;
    out[1] = al + 0;
  }
}

/**
 * `out := −a` (exact).
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @example
 * ```ts
 * import { ddNeg } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddNeg(r, 1, 2 ** -60);
 * r[0]; // → -1
 * ```
 * @group Double-double
 */
export function ddNeg(out: DdBuffer, ah: number, al: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' || typeof al !== 'number'
  ) failDdCall(out, NAMES_AH_AL, ah, al);
  out[0] = -ah;
  out[1] = -al;
}
