/**
 * The interval evaluation I(X/M) of a device number, in integers only (the device has no f64 and no directed
 * rounding; integers need neither).
 *
 * Given the bit length b of a significand V and T = ⌊V·2^(24−b)⌋ ∈ [2^23, 2^24) (its top 24 bits), the value V
 * lies in [T_lo, T_up]·2^(b−24) with T_lo = T and T_up = T (b ≤ 24: T is exact), T + 1 (b > 24). After a rounding
 * X = round(V/2^k), k ≥ 1, b − k = p ≥ 53: T·2^(p−24) ≤ ⌊V/2^k⌋ ≤ X ≤ ⌊V/2^k⌋ + 1 < (T + 1)·2^(p−24) + 1 ≤
 * (T + 2)·2^(p−24), so T_up = T + 2 (T·2^(p−24) is an integer ≤ V/2^k, hence ≤ ⌊V/2^k⌋). With μ = ⌊2^(bitsM+23)/M⌋
 * (M odd, so 2^(bitsM+23)/M is not an integer): 1/M ∈ (μ, μ + 1)·2^-(bitsM+23). Hence
 *
 *     X/M ∈ [⌊T_lo·μ / 2^24⌋, ⌈T_up·(μ + 1) / 2^24⌉] · 2^E,   E = b − k − 24 − bitsM + 1,
 *
 * where the floor and ceiling of a 48-bit product are exact in 32-bit integers (12-bit halves, below). Both ends
 * are integers q with 2^22 ≤ q ≤ 2^24 + 3 (so X < 2^(E + bitsM + 25): the kernels' bit bound of X, at most 2
 * bits above its bit length). X = 0 has [0, 0]. No floating-point operation is involved, so the enclosure holds
 * on any adapter, whatever its compiler does to floats.
 *
 * @module
 */

/**
 * ⌊a·c / 2^24⌋ (or ⌈…⌉ when `up`) for integers 0 ≤ a, c < 2^25, exactly, with 32-bit integer operations only
 * (the same steps as the device code in `normalize-webgpu.ts`).
 * @param a - first factor
 * @param c - second factor
 * @param up - round up instead of down
 * @returns the rounded quotient
 */
export function mulShift24(a: number, c: number, up: boolean): number {
  const ah = a >> 12, al = a & 4095, ch = c >> 12, cl = c & 4095;
  const hi = ah * ch;                       // < 2^26
  const mid = ah * cl + al * ch;            // < 2^26
  const low = al * cl;                      // < 2^24
  const mid2 = mid + (low >> 12);           // a·c = hi·2^24 + mid2·2^12 + (low mod 2^12)
  const q = hi + (mid2 >> 12);
  const inexact = (mid2 & 4095) !== 0 || (low & 4095) !== 0;
  return up && inexact ? q + 1 : q;
}

/** An interval evaluation: X/M ∈ [lo, up]·2^exp. */
export interface DeviceEval {
  readonly lo: number;
  readonly up: number;
  readonly exp: number;
}

/**
 * I(X/M) of a significand from its bit length b (before rounding), top bits T, the rounding shift k and the
 * set's constants — the formula the device evaluates.
 * @param b - bit length of V (0 for zero)
 * @param T - ⌊V·2^(24−b)⌋
 * @param k - rounding shift (X = round(V/2^k)); 0 when exact
 * @param bitsM - bit length of M
 * @param mu - ⌊2^(bitsM+23)/M⌋
 * @returns the enclosure
 */
export function deviceEval(b: number, T: number, k: number, bitsM: number, mu: number): DeviceEval {
  if (b === 0) return { lo: 0, up: 0, exp: 0 };
  const tUp = k > 0 ? T + 2 : b > 24 ? T + 1 : T;
  return { lo: mulShift24(T, mu, false), up: mulShift24(tUp, mu + 1, true), exp: b - k - 24 - bitsM + 1 };
}

/**
 * The evaluation of an exact significand X (no rounding) on the host.
 * @param X - the significand, ≥ 0
 * @param bitsM - bit length of M
 * @param mu - ⌊2^(bitsM+23)/M⌋
 * @returns the enclosure
 */
export function deviceEvalOf(X: bigint, bitsM: number, mu: number): DeviceEval {
  if (X === 0n) return { lo: 0, up: 0, exp: 0 };
  const b = X.toString(2).length;
  const T = Number(b >= 24 ? X >> BigInt(b - 24) : X << BigInt(24 - b));
  return deviceEval(b, T, 0, bitsM, mu);
}
