/**
 * The double-double steps of the WebAssembly kernels that sum in double-double (DOT, GEMV, ELL SpMV), on f64x2
 * locals: the exact product by Dekker's algorithm with Veltkamp's splitting — or, where the start-up probe saw
 * relaxed SIMD's multiply-add fused (wasm-fused-fma.ts), as e = fma(a, b, −p): the same (p, e) wherever the product
 * is error-free, in 3 instructions instead of 17 —, added into a double-double sum by the
 * steps of `ddTwoProdAccumulate` (src/formats/dd/two-prod-accumulate.ts) for two exact doubles, or of
 * `ddMulAccumulate` (src/formats/dd/mul.ts: the cross terms, TwoSum at the end) when a factor is a double-double —
 * the operations, in the order, of the JavaScript kernels' templates (src/formats/dd/dd-templates.ts).
 * @module
 */
import { V128, op, SIMD } from './wasm-encoder.js';
import type { WasmLocals } from './wasm-function.js';
import { RELAXED_MADD_F64X2, wasmFusedFmaAvailable } from './wasm-fused-fma.js';

/** Veltkamp's splitting constant 2^27 + 1. */
const SPLITTER = 134217729;
const I64X2_ADD = 0xce;

/**
 * How Dekker's product splits its factors (without the fused multiply-add): 'veltkamp' — both by Veltkamp's
 * splitting, the constant a splat (which the engine rebuilds where it is used); 'veltkamp-pinned' — the same with
 * the constant loaded once from memory (a load stays before the loop); 'bits' — the first factor truncated to 26
 * significant bits by a mask of its bit pattern, the second rounded to 26 by adding 2^26 to its pattern, then the
 * mask (5 instructions for both instead of 8, constants loaded once). Why 'bits' stays exact: with a = a₁ + a₂
 * (a₁ the truncation: |a₂| < 2^(e−25), 27 bits, for 2^e ≤ |a| < 2^(e+1)) and b = b₁ + b₂ (b₁ rounded to 26 bits,
 * |b₂| ≤ 2^(f−26), 26 bits, as Veltkamp's), the four partial products have at most 53 bits, and Dekker's sums are
 * exact: a₁b₁ − p is a multiple of 2^(e+f−52) below 2^(e+f−23); adding a₁b₂ gives a₁b − p, a multiple of
 * 2^(e+f−77) below |a₂b| + |ab − p| < 2^(e+f−24); adding a₂b₁ gives ab − p − a₂b₂, below 3·2^(e+f−52); adding
 * a₂b₂ gives ab − p, which is a double. So e is the exact error wherever no partial product underflows, as with
 * Veltkamp's splitting (the same e); beyond that both are inexact (and may differ). Huge factors: the mask never
 * overflows, Veltkamp's splitting and the products may. So a kernel takes 'bits' only for blocks that
 * {@link ddSplitGuardVerdict} finds safe — every factor's magnitude in [2^-480, 2^480) — and Veltkamp's splitting
 * for the others; the same bits as 'veltkamp' everywhere (proof at {@link DD_SPLIT_SAFE_LOW}).
 */
export type DdSplit = 'veltkamp' | 'veltkamp-pinned' | 'bits';

/**
 * The guard's range: where every factor of a block has 2^-480 ≤ |v| < 2^480, Veltkamp's and the bit splitting give
 * the same (p, e). Proof, for a ∈ [2^ea, 2^(ea+1)) and b ∈ [2^eb, 2^(eb+1)) with −480 ≤ ea, eb < 480 (normal):
 * Veltkamp's c·a < 2^480·(2^27 + 1) does not overflow, so its split is exact (a = a₁ + a₂, 26 bits each); the bit
 * split is exact by construction (DdSplit). Every part is a multiple of 2^(ea−52) (resp. 2^(eb−52)), so every partial
 * product and every sum of Dekker's chain is a multiple of 2^(ea+eb−104) ≥ 2^-1064 — none rounds to a subnormal —
 * and below 2^(ea+eb+2) ≤ 2^962 — none overflows; with ≤ 53 bits in each partial product and the sums' bounds in
 * DdSplit, both chains are exact and end at e = ab − p. p = fl(ab) is the same instruction in both. So each step
 * adds the same (p, e) with the same instructions: the same bits. Zeros, subnormals, huge values, ±Inf (outside
 * the range) send their block to Veltkamp's splitting; NaN may pass the guard (pmin/pmax drop it), but a NaN
 * factor makes p NaN in both forms and the sums NaN, so both results are non-finite (then the JavaScript answers).
 */
export const DD_SPLIT_SAFE_LOW = 2 ** -480;
/** The guard's upper limit (exclusive): see {@link DD_SPLIT_SAFE_LOW}. */
export const DD_SPLIT_SAFE_HIGH = 2 ** 480;

const F64X2_ABS = 0xec, F64X2_PMIN = 0xf6, F64X2_PMAX = 0xf7, F64X2_LT = 0x49, F64X2_GE = 0x4c, I64X2_ALL_TRUE = 0xc3;

/** Instructions run before a block's scan: the guard's minimum and maximum locals (f64x2) start at 1, inside the range. */
export function ddSplitGuardStart(min: number, max: number): number[] {
  return [...op.f64(1), ...op.simd(SIMD.f64x2Splat), ...op.tee(min), ...op.set(max)];
}

/** Instructions taking the f64x2 on the stack into the guard: min := pmin(|v|, min), max := pmax(max, |v|) (`t`: scratch). */
export function ddSplitGuardScan(min: number, max: number, t: number): number[] {
  return [
    ...op.simd(F64X2_ABS), ...op.tee(t), ...op.get(min), ...op.simd(F64X2_PMIN), ...op.set(min),
    ...op.get(max), ...op.get(t), ...op.simd(F64X2_PMAX), ...op.set(max),
  ];
}

/** Instructions leaving 1 (i32) when the scanned block is safe for the bit splitting ({@link DD_SPLIT_SAFE_LOW}), else 0. */
export function ddSplitGuardVerdict(min: number, max: number): number[] {
  return [
    ...op.get(min), ...op.f64(DD_SPLIT_SAFE_LOW), ...op.simd(SIMD.f64x2Splat), ...op.simd(F64X2_GE),
    ...op.get(max), ...op.f64(DD_SPLIT_SAFE_HIGH), ...op.simd(SIMD.f64x2Splat), ...op.simd(F64X2_LT),
    ...op.simd(SIMD.and), ...op.simd(I64X2_ALL_TRUE),
  ];
}

/** The v128 scratch locals of {@link ddAccumulateStep}. */
export interface DdStepScratch {
  readonly p: number; readonly e: number; readonly t: number; readonly h: number; readonly z: number; readonly w: number;
  /** Holds the splitting constant (set by {@link ddStepSetup}); with the 'bits' split, the mask. */
  readonly split: number;
  /** With the 'bits' split: the local holding 2^26 in each i64 lane (else -1). */
  readonly half: number;
  /** Whether products use the fused multiply-add (relaxed SIMD, probed) instead of Dekker's splitting. */
  readonly fma: boolean;
  /** The splitting (see {@link DdSplit}). */
  readonly splitForm: DdSplit;
}

/** Allocates the scratch locals (`split`: the splitting without a fused multiply-add; default Veltkamp's). */
export function ddStepScratch(l: WasmLocals, split: DdSplit = 'veltkamp'): DdStepScratch {
  const [p, e, t, h, z, w, constant] = Array.from({ length: 7 }, () => l.local(V128));
  const fma = wasmFusedFmaAvailable();
  const half = split === 'bits' && !fma ? l.local(V128) : -1;
  return { p: p!, e: e!, t: t!, h: h!, z: z!, w: w!, split: constant!, half, fma, splitForm: split };
}

/**
 * The Veltkamp form of a 'bits' scratch: the same locals, the splitting constant in `constant` (set by
 * {@link ddStepSetup} on the returned scratch), for the blocks the guard sends to Veltkamp's splitting.
 */
export function ddVeltkampScratch(s: DdStepScratch, constant: number): DdStepScratch {
  return { ...s, split: constant, half: -1, splitForm: 'veltkamp' };
}

/** Both i64 lanes of a v128.const. */
const i64x2Const = (v: bigint): number[] => {
  const b = new Uint8Array(new BigUint64Array([v, v]).buffer);
  return op.simd(0x0c /* v128.const */, ...b);
};

/**
 * Instructions run once before the loop: the splitting constants. The pinned forms store them at byte address
 * `pinAt` (32 bytes the caller reserved) and load them back, so that the engine keeps them in registers.
 */
export function ddStepSetup(s: DdStepScratch, pinAt = -1): number[] {
  const splat = [...op.f64(SPLITTER), ...op.simd(SIMD.f64x2Splat)];
  if (s.splitForm === 'veltkamp' || pinAt < 0) return [...splat, ...op.set(s.split)];
  const pin = (at: number, value: number[], local: number): number[] => [
    ...op.i32(pinAt), ...value, ...op.simdMem(SIMD.store, 0, at), ...op.i32(pinAt), ...op.simdMem(SIMD.load, 0, at), ...op.set(local),
  ];
  if (s.splitForm === 'veltkamp-pinned' || s.half < 0) return pin(0, splat, s.split);
  return [...pin(0, i64x2Const(0xfffffffff8000000n), s.split), ...pin(16, i64x2Const(1n << 26n), s.half)];
}

/**
 * Instructions leaving the f64x2 of the high (or low) parts of two double-double elements (interleaved hi, lo) at
 * byte address (local `pointer`) + `offset` on the stack.
 */
export function ddPairHalf(pointer: number, offset: number, lo: boolean): number[] {
  const lanes = lo ? [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
  return [...op.get(pointer), ...op.simdMem(SIMD.load, 0, offset), ...op.get(pointer), ...op.simdMem(SIMD.load, 0, offset + 16), ...op.simd(0x0d /* i8x16.shuffle */, ...lanes)];
}

/** The operands of one step (local indices). */
export interface DdStepOperands {
  /** First factor (high parts). */
  readonly a: number;
  /** Second factor (high parts). */
  readonly b: number;
  /**
   * Low parts of the factors, when either is a double-double (the other's holds zeros, as the JavaScript
   * templates read an exact double as the pair (x, 0)); omitted for two exact doubles.
   */
  readonly low?: { readonly a: number; readonly b: number };
  /** The sum's high and low parts, read. */
  readonly hi: number; readonly lo: number;
  /** Where the new sum goes (default: hi and lo themselves). */
  readonly into?: { readonly hi: number; readonly lo: number };
}

/**
 * Instructions: (hi, lo) := a·b + (hi, lo) in double-double, lane by lane. With two exact doubles: TwoProd,
 * TwoSum of the high parts, the low parts in two roundings, FastTwoSum (exact here, two-prod-accumulate.ts);
 * with double-double factors the cross terms ah·bl + al·bh join the product's error and a TwoSum ends it.
 */
export function ddAccumulateStep(s: DdStepScratch, o: DdStepOperands): number[] {
  const f = (code: number): number[] => op.simd(code);
  const get = op.get, set = op.set;
  const { p, e, t, h, z, w } = s;
  const out = o.into ?? { hi: o.hi, lo: o.lo };
  return [
    ...twoProduct(s, o.a, o.b),
    // double-double factors: e := e + (ah·bl + al·bh)
    ...(o.low ? [...get(o.a), ...get(o.low.b), ...f(SIMD.f64x2Mul), ...get(o.low.a), ...get(o.b), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add), ...f(SIMD.f64x2Add)] : []),
    ...set(e),
    // h = ch + p; z = h − ch; t = (ch − (h − z)) + (p − z)
    ...get(o.hi), ...get(p), ...f(SIMD.f64x2Add), ...set(h),
    ...get(h), ...get(o.hi), ...f(SIMD.f64x2Sub), ...set(z),
    ...get(o.hi), ...get(h), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub),
    ...get(p), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Add), ...set(t),
    // w = t + (cl + e); hi = h + w; lo = w − (hi − h)
    ...get(t), ...get(o.lo), ...get(e), ...f(SIMD.f64x2Add), ...f(SIMD.f64x2Add), ...set(w),
    ...get(h), ...get(w), ...f(SIMD.f64x2Add), ...set(out.hi),
    ...(o.low
      // TwoSum(h, w): z := hi − h; lo := (h − (hi − z)) + (w − z)
      ? [...get(out.hi), ...get(h), ...f(SIMD.f64x2Sub), ...set(z),
        ...get(h), ...get(out.hi), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...get(w), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Add), ...set(out.lo)]
      // FastTwoSum(h, w), exact here (two-prod-accumulate.ts)
      : [...get(w), ...get(out.hi), ...get(h), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...set(out.lo)]),
  ];
}

/**
 * Instructions of the lazy form (two exact doubles only): (hi, lo) := (h, lo + (q + e)) with (p, e) = TwoProd(a, b)
 * and (h, q) = TwoSum(hi, p), lane by lane — Ogita–Rump–Oishi's Dot2 step: the high parts in a chain of TwoSums,
 * the product and TwoSum errors in a plain f64 sum. 8 instructions after TwoProd (the dd step: 11), and the
 * loop-carried chains are one addition each (the dd step's high part: seven). `lo` is not kept below u·|hi|: the
 * kernel folds it back by {@link ddRenormStep} every few steps, which keeps the bound (kernels/dot/dot-dd-wasm.ts).
 */
export function ddLazyStep(s: DdStepScratch, a: number, b: number, hi: number, lo: number): number[] {
  const f = (code: number): number[] => op.simd(code);
  const { get, set } = op;
  const { p, e, t, h, z } = s;
  return [
    ...twoProduct(s, a, b), ...set(e),
    // h = hi + p; z = h − hi; q = (hi − (h − z)) + (p − z)
    ...get(hi), ...get(p), ...f(SIMD.f64x2Add), ...set(h),
    ...get(h), ...get(hi), ...f(SIMD.f64x2Sub), ...set(z),
    ...get(hi), ...get(h), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub),
    ...get(p), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Add), ...set(t),
    // lo = lo + (q + e); hi = h
    ...get(lo), ...get(t), ...get(e), ...f(SIMD.f64x2Add), ...f(SIMD.f64x2Add), ...set(lo),
    ...get(h), ...set(hi),
  ];
}

/**
 * Instructions: (hi, lo) := TwoSum(hi, lo), lane by lane — exact, and afterwards |lo| ≤ u·|hi| (a normalised
 * double-double). `h`, `z`: scratch locals.
 */
export function ddRenormStep(hi: number, lo: number, h: number, z: number): number[] {
  const f = (code: number): number[] => op.simd(code);
  const { get, set } = op;
  return [
    ...get(hi), ...get(lo), ...f(SIMD.f64x2Add), ...set(h),
    ...get(h), ...get(hi), ...f(SIMD.f64x2Sub), ...set(z),
    ...get(hi), ...get(h), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub),
    ...get(lo), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Add), ...set(lo),
    ...get(h), ...set(hi),
  ];
}

/**
 * Instructions: p := fl(a·b) into s.p and the exact error a·b − p left on the stack (f64x2, lane by lane) — by the
 * fused multiply-add where the probe found one, else by Dekker's product with the scratch's splitting.
 */
function twoProduct(s: DdStepScratch, a: number, b: number): number[] {
  const f = (code: number): number[] => op.simd(code);
  const get = op.get, set = op.set;
  const { p, t, h, z, w, split } = s;
  const [a1, a2, b1, b2] = [t, h, z, w]; // scratch reused before TwoSum needs them
  // (v1, v2) := Veltkamp's split of local v
  const veltkamp = (v: number, into1: number, into2: number): number[] => [
    ...get(split), ...get(v), ...f(SIMD.f64x2Mul), ...op.tee(into1),             // s = c·v
    ...get(into1), ...get(v), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...set(into1), // v1 = s − (s − v)
    ...get(v), ...get(into1), ...f(SIMD.f64x2Sub), ...set(into2),              // v2 = v − v1
  ];
  // 'bits': (a1, a2) := a truncated to 26 significant bits, the rest; (b1, b2) := b rounded to 26, the rest (DdSplit)
  const bitSplit = (): number[] => [
    ...get(a), ...get(split), ...f(SIMD.and), ...set(a1), ...get(a), ...get(a1), ...f(SIMD.f64x2Sub), ...set(a2),
    ...get(b), ...get(s.half), ...f(I64X2_ADD), ...get(split), ...f(SIMD.and), ...set(b1),
    ...get(b), ...get(b1), ...f(SIMD.f64x2Sub), ...set(b2),
  ];
  return [
    ...get(a), ...get(b), ...f(SIMD.f64x2Mul), ...set(p),
    ...(s.fma
    // e = fma(a, b, −p): exact whenever Dekker's e is (both are a·b − p then)
    ? [...get(a), ...get(b), ...get(p), ...f(SIMD.f64x2Neg), ...f(RELAXED_MADD_F64X2)]
    : [
      ...(s.half >= 0 ? bitSplit() : [...veltkamp(a, a1, a2), ...veltkamp(b, b1, b2)]),
      // e = (((a1·b1 − p) + a1·b2) + a2·b1) + a2·b2
      ...get(a1), ...get(b1), ...f(SIMD.f64x2Mul), ...get(p), ...f(SIMD.f64x2Sub),
      ...get(a1), ...get(b2), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
      ...get(a2), ...get(b1), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
      ...get(a2), ...get(b2), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
    ]),
  ];
}

/** Scratch locals (v128) of {@link ddAddStep}. */
export interface DdAddScratch { readonly a: number; readonly b: number; readonly c: number; readonly d: number; readonly e: number }

/** Allocates the scratch locals of {@link ddAddStep}. */
export function ddAddScratch(l: WasmLocals): DdAddScratch {
  const [a, b, c, d, e] = Array.from({ length: 5 }, () => l.local(V128));
  return { a: a!, b: b!, c: c!, d: d!, e: e! };
}

/**
 * Instructions: (hi, lo) := (hi, lo) + x in double-double, lane by lane, with the operations in the order of the
 * JavaScript templates (src/formats/dd/dd-templates.ts): `xLo` omitted — x an f64x2 local of exact doubles, JMP 2017
 * Algorithm 4 (ddAddNumberSource, relative error ≤ 2u²); `xLo` given — x = (x, xLo) a double-double, Algorithm 6
 * (ddAddSource, ≤ 3u² + 13u³). Both within DD_ADD_BOUND per addition. Special values are not repaired here: they
 * make the sums non-finite, which the callers send to the JavaScript kernels.
 */
export function ddAddStep(s: DdAddScratch, hi: number, lo: number, x: number, xLo?: number): number[] {
  const f = (code: number): number[] => op.simd(code);
  const { get, set } = op;
  const [add, sub] = [SIMD.f64x2Add, SIMD.f64x2Sub];
  // (sh, sl) := TwoSum(hi, x): sh in s.a, sl in s.b (s.c scratch)
  const twoSumHigh = [
    ...get(hi), ...get(x), ...f(add), ...op.tee(s.a), ...get(hi), ...f(sub), ...set(s.c),
    ...get(hi), ...get(s.a), ...get(s.c), ...f(sub), ...f(sub), ...get(x), ...get(s.c), ...f(sub), ...f(add), ...set(s.b),
  ];
  if (xLo === undefined) {
    // v = lo + sl; FastTwoSum(sh, v)
    return [
      ...twoSumHigh,
      ...get(lo), ...get(s.b), ...f(add), ...set(s.b),
      ...get(s.a), ...get(s.b), ...f(add), ...set(hi),
      ...get(s.b), ...get(hi), ...get(s.a), ...f(sub), ...f(sub), ...set(lo),
    ];
  }
  return [
    ...twoSumHigh,
    // (th, tl) := TwoSum(lo, xLo): th in s.d, tl in s.e (s.c scratch)
    ...get(lo), ...get(xLo), ...f(add), ...op.tee(s.d), ...get(lo), ...f(sub), ...set(s.c),
    ...get(lo), ...get(s.d), ...get(s.c), ...f(sub), ...f(sub), ...get(xLo), ...get(s.c), ...f(sub), ...f(add), ...set(s.e),
    // c = sl + th (s.b); vh = sh + c (s.d); vl = c − (vh − sh) (s.c); w = tl + vl (s.e)
    ...get(s.b), ...get(s.d), ...f(add), ...set(s.b),
    ...get(s.a), ...get(s.b), ...f(add), ...set(s.d),
    ...get(s.b), ...get(s.d), ...get(s.a), ...f(sub), ...f(sub), ...set(s.c),
    ...get(s.e), ...get(s.c), ...f(add), ...set(s.e),
    // hi = vh + w; lo = w − (hi − vh)
    ...get(s.d), ...get(s.e), ...f(add), ...set(hi),
    ...get(s.e), ...get(hi), ...get(s.d), ...f(sub), ...f(sub), ...set(lo),
  ];
}

/**
 * Instructions: (h, l) := |(h, l)| as the double-double arithmetic's abs (src/formats/dd/dd-arithmetic.ts): both parts
 * negated where h + l < 0 — hi's sign for a normalised pair, and a raw (0, −1) or (1, −3) read from storage is
 * negated too (−0 kept) —, lane by lane: the sign bit flipped by a mask. `t`: scratch local.
 */
export function ddAbsStep(h: number, l: number, t: number): number[] {
  const f = (code: number): number[] => op.simd(code);
  return [
    ...op.get(h), ...op.get(l), ...f(SIMD.f64x2Add), ...op.f64(0), ...op.simd(SIMD.f64x2Splat), ...f(0x49 /* f64x2.lt */),
    ...op.f64(-0), ...op.simd(SIMD.f64x2Splat), ...f(SIMD.and), ...op.set(t),
    ...op.get(h), ...op.get(t), ...f(0x51 /* v128.xor */), ...op.set(h),
    ...op.get(l), ...op.get(t), ...f(0x51), ...op.set(l),
  ];
}

/**
 * Instructions: the eight double-double lane sums loaded from memory into the f64x2 locals hi…hi+3 and lo…lo+3
 * (lanes 2k and 2k+1 at byte hiAt + 16k and loAt + 16k, at address 0), then `loop`, then the locals stored back —
 * the frame of a kernel that sums into eight dd lanes across calls over staged chunks.
 */
export function ddLanesAround(hi: number, lo: number, hiAt: number, loAt: number, loop: readonly number[]): number[] {
  return [
    ...[0, 1, 2, 3].flatMap((k) => [
      ...op.i32(0), ...op.simdMem(SIMD.load, 0, hiAt + 16 * k), ...op.set(hi + k),
      ...op.i32(0), ...op.simdMem(SIMD.load, 0, loAt + 16 * k), ...op.set(lo + k),
    ]),
    ...loop,
    ...[0, 1, 2, 3].flatMap((k) => [
      ...op.i32(0), ...op.get(hi + k), ...op.simdMem(SIMD.store, 0, hiAt + 16 * k),
      ...op.i32(0), ...op.get(lo + k), ...op.simdMem(SIMD.store, 0, loAt + 16 * k),
    ]),
  ];
}

/**
 * Locals of {@link ddScaledRead}: the scale's Veltkamp halves (set once by {@link ddScaledReadSetup}) and scratch.
 * `scale` is the operand's f64x2 scale local (its splat).
 */
export interface DdScaledReadScratch {
  readonly scale: number; readonly s1: number; readonly s2: number;
  readonly p: number; readonly c: number; readonly v1: number; readonly v2: number;
}

/** Allocates the locals of {@link ddScaledRead} for an operand whose scale (f64x2 splat) is in local `scale`. */
export function ddScaledReadScratch(l: WasmLocals, scale: number): DdScaledReadScratch {
  const [s1, s2, p, c, v1, v2] = Array.from({ length: 6 }, () => l.local(V128));
  return { scale, s1: s1!, s2: s2!, p: p!, c: c!, v1: v1!, v2: v2! };
}

/** Veltkamp's split of local v into (into1, into2), as the JavaScript templates split (dekkerErrorSource). */
function veltkampSplit(v: number, into1: number, into2: number): number[] {
  return [
    ...op.f64(SPLITTER), ...op.simd(SIMD.f64x2Splat), ...op.get(v), ...op.simd(SIMD.f64x2Mul), ...op.tee(into1),
    ...op.get(into1), ...op.get(v), ...op.simd(SIMD.f64x2Sub), ...op.simd(SIMD.f64x2Sub), ...op.set(into1),
    ...op.get(v), ...op.get(into1), ...op.simd(SIMD.f64x2Sub), ...op.set(into2),
  ];
}

/** Instructions run once before the loop (after the scale local is set): the scale's Veltkamp halves. */
export function ddScaledReadSetup(s: DdScaledReadScratch): number[] {
  return veltkampSplit(s.scale, s.s1, s.s2);
}

/**
 * Instructions: (hiInto, loInto) := (vh, vl)·(s, 0), lane by lane, as double-double arithmetic reads a scaled element
 * (src/backends/cpu/operand.ts: the value converted to the pair (v, 0) — or double-double storage's own pair —, then
 * the arithmetic's product by the scale (s, 0), ddMulSource): p = vh·s, e = Dekker's error of vh·s with Veltkamp's
 * splitting (the templates' own, not the fused multiply-add: the same e where the product underflows too),
 * c = e + vl·s, then FastTwoSum(p, c). The same non-zero parts as the template; its cross term vh·0 and the repair
 * of a zero high part's sign are left out: they change only the signs of zeros, which no sum from +0 sees (the
 * callers' sums all start at +0). `vl` omitted: an exact double (vl = 0). A product beyond the splitting range
 * (|vh| or |s| near 2^996) or a non-finite vh makes the pair non-finite, the callers' sums with it (they then run
 * the JavaScript kernel, whose guard repairs the product). hiInto/loInto may be vh/vl.
 */
export function ddScaledRead(s: DdScaledReadScratch, vh: number, vl: number | undefined, hiInto: number, loInto: number): number[] {
  const f = (code: number): number[] => op.simd(code);
  const { get, set } = op;
  return [
    ...get(vh), ...get(s.scale), ...f(SIMD.f64x2Mul), ...set(s.p),
    ...veltkampSplit(vh, s.v1, s.v2),
    // e = (((v1·s1 − p) + v1·s2) + v2·s1) + v2·s2
    ...get(s.v1), ...get(s.s1), ...f(SIMD.f64x2Mul), ...get(s.p), ...f(SIMD.f64x2Sub),
    ...get(s.v1), ...get(s.s2), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
    ...get(s.v2), ...get(s.s1), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
    ...get(s.v2), ...get(s.s2), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
    ...(vl === undefined ? [] : [...get(vl), ...get(s.scale), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add)]),
    ...set(s.c),
    // hi = p + c; lo = c − (hi − p)
    ...get(s.p), ...get(s.c), ...f(SIMD.f64x2Add), ...set(hiInto),
    ...get(s.c), ...get(hiInto), ...get(s.p), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...set(loInto),
  ];
}
