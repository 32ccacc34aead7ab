/**
 * Extended-range floating point for interval evaluations: a value is `f · 2^e` with a double
 * `f ∈ [1/2, 1)` (or `f = 0` for zero) and an integer `e` of any size. The seed (MPRES-BLAS) stores
 * the bounds of I(X/M) in this form because X/M can be far below the double range (2^-6800 at
 * 3392 bits of precision).
 *
 * JavaScript has no directed rounding, so outward rounding is done by widening a round-to-nearest
 * result by one unit in the last place:
 *
 * **Lemma (outward widening).** Let z > 0 be real and r = fl(z) its round-to-nearest double, r normal
 * (r ≥ 2^-1022), and let `down(r) = fl(r·(1 − 2^-52))`, `up(r) = fl(r·(1 + 2^-52))`. Then
 * down(r) < z < up(r) unless z = r, in which case down(r) < z = r < up(r) as well.
 *
 * *Proof.* Let r ∈ [2^k, 2^(k+1)), so ulp(r) = 2^(k−52). Since |z − r| ≤ ulp(z)/2 ≤ ulp(r)/2 (if z is
 * below the binade of r, its ulp is smaller), it suffices that down(r) ≤ r − ulp(r) and
 * up(r) ≥ r + ulp(r). The exact product r·(1+2^-52) = r + r·2^-52 lies in [r + ulp(r), r + 2·ulp(r));
 * both ends are doubles of the same binade or 2^(k+1), so the nearest double is at least r + ulp(r).
 * Likewise r − r·2^-52 lies in (r − 2·ulp(r), r − ulp(r)]; if r > 2^k those are doubles of r's binade,
 * if r = 2^k then r − 2^-52·r = r − ulp(r) is itself a double (the binade below has spacing ulp(r)/2).
 * Either way the nearest double is at most r − ulp(r). ∎
 *
 * All helpers below keep fractions in [1/4, 2) before normalising, so every r they widen is normal.
 * @module
 */

/** 2^k for integer k ∈ [−1074, 1023] as a table (`pow2(k)` is exact and avoids `Math.pow`). */
const POW2 = (() => {
  const t = new Float64Array(1074 + 1024);
  let v = 1;
  for (let k = 0; k <= 1023; k++) { t[k + 1074] = v; v *= 2; }
  v = 1;
  for (let k = 0; k >= -1074; k--) { t[k + 1074] = v; v /= 2; }
  return t;
})();

/** {@link pow2}'s table: 0, then 2^k for k ∈ [−1074, 1023], then Infinity. */
const POW2_CLAMPED = (() => {
  const t = new Float64Array(POW2.length + 2);
  t.set(POW2, 1);
  t[t.length - 1] = Infinity;
  return t;
})();

/**
 * Exact 2^k for integer k ∈ [−1074, 1023]; 0 below, Infinity above. One load from a clamped index: with the
 * two out-of-range cases as branches returning constants, V8 boxed the result of every call (a heap number
 * per open-sum term in the kernels).
 */
export function pow2(k: number): number {
  return POW2_CLAMPED[Math.min(Math.max(k + 1075, 0), POW2_CLAMPED.length - 1)]!;
}

/** Multiplier 1 − 2^-52 of the outward widening lemma. */
export const DOWN = 1 - 2 ** -52;
/** Multiplier 1 + 2^-52 of the outward widening lemma. */
export const UP = 1 + 2 ** -52;

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * Binary exponent e of a positive normal double r, such that r = f·2^e with f ∈ [1/2, 1).
 * Read from the bit pattern (no `Math.log2`, which is not exact).
 */
export function exponentOf(r: number): number {
  F64[0] = r;
  return ((U32[HIGH_WORD]! >>> 20) & 0x7ff) - 1022;
}

/** Result slot of the helpers that return an extended float: `EXT.f · 2^EXT.e`. */
export const EXT = { f: 0, e: 0 };

/**
 * Normalises `r · 2^e` (r ≥ 0 a double, exact) into {@link EXT}. Exact: only the exponent moves.
 * @param r - non-negative finite double (0 gives the canonical zero)
 * @param e - integer exponent added to r's
 */
export function normalize(r: number, e: number): void {
  if (r === 0) { EXT.f = 0; EXT.e = 0; return; }
  if (r < 2 ** -1000) { r *= 2 ** 200; e -= 200; } // keep the exponent read on a normal double
  const k = exponentOf(r);
  EXT.f = r * POW2[1074 - k]!;
  EXT.e = e + k;
}

/**
 * {@link normalize} for r ∈ [1/8, 2) (sums and products of normalised fractions): one or two exact
 * doublings or halvings instead of reading the exponent bits.
 */
export function normalizeNear(r: number, e: number): void {
  if (r >= 1) { EXT.f = r * 0.5; EXT.e = e + 1; return; }
  if (r >= 0.5) { EXT.f = r; EXT.e = e; return; }
  if (r >= 0.25) { EXT.f = r * 2; EXT.e = e - 1; return; }
  if (r >= 0.125) { EXT.f = r * 4; EXT.e = e - 2; return; }
  normalize(r, e);
}

/**
 * Compares a·2^ea with b·2^eb, both normalised extended floats (fractions in [1/2,1) or 0).
 * @returns negative, zero or positive as a < b, a = b, a > b
 */
export function compareExt(af: number, ae: number, bf: number, be: number): number {
  if (af === 0 || bf === 0) return af - bf;
  if (ae !== be) return ae - be;
  return af - bf;
}

/**
 * Lower bound of a·2^ea + b·2^eb (a, b ≥ 0, normalised) into {@link EXT}: rounded down by the lemma.
 */
export function addDown(af: number, ae: number, bf: number, be: number): void {
  if (bf === 0) { EXT.f = af; EXT.e = ae; return; }
  if (af === 0) { EXT.f = bf; EXT.e = be; return; }
  if (ae < be) { const tf = af; af = bf; bf = tf; const te = ae; ae = be; be = te; }
  const d = be - ae; // ≤ 0
  // Dropping a non-negative term keeps a lower bound; below 2^-1000 the shifted term could be subnormal.
  if (d < -1000) { EXT.f = af; EXT.e = ae; return; }
  const s = af + bf * POW2[1074 + d]!; // ∈ [1/2, 2): one rounding, widened below
  normalizeNear(s * DOWN, ae);
}

/**
 * Upper bound of a·2^ea + b·2^eb (a, b ≥ 0, normalised) into {@link EXT}: rounded up by the lemma.
 */
export function addUp(af: number, ae: number, bf: number, be: number): void {
  if (bf === 0) { EXT.f = af; EXT.e = ae; return; }
  if (af === 0) { EXT.f = bf; EXT.e = be; return; }
  if (ae < be) { const tf = af; af = bf; bf = tf; const te = ae; ae = be; be = te; }
  const d = be - ae;
  // b·2^d < 2^-1000 is below half an ulp of a ≥ 1/2 (2^-54), so one widening of a covers a + b·2^d.
  if (d < -1000) { normalizeNear(af * UP, ae); return; }
  const s = af + bf * POW2[1074 + d]!;
  normalizeNear(s * UP, ae);
}

/**
 * Lower bound of a·2^ea − b·2^eb (a, b ≥ 0, normalised) into {@link EXT}; the result may be negative,
 * then EXT.f < 0 (not normalised) — callers only test its sign.
 */
export function subDown(af: number, ae: number, bf: number, be: number): void {
  if (bf === 0) { EXT.f = af; EXT.e = ae; return; }
  if (af === 0) { EXT.f = -bf; EXT.e = be; return; }
  if (ae >= be) {
    const d = be - ae;
    // b·2^d < 2^-1000: a − b·2^d ≥ a − 2^-1000 > a − ulp(a) ≥ down(a).
    if (d < -1000) { normalize(af * DOWN, ae); return; }
    const s = af - bf * POW2[1074 + d]!; // in (−1/2, 1); exact when d ∈ {0,−1} (Sterbenz), else ≥ 1/4
    if (s <= 0) { EXT.f = s === 0 ? 0 : -1; EXT.e = ae; return; }
    normalize(s * DOWN, ae);
  } else {
    EXT.f = -1; EXT.e = be; // a < 2^ae ≤ 2^(be−1) ≤ b·2^eb: negative
  }
}

/**
 * Upper bound of a·2^ea − b·2^eb (a, b ≥ 0, normalised) into {@link EXT}; may be negative (EXT.f < 0).
 */
export function subUp(af: number, ae: number, bf: number, be: number): void {
  if (bf === 0) { EXT.f = af; EXT.e = ae; return; }
  if (af === 0) { EXT.f = -bf; EXT.e = be; return; }
  if (ae >= be) {
    const d = be - ae;
    if (d < -1000) { EXT.f = af; EXT.e = ae; return; } // a itself bounds a − b·2^d from above
    const s = af - bf * POW2[1074 + d]!;
    if (s <= 0) { EXT.f = s === 0 ? 0 : -1; EXT.e = ae; return; }
    normalize(s * UP, ae);
  } else {
    EXT.f = -1; EXT.e = be;
  }
}

/** Lower bound of (a·2^ea)·(b·2^eb) into {@link EXT} (a, b ≥ 0 normalised; product ∈ [1/4,1), normal). */
export function mulDown(af: number, ae: number, bf: number, be: number): void {
  if (af === 0 || bf === 0) { EXT.f = 0; EXT.e = 0; return; }
  normalizeNear(af * bf * DOWN, ae + be);
}

/** Upper bound of (a·2^ea)·(b·2^eb) into {@link EXT}. */
export function mulUp(af: number, ae: number, bf: number, be: number): void {
  if (af === 0 || bf === 0) { EXT.f = 0; EXT.e = 0; return; }
  normalizeNear(af * bf * UP, ae + be);
}

/**
 * Whether an interval [l, u] (normalised extended floats, l > 0) is relatively tight:
 * u ≤ l·(1 + 2^-24). Intervals wider than this are recomputed from the residues.
 */
export function isTight(lf: number, le: number, uf: number, ue: number): boolean {
  if (lf === 0) return uf === 0;
  if (ue === le) return uf <= lf * (1 + 2 ** -24);
  if (ue === le + 1) return uf * 2 <= lf * (1 + 2 ** -24);
  return false;
}
