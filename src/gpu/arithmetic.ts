/**
 * GPU arithmetic formats as source templates in gpu.js's JavaScript subset: `f32` (every operation
 * rounded to binary32) and `ff` (float-float: an unevaluated sum hi + lo of two binary32 values, about
 * 48 significand bits, built from error-free transformations — TwoSum, and TwoProd through `fma` where
 * the adapter fuses it, Dekker's split otherwise).
 *
 * A value in generated code is a {@link GpuRegister}: a binary32 variable (kind `f32`) or a two-lane
 * variable (kind `ff`, gpu.js `Array(2)`, WGSL `vec2<f32>`).
 *
 * @module
 */

/**
 * Names of the GPU arithmetic formats.
 * @group GPU
 */
export type GpuArithmeticName = 'f32' | 'ff';

/** A value held in generated kernel source. */
export interface GpuRegister {
  readonly kind: 'f32' | 'ff';
  readonly name: string;
}

/** One helper function added to gpu.js (source and types). */
export interface HelperFunction {
  readonly source: string;
  readonly argumentTypes: Readonly<Record<string, string>>;
  readonly returnType: string;
}

const ff2 = 'Array(2)';

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
  const twoProd = fused
    ? `function ffTwoProd(a, b) { const p = ${K('a * b')}; const e = mpFma(a, b, -p); return [p, e]; }`
    : `function ffTwoProd(a, b) {
  const p = ${K('a * b')};
  const ta = ${K('4097.0 * a')}; const ah = ${K(`ta - ${K('ta - a')}`)}; const al = ${K('a - ah')};
  const tb = ${K('4097.0 * b')}; const bh = ${K(`tb - ${K('tb - b')}`)}; const bl = ${K('b - bh')};
  const e1 = ${K(`${K('ah * bh')} - p`)}; const e2 = ${K(`e1 + ${K('ah * bl')}`)}; const e3 = ${K(`e2 + ${K('al * bh')}`)};
  const e = ${K(`e3 + ${K('al * bl')}`)};
  return [p, e];
}`;
  // Fast2Sum(x, y) as statements declaring `${h}`, `${l}` (requires |x| ≥ |y| or x = 0).
  const fast2 = (h: string, l: string, x: string, y: string): string => `const ${h} = ${K(`${x} + ${y}`)}; const ${l} = ${y} - (${h} - ${x});`;
  return [
    { source: twoProd, argumentTypes: { a: 'Number', b: 'Number' }, returnType: ff2 },
    {
      // Accurate double-word addition (Joldes, Muller, Popescu 2017, Algorithm 6): relative error ≤ 3u².
      // Barriers sit on the sums whose rounding the error terms measure (s, s − a, and each Fast2Sum's
      // head): with those opaque, no rewrite of the remaining expressions changes their value.
      source: `function ffAdd(a, b) {
  const s = ${K('a[0] + b[0]')}; const sb = ${K('s - a[0]')}; const e = (a[0] - (s - sb)) + (b[0] - sb);
  const t = ${K('a[1] + b[1]')}; const tb = ${K('t - a[1]')}; const f = (a[1] - (t - tb)) + (b[1] - tb);
  const e2 = e + t; ${fast2('h', 'l', 's', 'e2')}
  const l2 = l + f; ${fast2('h2', 'l3', 'h', 'l2')}
  return [h2, l3];
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
      // Double-word × word (Joldes et al. Algorithm 9 without the final refinement): error ≤ 2u².
      source: `function ffMulF(a, b) {
  const p = ffTwoProd(a[0], b); const e = ${K(`p[1] + ${K('a[1] * b')}`)};
  ${fast2('h', 'l', 'p[0]', 'e')}
  return [h, l];
}`,
      argumentTypes: { a: ff2, b: 'Number' },
      returnType: ff2,
    },
    {
      // Double-word × double-word (Joldes et al. Algorithm 11 shape): error ≤ 5u².
      source: `function ffMul(a, b) {
  const p = ffTwoProd(a[0], b[0]); const c = ${K(`${K('a[0] * b[1]')} + ${K('a[1] * b[0]')}`)}; const e = ${K('p[1] + c')};
  ${fast2('h', 'l', 'p[0]', 'e')}
  return [h, l];
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
  return [h, l];
}`,
      argumentTypes: { a: ff2, b: ff2 },
      returnType: ff2,
    },
  ];
}

/** A GPU arithmetic format: unit roundoff and templates. */
export interface GpuArithmetic {
  readonly name: GpuArithmeticName;
  /** Unit roundoff u of one operation (2^-24 for f32; 2^-48 nominal for ff, whose operations err by a few u). */
  readonly unitRoundoff: number;
  /** Words a value occupies in a partial-result buffer. */
  readonly components: 1 | 2;
  /** `let dst = 0`. */
  declareZero(dst: string): string;
  /** Declares `dst` (this arithmetic) from register `src`, rounding if needed. */
  declareFrom(dst: string, src: GpuRegister): string;
  /** `acc += a · b` (a, b registers of any kind). */
  mulAdd(acc: string, a: GpuRegister, b: GpuRegister): string;
  /** `acc += b`. */
  add(acc: string, b: GpuRegister): string;
  /** Declares `dst = a · b`. */
  declareMul(dst: string, a: GpuRegister, b: GpuRegister): string;
  /** Declares `dst = a / b`. */
  declareDiv(dst: string, a: GpuRegister, b: GpuRegister): string;
  /** Declares `dst = a − b`. */
  declareSub(dst: string, a: GpuRegister, b: GpuRegister): string;
  /** A register naming `name` of this arithmetic's kind. */
  register(name: string): GpuRegister;
  /** The expression a pass returns for register `acc` (a word or a pair). */
  returnValue(acc: string): string;
}

/**
 * A register as a float-float pair expression (binary32 registers get a zero tail).
 * @param r - the register
 * @returns `name` for a pair, `[name, 0.0]` for a word
 */
export function asPair(r: GpuRegister): string {
  return r.kind === 'ff' ? r.name : `[${r.name}, 0.0]`;
}
function asSingle(r: GpuRegister): string {
  return r.kind === 'ff' ? `(${r.name}[0] + ${r.name}[1])` : r.name;
}

/** binary32 arithmetic: each operation rounded once (fma for multiply-add). */
export const gpuF32: GpuArithmetic = {
  name: 'f32',
  unitRoundoff: 2 ** -24,
  components: 1,
  declareZero: (dst) => `let ${dst} = 0.0;`,
  declareFrom: (dst, src) => `let ${dst} = ${asSingle(src)};`,
  mulAdd: (acc, a, b) => `${acc} = mpFma(${asSingle(a)}, ${asSingle(b)}, ${acc});`,
  add: (acc, b) => `${acc} = ${acc} + ${asSingle(b)};`,
  declareMul: (dst, a, b) => `let ${dst} = ${asSingle(a)} * ${asSingle(b)};`,
  declareDiv: (dst, a, b) => `let ${dst} = ${asSingle(a)} / ${asSingle(b)};`,
  declareSub: (dst, a, b) => `let ${dst} = ${asSingle(a)} - ${asSingle(b)};`,
  register: (name) => ({ kind: 'f32', name }),
  returnValue: (acc) => acc,
};

/** Float-float arithmetic (about 48 significand bits from two binary32 words). */
export const gpuFF: GpuArithmetic = {
  name: 'ff',
  unitRoundoff: 2 ** -48,
  components: 2,
  declareZero: (dst) => `let ${dst} = [0.0, 0.0];`,
  declareFrom: (dst, src) => `let ${dst} = ${asPair(src)};`,
  mulAdd: (acc, a, b) => {
    if (a.kind === 'f32' && b.kind === 'f32') return `${acc} = ffMulAddF(${acc}, ${a.name}, ${b.name});`;
    if (a.kind === 'ff' && b.kind === 'ff') return `${acc} = ffAdd(${acc}, ffMul(${a.name}, ${b.name}));`;
    const [p, q] = a.kind === 'ff' ? [a, b] : [b, a];
    return `${acc} = ffAdd(${acc}, ffMulF(${p.name}, ${q.name}));`;
  },
  add: (acc, b) => `${acc} = ffAdd(${acc}, ${asPair(b)});`,
  declareMul: (dst, a, b) => {
    if (a.kind === 'f32' && b.kind === 'f32') return `let ${dst} = ffTwoProd(${a.name}, ${b.name});`;
    if (a.kind === 'ff' && b.kind === 'ff') return `let ${dst} = ffMul(${a.name}, ${b.name});`;
    const [p, q] = a.kind === 'ff' ? [a, b] : [b, a];
    return `let ${dst} = ffMulF(${p.name}, ${q.name});`;
  },
  declareDiv: (dst, a, b) => `let ${dst} = ffDiv(${asPair(a)}, ${asPair(b)});`,
  declareSub: (dst, a, b) => (b.kind === 'ff' ? `let ${dst} = ffAdd(${asPair(a)}, [-${b.name}[0], -${b.name}[1]]);` : `let ${dst} = ffAdd(${asPair(a)}, [-${b.name}, 0.0]);`),
  register: (name) => ({ kind: 'ff', name }),
  returnValue: (acc) => acc,
};

/**
 * The GPU arithmetic named `name`.
 * @param name - `f32` or `ff`
 * @returns the arithmetic
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
  return name === 'f32' ? gpuF32 : gpuFF;
}
