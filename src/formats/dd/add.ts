/**
 * Double-double addition and subtraction, allocation-free: each writes `[hi, lo]` into a caller-owned
 * `Float64Array` (see {@link DdBuffer}). Operands are normalised pairs (|lo| ≤ ulp(hi)/2); results are too.
 * @module
 */
import type { DdBuffer } from './eft.js';
import { NAMES_AH_AL_B, NAMES_AH_AL_BH_BL, failDdCall } from './dd-arguments.js';

/**
 * `out := (ah + al) + (bh + bl)` with the accurate ("IEEE") algorithm: JMP 2017 Algorithm 6
 * (AccurateDWPlusDW), relative error ≤ 3u² + 13u³ ({@link DD_ADD_BOUND}) for any signs. 20 flops.
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param bh - high part of b
 * @param bl - low part of b
 * @example
 * ```ts
 * import { ddAdd } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddAdd(r, 1, 2 ** -60, -1, 0); // r = [2^-60, 0]
 * ```
 * @group Double-double
 */
export function ddAdd(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' ||
    typeof al !== 'number' || typeof bh !== 'number' || typeof bl !== 'number'
  ) failDdCall(out, NAMES_AH_AL_BH_BL, ah, al, bh, bl);
  addPairs(out, ah, al, bh, bl);
}

/**
 * {@link ddAdd} without the argument check: for the library's own callers (ddSub, ddMulAdd, the WebAssembly kernels'
 * lane joins, the dd-api benchmark), whose operands are numbers and whose out is a Float64Array(2).
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param bh - high part of b
 * @param bl - low part of b
 */
export function addPairs(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
  // TwoSum of the high parts and of the low parts.
  const sh = ah + bh;
  let z = sh - ah;
  const sl = (ah - (sh - z)) + (bh - z);
  const th = al + bl;
  z = th - al;
  const tl = (al - (th - z)) + (bl - z);
  // Fold the low sum in, renormalising twice (FastTwoSum).
  const c = sl + th;
  const vh = sh + c;
  const vl = c - (vh - sh);
  const w = tl + vl;
  const hi = vh + w;
  out[0] = hi;
  out[1] = w - (hi - vh);
}

/**
 * `out := a − b`, i.e. {@link ddAdd} with b negated (negation is exact). Same bound.
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param bh - high part of b
 * @param bl - low part of b
 * @example
 * ```ts
 * import { ddSub } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddSub(r, 1, 2 ** -70, 1, 0);   // (1 + 2^-70) − 1
 * r[0] === 2 ** -70; // → true
 * ```
 * @group Double-double
 */
export function ddSub(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' ||
    typeof al !== 'number' || typeof bh !== 'number' || typeof bl !== 'number'
  ) failDdCall(out, NAMES_AH_AL_BH_BL, ah, al, bh, bl);
  addPairs(out, ah, al, -bh, -bl);
}

/**
 * `out := (ah + al) + (bh + bl)` with the "sloppy" algorithm (JMP 2017 Algorithm 5, SloppyDWPlusDW, 11 flops):
 * relative error ≤ 3u² when a and b have the same sign, but UNBOUNDED under cancellation (opposite signs).
 * Use it only where the signs are known to agree (e.g. summing absolute values); {@link ddAdd} is the default.
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param bh - high part of b
 * @param bl - low part of b
 * @example
 * ```ts
 * import { ddAddSloppy } from 'modprec';
 *
 * // summing magnitudes (same signs): the fast addition is accurate there
 * const r = new Float64Array(2);
 * ddAddSloppy(r, 1, 2 ** -60, 2, 2 ** -61);
 * r[0]; // → 3
 * r[1] === 2 ** -60 + 2 ** -61; // → true
 * ```
 * @group Double-double
 */
export function ddAddSloppy(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' ||
    typeof al !== 'number' || typeof bh !== 'number' || typeof bl !== 'number'
  ) failDdCall(out, NAMES_AH_AL_BH_BL, ah, al, bh, bl);
  const sh = ah + bh;
  const z = sh - ah;
  const sl = (ah - (sh - z)) + (bh - z);
  const w = sl + (al + bl);
  const hi = sh + w;
  out[0] = hi;
  out[1] = w - (hi - sh);
}

/**
 * `out := (ah + al) + b` for a double b: JMP 2017 Algorithm 4 (DWPlusFP), relative error ≤ 2u²
 * ({@link DD_ADD_NUMBER_BOUND}). 10 flops.
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param b - the double to add
 * @example
 * ```ts
 * import { ddAddNumber } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddAddNumber(r, 1, 0, 2 ** -80);
 * r; // → Float64Array(2) [ 1, 8.271806125530277e-25 ]
 * ```
 * @group Double-double
 */
export function ddAddNumber(out: DdBuffer, ah: number, al: number, b: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 ||
    typeof ah !== 'number' || typeof al !== 'number' || typeof b !== 'number'
  ) failDdCall(out, NAMES_AH_AL_B, ah, al, b);
  const sh = ah + b;
  const z = sh - ah;
  const sl = (ah - (sh - z)) + (b - z);
  const v = al + sl;
  const hi = sh + v;
  out[0] = hi;
  out[1] = v - (hi - sh);
}
