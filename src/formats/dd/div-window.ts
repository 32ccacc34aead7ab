/**
 * The double-double division's safe window and its scaling outside it, shared by the checked `ddDiv` (./div.ts) and
 * the kernels' guarded division (./dd-templates.ts's `ddDivSource`, behind `DD.div` and `ddArithmetic.div`), and
 * replayed step by step on the GPU (./dd-gpu-scaled-quotient.ts): the same steps, so the same bits everywhere.
 *
 * Why: high parts in [2^-900, 2^900] keep every intermediate of JMP's Algorithm 17 in the normal range (bh·th ≈ ah,
 * its error ≈ ah·2^-53) for any quotient whose own parts are normal; beyond it they may not. 7·(MAX/7) overflows, and a
 * subnormal operand loses the product's error term: `DD.from(3e-310).div(7e-311)` was (4.285714285714195, 0), 2.57e-17
 * from 30/7. Outside the window each operand is scaled exactly to [1, 2) by powers of two, divided, and the quotient
 * scaled back: the same algorithm on the same significands.
 * @module
 */

/** Lower end of the window (2^-900): high parts at or above it and at most {@link DIV_WINDOW_HIGH} divide unscaled. */
export const DIV_WINDOW_LOW = 2 ** -900;
/** Upper end of the window (2^900). */
export const DIV_WINDOW_HIGH = 2 ** 900;
/**
 * The first of the two scale-back steps moves the quotient (in (1/2, 2)) by at most 2^±960: exact for both parts (the
 * low part stays above 2^-1022), so only the second step rounds, once, where the quotient is subnormal or overflows.
 */
export const DIV_SCALE_BACK_STEP = 960;

/** Whether a/b divides scaled: both high parts finite and non-zero, and one of them outside the window. */
export function divScales(ah: number, bh: number): boolean {
  const a = Math.abs(ah), b = Math.abs(bh);
  return a > 0 && b > 0 && a < Infinity && b < Infinity && !(a >= DIV_WINDOW_LOW && a <= DIV_WINDOW_HIGH && b >= DIV_WINDOW_LOW && b <= DIV_WINDOW_HIGH);
}

const f64 = new Float64Array(1);
const words = new Uint32Array(f64.buffer);

/**
 * ⌊log2 |x|⌋ exactly, for a finite non-zero x (subnormals included), from its bits.
 * @param x - a finite non-zero double
 * @returns the exponent e with 2^e ≤ |x| < 2^(e+1)
 */
export function binaryExponent(x: number): number {
  f64[0] = x;
  const biased = (words[1]! >>> 20) & 0x7ff;
  if (biased !== 0) return biased - 1023;
  f64[0] = x * 2 ** 64; // a subnormal, scaled exactly into the normal range
  return ((words[1]! >>> 20) & 0x7ff) - 1023 - 64;
}

/**
 * The two factors 2^j1, 2^j2 (j1 + j2 = −e) that bring an operand of exponent e to [1, 2): one step (j2 = 0) unless
 * e < −1023 (a subnormal, scaled up by 2^1023 first). Each product is exact but for a low part far below its high one
 * (below 2^-1074 relative: far inside u²).
 * @param e - the operand's {@link binaryExponent}
 * @returns [j1, j2]
 */
export function toUnitExponents(e: number): [number, number] {
  const j = -e;
  return j <= 1023 ? [j, 0] : [1023, j - 1023];
}

/**
 * The two factors 2^k1, 2^k2 that take the scaled quotient back by 2^k: k1 = k clamped to ±{@link DIV_SCALE_BACK_STEP}
 * (exact), k2 the rest clamped to the double range (a rest beyond it under- or overflows either way).
 * @param k - ea − eb
 * @returns [k1, k2]
 */
export function scaleBackExponents(k: number): [number, number] {
  const k1 = Math.max(-DIV_SCALE_BACK_STEP, Math.min(DIV_SCALE_BACK_STEP, k));
  return [k1, Math.max(-1074, Math.min(1023, k - k1))];
}

/** Algorithm 17 on unscaled pairs, writing [hi, lo] into `out`. */
export type DdDivide = (out: Float64Array, ah: number, al: number, bh: number, bl: number) => void;

/**
 * a/b with both operands scaled to [1, 2) (for {@link divScales} operands): `divide` on the scaled pairs, then hi and lo
 * each multiplied by 2^k1 then 2^k2 ({@link scaleBackExponents}). A non-finite hi leaves lo 0.
 * @param out - receives [hi, lo]
 * @param ah - high part of the dividend
 * @param al - low part of the dividend
 * @param bh - high part of the divisor
 * @param bl - low part of the divisor
 * @param divide - the division of the scaled pairs
 */
export function divScaledInto(out: Float64Array, ah: number, al: number, bh: number, bl: number, divide: DdDivide): void {
  const ea = binaryExponent(ah), eb = binaryExponent(bh);
  const [a1, a2] = toUnitExponents(ea), [b1, b2] = toUnitExponents(eb);
  const fa1 = 2 ** a1, fa2 = 2 ** a2, fb1 = 2 ** b1, fb2 = 2 ** b2;
  divide(out, ah * fa1 * fa2, al * fa1 * fa2, bh * fb1 * fb2, bl * fb1 * fb2);
  const [k1, k2] = scaleBackExponents(ea - eb);
  const f1 = 2 ** k1, f2 = 2 ** k2;
  const hi = out[0]! * f1 * f2;
  out[0] = hi;
  out[1] = Number.isFinite(hi) ? out[1]! * f1 * f2 : 0;
}
