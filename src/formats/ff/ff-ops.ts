/**
 * Float-float operations on the CPU: a value is an unevaluated sum hi + lo of two binary32 numbers, and every
 * step below is the binary32 operation of the GPU's templates (src/backends/webgpu/arithmetic.ts), emulated exactly with
 * `Math.fround` (binary64 has more than 2·24 + 2 bits, so each `fround(a ∘ b)` is the binary32 result). The two
 * backends therefore run the same algorithms — accurate double-word addition and the multiplications of Joldes,
 * Muller and Popescu (2017) — and `arithmetic: formats.ff` means the same on both.
 *
 * Every function writes its result pair into `out` ([hi, lo]) and reads all its inputs first, so `out` may be
 * the storage of an operand.
 * @module
 */

const fr = Math.fround;

/**
 * Writes the pair (h, l) into `out` with binary32's special values (docs/double-double.md, "Special values"): where h
 * is ±∞ or NaN, the error terms (∞ − ∞) are NaN, so the pair is (f, 0) with f the binary32 operation on the heads;
 * where h is a zero and f is a zero, f's zero (the zero error terms would otherwise turn −0 into +0).
 */
function settle(out: Float64Array, h: number, l: number, f: number): void {
  if (h - h !== 0) { out[0] = f; out[1] = 0; return; }
  out[0] = h === 0 && f === 0 ? f : h;
  out[1] = l;
}

/**
 * Accurate double-word addition (Joldes, Muller, Popescu 2017, Algorithm 6): relative error ≤ 3u², u = 2^-24.
 * @param out - receives [hi, lo]
 * @example
 * ```ts
 * const out = new Float64Array(2);
 * ffAddInto(out, 1, 0, 2 ** -30, 0); // out = [1, 2^-30]
 * ```
 */
export function ffAddInto(out: Float64Array, ah: number, al: number, bh: number, bl: number): void {
  const s = fr(ah + bh);
  const sb = fr(s - ah);
  const e = fr(fr(ah - fr(s - sb)) + fr(bh - sb));
  const t = fr(al + bl);
  const tb = fr(t - al);
  const f = fr(fr(al - fr(t - tb)) + fr(bl - tb));
  const e2 = fr(e + t);
  const h = fr(s + e2);
  const l = fr(e2 - fr(h - s));
  const l2 = fr(l + f);
  const h2 = fr(h + l2);
  settle(out, h2, fr(l2 - fr(h2 - h)), s);
}

/**
 * Double-word × double-word (the GPU's `ffMul`): TwoProd of the heads (exact: a product of two binary32
 * numbers fits a double), the cross terms, one Fast2Sum. Relative error ≤ 5u².
 * @param out - receives [hi, lo]
 * @example
 * ```ts
 * const out = new Float64Array(2);
 * ffMulInto(out, 3, 0, 0.5, 0); // out = [1.5, 0]
 * ```
 */
export function ffMulInto(out: Float64Array, ah: number, al: number, bh: number, bl: number): void {
  const p = fr(ah * bh);
  const pe = fr(ah * bh - p);
  const c = fr(fr(ah * bl) + fr(al * bh));
  const e = fr(pe + c);
  const h = fr(p + e);
  settle(out, h, fr(e - fr(h - p)), p);
}

const tmp = new Float64Array(2);

/**
 * a·b + c (the GPU kernels' multiply-add: the product as {@link ffMulInto}, then {@link ffAddInto}).
 * @param out - receives [hi, lo]
 * @example
 * ```ts
 * const out = new Float64Array(2);
 * ffFmaInto(out, 2, 0, 3, 0, 1, 0); // out = [7, 0]
 * ```
 */
export function ffFmaInto(out: Float64Array, ah: number, al: number, bh: number, bl: number, ch: number, cl: number): void {
  ffMulInto(tmp, ah, al, bh, bl);
  ffAddInto(out, tmp[0]!, tmp[1]!, ch, cl);
}

/**
 * a / b (the GPU's `ffDiv`): a binary32 quotient corrected once from the remainder a − q·b.
 * @param out - receives [hi, lo]
 * @example
 * ```ts
 * const out = new Float64Array(2);
 * ffDivInto(out, 1, 0, 3, 0); // out[0] + out[1] ≈ 1/3 to about 2^-46
 * ```
 */
export function ffDivInto(out: Float64Array, ah: number, al: number, bh: number, bl: number): void {
  const q1 = fr(ah / bh);
  // q1·b as a pair (word × pair, as the GPU's ffMulF).
  const p = fr(bh * q1);
  const pe = fr(bh * q1 - p);
  const e = fr(pe + fr(bl * q1));
  const qh = fr(p + e);
  const ql = fr(e - fr(qh - p));
  ffAddInto(tmp, ah, al, -qh, -ql);
  const q2 = fr(tmp[0]! / bh);
  const h = fr(q1 + q2);
  settle(out, h, fr(q2 - fr(h - q1)), q1);
}

/**
 * √a: a binary32 root corrected once from the remainder a − s² (s² exact as a pair). Zero, negative and
 * non-finite heads give the binary32 result of √hi with a zero tail.
 * @param out - receives [hi, lo]
 * @example
 * ```ts
 * const out = new Float64Array(2);
 * ffSqrtInto(out, 2, 0); // out[0] + out[1] ≈ √2 to about 2^-46
 * ```
 */
export function ffSqrtInto(out: Float64Array, ah: number, al: number): void {
  if (!(ah > 0) || ah === Infinity) {
    out[0] = fr(Math.sqrt(ah));
    out[1] = 0;
    return;
  }
  const s = fr(Math.sqrt(ah));
  const p = fr(s * s);
  const pe = fr(s * s - p);
  ffAddInto(tmp, ah, al, -p, -pe);
  const q = fr(tmp[0]! / fr(2 * s));
  const h = fr(s + q);
  out[0] = h;
  out[1] = fr(q - fr(h - s));
}

/**
 * A double rounded to float-float: hi = the nearest binary32, lo = the nearest binary32 of the rest (x − hi is
 * exact in binary64). Relative error ≤ 2^-48 while lo stays a normal binary32. A head that overflows gets a zero
 * tail (±∞ stays ±∞); |x| < 2^-126 reads as ±0 (as on the GPU).
 * @param out - receives [hi, lo]
 * @example
 * ```ts
 * const out = new Float64Array(2);
 * ffFromNumberInto(out, 0.1); // out = [0.100000001490116…, −1.49011…e-9]
 * ```
 */
export function ffFromNumberInto(out: Float64Array, x: number): void {
  // Below binary32's normal range: ±0, as the GPU reads it (no binary32 subnormals, which WGSL may flush).
  if (Math.abs(x) < 2 ** -126) {
    out[0] = x * 0;
    out[1] = 0;
    return;
  }
  const h = fr(x);
  out[0] = h;
  out[1] = Number.isFinite(h) ? fr(x - h) : 0;
}

/**
 * A double-double hi + lo rounded to float-float (hi − fr(hi) is exact; adding lo rounds far below 2^-48). As for a
 * double ({@link ffFromNumberInto}), a pair whose sum lies below 2^-126 reads as ±0 (the sign of hi + lo, or of hi
 * where the sum is 0): docs/double-double.md, "Special values".
 * @param out - receives [hi, lo]
 * @example
 * ```ts
 * const out = new Float64Array(2);
 * ffFromPairInto(out, 1, 2 ** -60); // out = [1, 2^-60]
 * ```
 */
export function ffFromPairInto(out: Float64Array, hi: number, lo: number): void {
  const sum = hi + lo;
  // Below binary32's normal range: ±0, as a double there reads (dd storage's (2^-130, 0) read 2^-130 · 2^20 as 2^-110).
  if (Math.abs(sum) < 2 ** -126) {
    out[0] = (sum === 0 ? hi : sum) * 0;
    out[1] = 0;
    return;
  }
  const h = fr(hi);
  const t = fr(hi - h + lo);
  // A part non-finite (or a tail beyond binary32, from an unnormalised pair): the pair stands for hi + lo, so
  // (1, NaN) is NaN and (1, ∞) is ∞, as fp64 arithmetic reads them; a head alone would drop the low part's value.
  if ((h - h) + (t - t) !== 0) { out[0] = fr(hi + lo); out[1] = 0; return; }
  out[0] = h;
  out[1] = t;
}
