/**
 * The WGSL of the GPU's double-double arithmetic: a binary floating-point format of 112-bit significand and 15-bit
 * exponent ("xf") computed on u32 words. WGSL has no f64 and no 64-bit integer, and float-based double-word
 * arithmetic on binary32 tops out near 2^-48 and binary32's exponent range; integer arithmetic is exact, so it is
 * immune to the reassociation that forces float-float to use barriers, and a 16-bit limb product fits a u32.
 *
 * **Register (four u32 words, carried as `vec4<f32>` lanes of raw bits).** w0 = sign (bit 31) | biased exponent
 * (bits 30..16, bias 16383) | significand bits 111..96; w1..w3 = significand bits 95..0. The significand M is
 * explicit (its leading bit 111 is set for every finite non-zero value) and the value is M·2^(e−111). Biased
 * exponent 0 is ±0, 32767 is ±∞ (significand 0) or NaN (non-zero). The exponent covers 2^±16382, but the
 * operations keep binary64's range, as the CPU's double-double does (below); only NRM2's squares use the wide range.
 *
 * **Binary64's range** (`mpXfRange`, applied to every operation's result and, in a multiply-add, to the product
 * before it is added — the CPU's product p = fl(a·b) overflows or underflows on its own before c is added). Every
 * CPU double-double (hi, lo) is a pair of doubles: it is a multiple of 2^-1074, and it is ±∞ where its hi = fl(hi +
 * lo) overflows, i.e. where |hi + lo| ≥ T = 2^1024 − 2^970 (the midpoint between MAX and 2^1024; ties to even go up).
 * So a result x of the register becomes:
 * - ±∞ where |x| ≥ T. T has 54 bits, so the truncation to 112 bits keeps x ≥ T exactly when x ≥ T before it: an
 *   exact result overflows exactly where the CPU's exact result does;
 * - below 2^-963, where the register's 112 bits reach below 2^-1074, the multiple of 2^-1074 nearest to x, ties to
 *   even (a zero keeps x's sign, as fp64's rounding does). From 2^-963 up the last of the 112 bits is at least
 *   2^-1074, so every result already is such a multiple. Why nearest even: the CPU's sums of multiples of 2^-1074
 *   are exact (TwoSum is, down there), as the register's are; the CPU's product of doubles is p + e with
 *   p = fl(a·b) (nearest even on the grid) and e Dekker's error term, whose terms are products of the split parts
 *   rounded to the grid, with |a·b − p| ≤ 2^-1075: where ah·bh is a multiple of 2^-1074 (a or b a power of two, or
 *   of few bits — the products the tests draw) e = RN(a·b − p) = 0, so the CPU's product is RN(a·b), as is the
 *   register's (a product of binary64 or binary32 values is exact before the rounding): 2^-1074·0.5 is +0 on both
 *   (the tie goes to even), 2^-1074·0.75 is 2^-1074. Where Dekker's terms round apart (ah·bh an odd multiple of
 *   2^-1075 while a·b is not) the CPU's product may be one unit 2^-1074 off RN(a·b); the register does not follow
 *   that (an absolute error ≤ 2^-1074, binary64's own underflow error).
 * Division and products of dd operands are rounded from the register's result (exact for quotients by powers of
 * two). The check costs one add and one unsigned compare (and its branch) for results with −963 ≤ e ≤ 1022; the
 * rest take `mpXfRangeEdge`.
 *
 * **Working form.** Inside an operation a value is unpacked to (sign, exponent e, class, 128-bit m) with m's bit 127
 * set (m = M·2^16; its 16 low bits are zero on unpacking). Value = (m / 2^127)·2^e.
 *
 * **Error of each operation (proofs in the comments of the functions below).** Every result is the exact result
 * of its (unpacked) operands truncated toward zero to 112 bits (relative error < 2^-111), plus at most:
 * - add/sub: nothing more (alignment is exact when the exponents differ by ≤ 16; beyond, the smaller operand's
 *   shifted-out bits are < 2^-127 of the result) — |δ| < 2^-111 + 2^-126 < 2^-110;
 * - mul: the partial products of the lowest columns are dropped (< 2^-125 relative) — |δ| < 2^-110;
 * - fma acc + a·b: a mul then an add, each as above (two roundings, as the CPU's dd fma counts them);
 * - div: the quotient's long division is exact to its last bit, then truncated — |δ| < 2^-110.
 * So the unit roundoff of every operation is u = 2^-110 ≤ 2^-100, far inside the CPU double-double's
 * 2^-102 (formats.dd), whose a-priori bounds therefore hold for the GPU's results too. Reads are exact from f32,
 * f16, bf16, ff, f64 and the i8/i16 scaled products; a dd pair (hi, lo) is read exactly unless hi and lo lie
 * more than 59 bits apart, when lo is truncated (relative error < 2^-111). Writes round to nearest even into
 * f64 and f32 (once, from the register), round to odd into binary32 for f16/bf16 (which then round to nearest
 * once: correct rounding, 24 ≥ 11 + 2), and into dd as hi = RN(x), lo = RN(x − hi) (x − hi is exact).
 *
 * Specials follow IEEE 754: NaN propagates, ∞ − ∞, 0·∞ and 0/0, ∞/∞ are NaN, x/0 is ±∞; an exact zero sum is +0.
 * `mpXfAddWide`, `mpXfMulWide`, `mpXfFmaWide` skip the range: NRM2 sums squares of binary64 values unscaled in them
 * (2^±2098 and their sums lie far inside 2^±16382).
 *
 * **Fused multiply-adds** (`mpXfFma<Kind><Kind>`, names in dd-gpu-fused.ts): c + a·b with a and b taken from their
 * storage words straight to the working form, multiplied by the product for their limbs; bit for bit `mpXfFma`
 * of the packed operands, so every statement above holds for them unchanged.
 * @module
 */
import { fusedFmaName, type FusedKind } from './dd-gpu-fused.js';

/**
 * The 16-bit limbs `low` … 7 of a working significand m (vec4<u32>), most significant first: limb j = bits
 * 16j+15..16j.
 */
function limbs(prefix: string, m: string, low = 1): string {
  const parts = ['x', 'y', 'z', 'w'];
  const lines: string[] = [];
  for (let j = 7; j >= low; j--) {
    const word = parts[3 - (j >> 1)]!;
    lines.push(`let ${prefix}${j} = ${j & 1 ? `${m}.${word} >> 16u` : `${m}.${word} & 0xFFFFu`};`);
  }
  return lines.join(' ');
}

/**
 * The product's columns: limbs i, j of a and b (1 … 7; limb 0 is zero) meet in column i + j. Columns below 6 are
 * dropped: their products are < 10·2^32·2^80 = 2^115.4 in all, against a product of at least 2^254 (relative
 * < 2^-138; with the carries they would have sent up, < 2^-125 after the truncation to the top 128 bits). Each
 * 32-bit partial product goes to two 16-bit columns (its low half to c, its high half to c + 1), so a column sums
 * at most 14 halves < 2^16 and never overflows.
 *
 * `aLow`/`bLow`: the lowest limb that may be non-zero. A value read from f32 or f64 storage has at most 53
 * significant bits, all in the top four limbs (4 … 7): the products with a lower limb are zero, so leaving them
 * out changes nothing — the same columns are dropped, and the result is bit for bit the general product's (16
 * products for two such operands, 28 for one, 39 for none).
 */
function productColumns(aLow = 1, bLow = 1): string {
  const cols = new Map<number, string[]>();
  const lines: string[] = [];
  for (let i = aLow; i <= 7; i++) {
    for (let j = bLow; j <= 7; j++) {
      const c = i + j;
      if (c < 6) continue;
      const p = `p${i}${j}`;
      lines.push(`let ${p} = a${i} * b${j};`);
      (cols.get(c) ?? cols.set(c, []).get(c)!).push(`(${p} & 0xFFFFu)`);
      (cols.get(c + 1) ?? cols.set(c + 1, []).get(c + 1)!).push(`(${p} >> 16u)`);
    }
  }
  for (let c = 6; c <= 15; c++) lines.push(`var c${c} = ${(cols.get(c) ?? ['0u']).join(' + ')};`);
  // Carries upward: column c keeps its low 16 bits.
  for (let c = 6; c < 15; c++) lines.push(`c${c + 1} = c${c + 1} + (c${c} >> 16u); c${c} = c${c} & 0xFFFFu;`);
  return lines.join('\n  ');
}

/**
 * A multiplication function over working significands whose limbs below `aLow` (`bLow`) are zero (see
 * {@link productColumns}); specials and zeros as IEEE 754.
 */
function mulFunction(name: string, aLow: number, bLow: number): string {
  return `fn ${name}(a: MpXfU, b: MpXfU) -> MpXfU {
  let s = a.s ^ b.s;
  if (a.k == 3u || b.k == 3u) { return mpXfSpecial(0u, true); }
  if (a.k == 2u || b.k == 2u) { if (a.k == 0u || b.k == 0u) { return mpXfSpecial(0u, true); } return mpXfSpecial(s, false); }
  if (a.k == 0u || b.k == 0u) { return mpXfZero(s); }
  ${limbs('a', 'a.m', aLow)}
  ${limbs('b', 'b.m', bLow)}
  ${productColumns(aLow, bLow)}
  // The product is (Σ c_k 2^(16k)) / 2^254 · 2^(ea+eb); the top 128 bits are columns 8 … 15.
  let r = vec4<u32>((c15 << 16u) | c14, (c13 << 16u) | c12, (c11 << 16u) | c10, (c9 << 16u) | c8);
  if ((r.x & 0x80000000u) != 0u) { return MpXfU(s, a.e + b.e + 1, 1u, r & vec4<u32>(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFF0000u)); }
  return MpXfU(s, a.e + b.e, 1u, mpXfShl(r, 1u) & vec4<u32>(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFF0000u));
}`;
}

/**
 * The register kinds a fused multiply-add takes directly: WGSL type, the working form of an operand `v`, and whether
 * that form is short (at most 64 significant bits, in limbs 4 … 7: f32 and f64 reads).
 */
const FUSED_KINDS: Readonly<Record<FusedKind, { type: string; unpack: (v: string) => string; short: boolean }>> = {
  f32: { type: 'f32', unpack: (v) => `mpXfOfF32(bitcast<u32>(${v}))`, short: true },
  f64: { type: 'vec2<f32>', unpack: (v) => `mpXfOfF64(bitcast<vec2<u32>>(${v}).x, bitcast<vec2<u32>>(${v}).y)`, short: true },
  ff: { type: 'vec2<f32>', unpack: (v) => `mpXfTrunc(mpXfAddU(mpXfOfF32(bitcast<u32>(${v}.x)), mpXfOfF32(bitcast<u32>(${v}.y))))`, short: false },
  dd: { type: 'vec4<f32>', unpack: (v) => `mpXfOfDdU(bitcast<vec4<u32>>(${v}))`, short: false },
  xf: { type: 'vec4<f32>', unpack: (v) => `mpXfUnpack(${v})`, short: false },
};

/**
 * WGSL of the fused multiply-adds c + a·b: the operands are taken to their working form directly (the same values
 * a register would hold: dd and ff pairs truncated to 112 bits as the pack does), multiplied with the product for
 * their limbs (short operands skip the zero limbs), then added to c and packed once. Each result is bit for bit
 * `mpXfFma(c, a', b')` of the packed operands a', b' — the unfused path's.
 */
function fusedFmaWgsl(): string {
  const lines: string[] = [];
  for (const a of Object.keys(FUSED_KINDS) as FusedKind[]) {
    for (const b of Object.keys(FUSED_KINDS) as FusedKind[]) {
      const ka = FUSED_KINDS[a];
      const kb = FUSED_KINDS[b];
      // A short operand goes first (the product is symmetric in its operands, bit for bit).
      const [x, y] = !ka.short && kb.short ? [kb.unpack('b'), ka.unpack('a')] : [ka.unpack('a'), kb.unpack('b')];
      const mul = ka.short && kb.short ? 'mpXfMulSSU' : ka.short || kb.short ? 'mpXfMulSU' : 'mpXfMulU';
      lines.push(`fn ${fusedFmaName(a, b)}(c: vec4<f32>, a: ${ka.type}, b: ${kb.type}) -> vec4<f32> { return mpXfPack(mpXfAddU(mpXfUnpack(c), mpXfRange(${mul}(${x}, ${y})))); }`);
    }
  }
  return lines.join('\n');
}

/** The library (WGSL functions and helpers; every name starts with `mpXf`). */
export const XF_WGSL = `
struct MpXfU { s: u32, e: i32, k: u32, m: vec4<u32> }

fn mpXfShl(m: vec4<u32>, n: u32) -> vec4<u32> {
  if (n >= 128u) { return vec4<u32>(0u); }
  var w = m;
  if (n >= 64u) { w = vec4<u32>(w.z, w.w, 0u, 0u); }
  if ((n & 32u) != 0u) { w = vec4<u32>(w.y, w.z, w.w, 0u); }
  let r = n & 31u;
  if (r == 0u) { return w; }
  let l = 32u - r;
  return vec4<u32>((w.x << r) | (w.y >> l), (w.y << r) | (w.z >> l), (w.z << r) | (w.w >> l), w.w << r);
}

fn mpXfShr(m: vec4<u32>, n: u32) -> vec4<u32> {
  if (n >= 128u) { return vec4<u32>(0u); }
  var w = m;
  if (n >= 64u) { w = vec4<u32>(0u, 0u, w.x, w.y); }
  if ((n & 32u) != 0u) { w = vec4<u32>(0u, w.x, w.y, w.z); }
  let r = n & 31u;
  if (r == 0u) { return w; }
  let l = 32u - r;
  return vec4<u32>(w.x >> r, (w.y >> r) | (w.x << l), (w.z >> r) | (w.y << l), (w.w >> r) | (w.z << l));
}

fn mpXfClz(m: vec4<u32>) -> u32 {
  if (m.x != 0u) { return countLeadingZeros(m.x); }
  if (m.y != 0u) { return 32u + countLeadingZeros(m.y); }
  if (m.z != 0u) { return 64u + countLeadingZeros(m.z); }
  return 96u + countLeadingZeros(m.w);
}

fn mpXfLess(a: vec4<u32>, b: vec4<u32>) -> bool {
  if (a.x != b.x) { return a.x < b.x; }
  if (a.y != b.y) { return a.y < b.y; }
  if (a.z != b.z) { return a.z < b.z; }
  return a.w < b.w;
}

fn mpXfZero(s: u32) -> MpXfU { return MpXfU(s, 0, 0u, vec4<u32>(0u)); }
fn mpXfSpecial(s: u32, nan: bool) -> MpXfU { return MpXfU(s, 0, select(2u, 3u, nan), vec4<u32>(0u)); }

fn mpXfUnpack(p: vec4<f32>) -> MpXfU {
  let w = bitcast<vec4<u32>>(p);
  let s = w.x >> 31u;
  let eb = (w.x >> 16u) & 0x7FFFu;
  if (eb == 0u) { return mpXfZero(s); }
  if (eb == 0x7FFFu) { return mpXfSpecial(s, ((w.x & 0xFFFFu) | w.y | w.z | w.w) != 0u); }
  let m = vec4<u32>((w.x << 16u) | (w.y >> 16u), (w.y << 16u) | (w.z >> 16u), (w.z << 16u) | (w.w >> 16u), w.w << 16u);
  return MpXfU(s, i32(eb) - 16383, 1u, m);
}

// Truncates m (bit 127 set) to its top 112 bits; exponents outside the register's range give ±∞ or ±0 (only the
// wide operations, NRM2's squares, come near them: mpXfPack first takes every result into binary64's range).
fn mpXfPackWide(x: MpXfU) -> vec4<f32> {
  if (x.k == 0u) { return bitcast<vec4<f32>>(vec4<u32>(x.s << 31u, 0u, 0u, 0u)); }
  if (x.k >= 2u) { return bitcast<vec4<f32>>(vec4<u32>((x.s << 31u) | 0x7FFF0000u | select(0u, 0x8000u, x.k == 3u), 0u, 0u, 0u)); }
  let eb = x.e + 16383;
  if (eb >= 32767) { return bitcast<vec4<f32>>(vec4<u32>((x.s << 31u) | 0x7FFF0000u, 0u, 0u, 0u)); }
  if (eb <= 0) { return bitcast<vec4<f32>>(vec4<u32>(x.s << 31u, 0u, 0u, 0u)); }
  let m = x.m;
  return bitcast<vec4<f32>>(vec4<u32>((x.s << 31u) | (u32(eb) << 16u) | (m.x >> 16u), (m.x << 16u) | (m.y >> 16u), (m.y << 16u) | (m.z >> 16u), (m.z << 16u) | (m.w >> 16u)));
}

// A non-zero 128-bit m, normalised (bit 127 set) with the exponent adjusted.
fn mpXfNormal(s: u32, e: i32, m: vec4<u32>) -> MpXfU {
  let z = mpXfClz(m);
  return MpXfU(s, e - i32(z), 1u, mpXfShl(m, z));
}

// binary64's range (see "Binary64's range" above). Zeros and specials carry e = 0, so one add and one unsigned
// compare pass every value with −963 ≤ e ≤ 1022: finite, and its 112 bits all lie on the grid of 2^-1074.
fn mpXfRange(x: MpXfU) -> MpXfU {
  if (u32(x.e + 963) < 1986u) { return x; }
  return mpXfRangeEdge(x);
}

// x with e ≥ 1023 or e ≤ −964 (finite, non-zero). At the top: ±∞ from T = 2^1024 − 2^970 (m's top 54 bits all ones
// when e = 1023). At the bottom: m·2^(e−127) rounded to the nearest multiple of 2^-1074, ties to even: its bits
// below bit b = −947 − e of m go (b ∈ [17, 128] for e ∈ [−1075, −964]; e < −1075 is below 2^-1075, which rounds to
// ±0); the rounded integer q is the result in units of 2^-1074, i.e. (q / 2^127)·2^(−947).
fn mpXfRangeEdge(x: MpXfU) -> MpXfU {
  if (x.e >= 1023) {
    if (x.e > 1023 || (x.m.x == 0xFFFFFFFFu && x.m.y >= 0xFFFFFC00u)) { return mpXfSpecial(x.s, false); }
    return x;
  }
  if (x.e < -1075) { return mpXfZero(x.s); }
  let b = u32(-947 - x.e);
  var q = mpXfShr(x.m, b);
  let g = (mpXfShr(x.m, b - 1u).w & 1u) != 0u;
  let st = any(mpXfShl(x.m, 129u - b) != vec4<u32>(0u));
  if (g && (st || (q.w & 1u) != 0u)) {
    // q < 2^111: the carry stops below bit 127.
    q.w = q.w + 1u;
    if (q.w == 0u) { q.z = q.z + 1u; if (q.z == 0u) { q.y = q.y + 1u; if (q.y == 0u) { q.x = q.x + 1u; } } }
  }
  if ((q.x | q.y | q.z | q.w) == 0u) { return mpXfZero(x.s); }
  return mpXfNormal(x.s, -947, q);
}

// Every operation's result: into binary64's range, then truncated to 112 bits.
fn mpXfPack(x: MpXfU) -> vec4<f32> { return mpXfPackWide(mpXfRange(x)); }

// x + y. Operands come unpacked or truncated to 112 bits (16 low bits zero). With |x| ≥ |y| and d = ex − ey:
// d ≤ 16 shifts no set bit out of y, so the 128-bit sum or difference is exact; d > 16 (and then
// |x + y| ≥ |x|/2) shifts out less than 2^(ex−127) ≤ 2^-126·|x + y|. A carry out of bit 127 shifts one bit
// (< 2^-127 relative) out. The result is exact or within 2^-126 before the pack truncates it to 112 bits.
fn mpXfAddU(a: MpXfU, b: MpXfU) -> MpXfU {
  if (a.k == 3u || b.k == 3u) { return mpXfSpecial(0u, true); }
  if (a.k == 2u) { if (b.k == 2u && b.s != a.s) { return mpXfSpecial(0u, true); } return a; }
  if (b.k == 2u) { return b; }
  if (a.k == 0u) { if (b.k == 0u) { return mpXfZero(a.s & b.s); } return b; }
  if (b.k == 0u) { return a; }
  var x = a;
  var y = b;
  if (b.e > a.e || (b.e == a.e && mpXfLess(a.m, b.m))) { x = b; y = a; }
  let d = u32(x.e - y.e);
  let ym = mpXfShr(y.m, min(d, 128u));
  let xm = x.m;
  if (x.s == y.s) {
    let w = xm.w + ym.w;
    let cw = select(0u, 1u, w < xm.w);
    let z0 = xm.z + ym.z;
    let z = z0 + cw;
    let cz = select(0u, 1u, z0 < xm.z) + select(0u, 1u, z < z0);
    let y0 = xm.y + ym.y;
    let yy = y0 + cz;
    let cy = select(0u, 1u, y0 < xm.y) + select(0u, 1u, yy < y0);
    let x0 = xm.x + ym.x;
    let xx = x0 + cy;
    let cx = select(0u, 1u, x0 < xm.x) + select(0u, 1u, xx < x0);
    let sum = vec4<u32>(xx, yy, z, w);
    if (cx != 0u) { return MpXfU(x.s, x.e + 1, 1u, mpXfShr(sum, 1u) | vec4<u32>(0x80000000u, 0u, 0u, 0u)); }
    return MpXfU(x.s, x.e, 1u, sum);
  }
  let w = xm.w - ym.w;
  let bw = select(0u, 1u, xm.w < ym.w);
  let z = xm.z - ym.z - bw;
  let bz = select(0u, 1u, xm.z < ym.z || (xm.z == ym.z && bw != 0u));
  let yy = xm.y - ym.y - bz;
  let by = select(0u, 1u, xm.y < ym.y || (xm.y == ym.y && bz != 0u));
  let xx = xm.x - ym.x - by;
  let diff = vec4<u32>(xx, yy, z, w);
  if ((xx | yy | z | w) == 0u) { return mpXfZero(0u); }
  return mpXfNormal(x.s, x.e, diff);
}

// x·y: the top 128 bits of the 256-bit product of the significands (columns below 6 dropped: < 2^-125 relative),
// normalised, then truncated to 112 bits by the pack (the 16 low bits are cleared here so a following add sees a
// 112-bit operand). mpXfMulSU: a short (limbs 1 … 3 zero); mpXfMulSSU: both short — the same results.
${mulFunction('mpXfMulU', 1, 1)}
${mulFunction('mpXfMulSU', 4, 1)}
${mulFunction('mpXfMulSSU', 4, 4)}

// x/y by restoring long division of the significands (halved, so the remainder never needs a 129th bit): the 113
// quotient bits are exact, the rest is truncated (< 2^-111 relative), then the pack truncates to 112 bits.
fn mpXfDivU(a: MpXfU, b: MpXfU) -> MpXfU {
  let s = a.s ^ b.s;
  if (a.k == 3u || b.k == 3u) { return mpXfSpecial(0u, true); }
  if (a.k == 2u) { if (b.k == 2u) { return mpXfSpecial(0u, true); } return mpXfSpecial(s, false); }
  if (b.k == 2u) { return mpXfZero(s); }
  if (b.k == 0u) { if (a.k == 0u) { return mpXfSpecial(0u, true); } return mpXfSpecial(s, false); }
  if (a.k == 0u) { return mpXfZero(s); }
  var r = mpXfShr(a.m, 1u);
  let d = mpXfShr(b.m, 1u);
  var q = vec4<u32>(0u);
  for (var i = 0u; i < 114u; i = i + 1u) {
    q = mpXfShl(q, 1u);
    if (!mpXfLess(r, d)) {
      let w = r.w - d.w;
      let bw = select(0u, 1u, r.w < d.w);
      let z = r.z - d.z - bw;
      let bz = select(0u, 1u, r.z < d.z || (r.z == d.z && bw != 0u));
      let yy = r.y - d.y - bz;
      let by = select(0u, 1u, r.y < d.y || (r.y == d.y && bz != 0u));
      r = vec4<u32>(r.x - d.x - by, yy, z, w);
      q.w = q.w | 1u;
    }
    r = mpXfShl(r, 1u);
  }
  // q = floor(2^113·A/B) with A/B in (1/2, 2): q's top bit is bit 112 or 113.
  return mpXfNormal(s, a.e - b.e + 14, q);
}

// The binary64 with words (lo, hi), exactly.
fn mpXfOfF64(lo: u32, hi: u32) -> MpXfU {
  let s = hi >> 31u;
  let ex = (hi >> 20u) & 0x7FFu;
  let fh = hi & 0xFFFFFu;
  if (ex == 0x7FFu) { return mpXfSpecial(s, (fh | lo) != 0u); }
  let m = vec4<u32>((fh << 11u) | (lo >> 21u), lo << 11u, 0u, 0u);
  if (ex == 0u) {
    if ((fh | lo) == 0u) { return mpXfZero(s); }
    return mpXfNormal(s, -1022, m);
  }
  return MpXfU(s, i32(ex) - 1023, 1u, m | vec4<u32>(0x80000000u, 0u, 0u, 0u));
}

// The binary32 with bits b, exactly.
fn mpXfOfF32(b: u32) -> MpXfU {
  let s = b >> 31u;
  let ex = (b >> 23u) & 0xFFu;
  let f = b & 0x7FFFFFu;
  if (ex == 0xFFu) { return mpXfSpecial(s, f != 0u); }
  let m = vec4<u32>(f << 8u, 0u, 0u, 0u);
  if (ex == 0u) {
    if (f == 0u) { return mpXfZero(s); }
    return mpXfNormal(s, -126, m);
  }
  return MpXfU(s, i32(ex) - 127, 1u, m | vec4<u32>(0x80000000u, 0u, 0u, 0u));
}

// x rounded to p ≤ 53 significant bits with minimum normal exponent emin, to nearest even (odd = false) or to odd:
// (q_hi, q_lo, biased exponent field) such that the binary format's bits are (field << (p − 1)) + q — a carry out
// of q steps the exponent, and field 0 with q < 2^(p−1) is a subnormal. x finite and non-zero.
fn mpXfRound(x: MpXfU, p: i32, emin: i32, odd: bool) -> vec3<u32> {
  var prec = p;
  var field = x.e - emin;
  if (x.e < emin) { prec = p - (emin - x.e); field = 0; }
  var q = vec2<u32>(0u);
  var g = false;
  var st = false;
  if (prec < 0) {
    st = true;
  } else if (prec == 0) {
    g = true;
    st = any(mpXfShl(x.m, 1u) != vec4<u32>(0u));
  } else {
    let sh = u32(128 - prec);
    let t = mpXfShr(x.m, sh);
    q = vec2<u32>(t.z, t.w);
    g = (mpXfShr(x.m, sh - 1u).w & 1u) != 0u;
    st = any(mpXfShl(x.m, 129u - sh) != vec4<u32>(0u));
  }
  if (odd) {
    if (g || st) { q.y = q.y | 1u; }
  } else if (g && (st || (q.y & 1u) != 0u)) {
    q.y = q.y + 1u;
    if (q.y == 0u) { q.x = q.x + 1u; }
  }
  return vec3<u32>(q.x, q.y, u32(field));
}

// The binary64 nearest x (ties to even), as words (lo, hi).
fn mpXfToF64U(x: MpXfU) -> vec2<u32> {
  if (x.k == 0u) { return vec2<u32>(0u, x.s << 31u); }
  if (x.k >= 2u) { return vec2<u32>(0u, (x.s << 31u) | 0x7FF00000u | select(0u, 0x80000u, x.k == 3u)); }
  if (x.e > 1023) { return vec2<u32>(0u, (x.s << 31u) | 0x7FF00000u); }
  let r = mpXfRound(x, 53, -1022, false);
  let hi = (r.z << 20u) + r.x;
  if (hi >= 0x7FF00000u) { return vec2<u32>(0u, (x.s << 31u) | 0x7FF00000u); }
  return vec2<u32>(r.y, (x.s << 31u) | hi);
}

// The bits of the binary32 nearest x (ties to even), or of x rounded to odd (then finite x stays finite).
fn mpXfToF32U(x: MpXfU, odd: bool) -> u32 {
  if (x.k == 0u) { return x.s << 31u; }
  if (x.k >= 2u) { return (x.s << 31u) | 0x7F800000u | select(0u, 0x400000u, x.k == 3u); }
  if (x.e > 127) { return (x.s << 31u) | select(0x7F800000u, 0x7F7FFFFFu, odd); }
  let r = mpXfRound(x, 24, -126, odd);
  let b = (r.z << 23u) + r.y;
  if (b >= 0x7F800000u) { return (x.s << 31u) | select(0x7F800000u, 0x7F7FFFFFu, odd); }
  return (x.s << 31u) | b;
}

fn mpXfNegU(x: MpXfU) -> MpXfU { return MpXfU(x.s ^ 1u, x.e, x.k, x.m); }

// What a pack then an unpack make of a sum of two binary64 or binary32 values (their exponents lie far inside the
// register's range): the significand truncated to 112 bits.
fn mpXfTrunc(x: MpXfU) -> MpXfU { return MpXfU(x.s, x.e, x.k, x.m & vec4<u32>(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFF0000u)); }
// A dd pair's working form (words of hi, then of lo): mpXfUnpack(mpXfOfDdWords(w)) without the pack.
fn mpXfOfDdU(w: vec4<u32>) -> MpXfU { return mpXfTrunc(mpXfAddU(mpXfOfF64(w.x, w.y), mpXfOfF64(w.z, w.w))); }
${fusedFmaWgsl()}

fn mpXfAdd(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return mpXfPack(mpXfAddU(mpXfUnpack(a), mpXfUnpack(b))); }
fn mpXfSub(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return mpXfPack(mpXfAddU(mpXfUnpack(a), mpXfNegU(mpXfUnpack(b)))); }
fn mpXfMul(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return mpXfPack(mpXfMulU(mpXfUnpack(a), mpXfUnpack(b))); }
fn mpXfFma(c: vec4<f32>, a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return mpXfPack(mpXfAddU(mpXfUnpack(c), mpXfRange(mpXfMulU(mpXfUnpack(a), mpXfUnpack(b))))); }
// The register's own range (2^±16382), for NRM2's unscaled squares and their sums: no square of a binary64 and no
// sum of them leaves it.
fn mpXfAddWide(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return mpXfPackWide(mpXfAddU(mpXfUnpack(a), mpXfUnpack(b))); }
fn mpXfMulWide(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return mpXfPackWide(mpXfMulU(mpXfUnpack(a), mpXfUnpack(b))); }
fn mpXfFmaWide(c: vec4<f32>, a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return mpXfPackWide(mpXfAddU(mpXfUnpack(c), mpXfMulU(mpXfUnpack(a), mpXfUnpack(b)))); }
fn mpXfDiv(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return mpXfPack(mpXfDivU(mpXfUnpack(a), mpXfUnpack(b))); }
fn mpXfAbs(a: vec4<f32>) -> vec4<f32> { let w = bitcast<vec4<u32>>(a); return bitcast<vec4<f32>>(vec4<u32>(w.x & 0x7FFFFFFFu, w.y, w.z, w.w)); }
fn mpXfOfWord(b: f32) -> vec4<f32> { return mpXfPackWide(mpXfOfF32(bitcast<u32>(b))); }
fn mpXfOfPair(p: vec2<f32>) -> vec4<f32> { return mpXfPackWide(mpXfAddU(mpXfOfF32(bitcast<u32>(p.x)), mpXfOfF32(bitcast<u32>(p.y)))); }
fn mpXfOfF64Words(p: vec2<f32>) -> vec4<f32> { let w = bitcast<vec2<u32>>(p); return mpXfPackWide(mpXfOfF64(w.x, w.y)); }
fn mpXfOfF64Ints(lo: i32, hi: i32) -> vec4<f32> { return mpXfPackWide(mpXfOfF64(bitcast<u32>(lo), bitcast<u32>(hi))); }
// Reads of stored values (binary32, binary64, pairs of them) are in binary64's range already: packed as they are.
// A dd pair (words of hi, then of lo): hi + lo exactly when they lie within 59 bits, else lo truncated (< 2^-111).
fn mpXfOfDdWords(p: vec4<f32>) -> vec4<f32> { let w = bitcast<vec4<u32>>(p); return mpXfPackWide(mpXfAddU(mpXfOfF64(w.x, w.y), mpXfOfF64(w.z, w.w))); }
fn mpXfToF64Words(a: vec4<f32>) -> vec2<f32> { return bitcast<vec2<f32>>(mpXfToF64U(mpXfUnpack(a))); }
fn mpXfToWord(a: vec4<f32>) -> f32 { return bitcast<f32>(mpXfToF32U(mpXfUnpack(a), false)); }
fn mpXfOddBits(a: vec4<f32>) -> i32 { return bitcast<i32>(mpXfToF32U(mpXfUnpack(a), true)); }
// The float-float pair nearest x: hi = RN32(x), lo = RN32(x − hi).
fn mpXfToPair(a: vec4<f32>) -> vec2<f32> {
  let x = mpXfUnpack(a);
  let h = mpXfToF32U(x, false);
  if (x.k != 1u || (h & 0x7F800000u) == 0x7F800000u) { return vec2<f32>(bitcast<f32>(h), 0.0); }
  let r = mpXfAddU(x, mpXfNegU(mpXfOfF32(h)));
  return vec2<f32>(bitcast<f32>(h), bitcast<f32>(mpXfToF32U(r, false)));
}
// The double-double nearest x: hi = RN64(x), lo = RN64(x − hi); x − hi is exact (both 112-bit aligned within 16
// bits of each other, or hi = 0 < |x| below binary64's range). A zero hi is stored as (z, z), as the CPU's dd storage
// stores it (hi + lo of (−0, +0) would read back as +0); a non-finite hi as (hi, 0).
fn mpXfToDdWords(a: vec4<f32>) -> vec4<f32> {
  let x = mpXfUnpack(a);
  let h = mpXfToF64U(x);
  if ((h.y & 0x7FFFFFFFu) == 0u && h.x == 0u) { return bitcast<vec4<f32>>(vec4<u32>(h.x, h.y, h.x, h.y)); }
  if (x.k != 1u || (h.y & 0x7FF00000u) == 0x7FF00000u) { return bitcast<vec4<f32>>(vec4<u32>(h.x, h.y, 0u, 0u)); }
  let r = mpXfAddU(x, mpXfNegU(mpXfOfF64(h.x, h.y)));
  let l = mpXfToF64U(r);
  return bitcast<vec4<f32>>(vec4<u32>(h.x, h.y, l.x, l.y));
}
`;
