/**
 * The WGSL of DOT's windowed multiply-adds for the GPU dd arithmetic (`ddGpuArithmeticWindow`): a step's products of
 * dd or f64 operands are summed exactly-but-for-truncation in a 128-bit two's-complement fixed-point window, then
 * added to the 112-bit register accumulator ("xf", dd-gpu-wgsl.ts) once per step — instead of one normalised xf
 * product and one xf addition per term.
 *
 * **Per term (dd operand words hl, hh, ll, lh; an f64 operand is (lo, hi, 0, 0)).**
 * - *Regular operand*: hi normal (biased exponent 1 … 2046) and lo ±0, or lo finite with
 *   ehi − max(elo, 1) ≥ 53 (every normalised double-double). Its working significand G is the exact integer
 *   hi + lo in units of hi's last bit / 2^73: hi's 53 bits at bits 125 … 73, lo added or subtracted with its sign
 *   (|lo| < 2^73 units, so G ∈ (2^125 − 2^73, 2^126) with no carry or borrow out). When lo lies more than 73 bits
 *   below hi's last bit its bits below unit 1 are dropped: relative error < 2^-124. The value is ±G·2^(ehi − 1148).
 * - *Zero operand*: hi and lo both ±0. The product is zero and is skipped: the old path adds it as ±0, which leaves
 *   the accumulator as it is (it is never −0: it starts at +0 and an exact zero sum is +0).
 * - Anything else (±∞, NaN, a subnormal or zero hi with a non-zero lo, an unnormalised pair) is *irregular*, and so
 *   is a product of two regular operands with E_t = ehi_a + ehi_b outside [1085, 3060], i.e. possibly outside
 *   [2^-963, 2^1016): such terms take the slow path, `mpXfFmaDdDd` (bit for bit the old multiply-add: binary64's
 *   range, NaN and ∞ as IEEE 754), added to the accumulator after the step's window, in term order.
 *
 * **The window of a step** (K ≤ 8 terms into one accumulator): E = the largest E_t of its window terms; its unit is
 * U = 2^(E − 2168). Term t adds ±floor(floor(GA·GB / 2^128) / 2^(E − E_t)) (GA·GB ∈ (2^248, 2^252), so the
 * quotient is < 2^124 and K ≤ 8 of them stay below 2^127: no overflow of the 128-bit two's complement). The top
 * product is formed from 9 limbs of 14 bits per operand (bits 125 … 0, exactly G): each limb product is < 2^28 and a
 * column of at most 9 of them fits a u32 — one integer multiply-add per limb product, no splitting into halves
 * (the xf product splits every 16×16-bit product into two 16-bit halves; an f64 operand's zero limbs are skipped:
 * 33 products for dd·f64, 16 for f64·f64, 53 for dd·dd). Columns 0 … 6 (28 products, weights
 * < 2^84) are dropped: together < 2^117, under one unit 2^128. With the floors, the term's error is < 3U, and
 * U < 2^-120·|P_max| (the term with E_t = E has GA·GB > 2^248): per term |error| < 2^-118·max_t|a_t·b_t| + 2^-123·|a_t·b_t|.
 * So the step's window sum is s = Σ_t a_t·b_t + δ with |δ| < 2^-115·Σ_t |a_t·b_t|.
 *
 * **Settling** (`mpDwSettle`): s goes to working form exactly (|W| < 2^127: normalise), its 112 top bits are kept
 * (relative < 2^-111) and one xf addition adds it to the accumulator (< 2^-111 + 2^-126 relative, then binary64's
 * range: ±∞ from T = 2^1024 − 2^970, the grid of 2^-1074 below 2^-963, as every xf operation). So each step is one
 * addition with unit roundoff 2^-110 of a sum that is exact to 2^-114·Σ|a_t·b_t| — against the old path's two
 * roundings (product and sum) of 2^-110 per term. A first pass over n terms therefore satisfies
 * |ŝ − s| ≤ γ_{2n}(2^-110)·Σ|x_i·y_i| (slow terms: two roundings each, as before), inside the CPU double-double's
 * dotBound (u = 2^-102) that the docs state for every GPU dd DOT. Overflow differs in one way only: a partial sum
 * inside a step is never rounded, so an intermediate sum that would have overflowed in the old order but cancels
 * within the step stays finite (the old order is one fixed order of many; the CPU's orders differ too).
 *
 * The results are deterministic (fixed operations in a fixed order) but not the old path's bits.
 * @module
 */
import { MAX_WINDOW_TERMS, windowNames, type WindowKind } from './dd-gpu-window.js';


/** Limb i (14 bits, bits 14i … 14i + 13) of the 128-bit `g` (x = bits 127 … 96, …, w = bits 31 … 0). */
function limb(g: string, i: number): string {
  const words = ['w', 'z', 'y', 'x'];
  const b = 14 * i;
  const q = b >> 5;
  const off = b & 31;
  const low = `${g}.${words[q]}`;
  if (off + 14 <= 32) return off === 0 ? `(${low} & 0x3FFFu)` : `((${low} >> ${off}u) & 0x3FFFu)`;
  return `(((${low} >> ${off}u) | (${g}.${words[q + 1]} << ${32 - off}u)) & 0x3FFFu)`;
}

/**
 * floor(GA·GB / 2^128) (to within 2 units below) from 9 limbs of 14 bits each: columns 7 … 16, carried, then
 * assembled at bit 14k − 128 of the result. `aLow`/`bLow`: the lowest limb that may be non-zero — an f64 operand's G
 * has bits 125 … 73 only, so its limbs 0 … 4 are zero and their products (exactly zero) are left out: 33 products
 * for dd·f64, 16 for f64·f64 instead of 53, the same sums bit for bit.
 */
function topProduct(aLow: number, bLow: number, bLimb: (i: number) => string = (i) => limb('gb', i)): string {
  const lines: string[] = [];
  for (let i = aLow; i < 9; i++) lines.push(`let a${i} = ${limb('ga', i)};`);
  for (let i = bLow; i < 9; i++) lines.push(`let b${i} = ${bLimb(i)};`);
  for (let k = 7; k <= 16; k++) {
    const terms: string[] = [];
    for (let i = Math.max(aLow, k - 8); i <= Math.min(8, k - bLow); i++) terms.push(`a${i} * b${k - i}`);
    lines.push(`var c${k} = ${terms.length ? terms.join(' + ') : '0u'};`);
  }
  // A column holds ≤ 9 products < 2^28 plus a carry < 2^18: below 2^32.
  for (let k = 7; k < 16; k++) lines.push(`c${k + 1} = c${k + 1} + (c${k} >> 14u);${k >= 9 ? ` c${k} = c${k} & 0x3FFFu;` : ''}`);
  lines.push('let p = vec4<u32>(c16, (c13 >> 10u) | (c14 << 4u) | (c15 << 18u), (c11 >> 6u) | (c12 << 8u) | (c13 << 22u), (c9 >> 2u) | (c10 << 12u) | (c11 << 26u));');
  return lines.join('\n  ');
}

/**
 * Operand kinds the window takes, their WGSL types and their words (hl, hh, ll, lh). `f64x` is an f64 decoded once
 * per GEMV call (`mpDwOfF64`, the `ddGemvPredecodeX` switch): its two words, then its limbs 5 and 6 and its kind (bits
 * 28 … 29), then its limbs 7 and 8 — the words of the f64 are those of an f64 operand, so the slow path is unchanged.
 */
const KINDS: Readonly<Record<WindowKind, { type: string; words: (v: string) => string }>> = {
  dd: { type: 'vec4<f32>', words: (v) => `bitcast<vec4<u32>>(${v})` },
  f64: { type: 'vec2<f32>', words: (v) => `vec4<u32>(bitcast<vec2<u32>>(${v}), 0u, 0u)` },
  f64x: { type: 'vec4<f32>', words: (v) => `vec4<u32>(bitcast<vec2<u32>>(${v}.xy), 0u, 0u)` },
};

/** The lowest limb of G that may be non-zero for a kind (f64: bits 125 … 73 only). */
const LOW: Readonly<Record<WindowKind, number>> = { dd: 0, f64: 5, f64x: 5 };

/** Kinds of the left operand (A's element in GEMV) and of the right one (x's: also the decoded f64). */
const LEFT = ['dd', 'f64'] as const;
const RIGHT = ['dd', 'f64', 'f64x'] as const;

/** Limb i (5 … 8) of a decoded f64 from its packed words (`b`: its four words as u32): each 14 bits, exactly G's. */
function packedLimb(i: number): string {
  return i === 5 ? '(b.z & 0x3FFFu)' : i === 6 ? '((b.z >> 14u) & 0x3FFFu)' : i === 7 ? '(b.w & 0x3FFFu)' : '(b.w >> 14u)';
}

/** The window add of one term for each pair of kinds (`mpDwAddTerm` + kinds), each with its product's limbs. */
function addTermFunctions(): string {
  const out: string[] = [];
  for (const a of LEFT) {
    for (const b of RIGHT) {
      // A decoded f64 (b packed: its words, limbs and kind) skips mpDwSig and the limb extraction of b.
      const decoded = b === 'f64x';
      out.push(`// The window w plus term (a, b) of code t = E_t > 0, in units 2^(e − 2168) (a of kind ${a}, b of kind ${b}).
fn mpDwAddTerm${a}${b}(wf: vec4<f32>, a: vec4<u32>, b: vec4<u32>, t: i32, e: i32) -> vec4<f32> {
  let ga = mpDwSig(a);
  ${decoded ? '' : 'let gb = mpDwSig(b);'}
  ${topProduct(LOW[a], LOW[b], decoded ? packedLimb : undefined)}
  let q = mpXfShr(p, u32(min(e - t, 128)));
  let m = 0u - ((a.y ^ b.y) >> 31u);
  return bitcast<vec4<f32>>(mpDwAdd128(bitcast<vec4<u32>>(wf), q ^ vec4<u32>(m), m & 1u));
}`);
    }
  }
  return out.join('\n');
}

/** The per-kind entry points: words from the registers, then the common functions. */
function entryPoints(): string {
  const lines: string[] = [];
  for (const a of LEFT) {
    for (const b of RIGHT) {
      const n = windowNames(a, b);
      const ta = KINDS[a].type;
      const tb = KINDS[b].type;
      const wa = KINDS[a].words('a');
      const wb = KINDS[b].words('b');
      // A decoded f64 carries its kind (bits 28 … 29 of its third word); its exponent is its hi word's.
      const exp = b === 'f64x' ? `let w = bitcast<vec4<u32>>(b); return mpDwTermExpK(${wa}, w.z >> 28u, (w.y >> 20u) & 0x7FFu);` : `return mpDwTermExp(${wa}, ${wb});`;
      const addWords = b === 'f64x' ? 'bitcast<vec4<u32>>(b)' : wb;
      lines.push(`fn ${n.exp}(a: ${ta}, b: ${tb}) -> i32 { ${exp} }`);
      lines.push(`fn ${n.add}(w: vec4<f32>, a: ${ta}, b: ${tb}, t: i32, e: i32) -> vec4<f32> { if (t <= 0) { return w; } return mpDwAddTerm${a}${b}(w, ${wa}, ${addWords}, t, e); }`);
      lines.push(`fn ${n.slow}(c: vec4<f32>, a: ${ta}, b: ${tb}, t: i32) -> vec4<f32> { if (t >= 0) { return c; } return mpXfPack(mpXfAddU(mpXfUnpack(c), mpXfRange(mpXfMulU(mpXfOfDdU(${wa}), mpXfOfDdU(${wb}))))); }`);
    }
  }
  return lines.join('\n');
}

/**
 * The slow path of a run of k terms of one pair of kinds: nothing when every code is ≥ 0 (the usual case), else the
 * run's terms through a loop over {@link windowNames}' per-term slow path, in term order (the same operations as k
 * separate calls; the loop keeps one copy of the slow multiply-add in the compiled shader).
 */
function slowRunFunctions(): string {
  const out: string[] = [];
  for (const a of LEFT) {
    for (const b of RIGHT) {
      const n = windowNames(a, b);
      for (let k = 2; k <= MAX_WINDOW_TERMS; k++) {
        const q = Array.from({ length: k }, (_, i) => i);
        const params = q.map((i) => `a${i}: ${KINDS[a].type}, b${i}: ${KINDS[b].type}, t${i}: i32`).join(', ');
        const least = q.slice(1).reduce((m, i) => `min(${m}, t${i})`, 't0');
        out.push(`fn ${n.slowRun(k)}(c: vec4<f32>, ${params}) -> vec4<f32> {
  if (${least} >= 0) { return c; }
  var xa = array<${KINDS[a].type}, ${k}>(${q.map((i) => `a${i}`).join(', ')});
  var xb = array<${KINDS[b].type}, ${k}>(${q.map((i) => `b${i}`).join(', ')});
  var xt = array<i32, ${k}>(${q.map((i) => `t${i}`).join(', ')});
  var r = c;
  for (var i = 0; i < ${k}; i++) { r = ${n.slow}(r, xa[i], xb[i], xt[i]); }
  return r;
}`);
      }
    }
  }
  return out.join('\n');
}

/** The WGSL (appended to the xf library, whose helpers it calls; every name starts with `mpDw`). */
export const DW_WGSL = `
// 0: zero (hi and lo ±0); 1: regular (see the module comment); 2: irregular.
fn mpDwKind(w: vec4<u32>) -> u32 {
  let eh = (w.y >> 20u) & 0x7FFu;
  let el = (w.w >> 20u) & 0x7FFu;
  let loZero = ((w.w & 0x7FFFFFFFu) | w.z) == 0u;
  if (eh - 1u < 2046u) {
    if (loZero || (el != 0x7FFu && eh >= max(el, 1u) + 53u)) { return 1u; }
    return 2u;
  }
  if (eh == 0u && loZero && ((w.y & 0x7FFFFFFFu) | w.x) == 0u) { return 0u; }
  return 2u;
}

// A term's code: E_t = ehi_a + ehi_b (> 0) where the window takes it, 0 where its product is zero (skipped),
// −1 where the slow path takes it.
fn mpDwTermExp(a: vec4<u32>, b: vec4<u32>) -> i32 { return mpDwTermExpK(a, mpDwKind(b), (b.y >> 20u) & 0x7FFu); }

// The same from b's kind kb and biased hi exponent eb (a decoded f64 carries them).
fn mpDwTermExpK(a: vec4<u32>, kb: u32, eb: u32) -> i32 {
  let ka = mpDwKind(a);
  if (ka == 2u || kb == 2u) { return -1; }
  if (ka == 0u || kb == 0u) { return 0; }
  let t = i32(((a.y >> 20u) & 0x7FFu) + eb);
  if (t < 1085 || t > 3060) { return -1; }
  return t;
}

// An f64 decoded once for every row of a GEMV N (the ddGemvPredecodeX switch): its words, then its kind (bits 28 … 29
// of the third word) and G's limbs 5 … 8 (14 bits each, two a word: exactly the limbs mpDwSig and the limb reads give,
// so the terms' products, and the results, are the same bits). The limbs of a zero or irregular f64 are never read.
fn mpDwOfF64(x: vec2<f32>) -> vec4<f32> {
  let w = vec4<u32>(bitcast<vec2<u32>>(x), 0u, 0u);
  let k = mpDwKind(w);
  var p = vec2<u32>(0u, 0u);
  if (k == 1u) {
    let g = mpDwSig(w);
    p = vec2<u32>(${limb('g', 5)} | (${limb('g', 6)} << 14u), ${limb('g', 7)} | (${limb('g', 8)} << 14u));
  }
  return bitcast<vec4<f32>>(vec4<u32>(w.x, w.y, p.x | (k << 28u), p.y));
}

// The f64 of a decoded one (its first two words), for the multiply-adds outside a window.
fn mpDwF64Of(x: vec4<f32>) -> vec2<f32> { return x.xy; }

fn mpDwMax(a: i32, b: i32) -> i32 { return max(a, b); }

// x + y + c (c ∈ {0, 1}) modulo 2^128.
fn mpDwAdd128(x: vec4<u32>, y: vec4<u32>, c: u32) -> vec4<u32> {
  let w0 = x.w + y.w;
  let w = w0 + c;
  let cw = select(0u, 1u, w0 < x.w) | select(0u, 1u, w < w0);
  let z0 = x.z + y.z;
  let z = z0 + cw;
  let cz = select(0u, 1u, z0 < x.z) | select(0u, 1u, z < z0);
  let y0 = x.y + y.y;
  let yy = y0 + cz;
  let cy = select(0u, 1u, y0 < x.y) | select(0u, 1u, yy < y0);
  return vec4<u32>(x.x + y.x + cy, yy, z, w);
}

// G of a regular, non-zero operand: hi's 53 bits at 125 … 73, lo (sh = ehi − max(elo, 1) ≥ 53 bits lower) added
// with its sign; lo's bits below unit 1 (sh > 73) dropped.
fn mpDwSig(w: vec4<u32>) -> vec4<u32> {
  let eh = (w.y >> 20u) & 0x7FFu;
  let mh1 = (w.y & 0xFFFFFu) | 0x100000u;
  let g = vec4<u32>((mh1 << 9u) | (w.x >> 23u), w.x << 9u, 0u, 0u);
  if (((w.w & 0x7FFFFFFFu) | w.z) == 0u) { return g; }
  let el = (w.w >> 20u) & 0x7FFu;
  let ml1 = select(w.w & 0xFFFFFu, (w.w & 0xFFFFFu) | 0x100000u, el != 0u);
  let ml0 = w.z;
  let sh = eh - max(el, 1u);
  var l = vec4<u32>(0u);
  if (sh <= 73u) {
    let t = 73u - sh;
    if (t == 0u) { l = vec4<u32>(0u, 0u, ml1, ml0); } else { l = vec4<u32>(0u, ml1 >> (32u - t), (ml1 << t) | (ml0 >> (32u - t)), ml0 << t); }
  } else {
    let r = sh - 73u;
    if (r < 32u) { l = vec4<u32>(0u, 0u, ml1 >> r, (ml0 >> r) | (ml1 << (32u - r))); } else if (r < 53u) { l = vec4<u32>(0u, 0u, 0u, ml1 >> (r - 32u)); }
  }
  // Same signs add; opposite signs subtract (two's complement of l, plus one).
  let m = select(0xFFFFFFFFu, 0u, (w.w >> 31u) == (w.y >> 31u));
  return mpDwAdd128(g, l ^ vec4<u32>(m), m & 1u);
}

${addTermFunctions()}

// The accumulator c plus the window w (units 2^(e − 2168)): one xf addition of w's top 112 bits.
fn mpDwSettle(c: vec4<f32>, wf: vec4<f32>, e: i32) -> vec4<f32> {
  let w = bitcast<vec4<u32>>(wf);
  if ((w.x | w.y | w.z | w.w) == 0u) { return c; }
  let s = w.x >> 31u;
  let m = 0u - s;
  let mag = mpDwAdd128(w ^ vec4<u32>(m), vec4<u32>(0u), m & 1u);
  let z = mpXfClz(mag);
  let n = mpXfShl(mag, z) & vec4<u32>(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFF0000u);
  return mpXfPack(mpXfAddU(mpXfUnpack(c), MpXfU(s, e - 2041 - i32(z), 1u, n)));
}
${entryPoints()}
${slowRunFunctions()}
`;
