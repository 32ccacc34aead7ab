/**
 * Double-double multiplication and multiply-add, allocation-free (results into a caller-owned buffer).
 * Products use Dekker's TwoProd (no FMA in JavaScript); see {@link twoProdError} for its range.
 * @module
 */
import { SPLIT_LIMIT, productError, twoProdErrorScaled, type DdBuffer } from './eft.js';
import { addPairs } from './add.js';
import { NAMES_AH_AL_B, NAMES_AH_AL_BH_BL, NAMES_AH_AL_BH_BL_CH_CL, failDdCall } from './dd-arguments.js';

const SPLITTER = 134217729;

/**
 * `out := (ah + al) · (bh + bl)`: JMP 2017 Algorithm 10 (DWTimesDW1), relative error ≤ 7u²
 * ({@link DD_MUL_BOUND}). About 24 flops.
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param bh - high part of b
 * @param bl - low part of b
 * @example
 * ```ts
 * import { ddMul } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddMul(r, 1 + 2 ** -30, 0, 1 - 2 ** -30, 0); // r = [1, -2^-60]  (exact)
 * ```
 * @group Double-double
 */
export function ddMul(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' ||
    typeof al !== 'number' || typeof bh !== 'number' || typeof bl !== 'number'
  ) failDdCall(out, NAMES_AH_AL_BH_BL, ah, al, bh, bl);
  mulPairs(out, ah, al, bh, bl);
}

/**
 * {@link ddMul} without the argument check: for the library's own callers (ddMulAdd, the WebAssembly GEMV's scaled x,
 * the dd-api benchmark), whose operands are numbers and whose out is a Float64Array(2).
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param bh - high part of b
 * @param bl - low part of b
 */
export function mulPairs(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
  const p = ah * bh;
  let e: number;
  if (Math.abs(ah) <= SPLIT_LIMIT && Math.abs(bh) <= SPLIT_LIMIT) {
    let t = SPLITTER * ah;
    const a1 = t - (t - ah);
    const a2 = ah - a1;
    t = SPLITTER * bh;
    const b1 = t - (t - bh);
    const b2 = bh - b1;
    e = (((a1 * b1 - p) + a1 * b2) + a2 * b1) + a2 * b2;
  } else {
    e = twoProdErrorScaled(ah, bh, p);
  }
  const c = e + (ah * bl + al * bh);
  const hi = p + c;
  out[0] = hi;
  out[1] = c - (hi - p);
}

/**
 * `out := (ah + al) · b` for a double b: JMP 2017 Algorithm 7 (DWTimesFP1), relative error ≤ 1.5u² + 4u³
 * ({@link DD_MUL_NUMBER_BOUND}).
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param b - the double factor
 * @example
 * ```ts
 * import { ddMulNumber } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddMulNumber(r, 1, 2 ** -60, 3);   // (1 + 2^-60)·3
 * r[0]; // → 3
 * r[1] === 3 * 2 ** -60; // → true
 * ```
 * @group Double-double
 */
export function ddMulNumber(out: DdBuffer, ah: number, al: number, b: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 ||
    typeof ah !== 'number' || typeof al !== 'number' || typeof b !== 'number'
  ) failDdCall(out, NAMES_AH_AL_B, ah, al, b);
  const p = ah * b;
  let e: number;
  if (Math.abs(ah) <= SPLIT_LIMIT && Math.abs(b) <= SPLIT_LIMIT) {
    let t = SPLITTER * ah;
    const a1 = t - (t - ah);
    const a2 = ah - a1;
    t = SPLITTER * b;
    const b1 = t - (t - b);
    const b2 = b - b1;
    e = (((a1 * b1 - p) + a1 * b2) + a2 * b1) + a2 * b2;
  } else {
    e = twoProdErrorScaled(ah, b, p);
  }
  const c2 = al * b;
  const th = p + c2;
  const tl1 = c2 - (th - p);
  const tl2 = tl1 + e;
  const hi = th + tl2;
  out[0] = hi;
  out[1] = tl2 - (hi - th);
}

/**
 * `out := a · b + c` in double-double: {@link ddMul} then {@link ddAdd} (two roundings, as there is no
 * fused double-double operation). Absolute error ≤ {@link ddMulAddErrorBound}(|a·b|, |a·b + c|).
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param bh - high part of b
 * @param bl - low part of b
 * @param ch - high part of c
 * @param cl - low part of c
 * @example
 * ```ts
 * import { ddMulAdd } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddMulAdd(r, 0.1, 0, 10, 0, -1, 0);   // 0.1·10 − 1: the representation error of 0.1, kept
 * r[0]; // → 5.551115123125783e-17
 * ```
 * @group Double-double
 */
export function ddMulAdd(out: DdBuffer, ah: number, al: number, bh: number, bl: number, ch: number, cl: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' || typeof al !== 'number' ||
    typeof bh !== 'number' || typeof bl !== 'number' || typeof ch !== 'number' || typeof cl !== 'number'
  ) failDdCall(out, NAMES_AH_AL_BH_BL_CH_CL, ah, al, bh, bl, ch, cl);
  mulPairs(out, ah, al, bh, bl);
  addPairs(out, out[0]!, out[1]!, ch, cl);
}

/**
 * `out := a · b + c` fused for accumulation (the DD arithmetic's multiply-add in every kernel): the product
 * is left unnormalised and added to c with one TwoSum of the high parts, the low parts summed in two
 * roundings, and a final TwoSum. About 34 flops against 44 for {@link ddMulAdd}, at the price of a bound in
 * terms of |a·b| and |c| instead of |a·b + c| (the form every γ_n bound of the kernels uses):
 *   |out − (ab + c)| ≤ 15u²·|ab| + 4u²·|c|   ({@link ddMulAccumulateErrorBound}; u = 2^-53).
 *
 * Why (normalised inputs, |xl| ≤ u|xh|, no underflow or overflow): p = RN(ah·bh), r = RN(e + RN(RN(ah·bl) +
 * RN(al·bh))) with e = ah·bh − p are the first steps of JMP Algorithm 10, so |p + r − ab| ≤ 7u²|ab| and
 * |r| ≤ 3.01u|ab|. (h, t) = TwoSum(ch, p) is exact with |t| ≤ u|h| ≤ u(1 + u)(|ch| + |p|);
 * v = RN(cl + r) errs by ≤ u(|cl| + |r|) ≤ u²(1.001|c| + 3.01|ab|); w = RN(t + v) errs by ≤ u(|t| + |v|)
 * ≤ u²(2.001|c| + 4.02|ab|); the final TwoSum(h, w) is exact. Summing: ≤ 14.03u²|ab| + 3.01u²|c|.
 * The result is normalised (TwoSum output). On fp64 inputs (al = bl = 0) r = e is exact, |r| ≤ u|p|, and the
 * bound drops to ≤ 3.01u²(|ab| + |c|), below the 2^-104 of the accurate addition.
 * @param out - receives [hi, lo]
 * @param ah - high part of a
 * @param al - low part of a
 * @param bh - high part of b
 * @param bl - low part of b
 * @param ch - high part of c
 * @param cl - low part of c
 * @example
 * ```ts
 * import { ddMulAccumulate } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddMulAccumulate(r, 3, 0, 7, 0, 0.5, 0); // r = [21.5, 0]
 * ```
 * @group Double-double
 */
export function ddMulAccumulate(out: DdBuffer, ah: number, al: number, bh: number, bl: number, ch: number, cl: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof ah !== 'number' || typeof al !== 'number' ||
    typeof bh !== 'number' || typeof bl !== 'number' || typeof ch !== 'number' || typeof cl !== 'number'
  ) failDdCall(out, NAMES_AH_AL_BH_BL_CH_CL, ah, al, bh, bl, ch, cl);
  const p = ah * bh;
  const e = productError(ah, bh, p);
  const r = e + (ah * bl + al * bh);
  // TwoSum(ch, p)
  const h = ch + p;
  const z = h - ch;
  const t = (ch - (h - z)) + (p - z);
  const w = t + (cl + r);
  // TwoSum(h, w)
  const hi = h + w;
  const y = hi - h;
  out[0] = hi;
  out[1] = (h - (hi - y)) + (w - y);
}
