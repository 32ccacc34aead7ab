/**
 * Data and references the GPU benchmarks share: reproducible f32 inputs and a compensated sum to judge results by.
 * @module
 */

/**
 * n values in [−1, 1) from a xorshift32 stream: reproducible data without a dependency.
 * @param n - how many values
 * @param seed - the stream's seed (0 is taken as 1)
 * @returns the values, each exact in binary32
 */
export function rand32(n: number, seed: number): Float32Array {
  let s = seed >>> 0 || 1;
  const out = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[k] = (s >>> 0) / 2 ** 31 - 1;
  }
  return out;
}

/** Σ terms with Neumaier's compensation: far more accurate than the float-float results it judges. */
export class Accurate {
  /** The running sum. */
  s = 0;
  /** The running compensation. */
  c = 0;
  /**
   * Adds one term.
   * @param t - the term
   */
  add(t: number): void {
    const u = this.s + t;
    this.c += Math.abs(this.s) >= Math.abs(t) ? this.s - u + t : t - u + this.s;
    this.s = u;
  }
  /** The compensated sum so far. */
  get value(): number {
    return this.s + this.c;
  }
}

/**
 * A compensated reference of op(A)·x (A n×n column-major; op(A) = A or Aᵀ) and Σ|op(A)_ij·x_j| per row: the GEMV
 * benches' check.
 * @param stored - A's stored values, column-major
 * @param hostX - x
 * @param n - the order
 * @param trans - `N` (default): A·x; `T`: Aᵀ·x
 * @returns the reference rows and their magnitudes
 */
export function gemvReference(stored: ArrayLike<number>, hostX: ArrayLike<number>, n: number, trans: 'N' | 'T' = 'N'): { ref: Float64Array; mag: Float64Array } {
  const ref = new Float64Array(n);
  const mag = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const acc = new Accurate();
    let m = 0;
    for (let j = 0; j < n; j++) {
      const p = (trans === 'N' ? stored[i + j * n]! : stored[j + i * n]!) * hostX[j]!;
      acc.add(p);
      m += Math.abs(p);
    }
    ref[i] = acc.value;
    mag[i] = m;
  }
  return { ref, mag };
}

/** Unit roundoffs of the GEMV benches' arithmetics (float-float's as the GPU bounds take it). */
export const GEMV_BENCH_U = { f32: 2 ** -24, ff: 8 * 2 ** -48 } as const;

/**
 * The GEMV benches' check of one result against {@link gemvReference}'s rows: each row within γ_{2n+3}(u)·Σ|terms|,
 * and (where an earlier variant's result is given) the same bits.
 * @param got - the result
 * @param ref - the reference rows
 * @param mag - their magnitudes
 * @param u - the arithmetic's unit roundoff
 * @param earlier - the result that must have the same bits, if any
 * @returns the largest relative error and its bound, whether every row passed, and whether the bits matched
 */
export function checkGemvRows(got: Float64Array, ref: Float64Array, mag: Float64Array, u: number, earlier?: Float64Array): { error: number; bound: number; correct: boolean; sameBits: boolean } {
  const n = got.length;
  const gamma = (2 * n + 3) * u < 1 ? ((2 * n + 3) * u) / (1 - (2 * n + 3) * u) : Infinity;
  const sameBits = !earlier || got.every((g, i) => Object.is(g, earlier[i]));
  let error = 0;
  let bound = 0;
  let within = true;
  for (let i = 0; i < n; i++) {
    const e = Math.abs(got[i]! - ref[i]!);
    const b = gamma * mag[i]!;
    if (!(e <= b)) within = false;
    if (e / mag[i]! > error) [error, bound] = [e / mag[i]!, b / mag[i]!];
  }
  return { error, bound: bound || gamma, correct: within && sameBits, sameBits };
}
