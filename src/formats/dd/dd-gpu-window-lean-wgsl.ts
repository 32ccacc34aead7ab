/**
 * The lean term form of DOT's windowed multiply-adds (`ddGpuArithmeticWindowLeanOf`): the same window, settle and slow
 * path as dd-gpu-window-wgsl.ts (whose module comment holds the common proof), with a cheaper term code and a
 * cheaper product. What differs, and why the bound still holds:
 *
 * **Term code** (`mpDlTermExp`). An operand is regular when 54 ≤ ehi ≤ 2046 and ehi ≥ max(elo, 1) + 53 (a zero lo
 * counts as elo = 0). That one test replaces the wide form's three cases: elo = 2047 (lo ±∞ or NaN) fails it since
 * ehi ≤ 2046; a zero or subnormal hi fails it. A pair with lo = ±0 and ehi < 54 (|hi| < 2^-969) is now irregular and
 * takes the slow path — the unfused multiply-add, the same value the window would have approximated, so only speed
 * differs, and only for such tiny operands beside operands ≥ 2^9 (a product in range needs E_t ≥ 1085). Zero products are
 * skipped as before, but only when neither operand is irregular (0·∞ stays NaN).
 *
 * **Operand.** G = H·2^72 + s·L, in units of ulp(hi)·2^-72: H is hi's 53-bit significand, L = floor(|lo|/unit)
 * < 2^72 (ehi − max(elo, 1) ≥ 53 puts |lo| below ulp(hi)), s = ±1 when lo's sign agrees with hi's or not. So
 * 2^124 − 2^72 < G < 2^125 and the dropped part of |lo| is below one unit (relative < 2^-123.9). G is never formed:
 * its 9 limbs of 14 bits are read off directly as *signed* i32 limbs — limbs 6 … 8 from H's bits (limb 8 has 13
 * bits, < 2^13), limbs 0 … 4 as s·(limb of L), limb 5 as (H's 12 low bits)·4 + s·(L's bits 70, 71) — so |g_i| < 2^14,
 * Σ g_i·2^(14i) = G exactly, and no 128-bit addition or negation is needed for lo's sign. L is lo's significand
 * shifted left by 19 − r (r = ehi − max(elo, 1) − 53, the usual case r ≤ 19) or right by r − 19: three words.
 *
 * **Product.** Columns 8 … 16 of the signed limbs (45 products; the wide form keeps 7 … 16, 53 products) summed in
 * i32: column 8 holds 7 products below (2^14 − 1)² and 2 (with limb 8) below (2^14 − 1)(2^13 − 1), in all below
 * 2^31 − 2^18 in magnitude, so it cannot overflow; column 9 has 8 products, 2 of them with limb 8 (< 7·2^28), plus a
 * carry below 2^17; the others fewer. Carries go up by arithmetic shifts (c_{k+1} += c_k >> 14, c_k &= 2^14 − 1),
 * exact in two's complement, which leaves T = Σ_{k≥8} col_k·2^(14k) as digits c_9 … c_15 ∈ [0, 2^14) and c_16 ≥ 0 (the
 * kept columns exceed GA·GB − 2^130 > 0); they assemble P = floor(T/2^126) at bits 14k − 126. The dropped columns
 * 0 … 7 hold at most k + 1 products below 2^28 each: |GA·GB − T| < 2^28·Σ_{k≤7}(k + 1)·2^(14k) < 1.0001·2^129.
 *
 * **Window.** Term t adds floor(P / 2^(E − E_t + 1)), so the lean window counts in units V = 2^(E − 2167), twice the
 * wide form's U; the settle is `mpDwSettle` with exponent E + 1. P < (GA·GB + 2^129.0002)/2^126 < 2^124 + 9, so a
 * term adds < 2^123 + 5 and K ≤ 8 terms stay below 2^126 + 40 < 2^127: no overflow of the two's complement window.
 * A negative term adds −q exactly (one's complement plus a carry-in), so equal and opposite terms cancel to an exact
 * zero window, which the settle leaves out (a DOT that cancels exactly stays +0, as fp64's does).
 *
 * **Error per term**, in units V: the dropped columns < 1.0001·2^129/2^127 < 4.001 (scaled down by 2^(E − E_t)); the
 * operands' truncations |ΔGA·GB + GA·ΔGB + ΔGA·ΔGB| < 2^126 in T, < 0.5 V; the floors to V < 1: < 5.6 V. The term
 * with E_t = E has GA·GB > (2^124 − 2^72)² > 2^247.99, so V < 2^-120.98·max_t|a_t·b_t| and the term's error is
 * < 2^-118.4·max_t|a_t·b_t|. A window of K ≤ 8 terms: |δ| < 8·2^-118.4·max ≤ 2^-115.4·Σ_t|a_t·b_t|
 * — the wide form's 2^-115, so the same conclusion: each window is one xf addition (unit roundoff 2^-110) of a sum
 * exact to 2^-114·Σ|a_t·b_t|, and DOT's first pass satisfies |ŝ − s| ≤ γ_{2n}(2^-110)·Σ|x_i·y_i|, inside the CPU dd
 * dotBound (u = 2^-102).
 * @module
 */
import { windowNames, type WindowKind } from './dd-gpu-window.js';

/** The kinds the lean form takes (no decoded-x f64x terms: those are GEMV's, in the wide form). */
export type LeanKind = Exclude<WindowKind, 'f64x'>;

const MASK = '0x3FFFu';

/**
 * WGSL lines that declare the limbs `${p}6` … `${p}8` (i32, from hi's bits alone) of operand words `v` (hi low, hi
 * high, …); {@link leanLimbs} begins with them, and so does the add with a decoded x (dd-gpu-gemv-decoded-dd-wgsl.ts).
 * @param v - the operand's words (a vec4<u32> or vec2<u32> expression or name)
 * @param p - the limbs' name prefix
 * @returns the lines
 */
export function leanHiLimbs(v: string, p: string): string[] {
  return [
    `let ${p}mh = (${v}.y & 0xFFFFFu) | 0x100000u;`,
    `let ${p}6 = i32((${v}.x >> 12u) & ${MASK});`,
    `let ${p}7 = i32(((${v}.x >> 26u) | (${p}mh << 6u)) & ${MASK});`,
    `let ${p}8 = i32(${p}mh >> 8u);`,
  ];
}

/**
 * WGSL lines that declare the signed limbs `${p}0` … `${p}8` (i32) of operand words `v` (hi low, hi high, lo low, lo
 * high); an f64 operand (lo = 0) has limbs 5 … 8 only. (Also GEMV's long window's dd terms, dd-gpu-gemv-long-wgsl.ts.)
 * @param v - the operand's words (a vec4<u32> expression or name)
 * @param p - the limbs' name prefix
 * @param kind - the operand's kind
 * @returns the lines
 */
export function leanLimbs(v: string, p: string, kind: WindowKind): string[] {
  const lines = leanHiLimbs(v, p);
  if (kind === 'f64') return [...lines, `let ${p}5 = i32((${v}.x << 2u) & 0x3FFCu);`];
  return [
    ...lines,
    `let ${p}el = (${v}.w >> 20u) & 0x7FFu;`,
    `let ${p}m1 = (${v}.w & 0xFFFFFu) | select(0u, 0x100000u, ${p}el != 0u);`,
    `let ${p}m0 = ${v}.z;`,
    `let ${p}r = ((${v}.y >> 20u) & 0x7FFu) - max(${p}el, 1u) - 53u;`,
    // L = floor(lo's significand · 2^(19 − r)) < 2^72 as words L0, L1, L2 (bits 0 … 31, 32 … 63, 64 … 71).
    `var ${p}L = vec3<u32>(0u);`,
    `if (${p}r <= 19u) { let ${p}u = 19u - ${p}r; ${p}L = vec3<u32>(${p}m0 << ${p}u, (${p}m1 << ${p}u) | ((${p}m0 >> 1u) >> (31u - ${p}u)), (${p}m1 >> 1u) >> (31u - ${p}u)); }`,
    `else if (${p}r < 51u) { let ${p}d = ${p}r - 19u; ${p}L = vec3<u32>((${p}m0 >> ${p}d) | (${p}m1 << (32u - ${p}d)), ${p}m1 >> ${p}d, 0u); }`,
    `else if (${p}r < 72u) { ${p}L = vec3<u32>(${p}m1 >> (${p}r - 51u), 0u, 0u); }`,
    // +1 where lo's sign is hi's, −1 otherwise (L = 0 where lo is ±0).
    `let ${p}sg = 1 - i32(((${v}.w ^ ${v}.y) >> 31u) << 1u);`,
    `let ${p}0 = ${p}sg * i32(${p}L.x & ${MASK});`,
    `let ${p}1 = ${p}sg * i32((${p}L.x >> 14u) & ${MASK});`,
    `let ${p}2 = ${p}sg * i32(((${p}L.x >> 28u) | (${p}L.y << 4u)) & ${MASK});`,
    `let ${p}3 = ${p}sg * i32((${p}L.y >> 10u) & ${MASK});`,
    `let ${p}4 = ${p}sg * i32(((${p}L.y >> 24u) | (${p}L.z << 8u)) & ${MASK});`,
    `let ${p}5 = i32((${v}.x << 2u) & 0x3FFCu) + ${p}sg * i32(${p}L.z >> 6u);`,
  ];
}

/** The lowest limb that may be non-zero for a kind (f64: H's limbs 5 … 8 only). */
export const LOW: Readonly<Record<LeanKind, number>> = { dd: 0, f64: 5 };

/**
 * Columns 8 … 16 of the signed limb products, carried, assembled as P = floor(T / 2^126) in `p`.
 * @param aLow - a's lowest limb that may be non-zero ({@link LOW})
 * @param bLow - b's
 * @returns the lines
 */
export function leanProduct(aLow: number, bLow: number): string[] {
  const lines: string[] = [];
  const has = new Set<number>();
  for (let k = 8; k <= 16; k++) {
    const terms: string[] = [];
    for (let i = Math.max(aLow, k - 8); i <= Math.min(8, k - bLow); i++) terms.push(`a${i} * b${k - i}`);
    if (terms.length === 0) continue;
    has.add(k);
    lines.push(`var c${k} = ${terms.join(' + ')};`);
  }
  for (let k = 8; k < 16; k++) {
    if (!has.has(k)) continue;
    lines.push(`c${k + 1} = c${k + 1} + (c${k} >> 14u);${k >= 9 ? ` c${k} = c${k} & 0x3FFF;` : ''}`);
  }
  const c = (k: number): string => (has.has(k) ? `u32(c${k})` : '0u');
  lines.push(`let p = vec4<u32>((${c(15)} >> 12u) | (${c(16)} << 2u), (${c(13)} >> 8u) | (${c(14)} << 6u) | (${c(15)} << 20u), (${c(11)} >> 4u) | (${c(12)} << 10u) | (${c(13)} << 24u), ${c(9)} | (${c(10)} << 14u) | (${c(11)} << 28u));`);
  return lines;
}

const KINDS: Readonly<Record<LeanKind, { type: string; words: (v: string) => string }>> = {
  dd: { type: 'vec4<f32>', words: (v) => `bitcast<vec4<u32>>(${v})` },
  f64: { type: 'vec2<f32>', words: (v) => `vec4<u32>(bitcast<vec2<u32>>(${v}), 0u, 0u)` },
};

/** The lean window add of one term for each pair of kinds, and the per-kind entry points. */
function leanFunctions(): string {
  const out: string[] = [];
  for (const a of ['dd', 'f64'] as const) {
    for (const b of ['dd', 'f64'] as const) {
      const n = windowNames(a, b, 'lean');
      const body = [...leanLimbs('a', 'a', a), ...leanLimbs('b', 'b', b), ...leanProduct(LOW[a], LOW[b])];
      out.push(`// The lean window w plus term (a, b) of code t = E_t > 0, in units 2^(e − 2167) (a of kind ${a}, b of kind ${b}).
fn mpDlAddTerm${a}${b}(wf: vec4<f32>, a: vec4<u32>, b: vec4<u32>, t: i32, e: i32) -> vec4<f32> {
  ${body.join('\n  ')}
  let q = mpXfShr(p, u32(min(e - t + 1, 128)));
  let m = 0u - ((a.y ^ b.y) >> 31u);
  return bitcast<vec4<f32>>(mpDlAdd128(bitcast<vec4<u32>>(wf), q ^ vec4<u32>(m), m & 1u));
}`);
      const ta = KINDS[a].type;
      const tb = KINDS[b].type;
      const wa = KINDS[a].words('a');
      const wb = KINDS[b].words('b');
      out.push(`fn ${n.exp}(a: ${ta}, b: ${tb}) -> i32 { return mpDlTermExp(${wa}, ${wb}); }`);
      out.push(`fn ${n.add}(w: vec4<f32>, a: ${ta}, b: ${tb}, t: i32, e: i32) -> vec4<f32> { if (t <= 0) { return w; } return mpDlAddTerm${a}${b}(w, ${wa}, ${wb}, t, e); }`);
    }
  }
  return out.join('\n');
}

/** The lean form's WGSL (appended after the wide form's, whose `mpDwSettle` and slow paths it calls). */
export const DL_WGSL = `
// Regular operand (see the module comment): 54 ≤ ehi ≤ 2046 and ehi ≥ max(elo, 1) + 53.
fn mpDlRegular(w: vec4<u32>, eh: u32) -> bool { return eh < 2047u && eh >= max((w.w >> 20u) & 0x7FFu, 1u) + 53u; }

// hi and lo both ±0.
fn mpDlZero(w: vec4<u32>) -> bool { return ((w.y & 0x7FFFFFFFu) | w.x | (w.w & 0x7FFFFFFFu) | w.z) == 0u; }

// A term's code: E_t = ehi_a + ehi_b where the window takes it (both regular, E_t in [1085, 3060]), 0 where one
// operand is zero and neither irregular (skipped), −1 otherwise (the slow path).
fn mpDlTermExp(a: vec4<u32>, b: vec4<u32>) -> i32 {
  let ea = (a.y >> 20u) & 0x7FFu;
  let eb = (b.y >> 20u) & 0x7FFu;
  let ra = mpDlRegular(a, ea);
  let rb = mpDlRegular(b, eb);
  let t = ea + eb;
  if (ra && rb && t - 1085u < 1976u) { return i32(t); }
  let za = mpDlZero(a);
  let zb = mpDlZero(b);
  if ((ra || za) && (rb || zb) && (za || zb)) { return 0; }
  return -1;
}

// x + y + c (c ∈ {0, 1}) modulo 2^128 (a negative term adds its one's complement and c = 1: exactly −q).
fn mpDlAdd128(x: vec4<u32>, y: vec4<u32>, c: u32) -> vec4<u32> {
  let w0 = x.w + y.w;
  let w = w0 + c;
  let z0 = x.z + y.z;
  let z = z0 + u32(w0 < x.w) + u32(w < w0);
  let y0 = x.y + y.y;
  let yy = y0 + u32(z0 < x.z) + u32(z < z0);
  return vec4<u32>(x.x + y.x + u32(y0 < x.y) + u32(yy < y0), yy, z, w);
}

// The accumulator c plus the lean window w (units 2^(e − 2167): twice mpDwSettle's).
fn mpDlSettle(c: vec4<f32>, wf: vec4<f32>, e: i32) -> vec4<f32> { return mpDwSettle(c, wf, e + 1); }

${leanFunctions()}
`;
