/**
 * Double-double multiplication and multiply-add, allocation-free (results into a caller-owned buffer).
 * Products use Dekker's TwoProd (no FMA in JavaScript); see {@link twoProdError} for its range.
 * @module
 */
import { SPLIT_LIMIT, twoProdErrorScaled, type DdBuffer } from './eft.js';
import { ddAdd } from './add.js';

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
 * const r = new Float64Array(2);
 * ddMul(r, 1 + 2 ** -30, 0, 1 - 2 ** -30, 0); // r = [1, -2^-60]  (exact)
 * ```
 */
export function ddMul(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
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
 */
export function ddMulNumber(out: DdBuffer, ah: number, al: number, b: number): void {
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
 */
export function ddMulAdd(out: DdBuffer, ah: number, al: number, bh: number, bl: number, ch: number, cl: number): void {
  ddMul(out, ah, al, bh, bl);
  ddAdd(out, out[0]!, out[1]!, ch, cl);
}
