/**
 * Correctly rounded binary32 operations from integer bit operations only, for results that must be the CPU's bits
 * whatever the adapter's division (WGSL allows 2.5 ulp) and whether it flushes subnormals: the quotient of two binary32
 * values (`Math.fround(a / b)` on the CPU) and a double rounded to binary32 (`Math.fround(x)`), subnormals included.
 * The scaled store of floating-point outputs (scaled-float-store.ts) divides by the scale with them. Helper functions
 * in gpu.js's JavaScript subset, as format-writers.ts's.
 *
 * @module
 */
import type { HelperFunction } from './arithmetic.js';

/**
 * `mpSubnormalShift(m)`: the left shift that brings the leading bit of a subnormal binary32's non-zero fraction
 * m ∈ [1, 2^23) to 2^23 — 23 − ⌊log2 m⌋, i.e. its leading zeros less 8. The normalised significand is m shifted by it,
 * with biased exponent 1 − shift. Both operands of `mpDivRn` are normalised by it.
 */
const subnormalShift: HelperFunction = {
  source: `function mpSubnormalShift(m) {
  return mpClz(m) - 8;
}`,
  argumentTypes: { m: 'Integer' },
  returnType: 'Integer',
};

/**
 * `mpDivRn(a, b, dn)`: a / b rounded to the nearest binary32, ties to even — IEEE division, read from the operands'
 * bits. NaN results carry the bits the host's division gives, since the CPU's bytes keep a NaN's sign: a NaN operand
 * comes back quieted (a's before b's, as x86's and ARM's divisions propagate), and ∞/∞ or 0/0 gives `dn`, the
 * host's default NaN as binary32 bits (x86: negative; ARM: positive — {@link hostDefaultNaN}).
 *
 * Why it is exact. Other special operands as IEEE (x/0 and ∞/y → ±∞; 0/y and x/∞ → ±0; the sign the XOR of theirs). Otherwise both significands are made 24-bit integers ma, mb ∈ [2^23, 2^24) (a subnormal one shifted up
 * to its leading bit by `mpSubnormalShift`, its exponent lowered to match), ma doubled when below mb so that ma/mb ∈
 * [1, 2) with the biased exponent e = ea − eb + 127 (− 1). Long division, 25 steps of shift and subtract, gives q = ⌊2^24·ma/mb⌋ ∈ [2^24, 2^25)
 * and a remainder r (below 2·mb < 2^25: i32) that is zero exactly when the quotient ends there. The result is
 * (q + ρ)·2^(e − 151) with ρ ∈ [0, 1) (ρ = 0 iff r = 0). In units of the binary32 quantum at that size — 2^(e − 150)
 * for e ≥ 1, 2^-149 below — it is (q + ρ)/2^k with k = 1, or k = 2 − e for e < 1: the integer q >> k plus the dropped
 * bits q mod 2^k (and ρ), rounded up above half of 2^k, to even at exactly half (ρ = 0). Adding it to (e − 1)·2^23
 * (0 below) gives the bits, a rounding carry moving to the next exponent (or from the largest subnormal to the least
 * normal) and from the largest finite value to ∞, which e ≥ 255 gives at once. k > 25 leaves less than half of 2^-149: ±0.
 */
const divRn: HelperFunction = {
  source: `function mpDivRn(a, b, dn) {
  const ab = mpBits(a);
  const bb = mpBits(b);
  const sign = (ab ^ bb) & -2147483648;
  const aa = ab & 2147483647;
  const ba = bb & 2147483647;
  if (aa > 2139095040) { return mpFloat(ab | 4194304); }
  if (ba > 2139095040) { return mpFloat(bb | 4194304); }
  if ((aa === 2139095040 && ba === 2139095040) || (aa === 0 && ba === 0)) { return mpFloat(dn); }
  if (aa === 2139095040 || ba === 0) { return mpFloat(sign | 2139095040); }
  if (ba === 2139095040 || aa === 0) { return mpFloat(sign); }
  let ea = aa >> 23;
  let ma = aa & 8388607;
  if (ea === 0) { const sa = mpSubnormalShift(ma); ma = ma << sa; ea = 1 - sa; } else { ma = ma | 8388608; }
  let eb = ba >> 23;
  let mb = ba & 8388607;
  if (eb === 0) { const sb = mpSubnormalShift(mb); mb = mb << sb; eb = 1 - sb; } else { mb = mb | 8388608; }
  let e = ea - eb + 127;
  if (ma < mb) { ma = ma << 1; e = e - 1; }
  if (e >= 255) { return mpFloat(sign | 2139095040); }
  let q = mpI32(0);
  let r = ma;
  for (let i = mpI32(0); i < 25; i++) {
    q = q << 1;
    if (r >= mb) { r = r - mb; q = q | 1; }
    r = r << 1;
  }
  let k = mpI32(1);
  let base = mpI32(0);
  if (e >= 1) { base = (e - 1) << 23; } else { k = 2 - e; }
  if (k > 25) { return mpFloat(sign); }
  let m = q >> k;
  const dropped = q & ((1 << k) - 1);
  const half = 1 << (k - 1);
  if (dropped > half || (dropped === half && (r !== 0 || (m & 1) !== 0))) { m = m + 1; }
  return mpFloat(sign | (base + m));
}`,
  argumentTypes: { a: 'Number', b: 'Number', dn: 'Integer' },
  returnType: 'Number',
};

/**
 * `mpF64ToF32(hw, lw)`: the double with IEEE words hw (high) and lw (low) rounded to the nearest binary32, ties to even,
 * subnormal results included — `Math.fround` on the CPU. Normal results are `mpF64`'s head (formats.ts: correctly
 * rounded there); below 2^-126 (biased double exponent E < 897) the result is a subnormal binary32 in units of 2^-149:
 * the 53-bit significand M·2^(E − 1075) is M25·2^28 + rest with M25 its top 25 bits, so the units are
 * (M25 + rest·2^-28)/2^j with j = 898 − E ≥ 2, rounded as in `mpDivRn` (rest ≠ 0 breaks a tie upward); j > 25 is ±0
 * (double subnormals included).
 */
const f64ToF32: HelperFunction = {
  source: `function mpF64ToF32(hw, lw) {
  const e = (hw >> 20) & 2047;
  if (e >= 897) { const p = mpF64(hw, lw); return p[0]; }
  const s = hw & -2147483648;
  const j = 898 - e;
  if (j > 25) { return mpFloat(s); }
  const m = 16777216 | ((hw & 1048575) << 4) | (lw >>> 28);
  const rest = lw & 268435455;
  let kept = m >> j;
  const dropped = m & ((1 << j) - 1);
  const half = 1 << (j - 1);
  if (dropped > half || (dropped === half && (rest !== 0 || (kept & 1) !== 0))) { kept = kept + 1; }
  return mpFloat(s | kept);
}`,
  argumentTypes: { hw: 'Integer', lw: 'Integer' },
  returnType: 'Number',
};

/**
 * The binary32 bits of the NaN the host's arithmetic makes of 0/0 (what `Math.fround(0 / 0)` holds when computed,
 * not written as a literal): x86's default NaN has its sign bit set, ARM's does not. The CPU kernels' NaN results
 * carry it, and their stores keep its sign.
 * @returns the bits, as an i32
 */
export function hostDefaultNaN(): number {
  const z = new Float64Array(2);
  z[0] = z[0]! / z[1]!;
  return (new DataView(z.buffer).getUint32(0, true) === 0 && new Int32Array(z.buffer)[1]! < 0 ? -2147483648 : 0) | 2143289344;
}

/** The helpers, callee first (registered with every gpu.js instance next to the format writers). */
export const EXACT_DIVISION_HELPERS: readonly HelperFunction[] = [subnormalShift, divRn, f64ToF32];
