/**
 * The WGSL of GEMV's long window for f64·f64 terms (`ddGpuArithmeticGemvLong`, the `ddGemvLong` kernel switch): one
 * 128-bit two's-complement fixed-point window per accumulator that lives across the partial pass's steps, instead of a
 * window per step settled into the 112-bit register each time (dd-gpu-window-wgsl.ts, whose settle and slow path it
 * reuses). Per term it does only what an f64·f64 product needs.
 *
 * **Term code** (`mpDgCode`). With ea, eb the biased exponents of a and b and t = ea + eb: t where 1 ≤ ea, eb ≤ 2046
 * and 1085 ≤ t ≤ 3060 (both normal, product in [2^-963, 2^1016): the window takes it); 0 where one operand is ±0 and
 * the other is finite (the product is ±0 and is skipped: the accumulator is never −0, so adding ±0 changes nothing);
 * −1 otherwise (±∞, NaN, a subnormal beside a non-zero operand, a product out of range): the slow path, the unfused
 * multiply-add of dd-gpu-window-wgsl.ts (`mpDwSlowF64F64`), which keeps NaN, ∞ and binary64's range as before.
 *
 * **Product.** A, B are the 53-bit significands (a = ±A·2^(ea − 1075)), read straight from the words as four 14-bit
 * limbs each (the top limb has 11 bits). Columns c_0 … c_6 of the 16 limb products hold at most 4 products below 2^28:
 * below 2^30, so each is one u32 multiply-add chain; carried (c_{k+1} += c_k >> 14, c_k &= 2^14 − 1) they are the
 * digits of P = A·B < 2^106, assembled as P·2^12 < 2^118 in four words — exact, nothing dropped.
 *
 * **Window** (words W, anchor F; unit 2^(F − 2162)). F is the largest code t of the terms added since the pass began
 * (0 before any). A step of K ≤ 8 terms first raises F to its own largest code E where E > F, shifting W right by E − F
 * (arithmetic shift: floor, error < 1 new unit), then adds each window term as ±floor(P·2^12 / 2^(F − t)) (a negative
 * one as its one's complement plus a carry-in: exactly −q), error < 1 unit. Before a step, a window with |W| ≥ 2^125
 * is settled into the accumulator (`mpDwSettle` with exponent F + 6: one xf addition, unit roundoff 2^-110) and
 * cleared; a step adds at most 8·2^118 = 2^121, so |W| < 2^125 + 2^121 < 2^127 always: no overflow of the two's
 * complement. At the end of the pass (`returnValue`, and an extra accumulator's combine) the window is settled once.
 *
 * **Bound.** Let the pass's partial sum over its n_c terms be s = Σ a_i·b_i and F_end its final anchor. Every unit
 * ever used is ≤ 2^(F_end − 2162), and the term with t = F_end has P ≥ 2^104, so one unit is ≤ 2^-116·max_i|a_i·b_i|
 * ≤ 2^-116·Σ|a_i·b_i|. Window terms (< 1 unit each) and re-anchorings (at most one a step, < 1 unit each) err by
 * < 2·n_c·2^-116·Σ|a_i·b_i| in all; each settle and each slow term's two operations are roundings of unit 2^-110, at
 * most n_c + 1 settles and 2 per slow term. So |ŝ − s| ≤ γ_{2n_c + 1}(2^-110)·Σ|a_i·b_i| + n_c·2^-1074 (the slow path's
 * range rounding, as before) — the per-step window's γ_{2n_c}(2^-110) up to one rounding, and far inside the CPU dd
 * gemvBound γ_{n+2}(2^-102)·(|α|·|op(A)|·|x| + |β|·|y|) that every GPU dd GEMV is held to (the finishing pass is
 * unchanged). Overflow as with the per-step window: partial sums inside the window are never rounded, so an
 * intermediate that would overflow binary64 but cancels later stays finite. Deterministic, not the per-step window's
 * bits.
 *
 * **dd terms (the `ddGemvLongDd` switch).** A term with a dd operand (dd·dd, dd·f64, f64·dd) joins the same window in the
 * lean term form of dd-gpu-window-lean-wgsl.ts: its code is `mpDlTermExp`'s (t = ehi_a + ehi_b, the same exponent
 * sum as above, 0 for a skipped zero product, −1 for the slow path), its signed 14-bit limbs are read straight from the
 * words (G = H·2^72 + s·L, 2^124 − 2^72 < G < 2^125), and columns 8 … 16 of their products, carried, give
 * P = floor(T/2^126) < 2^124 + 9 with |GA·GB − T| < 1.0001·2^129 (that module's proof). Since a·b = GA·GB·2^(t − 2294),
 * P counts units 2^(t − 2168): the term adds ±floor(P / 2^(F − t + 6)) in the window's units 2^(F − 2162) (< 2^118 + 1,
 * so a step of 8 still adds < 2^121 and the headroom argument is unchanged). Nested floors of positive integers are one
 * floor, so the term is floor(T / 2^(132 + F − t)) and errs, in units, by < 1 (the floor) + 2^129.0002/2^132 (dropped
 * columns) + 2^126/2^132 (the operands' truncations, |ΔGA·GB + GA·ΔGB + ΔGA·ΔGB| < 2^126) < 1.15. The term with
 * t = F_end has GA·GB > 2^247.99, so one unit is ≤ 2^(132 − 247.99) ≤ 2^-115.99·max_i|a_i·b_i|: every window term and
 * re-anchoring errs by < 1.15·2^-115.99·Σ|a_i·b_i| < 2^-110·Σ|a_i·b_i|, and the bound above holds as stated:
 * |ŝ − s| ≤ γ_{2n_c + 1}(2^-110)·Σ|a_i·b_i| + n_c·2^-1074. f64·f64 terms keep the exact product above; both kinds of
 * term may share one window (the same units, anchor and settle).
 * @module
 */
import { leanLimbs, leanProduct, LOW, type LeanKind } from './dd-gpu-window-lean-wgsl.js';
import { longDdAddName } from './dd-gpu-gemv-long.js';

const M = '0x3FFFu';

/** WGSL lines that declare the 14-bit limbs `${p}0` … `${p}3` of the significand of the f64 with words `v` (lo, hi). */
function limbs(v: string, p: string): string[] {
  return [
    `let ${p}m = (${v}.y & 0xFFFFFu) | 0x100000u;`,
    `let ${p}0 = ${v}.x & ${M};`,
    `let ${p}1 = (${v}.x >> 14u) & ${M};`,
    `let ${p}2 = ((${v}.x >> 28u) | (${p}m << 4u)) & ${M};`,
    `let ${p}3 = ${p}m >> 10u;`,
  ];
}

/** The 16 limb products in columns c0 … c6, carried, and P·2^12 assembled in `p` (x: bits 127 … 96, …, w: 31 … 0). */
function product(): string[] {
  const lines: string[] = [];
  for (let k = 0; k <= 6; k++) {
    const terms: string[] = [];
    for (let i = Math.max(0, k - 3); i <= Math.min(3, k); i++) terms.push(`a${i} * b${k - i}`);
    lines.push(`var c${k} = ${terms.join(' + ')};`);
  }
  for (let k = 0; k < 6; k++) lines.push(`c${k + 1} = c${k + 1} + (c${k} >> 14u); c${k} = c${k} & ${M};`);
  // Digit k at bit 14k + 12: c0 @12, c1 @26, c2 @40, c3 @54, c4 @68, c5 @82, c6 @96 (c6 < 2^22: the top word).
  lines.push('let p = vec4<u32>(c6, (c3 >> 10u) | (c4 << 4u) | (c5 << 18u), (c1 >> 6u) | (c2 << 8u) | (c3 << 22u), (c0 << 12u) | (c1 << 26u));');
  return lines;
}

/** The long window's adds of terms with a dd operand: lean limbs and product, shifted to the window's units. */
function ddTermFunctions(): string {
  const out: string[] = [];
  const words = (k: LeanKind, v: string): string => (k === 'dd' ? `bitcast<vec4<u32>>(${v})` : `vec4<u32>(bitcast<vec2<u32>>(${v}), 0u, 0u)`);
  for (const [a, b] of [['dd', 'dd'], ['dd', 'f64'], ['f64', 'dd']] as const) {
    const name = longDdAddName(a, b);
    const body = [...leanLimbs('a', 'a', a), ...leanLimbs('b', 'b', b), ...leanProduct(LOW[a], LOW[b])];
    out.push(`// The window plus term (a, b) of lean code t > 0 at anchor f ≥ t (a of kind ${a}, b of kind ${b}): ±floor(P / 2^(f − t + 6)).
fn ${name}Term(w: vec4<u32>, a: vec4<u32>, b: vec4<u32>, t: i32, f: i32) -> vec4<u32> {
  ${body.join('\n  ')}
  let q = mpXfShr(p, u32(min(f - t + 6, 128)));
  let m = 0u - ((a.y ^ b.y) >> 31u);
  return mpDlAdd128(w, q ^ vec4<u32>(m), m & 1u);
}
fn ${name}(wf: vec4<f32>, a: ${a === 'dd' ? 'vec4<f32>' : 'vec2<f32>'}, b: ${b === 'dd' ? 'vec4<f32>' : 'vec2<f32>'}, t: i32, f: i32) -> vec4<f32> {
  if (t <= 0) { return wf; }
  return bitcast<vec4<f32>>(${name}Term(bitcast<vec4<u32>>(wf), ${words(a, 'a')}, ${words(b, 'b')}, t, f));
}`);
  }
  return out.join('\n');
}

/** The WGSL of the f64·f64 terms and the window (appended after the window libraries, whose `mpDlAdd128`, `mpDwSettle` and `mpXfShr` it calls). */
export const DG_WGSL = `
// A term's code (see the module comment): t = ea + eb for the window, 0 for a zero product, −1 for the slow path.
fn mpDgCode(af: vec2<f32>, bf: vec2<f32>) -> i32 {
  let a = bitcast<vec2<u32>>(af);
  let b = bitcast<vec2<u32>>(bf);
  let ea = (a.y >> 20u) & 0x7FFu;
  let eb = (b.y >> 20u) & 0x7FFu;
  let t = ea + eb;
  if (ea - 1u < 2046u && eb - 1u < 2046u && t - 1085u < 1976u) { return i32(t); }
  let za = ((a.y << 1u) | a.x) == 0u;
  let zb = ((b.y << 1u) | b.x) == 0u;
  if ((za && eb != 2047u) || (zb && ea != 2047u)) { return 0; }
  return -1;
}

// The anchor of an empty window.
fn mpDgNoExp() -> i32 { return 0; }

// Whether the window has headroom for a step: |W| < 2^125 (its top word, signed, in [−2^29, 2^29)).
fn mpDgRoomy(w: vec4<u32>) -> bool { return w.x + 0x20000000u < 0x40000000u; }

// The accumulator after the headroom check: c plus the window when the window is full, else c.
fn mpDgSpill(c: vec4<f32>, wf: vec4<f32>, f: i32) -> vec4<f32> {
  if (mpDgRoomy(bitcast<vec4<u32>>(wf))) { return c; }
  return mpDwSettle(c, wf, f + 6);
}

// The window after the headroom check: cleared when mpDgSpill settled it.
fn mpDgKept(wf: vec4<f32>) -> vec4<f32> {
  if (mpDgRoomy(bitcast<vec4<u32>>(wf))) { return wf; }
  return vec4<f32>(0.0);
}

// The window re-anchored from f to e where e > f: W >> (e − f), arithmetic (floor).
fn mpDgRebase(wf: vec4<f32>, f: i32, e: i32) -> vec4<f32> {
  if (e <= f) { return wf; }
  let w = bitcast<vec4<u32>>(wf);
  let s = vec4<u32>(0u - (w.x >> 31u));
  return bitcast<vec4<f32>>(mpXfShr(w ^ s, u32(min(e - f, 128))) ^ s);
}

// The accumulator c plus the window (anchor f): one xf addition.
fn mpDgSettle(c: vec4<f32>, wf: vec4<f32>, f: i32) -> vec4<f32> { return mpDwSettle(c, wf, f + 6); }

// The window plus term (a, b) of code t > 0 at anchor f ≥ t.
fn mpDgAddTerm(w: vec4<u32>, a: vec2<u32>, b: vec2<u32>, t: i32, f: i32) -> vec4<u32> {
  ${limbs('a', 'a').join('\n  ')}
  ${limbs('b', 'b').join('\n  ')}
  ${product().join('\n  ')}
  let q = mpXfShr(p, u32(min(f - t, 128)));
  let m = 0u - ((a.y ^ b.y) >> 31u);
  return mpDlAdd128(w, q ^ vec4<u32>(m), m & 1u);
}

fn mpDgAdd(wf: vec4<f32>, a: vec2<f32>, b: vec2<f32>, t: i32, f: i32) -> vec4<f32> {
  if (t <= 0) { return wf; }
  return bitcast<vec4<f32>>(mpDgAddTerm(bitcast<vec4<u32>>(wf), bitcast<vec2<u32>>(a), bitcast<vec2<u32>>(b), t, f));
}
`;

/**
 * The WGSL of the long window's terms with a dd operand (the `ddGemvLongDd` switch): a part of its own, appended only
 * to the shaders that call one of its functions (after the library, whose `mpXfShr` and `mpDlAdd128` it calls), so the
 * shaders without the switch keep their source.
 */
export const DG_DD_WGSL = `
${ddTermFunctions()}
`;

/**
 * The WGSL of the f64·f64 add with b's limbs given (the `ddGemvRows` switch: R rows a thread share x_j, whose limbs
 * `mpDgLimbs` computes once for them): the same limbs, product, shift and add as `mpDgAdd`, so the same words. A part
 * of its own, appended only to the shaders that call it.
 */
export const DG_ROWS_WGSL = `
// The four 14-bit limbs of the f64 b's significand (as mpDgAddTerm reads them), as the words of a register.
fn mpDgLimbs(bf: vec2<f32>) -> vec4<f32> {
  let b = bitcast<vec2<u32>>(bf);
  ${limbs('b', 'b').join('\n  ')}
  return bitcast<vec4<f32>>(vec4<u32>(b0, b1, b2, b3));
}

// mpDgAdd with b's limbs bl (mpDgLimbs(b)) given.
fn mpDgAddShared(wf: vec4<f32>, af: vec2<f32>, bf: vec2<f32>, blf: vec4<f32>, t: i32, f: i32) -> vec4<f32> {
  if (t <= 0) { return wf; }
  let a = bitcast<vec2<u32>>(af);
  let b = bitcast<vec2<u32>>(bf);
  let bl = bitcast<vec4<u32>>(blf);
  ${limbs('a', 'a').join('\n  ')}
  let b0 = bl.x;
  let b1 = bl.y;
  let b2 = bl.z;
  let b3 = bl.w;
  ${product().join('\n  ')}
  let q = mpXfShr(p, u32(min(f - t, 128)));
  let m = 0u - ((a.y ^ b.y) >> 31u);
  return bitcast<vec4<f32>>(mpDlAdd128(bitcast<vec4<u32>>(wf), q ^ vec4<u32>(m), m & 1u));
}
`;
