/**
 * GPU arithmetics: the GPU parts of the arithmetic formats (`ArithmeticFormat.gpu`; formats.f32 and formats.ff
 * carry theirs, src/formats/<name>/*-gpu-*.ts), looked up from the format the caller chose, and the float-float helper functions
 * their templates call — `f32` (every operation rounded to binary32) and `ff` (float-float: an unevaluated sum
 * hi + lo of two binary32 values, about 48 significand bits, built from error-free transformations — TwoSum, and
 * TwoProd through `fma` where the adapter fuses it, Dekker's split otherwise).
 *
 * A value in generated code is a {@link GpuRegister}: a binary32 variable (kind `f32`) or a two-lane
 * variable (kind `ff`, gpu.js `Array(2)`, WGSL `vec2<f32>`).
 *
 * @module
 */
import { fail } from '../../core/errors.js';
import { findFormat } from '../../formats/common/registry.js';
import '../../formats/index.js';
import '../../formats/gpu-parts.js';
import type { GpuArithmeticName, GpuArithmeticPart, GpuHelperFunction, GpuPartRegister } from '../../formats/common/gpu-part.js';
import { f32GpuArithmetic } from '../../formats/f32/f32-gpu-arithmetic.js';
import { ffGpuArithmetic } from '../../formats/ff/ff-gpu-arithmetic.js';
import { exactProductHelpers } from './ff-exact-products.js';
import { foldedProductHelpers } from '../../formats/ff/ff-folded-products.js';
import { leanSettleHelpers } from '../../formats/ff/ff-lean-settle.js';

export type { GpuArithmeticName } from '../../formats/common/gpu-part.js';
export { asPair } from '../../formats/common/gpu-word-reads.js';

/** A value held in generated kernel source. */
export type GpuRegister = GpuPartRegister;

/** One helper function added to gpu.js (source and types). */
export type HelperFunction = GpuHelperFunction;

/** A GPU arithmetic: an arithmetic format's GPU part (src/formats/common/gpu-part.ts has the contract). */
export type GpuArithmetic = GpuArithmeticPart;

/** binary32 arithmetic: formats.f32's GPU part. */
export const gpuF32: GpuArithmetic = f32GpuArithmetic;
/** Float-float arithmetic: formats.ff's GPU part. */
export const gpuFF: GpuArithmetic = ffGpuArithmetic;

const ff2 = 'Array(2)';

/**
 * Dekker's split computes 4097·a, which overflows binary32 for |a| > 2^128/4097 ≈ 8.3e34 (the product's error term
 * then is NaN while a·b itself may be finite: DOT and AXPY in ff gave NaN for an operand of 1e35 on adapters without a
 * fused fma, where the CPU's formats.ff gave the product). Above this limit (2^113) an operand is split at 2^-13 of
 * its size and the error term scaled back by the same power of two — exact: with |a| > 2^113 and |b| ≥ 2^-149 the
 * product and its error stay far above binary32's underflow, and both operands that large overflow a·b anyway.
 */
const SPLIT_LIMIT = '10384593717069655257060992658440192.0';

/**
 * Float-float helper functions. `fused` selects TwoProd through `fma` (exact only when the adapter's fma
 * is fused) or through Dekker's split (exact with plain binary32 multiplication); `barrier` wraps the
 * intermediate sums in `mpKeep` where the shader compiler simplifies floating-point expressions.
 * @param fused - whether `fma` rounds once on this adapter
 * @param barrier - whether the compiler needs optimisation barriers
 * @returns the helpers
 */
export function floatFloatHelpers(fused: boolean, barrier: boolean): HelperFunction[] {
  // K(e): e behind an optimisation barrier. Some shader compilers (Mesa's, for GLSL without `precise`)
  // reassociate and simplify floating-point expressions, which destroys error-free transformations; with
  // `barrier` every operation's result is pinned.
  const K = (e: string): string => (barrier ? `mpKeep(${e})` : `(${e})`);
  // F(x ± y): the sum as fma(1, x, ±y) with an opaque 1.0 (mpOne) — pinned like K's, one floating-point operation.
  const F = (e: string): string => {
    const [x, op, y] = e.split(' ');
    return barrier ? `mpFma(mpOne(), ${x}, ${op === '-' ? '-' : ''}${y})` : `(${e})`;
  };
  const twoProdOf = (pin: (e: string) => string, name: string): string => fused
    ? `function ${name}(a, b) { const p = ${pin('a * b')}; const e = mpFma(a, b, -p); return [p, e]; }`
    : `function ${name}(a, b) {
  const p = ${pin('a * b')};
  let sa = a; let sb = b; let up = 1.0;
  if (Math.abs(a) > ${SPLIT_LIMIT}) { sa = a * 0.0001220703125; up = up * 8192.0; }
  if (Math.abs(b) > ${SPLIT_LIMIT}) { sb = b * 0.0001220703125; up = up * 8192.0; }
  const ps = p / up;
  const ta = ${pin('4097.0 * sa')}; const ah = ${pin(`ta - ${pin('ta - sa')}`)}; const al = ${pin('sa - ah')};
  const tb = ${pin('4097.0 * sb')}; const bh = ${pin(`tb - ${pin('tb - sb')}`)}; const bl = ${pin('sb - bh')};
  const e1 = ${pin(`${pin('ah * bh')} - ps`)}; const e2 = ${pin(`e1 + ${pin('ah * bl')}`)}; const e3 = ${pin(`e2 + ${pin('al * bh')}`)};
  const e = ${pin(`e3 + ${pin('al * bl')}`)};
  return [p, e * up];
}`;
  const twoProd = twoProdOf(K, 'ffTwoProd');
  const lazyAddOf = (pin: (e: string) => string, name: string): string => `function ${name}(s, b) {
  const h = ${pin('s[0] + b[0]')}; const hb = ${pin('h - s[0]')}; const t = (s[0] - (h - hb)) + (b[0] - hb);
  const l = s[1] + (t + b[1]);
  return [h, l];
}`;
  const settleOf = (pin: (e: string) => string, name: string): string => `function ${name}(s) {
  const h = ${pin('s[0] + s[1]')}; const hb = ${pin('h - s[0]')}; const l = (s[0] - (h - hb)) + (s[1] - hb);
  return ffFinish(h, l, s[0]);
}`;
  // Fast2Sum(x, y) as statements declaring `${h}`, `${l}` (requires |x| ≥ |y| or x = 0).
  const fast2 = (h: string, l: string, x: string, y: string): string => `const ${h} = ${K(`${x} + ${y}`)}; const ${l} = ${y} - (${h} - ${x});`;
  return [
    { source: twoProd, argumentTypes: { a: 'Number', b: 'Number' }, returnType: ff2 },
    {
      // The pair (h, l) with binary32's special values (docs/double-double.md, "Special values"): a non-finite head
      // makes the error terms NaN (∞ − ∞), so the pair is (f, 0) with f the binary32 operation on the heads; a zero
      // head — the computed one, or f standing in for a non-finite one (ffDiv's 0/−∞ = −0 beside a NaN correction) —
      // takes f's zero, as (f, f) (a +0 tail would turn −0 into +0 when the pair is rounded to one word). Bit tests:
      // no comparison with NaN.
      source: `function ffFinish(h, l, f) {
  let rh = h; let rl = l;
  const hb = mpBits(h) & 2147483647;
  if (hb >= 2139095040) { rh = f; rl = 0.0; }
  if ((mpBits(rh) & 2147483647) === 0 && (mpBits(f) & 2147483647) === 0) { rh = f; rl = f; }
  return [rh, rl];
}`,
      argumentTypes: { h: 'Number', l: 'Number', f: 'Number' },
      returnType: ff2,
    },
    {
      // a·b as a finished pair (ffTwoProd's error term is NaN for an infinite product, +0 for a −0 one).
      source: `function ffProd(a, b) { const p = ffTwoProd(a, b); return ffFinish(p[0], p[1], p[0]); }`,
      argumentTypes: { a: 'Number', b: 'Number' },
      returnType: ff2,
    },
    {
      // Accurate double-word addition (Joldes, Muller, Popescu 2017, Algorithm 6): relative error ≤ 3u².
      // Barriers sit on the sums whose rounding the error terms measure (s, s − a, and each Fast2Sum's
      // head): with those opaque, no rewrite of the remaining expressions changes their value.
      source: `function ffAdd(a, b) {
  const s = ${K('a[0] + b[0]')}; const sb = ${K('s - a[0]')}; const e = (a[0] - (s - sb)) + (b[0] - sb);
  const t = ${K('a[1] + b[1]')}; const tb = ${K('t - a[1]')}; const f = (a[1] - (t - tb)) + (b[1] - tb);
  const e2 = e + t; ${fast2('h', 'l', 's', 'e2')}
  const l2 = l + f; ${fast2('h2', 'l3', 'h', 'l2')}
  return ffFinish(h2, l3, s);
}`,
      argumentTypes: { a: ff2, b: ff2 },
      returnType: ff2,
    },
    {
      // s + a·b with a, b binary32: the product is exact as a pair, then one accurate addition.
      source: `function ffMulAddF(s, a, b) { return ffAdd(s, ffTwoProd(a, b)); }`,
      argumentTypes: { s: ff2, a: 'Number', b: 'Number' },
      returnType: ff2,
    },
    {
      // Lazy accumulation (a streaming loop's multiply-adds, issue 19): s + b without renormalising — TwoSum of the
      // heads (exact: s0 + b0 = h + t), and the tails t + b1 added plainly into s's tail. ~10 operations instead of
      // ffAdd's ~20. Up to K such additions between two ffSettle calls err by at most (3K + K(K+1)/2 + 1)·u²·A
      // (A: Σ of the magnitudes added so far; the tail stays below (K + 2)·u·A): 7.6 u² per term at K = 8, against
      // the 16 u² per term of the ff bounds (FF_UNIT_ROUNDOFF = 16u²) and ffAdd's 3u². The proof is at
      // lazyTerms in src/formats/ff/ff-gpu-arithmetic.ts. Barriers as in ffAdd: on the head sum and its difference,
      // which makes every rewrite of the rest keep its value.
      // No special-value repair here (it would cost a third of the operations of each streamed term): once a head is
      // ±∞ or NaN the tail turns NaN, but the head is then the binary32 sum of the heads, and ffSettle — which every
      // lazy chain passes through before its value is used — takes it from there.
      source: lazyAddOf(K, 'ffLazyAdd'),
      argumentTypes: { s: ff2, b: ff2 },
      returnType: ff2,
    },
    {
      // Renormalises a lazily accumulated pair: TwoSum (exact, and |lo| ≤ u|hi| after it; Fast2Sum would need
      // |hi| ≥ |lo|, which cancellation in the heads can break). Special values from the head s[0]: after lazy
      // additions a non-finite sum has a NaN tail, and s[0] is the binary32 sum of the heads.
      source: settleOf(K, 'ffSettle'),
      argumentTypes: { s: ff2 },
      returnType: ff2,
    },
    {
      // Double-word × word (Joldes et al. Algorithm 9 without the final refinement): error ≤ 2u².
      source: `function ffMulF(a, b) {
  const p = ffTwoProd(a[0], b); const e = ${K(`p[1] + ${K('a[1] * b')}`)};
  ${fast2('h', 'l', 'p[0]', 'e')}
  return ffFinish(h, l, p[0]);
}`,
      argumentTypes: { a: ff2, b: 'Number' },
      returnType: ff2,
    },
    {
      // Double-word × double-word (Joldes et al. Algorithm 11 shape): error ≤ 5u².
      source: `function ffMul(a, b) {
  const p = ffTwoProd(a[0], b[0]); const c = ${K(`${K('a[0] * b[1]')} + ${K('a[1] * b[0]')}`)}; const e = ${K('p[1] + c')};
  ${fast2('h', 'l', 'p[0]', 'e')}
  return ffFinish(h, l, p[0]);
}`,
      argumentTypes: { a: ff2, b: ff2 },
      returnType: ff2,
    },
    {
      // a / b: a binary32 quotient, corrected once from the exact remainder a − q·b.
      source: `function ffDiv(a, b) {
  const q1 = ${K('a[0] / b[0]')};
  const qb = ffMulF(b, q1);
  const r = ffAdd(a, [-qb[0], -qb[1]]);
  const q2 = ${K('r[0] / b[0]')};
  ${fast2('h', 'l', 'q1', 'q2')}
  return ffFinish(h, l, q1);
}`,
      argumentTypes: { a: ff2, b: ff2 },
      returnType: ff2,
    },
    {
      // ffDiv with both binary32 quotients correctly rounded (mpDivRn, exact-division.ts; dn: the host's default NaN):
      // formats.ff's division on the CPU bit for bit, whatever the adapter's division — the scaled store of
      // floating-point outputs divides with it.
      source: `function ffDivRn(a, b, dn) {
  const q1 = mpDivRn(a[0], b[0], dn);
  const qb = ffMulF(b, q1);
  const r = ffAdd(a, [-qb[0], -qb[1]]);
  const q2 = mpDivRn(r[0], b[0], dn);
  ${fast2('h', 'l', 'q1', 'q2')}
  return ffFinish(h, l, q1);
}`,
      argumentTypes: { a: ff2, b: ff2, dn: 'Integer' },
      returnType: ff2,
    },
    // The streaming loops' three pinned by fmas with opaque uniforms (kernel-switches.ts, ffFmaKeep): fma(a, b, −0) is
    // a·b and fma(1, a, b) is a + b, each rounded once, with operands no compiler knows — floating-point operations
    // where mpKeep XORs the bits. Same values. (Without a fused fma TwoProd keeps Dekker's split, pinned by K.)
    { source: fused && barrier ? 'function ffTwoProdU(a, b) { const p = mpFma(a, b, mpNegZero()); const e = mpFma(a, b, -p); return [p, e]; }' : twoProdOf(K, 'ffTwoProdU'), argumentTypes: { a: 'Number', b: 'Number' }, returnType: ff2 },
    { source: lazyAddOf(F, 'ffLazyAddU'), argumentTypes: { s: ff2, b: ff2 }, returnType: ff2 },
    { source: settleOf(F, 'ffSettleU'), argumentTypes: { s: ff2 }, returnType: ff2 },
    // Lazy terms whose product is exact in binary32 (16-bit operands, the ffExactProducts switch).
    ...exactProductHelpers(fused, barrier),
    // Lazy terms with TwoProd's error folded into the tail, and the lean settle (ffFoldedProducts, ffLeanSettle).
    ...foldedProductHelpers(fused, barrier),
    ...leanSettleHelpers(barrier),
  ];
}

/**
 * The GPU part of an arithmetic format: a format object (`formats.ff`, `ffArithmetic`, a user's arithmetic) or the
 * name of a registered one (`'f32'`, `'ff'`).
 * @param format - the arithmetic or its name
 * @returns the part, or `undefined` when the format has none or names no arithmetic
 */
export function gpuArithmeticPart(format: unknown): GpuArithmetic | undefined {
  if (typeof format === 'string') return findFormat(format)?.arithmetic?.gpu;
  if (typeof format !== 'object' || format === null) return undefined;
  // An ArithmeticFormat carries the part itself; a registry entry (formats.ff) through its arithmetic.
  const f = format as { emitFma?: unknown; gpu?: GpuArithmetic; arithmetic?: { gpu?: GpuArithmetic } };
  return typeof f.emitFma === 'function' ? f.gpu : f.arithmetic?.gpu;
}

/**
 * The GPU arithmetic named `name`: the GPU part of the registered arithmetic of that name.
 * @param name - `f32` or `ff`
 * @returns the arithmetic
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` for a name whose arithmetic has no GPU part
 * @example
 * ```ts
 * import { gpuArithmetic } from 'modprec/gpu';
 *
 * gpuArithmetic('ff').unitRoundoff === 2 ** -48; // → true
 * gpuArithmetic('f32').components; // → 1
 * ```
 * @group GPU
 */
export function gpuArithmetic(name: GpuArithmeticName): GpuArithmetic {
  return gpuArithmeticPart(name) ?? fail('INVALID_OPTION', 'arithmetic', 'must name an arithmetic with a GPU part (f32, ff)', name);
}
