/**
 * The WGSL of GEMV's long-window dd terms with x decoded once a call (the `ddGemvDecodedXDd` switch): every row's
 * thread of GEMV N reads the same x_j, and with `ddGemvLongDd` each of its dd·dd and f64·dd terms derived x_j's
 * regularity, exponent and signed 14-bit limbs from its four words again (the lean operand of
 * dd-gpu-window-lean-wgsl.ts: lo's alignment, sign and six limbs, ≈ 60 integer operations a term). A pre-pass
 * (`mpDgDecodeDd`, one thread an element) writes four words per x_j instead, read beside x_j's own words:
 * - word 0, its code c: hi's biased exponent e where x_j is regular (`mpDlRegular`: 54 ≤ e ≤ 2046 and
 *   e ≥ max(elo, 1) + 53), else 4096 where x_j is ±0 in both words (`mpDlZero`), else 8192;
 * - words 1 … 3, its signed limbs g_0 … g_5 (`leanLimbs`), two a word: g_{2k} in the low 16 bits (two's complement),
 *   g_{2k+1} in the high 16.
 *
 * **Same bits as the lean terms without the decoding** (`mpDgAdd<A>Dd` and the lean code `mpDlExp<A>Dd` of
 * dd-gpu-gemv-long-wgsl.ts). The row pass's code `mpDgExpDx(a, c)` returns what `mpDlTermExp(a, x)` returns for every
 * a and x: with rb = regular(x), zb = zero(x) and t = ea + c,
 * - where rb, c = eb, so the first test is the lean one (ra, t = ea + eb ∈ [1085, 3060]) with the same t;
 * - where not rb, c ≥ 4096 makes t − 1085 ≥ 3011 > 1975, so the first test fails, as the lean one does (rb false);
 * - the second test reads rb as c < 2048 (a regular e ≤ 2046, the others ≥ 4096) and zb as c = 4096 (zero and not
 *   regular; a zero pair is never regular, its hi exponent being 0 < 54): the lean test's operands, the same result.
 * The add runs only for t > 0, i.e. for a regular x_j, and then takes the same limbs: g_0 … g_5 are the values the
 * lean operand computes (the pre-pass runs its very lines), each |g_i| < 2^14 (limbs 0 … 4 are ±(14 bits), limb 5 is
 * (hi's 12 low bits)·4 ± (lo's top 2 bits) ∈ [−3, 2^14)), so a 16-bit two's-complement half holds it exactly and
 * `(i32(w) << 16) >> 16` (low half) and `i32(w) >> 16` (high half) give it back exactly; g_6 … g_8 and the sign come
 * from x_j's own hi word by the lean lines themselves. So the 45 limb products, the carries, the shift, the add — and
 * the window, the slow path (which reads x_j's own words, as the loop's tail does), the result — are the same bits,
 * and the bound of dd-gpu-gemv-long-wgsl.ts holds as it is. The limbs of an irregular or zero x_j are written but
 * never read (t ≤ 0 skips the add).
 * @module
 */
import { leanHiLimbs, leanLimbs, leanProduct, LOW } from './dd-gpu-window-lean-wgsl.js';
import { decodedDdNames, type LongKind } from './dd-gpu-gemv-long.js';

/** The word holding limbs `lo` (low half) and `hi` (high half), two's complement. */
const pack = (lo: string, hi: string): string => `(u32(${lo}) & 0xFFFFu) | (u32(${hi}) << 16u)`;

/** WGSL lines that declare the limbs `${p}0` … `${p}5` (i32) from the decoded words `d` (their words 1 … 3). */
function unpackedLimbs(d: string, p: string): string[] {
  return ['y', 'z', 'w'].flatMap((c, k) => [`let ${p}${2 * k} = (i32(${d}.${c}) << 16u) >> 16u;`, `let ${p}${2 * k + 1} = i32(${d}.${c}) >> 16u;`]);
}

/** The code and add of a long-window term a·x_j with x_j decoded, for a of kind `a` (dd or f64). */
function termFunctions(a: LongKind): string {
  const n = decodedDdNames(a);
  const type = a === 'dd' ? 'vec4<f32>' : 'vec2<f32>';
  const words = a === 'dd' ? 'bitcast<vec4<u32>>(a)' : 'vec4<u32>(bitcast<vec2<u32>>(a), 0u, 0u)';
  const body = [...leanLimbs('a', 'a', a), ...leanHiLimbs('b', 'b'), ...unpackedLimbs('d', 'b'), ...leanProduct(LOW[a], LOW.dd)];
  return `
fn ${n.exp}(a: ${type}, bd: vec4<f32>) -> i32 { return mpDgExpDx(${words}, bitcast<vec4<u32>>(bd).x); }
// The window plus term (a, x_j) of code t > 0 at anchor f ≥ t (x_j's words b, its decoded words d): ±floor(P / 2^(f − t + 6)).
fn ${n.add}Term(w: vec4<u32>, a: vec4<u32>, b: vec2<u32>, d: vec4<u32>, t: i32, f: i32) -> vec4<u32> {
  ${body.join('\n  ')}
  let q = mpXfShr(p, u32(min(f - t + 6, 128)));
  let m = 0u - ((a.y ^ b.y) >> 31u);
  return mpDlAdd128(w, q ^ vec4<u32>(m), m & 1u);
}
fn ${n.add}(wf: vec4<f32>, a: ${type}, b: vec4<f32>, bd: vec4<f32>, t: i32, f: i32) -> vec4<f32> {
  if (t <= 0) { return wf; }
  return bitcast<vec4<f32>>(${n.add}Term(bitcast<vec4<u32>>(wf), ${words}, bitcast<vec4<u32>>(b).xy, bitcast<vec4<u32>>(bd), t, f));
}`;
}

/**
 * The WGSL of the decoded dd x (the `ddGemvDecodedXDd` switch): the pre-pass's decoding, the term code and the adds of
 * dd·x and f64·x terms. A part of dd's native library of its own (appended, after the library whose `mpDlRegular`,
 * `mpDlZero`, `mpXfShr` and `mpDlAdd128` it calls, only to the shaders that call one of its functions).
 */
export const DG_DX_WGSL = `
// x's four decoded words (see the module comment): its code (e, 4096 for ±0, 8192 irregular), then limbs 0 … 5.
fn mpDgDecodeDd(xf: vec4<f32>) -> vec4<f32> {
  let w = bitcast<vec4<u32>>(xf);
  let e = (w.y >> 20u) & 0x7FFu;
  var c = e;
  if (!mpDlRegular(w, e)) { c = select(8192u, 4096u, mpDlZero(w)); }
  ${leanLimbs('w', 'g', 'dd').join('\n  ')}
  return bitcast<vec4<f32>>(vec4<u32>(c, ${pack('g0', 'g1')}, ${pack('g2', 'g3')}, ${pack('g4', 'g5')}));
}

// mpDlTermExp(a, x) for x of decoded code c (the module comment shows the equality).
fn mpDgExpDx(a: vec4<u32>, c: u32) -> i32 {
  let ea = (a.y >> 20u) & 0x7FFu;
  let ra = mpDlRegular(a, ea);
  let t = ea + c;
  if (ra && t - 1085u < 1976u) { return i32(t); }
  let za = mpDlZero(a);
  let rb = c < 2048u;
  let zb = c == 4096u;
  if ((ra || za) && (rb || zb) && (za || zb)) { return 0; }
  return -1;
}
${termFunctions('dd')}
${termFunctions('f64')}
`;
