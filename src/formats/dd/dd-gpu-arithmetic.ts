/**
 * The GPU part of double-double arithmetic (formats.dd): every operation runs in the 112-bit register format of
 * dd-gpu-wgsl.ts (native WGSL on u32 words, unit roundoff 2^-110 per operation; every result kept in binary64's
 * range as the CPU's double-double keeps it — ±∞ from 2^1024 − 2^970, multiples of 2^-1074 below), so the CPU double-double's bounds (u = 2^-102) hold for its results. Storage reads hand it raw words
 * (f64 pairs, dd quadruples) or exact binary32 values; it converts them exactly.
 * @module
 */
import { bitLength } from '../../core/bit-length.js';
import type { GpuArithmeticPart, GpuDotOperands, GpuNativeLibrary, GpuPartRegister } from '../common/gpu-part.js';
import { asXf, decodeXfExact, roundBigToDouble, xfGpuWords } from './dd-gpu-words.js';
import { fusedFmaName, fusedFmaTypes, isFusedKind } from './dd-gpu-fused.js';
import { checkWindowTerms, windowFunctionTypes, windowSteps, type WindowForm } from './dd-gpu-window.js';
import { gpuKernelSwitches } from '../../backends/webgpu/kernel-switches.js';
import { DECODED_DD, decodedDdFunctionTypes, declareLongAccumulator, longDdWindowFunctionTypes, longRowsWindowFunctionTypes, longWindowFunctionTypes, longWindowStep, longWindowTakes, longWindowValue, sharedLimbsLines } from './dd-gpu-gemv-long.js';

const V4 = 'Array(4)' as const;
const V2 = 'Array(2)' as const;

/** The WGSL functions the templates call (their WGSL text is loaded with the GPU runtime: CPU bundles skip it). */
const library: Omit<GpuNativeLibrary, 'wgsl'> = {
  functions: {
    mpXfAdd: { args: [V4, V4], returns: V4 },
    mpXfSub: { args: [V4, V4], returns: V4 },
    mpXfMul: { args: [V4, V4], returns: V4 },
    mpXfFma: { args: [V4, V4, V4], returns: V4 },
    mpXfAddWide: { args: [V4, V4], returns: V4 },
    mpXfMulWide: { args: [V4, V4], returns: V4 },
    mpXfFmaWide: { args: [V4, V4, V4], returns: V4 },
    mpXfDiv: { args: [V4, V4], returns: V4 },
    mpXfAbs: { args: [V4], returns: V4 },
    mpXfOfWord: { args: ['Number'], returns: V4 },
    mpXfOfPair: { args: [V2], returns: V4 },
    mpXfOfF64Words: { args: [V2], returns: V4 },
    mpXfOfF64Ints: { args: ['Integer', 'Integer'], returns: V4 },
    mpXfOfDdWords: { args: [V4], returns: V4 },
    mpXfToF64Words: { args: [V4], returns: V2 },
    mpXfToWord: { args: [V4], returns: 'Number' },
    mpXfOddBits: { args: [V4], returns: 'Integer' },
    mpXfToPair: { args: [V4], returns: V2 },
    mpXfToDdWords: { args: [V4], returns: V4 },
    ...fusedFmaTypes(),
    // The scaled store's value of a dd result in floating-point storage (dd-gpu-scaled-quotient.ts).
    mpDdScaledQuotient: { args: [V4, V2, 'Integer'], returns: V4 },
    ...windowFunctionTypes(),
  },
};

const xf = (name: string): GpuPartRegister => ({ kind: 'xf', name });

/** A decoded f64 (kind f64x, GEMV's x under the ddGemvDecodedX switch) as the f64 of its first two words; others as they are. */
const asF64 = (r: GpuPartRegister): GpuPartRegister => (r.kind === 'f64x' ? { kind: 'f64', name: `mpDwF64Of(${r.name})` } : r);

/** Integer square root (floor) of a non-negative BigInt. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Newton's iteration decreases monotonically to floor(√n) from any start at or above √n.
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/**
 * √ of register words, correctly rounded to a double (an exact integer square root with a sticky bit).
 * @param words - one register's four words
 * @returns the root
 */
function sqrtOfXfWords(words: Uint32Array): number {
  const x = decodeXfExact(words, 0);
  if ('special' in x) return Math.sqrt(x.special);
  if (x.m === 0n) return x.sign ? -0 : 0;
  if (x.sign) return NaN;
  // m·2^e with e even after moving one bit, scaled up by 2^(2t) so the root has ≥ 60 bits.
  let m = x.m;
  let e = x.e;
  if (e & 1) {
    m <<= 1n;
    e -= 1;
  }
  const t = 64n;
  const n = m << (2n * t);
  const r = isqrt(n);
  const root = r * r === n ? r << 1n : (r << 1n) | 1n; // one more bit: sticky
  return roundBigToDouble(root, e / 2 - Number(t) - 1);
}

/**
 * Double-double arithmetic on the device.
 * @group Double-double
 */
export const ddGpuArithmetic: GpuArithmeticPart = {
  name: 'dd',
  unitRoundoff: 2 ** -110,
  components: 4,
  readKinds: ['f32', 'ff', 'f64', 'dd'],
  // dd storage (106 bits) computes in double-double unless told otherwise.
  defaultUpToBits: 106,
  divisionError: 2 ** -110,
  // Squares of doubles (2^±2098) and their sums lie far inside the register's 2^±16382: NRM2 sums them unscaled,
  // in the operations that skip binary64's range.
  squaresInRange: true,
  squaresVariant: () => ddGpuArithmeticWide,
  // Word 0 holds the sign and the biased exponent (bits 30..16): 0x7FFF there is ±∞ or NaN (dd-gpu-wgsl.ts).
  specialTests: {
    nonFinite: (name) => `mpAnd(mpBits(${name}[0]), 2147418112) === 2147418112`,
    infinityOf: (name) => `[mpFloat(mpXor(mpAnd(mpBits(${name}[0]), -2147483648), 2147418112)), 0.0, 0.0, 0.0]`,
    magnitude: (name) => `Math.abs(mpFloat(mpXfOddBits(${name})))`,
  },
  defaultChains: 1,
  // α and β go up as the two words of their double (exact).
  scalar: {
    args: (prefix) => [[`${prefix}Lo`, 'Integer'], [`${prefix}Hi`, 'Integer']],
    values: (prefix, value) => {
      const w = new Uint32Array(new Float64Array([value]).buffer);
      return { [`${prefix}Lo`]: w[0]! | 0, [`${prefix}Hi`]: w[1]! | 0 };
    },
    declare: (dst, prefix) => `const ${dst} = mpXfOfF64Ints(${prefix}Lo, ${prefix}Hi);`,
  },
  // 1 = 2^0: biased exponent 16383, leading significand bit set (w0 = 0x3FFF8000, the binary32 1.99609375).
  literal: (value) => (value === 0 ? '[0.0, 0.0, 0.0, 0.0]' : '[1.99609375, 0.0, 0.0, 0.0]'),
  declareAbs: (dst, r) => ({ code: `const ${dst} = mpXfAbs(${asXf(r)});`, register: xf(dst) }),
  head: (r) => `mpXfToWord(${asXf(r)})`,
  sqrtOfWords: sqrtOfXfWords,
  assign: (dst, src) => `${dst} = ${asXf(src)};`,
  words: xfGpuWords,
  // The scaled store's replay of ddDiv (dd-gpu-scaled-quotient.ts) and the windowed DOT (dd-gpu-window-wgsl.ts) build
  // on the register's functions: one library. GEMV's long window (dd-gpu-gemv-long-wgsl.ts) builds on it as a part,
  // in the WGSL of the shaders that call it only (GEMV's partial pass with ddGemvLong), not of every dd shader.
  native: () => Promise.all([import('./dd-gpu-wgsl.js'), import('./dd-gpu-scaled-quotient.js'), import('./dd-gpu-window-wgsl.js'), import('./dd-gpu-window-lean-wgsl.js'), import('./dd-gpu-gemv-long-wgsl.js'), import('./dd-gpu-gemv-decoded-dd-wgsl.js')])
    .then(([{ XF_WGSL }, { DD_SCALED_QUOTIENT_WGSL }, { DW_WGSL }, { DL_WGSL }, { DG_WGSL, DG_DD_WGSL, DG_ROWS_WGSL }, { DG_DX_WGSL }]) => ({
      ...library,
      wgsl: XF_WGSL + DD_SCALED_QUOTIENT_WGSL + DW_WGSL + DL_WGSL,
      parts: [{ functions: longWindowFunctionTypes(), wgsl: DG_WGSL }, { functions: longDdWindowFunctionTypes(), wgsl: DG_DD_WGSL }, { functions: longRowsWindowFunctionTypes(), wgsl: DG_ROWS_WGSL }, { functions: decodedDdFunctionTypes(), wgsl: DG_DX_WGSL }],
    })),
  declareZero: (dst) => `let ${dst} = [0.0, 0.0, 0.0, 0.0];`,
  declareFrom: (dst, src) => `let ${dst} = ${asXf(src)};`,
  // Operands straight from storage (or registers) go to a multiply-add for their kinds: no pack and unpack of
  // each operand, and the product skips the limbs a binary64 or binary32 read leaves zero — bit for bit the
  // result of mpXfFma on the packed operands (ddGpuArithmeticUnfused, kept to measure the difference).
  mulAdd: (acc, a, b) => (isFusedKind(a.kind) && isFusedKind(b.kind) ? `${acc} = ${fusedFmaName(a.kind, b.kind)}(${acc}, ${a.name}, ${b.name});` : `${acc} = mpXfFma(${acc}, ${asXf(a)}, ${asXf(b)});`),
  add: (acc, b) => `${acc} = mpXfAdd(${acc}, ${asXf(b)});`,
  declareMul: (dst, a, b) => `let ${dst} = mpXfMul(${asXf(a)}, ${asXf(b)});`,
  declareDiv: (dst, a, b) => `let ${dst} = mpXfDiv(${asXf(a)}, ${asXf(b)});`,
  declareSub: (dst, a, b) => `let ${dst} = mpXfSub(${asXf(a)}, ${asXf(b)});`,
  register: xf,
  returnValue: (acc) => acc,
  // DOT takes windowed multiply-adds (4 products a window; in DOT's step of 4 the same shader as 8): H100, 2026-11-27
  // (docs/performance.md, dd-gpu), DOT n = 2^26 dd·dd 7.31 ms unfused → 2.50, f64·dd 4.54 → 1.97, f64·f64 3.02 → 1.41;
  // within the same dotBound (docs/double-double.md, "Windowed DOT multiply-adds"). In the lean term form
  // (ddGpuArithmeticWindowLean4; the `ddDotLean` switch, on by default in session 20 before the windows of eight): dd·dd 2.56 → 2.46 ms,
  // f64·dd 2.02 → 1.74, f64·f64 1.46 → 1.38 against the wide form (ddGpuArithmeticWindow4, with the switch off).
  // Since session 20 the lean form takes windows of eight with one accumulator a thread (dotChains): DOT's step of eight
  // products one window. H100, 2026-11-27 (docs/performance.md, session 20): DOT n = 2^26 dd·dd 2.24 → 1.86 ms,
  // f64·dd 1.66 → 1.40, f64·f64 1.33 → 0.94 against the lean windows of four with two accumulators.
  // The `ddDotLong` switch ('auto' by default since session 23): GEMV's long window in DOT's first pass
  // (ddGpuArithmeticDotLong), one chain, where an operand is stored as f64 and the other as f64 or dd (ddDotForm).
  dotVariant: (operands) => ddDotForm(operands).variant,
  dotChains: (operands) => ddDotForm(operands).chains,
  dotGroups: (operands) => ddDotForm(operands).groups,
  // GEMV's partial pass (N and T: steps of eight terms into one accumulator) takes windows of eight products, within
  // the same gemvBound (docs/double-double.md, "Windowed multiply-adds in GEMV"); H100, 2026-11-27 (opt-in then):
  // GEMV N n = 8192 dd storage 4.64 → 1.60 ms, f64 storage 2.09 → 0.80 ms. The `ddGemvLong` switch (on by default since session 19)
  // takes the long window for f64·f64 terms instead (ddGpuArithmeticGemvLong).
  // The `ddGemvLongDd` switch (on by default since session 21) puts terms with a dd operand into the long window too.
  // `ddGemvLong` off gives the windows of eight whatever `ddGemvLongDd` says (the dd terms extend the long window).
  // The `ddGemvDecodedXDd` switch (on by default since session 22) decodes a dd x once a call for those dd terms (ddGpuArithmeticGemvLongDdX).
  gemvVariant: () => {
    const s = gpuKernelSwitches();
    if (!s.ddGemvLong) return ddGpuArithmeticGemvWindow8;
    if (!s.ddGemvLongDd) return ddGpuArithmeticGemvLong;
    return s.ddGemvDecodedXDd ? ddGpuArithmeticGemvLongDdX : ddGpuArithmeticGemvLongDd;
  },
};

/**
 * DOT's accumulators a thread in the dd arithmetics without a DOT variant of their own (unfused, wide, the windows
 * passed as an arithmetic): as before the per-kind choice, whatever the operands — one with `ddDotLean` or `ddDotLong`
 * true, else DOT's own.
 */
function variantFreeDotChains(): number | undefined {
  const s = gpuKernelSwitches();
  return s.ddDotLong === true || s.ddDotLean ? 1 : undefined;
}

/**
 * DOT's first-pass form in dd for operands stored as `operands` under the `ddDotLong` and `ddDotLean` switches:
 * `ddDotLong` true, or `'auto'` with one operand stored as f64 and the other as f64 or dd, takes the long window with
 * one chain — and with `'auto'`, f64·f64 four runs a step (two long-window steps of eight an iteration); H100,
 * 2026-11-28, DOT n = 2^26: f64·dd 1.40 → 1.19 ms (two runs; four: 1.53), f64·f64 1.03 → 0.76 (four runs; two: 0.95),
 * dd·dd 2.00 → 2.56 / 2.34, so dd·dd keeps the lean windows. Other storage beside dd (f32, ff, f16, dd-split) keeps the
 * lean windows of eight (`ddDotLean`, one chain), or with it off the wide windows of four with DOT's own chains.
 */
function ddDotForm(operands: GpuDotOperands): { variant: GpuArithmeticPart; chains: number | undefined; groups: number | undefined } {
  const s = gpuKernelSwitches();
  const kinds = [operands.x, operands.y];
  const auto = s.ddDotLong === 'auto' && kinds.includes('f64') && kinds.every((k) => k === 'f64' || k === 'dd');
  if (s.ddDotLong === true || auto) return { variant: ddGpuArithmeticDotLong, chains: 1, groups: auto && kinds.every((k) => k === 'f64') ? 4 : undefined };
  return s.ddDotLean ? { variant: ddGpuArithmeticWindowLean8, chains: 1, groups: undefined } : { variant: ddGpuArithmeticWindow4, chains: undefined, groups: undefined };
}

/**
 * {@link ddGpuArithmetic} with its multiply-adds unfused: each operand packed into a register, then the general
 * multiply-add (the arithmetic before the fused multiply-adds). Same results bit for bit, slower; for benchmarks
 * that time both in one run (pass `{ name: 'dd-unfused', arithmetic: { gpu: ddGpuArithmeticUnfused } }` as a GPU
 * kernel's `arithmetic`).
 * @group Double-double
 */
export const ddGpuArithmeticUnfused: GpuArithmeticPart = {
  ...ddGpuArithmetic,
  name: 'dd-unfused',
  defaultUpToBits: undefined,
  // Unfused everywhere: DOT and GEMV too (the variants' windows are another rounding).
  dotVariant: undefined,
  dotGroups: undefined,
  dotChains: variantFreeDotChains,
  gemvVariant: undefined,
  mulAdd: (acc, a, b) => `${acc} = mpXfFma(${acc}, ${asXf(a)}, ${asXf(b)});`,
};

/**
 * {@link ddGpuArithmetic} in the register's whole exponent range (2^±16382) instead of binary64's: NRM2 sums the
 * squares of binary64 values unscaled in it (they and their sums lie far inside), where binary64's range would
 * overflow from 2^512 and flush below 2^-537. Only its multiply, multiply-add and add differ.
 * @group Double-double
 */
export const ddGpuArithmeticWide: GpuArithmeticPart = {
  ...ddGpuArithmetic,
  name: 'dd-wide',
  defaultUpToBits: undefined,
  squaresVariant: undefined,
  dotVariant: undefined,
  dotGroups: undefined,
  dotChains: variantFreeDotChains,
  gemvVariant: undefined,
  mulAdd: (acc, a, b) => `${acc} = mpXfFmaWide(${acc}, ${asXf(a)}, ${asXf(b)});`,
  add: (acc, b) => `${acc} = mpXfAddWide(${acc}, ${asXf(b)});`,
  declareMul: (dst, a, b) => `let ${dst} = mpXfMulWide(${asXf(a)}, ${asXf(b)});`,
};

/**
 * {@link ddGpuArithmetic} with DOT's windowed multiply-adds (dd-gpu-window-wgsl.ts) of at most `terms` products a
 * window: each unrolled step sums its products of dd or f64 operands (per accumulator, in runs of at most `terms`) in
 * a 128-bit fixed-point window without rounding and adds each window to the accumulator with one xf addition — about
 * half the integer operations per term of the unfused path. DOT's with 4 terms where the `ddDotLean` kernel switch is
 * off ({@link ddGpuArithmetic}'s `dotVariant`; on by default: the lean form, {@link ddGpuArithmeticWindowLeanOf});
 * elsewhere opt-in (another summation error, not the fused path's bits): pass `{ name: 'dd-window4', arithmetic: { gpu: ddGpuArithmeticWindowOf(4) } }` as a GPU DOT's or
 * GEMV's `arithmetic` (bench/gpu/dd-gpu.ts times 2, 4 and 8 next to the default). For every `terms` from 1 to 8 its
 * DOT error is within γ_{2n}(2^-110)·Σ|x_i·y_i| for the first pass, inside the CPU dd dotBound; terms with special or
 * out-of-range operands take the unfused multiply-add, so NaN, ∞ and binary64's range are as before. Fewer terms a
 * window: more settles (one xf addition each), and fewer operands live across a window. A window's irregular terms
 * go through one looping call (`slowLoop`, the default: one copy of the slow multiply-add per window in the shader)
 * or one call each (`slowLoop` false: the form of session 16); the same words either way.
 * @param terms - most products a window (1 … 8)
 * @param slowLoop - the window's slow path as one loop (default true)
 * @returns the arithmetic, named `dd-window<terms>` (`dd-window<terms>-per-term` without the loop; one object each)
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` for a length outside 1 … 8
 * @group Double-double
 */
export function ddGpuArithmeticWindowOf(terms: number, slowLoop = true): GpuArithmeticPart {
  return windowArithmetic(terms, slowLoop, 'wide');
}

/**
 * {@link ddGpuArithmeticWindowOf} with the lean term form (dd-gpu-window-lean-wgsl.ts): each operand's nine 14-bit
 * limbs are read straight from its words as signed limbs (hi's bits, and lo's aligned bits with lo's sign: no
 * 128-bit G, no 128-bit addition), the product keeps columns 8 … 16 (45 limb products instead of 53), the term code
 * is one test per operand. The same window, settle
 * (in units twice as large) and slow path; the same bound: each window's sum exact to 2^-114·Σ|a·b|, DOT's first
 * pass within γ_{2n}(2^-110)·Σ|x_i·y_i|, inside the CPU dd dotBound. Another rounding than the wide form, not its
 * bits. DOT's default with 4 terms (the `ddDotLean` kernel switch, on by default; `MODPREC_GPU_DD_DOT_LEAN=0` gives
 * DOT the wide form); elsewhere pass `{ name: 'dd-lean4', arithmetic: { gpu: ddGpuArithmeticWindowLeanOf(4) } }` as a
 * GPU kernel's `arithmetic`.
 * @param terms - most products a window (1 … 8)
 * @param slowLoop - the window's slow path as one loop (default true)
 * @returns the arithmetic, named `dd-lean<terms>` (`dd-lean<terms>-per-term` without the loop; one object each)
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` for a length outside 1 … 8
 * @group Double-double
 */
export function ddGpuArithmeticWindowLeanOf(terms: number, slowLoop = true): GpuArithmeticPart {
  return windowArithmetic(terms, slowLoop, 'lean');
}

function windowArithmetic(terms: number, slowLoop: boolean, form: WindowForm): GpuArithmeticPart {
  const k = checkWindowTerms(terms);
  const name = `dd-${form === 'lean' ? 'lean' : 'window'}${k}${slowLoop ? '' : '-per-term'}`;
  const known = windowArithmetics.get(name);
  if (known) return known;
  const part: GpuArithmeticPart = {
    ...ddGpuArithmeticUnfused,
    name,
    dotVariant: undefined,
    dotGroups: undefined,
    gemvVariant: undefined,
    mulAddSteps: (list) => windowSteps(list, ddGpuArithmeticUnfused.mulAdd, k, slowLoop, form),
  };
  windowArithmetics.set(name, part);
  return part;
}

const windowArithmetics = new Map<string, GpuArithmeticPart>();

/**
 * {@link ddGpuArithmeticWindowOf}(2): windows of two products.
 * @group Double-double
 */
export const ddGpuArithmeticWindow2: GpuArithmeticPart = ddGpuArithmeticWindowOf(2);

/**
 * {@link ddGpuArithmeticWindowOf}(4): windows of four products (one window per accumulator in DOT's default step; DOT's
 * `dotVariant` with the `ddDotLean` kernel switch off).
 * @group Double-double
 */
export const ddGpuArithmeticWindow4: GpuArithmeticPart = ddGpuArithmeticWindowOf(4);

/**
 * {@link ddGpuArithmeticWindowOf}(8): windows of up to eight products (GEMV N's eight-column step: one window).
 * @group Double-double
 */
export const ddGpuArithmeticWindow8: GpuArithmeticPart = ddGpuArithmeticWindowOf(8);

/**
 * The windowed multiply-adds of session 16, windows of up to eight products: {@link ddGpuArithmeticWindow8}.
 * @group Double-double
 */
export const ddGpuArithmeticWindow: GpuArithmeticPart = ddGpuArithmeticWindow8;

/**
 * {@link ddGpuArithmeticWindowLeanOf}(4): the lean term form in windows of four products (DOT's step with two
 * accumulators: one window each); DOT's `dotVariant` in session 19 (the `ddDotLean` kernel switch).
 * @group Double-double
 */
export const ddGpuArithmeticWindowLean4: GpuArithmeticPart = ddGpuArithmeticWindowLeanOf(4);

/**
 * {@link ddGpuArithmeticWindowLeanOf}(8): the lean term form in windows of eight products; DOT's `dotVariant` since
 * session 20 (the `ddDotLean` kernel switch, on by default), with one accumulator a thread (dd's `dotChains`), so
 * DOT's step of eight products is one window.
 * @group Double-double
 */
export const ddGpuArithmeticWindowLean8: GpuArithmeticPart = ddGpuArithmeticWindowLeanOf(8);

/**
 * GEMV's windowed multiply-adds ({@link ddGpuArithmetic}'s `gemvVariant`, the default of GEMV's partial pass): each
 * unrolled step of eight terms into one accumulator summed in one fixed-point window of dd or f64 products (as
 * {@link ddGpuArithmeticWindow8}), one xf addition a window; terms with an operand of another kind (f32, ff, f16 …
 * reads) and the loop's tail take {@link ddGpuArithmetic}'s fused multiply-adds (the unfused path's bits, faster than
 * the unfused form {@link ddGpuArithmeticWindowOf} falls back to). Within the same gemvBound: a step is one rounding
 * of u = 2^-110 of a sum exact to 2^-114·Σ|a·x| (dd-gpu-window-wgsl.ts), fewer roundings than the fused path's two a
 * term.
 * @group Double-double
 */
export const ddGpuArithmeticGemvWindow8: GpuArithmeticPart = {
  ...ddGpuArithmetic,
  name: 'dd-gemv-window8',
  defaultUpToBits: undefined,
  dotVariant: undefined,
  dotGroups: undefined,
  dotChains: variantFreeDotChains,
  gemvVariant: undefined,
  // The ddGemvDecodedX switch: x in f64 decoded once a call (mpDwOfF64), read as f64x by the window and as its f64 by
  // the fused multiply-adds (the loop's tail).
  gemvDecodedX: { from: 'f64', decode: 'mpDwOfF64', kind: 'f64x' },
  mulAdd: (acc, a, b) => ddGpuArithmetic.mulAdd(acc, a, asF64(b)),
  mulAddSteps: (list) => windowSteps(list, (acc, a, b) => ddGpuArithmetic.mulAdd(acc, a, asF64(b)), 8, true),
};

/** A decoded dd x_j (kind ddx, ddGemvDecodedXDd) as its own dd words; others as they are. */
const asDd = (r: GpuPartRegister): GpuPartRegister => (r.kind === DECODED_DD ? { kind: 'dd', name: r.name } : r);

/** An accumulator named by accumulatorChains for a second or later chain (acc1 … acc7). */
const isExtraAccumulator = (name: string): boolean => /^acc\d+$/.test(name);

/**
 * GEMV's partial pass with the long window for f64·f64 terms (the `ddGemvLong` kernel switch; on by default since
 * session 19): each accumulator keeps one 128-bit fixed-point window across the loop's steps (dd-gpu-gemv-long-wgsl.ts: 14-bit
 * limbs read straight from the f64 words, the 16 limb products carried and added exactly, shifted to the window's
 * anchor; the window re-anchored when a step's largest product exponent exceeds it, settled into the accumulator
 * when it nears its headroom and once at the end) — one xf addition per pass instead of one per step of eight. Steps
 * with operands of other kinds run as {@link ddGpuArithmeticGemvWindow8}'s, the loop's tail in the fused
 * multiply-adds. Within the same gemvBound: a pass's partial over n_c terms is within γ_{2n_c + 1}(2^-110)·Σ|a·x|
 * (+ n_c·2^-1074), inside the CPU dd gemvBound (docs/double-double.md). Another rounding, not the default's bits.
 * @group Double-double
 */
export const ddGpuArithmeticGemvLong: GpuArithmeticPart = {
  ...ddGpuArithmeticGemvWindow8,
  name: 'dd-gemv-long',
  // x is read as it is (the decoded x of ddGemvDecodedX is the per-step window's).
  gemvDecodedX: undefined,
  declareZero: declareLongAccumulator,
  // The accumulator's value: its register plus its window (an extra chain's too, where accumulatorChains combines it).
  returnValue: longWindowValue,
  register: (name) => xf(isExtraAccumulator(name) ? longWindowValue(name) : name),
  mulAdd: ddGpuArithmetic.mulAdd,
  mulAddSteps: (list) => longSteps(list, false),
};

/**
 * A step's terms per accumulator: into the long window where it takes their kinds (f64·f64; with `dd` also terms with a
 * dd operand), else through {@link ddGpuArithmeticGemvWindow8}'s per-step windows.
 */
function longSteps(list: readonly { acc: string; a: GpuPartRegister; b: GpuPartRegister }[], dd: boolean): string[] {
  const byAcc = new Map<string, { acc: string; a: GpuPartRegister; b: GpuPartRegister }[]>();
  for (const t of list) (byAcc.get(t.acc) ?? byAcc.set(t.acc, []).get(t.acc)!).push(t);
  // x_j shared by R rows a thread (ddGemvRows): its limbs once for them.
  const { shared, lines } = sharedLimbsLines(list.filter((t) => longWindowTakes(byAcc.get(t.acc)!, dd)));
  for (const [acc, terms] of byAcc) {
    if (!longWindowTakes(terms, dd)) {
      // (A decoded dd x_j is read as its own words there.)
      lines.push(...windowSteps(terms.map((t) => ({ ...t, b: asDd(t.b) })), ddGpuArithmetic.mulAdd, 8, true));
      continue;
    }
    for (let s = 0; s < terms.length; s += 8) lines.push(...longWindowStep(acc, terms.slice(s, s + 8), shared));
  }
  return lines;
}

/**
 * {@link ddGpuArithmeticGemvLong} with dd·dd, dd·f64 and f64·dd terms in the long window too (the `ddGemvLongDd`
 * kernel switch; on by default since session 21, H100 2026-11-28: dd storage N 8192 1.588 → 1.232 ms): such a term is the lean term of {@link ddGpuArithmeticWindowLeanOf}
 * (signed 14-bit limbs straight from the words, 45 limb products, one code test per operand) added to the
 * accumulator's one window at its anchor, so a dd-storage GEMV settles once a pass instead of once a step of eight.
 * Within the same gemvBound: a pass's partial over n_c terms is within γ_{2n_c + 1}(2^-110)·Σ|a·x| (+ n_c·2^-1074),
 * as for f64·f64 terms (dd-gpu-gemv-long-wgsl.ts). Another rounding, not the per-step windows' bits.
 * @group Double-double
 */
export const ddGpuArithmeticGemvLongDd: GpuArithmeticPart = {
  ...ddGpuArithmeticGemvLong,
  name: 'dd-gemv-long-dd',
  mulAddSteps: (list) => longSteps(list, true),
};

/**
 * {@link ddGpuArithmeticGemvLongDd} with a dd x decoded once a call (the `ddGemvDecodedXDd` kernel switch, off until
 * timed; {@link ddGpuArithmetic}'s `gemvVariant` with it): GEMV's pre-pass writes each x_j's code (regularity and
 * exponent) and its six signed limbs of lo (`mpDgDecodeDd`, dd-gpu-gemv-decoded-dd-wgsl.ts), and the long window's
 * dd·dd and f64·dd terms read them beside x_j's own words instead of deriving them in every term. The same codes and
 * limbs, so the same words as {@link ddGpuArithmeticGemvLongDd} (the proof in that module); x in another kind is read
 * as it is.
 * @group Double-double
 */
export const ddGpuArithmeticGemvLongDdX: GpuArithmeticPart = {
  ...ddGpuArithmeticGemvLongDd,
  name: 'dd-gemv-long-dd-x',
  gemvDecodedX: { from: 'dd', decode: 'mpDgDecodeDd', kind: DECODED_DD },
  // The loop's tail: the fused multiply-adds on x_j's own words.
  mulAdd: (acc, a, b) => ddGpuArithmetic.mulAdd(acc, a, asDd(b)),
};

/**
 * DOT's first pass with GEMV's long window (the `ddDotLong` kernel switch: by default, `'auto'`, dd's `dotVariant` where
 * an operand is stored as f64 and the other as f64 or dd, faster there on the H100, 2026-11-28; with `true` for every
 * dd DOT): {@link ddGpuArithmeticGemvLongDd} itself under DOT's name — the same declarations, steps,
 * settle and tail — so dd·dd, f64·dd, dd·f64 and f64·f64 terms go into one 128-bit fixed-point window a thread
 * (dd-gpu-gemv-long-wgsl.ts), settled near its headroom and once at the end, instead of a lean window settled every
 * step ({@link ddGpuArithmeticWindowLean8}); terms with an operand of another kind (f32, ff reads) and the loop's tail
 * take dd's fused multiply-adds (the unfused path's bits), as in GEMV.
 *
 * **Step shape.** DOT's default step with one accumulator a thread (dd's `dotChains` gives 1 with the switch): runs of
 * four (one vector load an operand) and two runs a step, so a step is eight terms — the most one long-window step takes
 * (its headroom argument: eight terms < 2^118 + 1 units each on a window below 2^125). With `'auto'`, f64·f64 takes four
 * runs a step (dd's `dotGroups`): the loop iteration's sixteen terms are two long-window steps of eight, each checking
 * the headroom before its terms, so the argument (and the bound below) holds unchanged. One chain: the window's only
 * serial dependence is its 128-bit add (a few operations a term beside the ≈ 140 (f64·f64) to ≈ 340 (dd·dd) of the
 * term's own code and product, which are independent across the step), so a second chain would buy no overlap but
 * would cost a second window, anchor and register a thread, an extra settle and an addition at the combine.
 *
 * **Bound, inside the CPU dd dotBound.** Let u = 2^-110, η = 2^-1074, s_t the exact sum of first-pass thread t's n_t
 * terms and S_t = Σ_{i∈t}|x_i·y_i|. The long window's statement (dd-gpu-gemv-long-wgsl.ts: one unit ≤ 2^-115.99 of the
 * largest product, < 1.15 units a term or re-anchoring; n_t + 1 settles and 2 roundings a slow or tail term, each of
 * unit u) gives |ŝ_t − s_t| ≤ γ_{2n_t+1}(u)·S_t + n_t·η; with a `chains` option c (1 … 8) each extra chain's settled
 * value is added to the first chain's register before its final settle: ≤ c more roundings, γ_{2n_t+1+c}. The
 * reduction passes add the T partials in dd (`mpXfAdd`: relative error ≤ u; below 2^-963 both operands are multiples of
 * 2^-1074 and the sum is exact), each partial through at most d ≤ T − 1 additions, so ŝ = Σ_t ŝ_t·(1 + θ_t) with
 * |θ_t| ≤ γ_d(u), and (Higham, Lemma 3.3: (1 + γ_a)(1 + γ_b) ≤ 1 + γ_{a+b})
 *   |ŝ − s| ≤ Σ_t |ŝ_t − s_t|·(1 + γ_d) + γ_d·Σ_t|s_t| ≤ γ_{2n_c+1+c+d}(u)·Σ|x_i·y_i| + n·η·(1 + γ_d),
 * n_c = max_t n_t. As n_c ≤ n, T ≤ n (at least one term a thread) and c ≤ 8, 2n_c + 1 + c + d ≤ 3n + 8 ≤ 256·n, so
 * γ_{3n+8}(2^-110) ≤ γ_n(2^-102): the first term is within the CPU dd dotBound's γ_n(2^-102)·Σ|x_i·y_i| (recursive
 * summation, u = 2^-102), and the second within its 2n·2^-1075·(1 + γ_n(2^-102)) (η of dd's binary64 grid, 2^-1075);
 * the read-back to a double adds the same rounding on both sides. So every GPU dd DOT with the switch stays inside the
 * dotBound it is held to (the per-step lean windows' first pass: γ_{2n_t}(u)·S_t, one rounding fewer a thread).
 * Non-finite values, subnormals, zeros and binary64's range take the long window's slow path — the unfused multiply-add
 * of the per-step windows — so ±∞ and NaN come out as with the default; partial sums inside the window are not rounded,
 * so an intermediate that would overflow but cancels later stays finite. Deterministic; another rounding than the
 * per-step windows, not their bits.
 * @group Double-double
 */
export const ddGpuArithmeticDotLong: GpuArithmeticPart = { ...ddGpuArithmeticGemvLongDd, name: 'dd-dot-long' };
