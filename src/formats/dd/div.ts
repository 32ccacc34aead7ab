/**
 * Double-double division, allocation-free.
 * @module
 */
import { SPLIT_LIMIT, twoProdErrorScaled, type DdBuffer } from './eft.js';
import { NAMES_AH_AL_BH_BL, failDdCall } from './dd-arguments.js';

const SPLITTER = 134217729;

/**
 * `out := (ah + al) / (bh + bl)`: JMP 2017 Algorithm 17 (DWDivDW2), relative error ≤ 15u² + 56u³
 * ({@link DD_DIV_BOUND}) wherever the quotient's parts are normal (≥ 2^-969) and finite, for operands anywhere in the
 * double range, subnormal ones included (operands beyond 2^±900 are scaled by powers of two first). Division by zero
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
  const aa = Math.abs(ah), ab = Math.abs(bh);
  if (aa >= SAFE_LOW && aa <= SAFE_HIGH && ab >= SAFE_LOW && ab <= SAFE_HIGH) divPairs(out, ah, al, bh, bl);
  else if (aa > 0 && ab > 0 && aa < Infinity && ab < Infinity) divScaled(out, ah, al, bh, bl);
  else divPairs(out, ah, al, bh, bl); // zeros, infinities and NaN: the bare algorithm's non-finite or zero results
}

/**
 * Operands whose high parts lie in [2^-900, 2^900] keep every intermediate of Algorithm 17 in the normal range
 * (bh·th ≈ ah, its error ≈ ah·2^-53) for any quotient whose own parts are normal; beyond it they may not: 7·(MAX/7)
 * overflows (ddDiv(MAX, 0, 1e141, 0) was NaN, a quotient of 1.8e167), and a subnormal dividend loses the product's
 * error term (ddDiv(4.4e-323, 0, 1e-322, 0) was (0.45, 0), 2.5e-17 from 9/20).
 */
const SAFE_LOW = 2 ** -900;
const SAFE_HIGH = 2 ** 900;

/** x·2^k for any integer k, in steps the double range holds (exact unless the result over- or underflows). */
function scaleBy(x: number, k: number): number {
  while (k > 1000) { x *= 2 ** 1000; k -= 1000; }
  while (k < -1000) { x *= 2 ** -1000; k += 1000; }
  return x * 2 ** k;
}

/**
 * {@link ddDiv} of finite non-zero operands outside the safe window: each operand scaled by a power of two to about 1,
 * divided, and the quotient scaled back — the same algorithm on the same significands, so the same bound wherever the
 * quotient's parts are normal. A low part far below its high part may round on the way down (below 2^-1074 relative:
 * far inside u²). An overflowing quotient is (±∞, 0).
 */
function divScaled(out: DdBuffer, ah: number, al: number, bh: number, bl: number): void {
  const ka = Math.round(Math.log2(Math.abs(ah))), kb = Math.round(Math.log2(Math.abs(bh)));
  divPairs(out, scaleBy(ah, -ka), scaleBy(al, -ka), scaleBy(bh, -kb), scaleBy(bl, -kb));
  // One shift for both parts: the first steps keep a quotient near 1 normal, so only the last one rounds.
  const hi = scaleBy(out[0]!, ka - kb);
  out[0] = hi;
  out[1] = Number.isFinite(hi) ? scaleBy(out[1]!, ka - kb) : 0;
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
