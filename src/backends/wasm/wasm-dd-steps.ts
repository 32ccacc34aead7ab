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

/** The v128 scratch locals of {@link ddAccumulateStep}. */
export interface DdStepScratch {
  readonly p: number; readonly e: number; readonly t: number; readonly h: number; readonly z: number; readonly w: number;
  /** Holds the splitting constant (set by {@link ddStepSetup}). */
  readonly split: number;
  /** Whether products use the fused multiply-add (relaxed SIMD, probed) instead of Dekker's splitting. */
  readonly fma: boolean;
}

/** Allocates the scratch locals. */
export function ddStepScratch(l: WasmLocals): DdStepScratch {
  const [p, e, t, h, z, w, split] = Array.from({ length: 7 }, () => l.local(V128));
  return { p: p!, e: e!, t: t!, h: h!, z: z!, w: w!, split: split!, fma: wasmFusedFmaAvailable() };
}

/** Instructions run once before the loop: the splitting constant. */
export function ddStepSetup(s: DdStepScratch): number[] {
  return [...op.f64(SPLITTER), ...op.simd(SIMD.f64x2Splat), ...op.set(s.split)];
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
  const { p, e, t, h, z, w, split } = s;
  const [a1, a2, b1, b2] = [t, h, z, w]; // scratch reused before TwoSum needs them
  const out = o.into ?? { hi: o.hi, lo: o.lo };
  // (v1, v2) := Veltkamp's split of local v
  const veltkamp = (v: number, into1: number, into2: number): number[] => [
    ...get(split), ...get(v), ...f(SIMD.f64x2Mul), ...op.tee(into1),             // s = c·v
    ...get(into1), ...get(v), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...set(into1), // v1 = s − (s − v)
    ...get(v), ...get(into1), ...f(SIMD.f64x2Sub), ...set(into2),              // v2 = v − v1
  ];
  const exactError = s.fma
    // e = fma(a, b, −p): exact whenever Dekker's e is (both are a·b − p then)
    ? [...get(o.a), ...get(o.b), ...get(p), ...f(SIMD.f64x2Neg), ...f(RELAXED_MADD_F64X2)]
    : [
      ...veltkamp(o.a, a1, a2), ...veltkamp(o.b, b1, b2),
      // e = (((a1·b1 − p) + a1·b2) + a2·b1) + a2·b2
      ...get(a1), ...get(b1), ...f(SIMD.f64x2Mul), ...get(p), ...f(SIMD.f64x2Sub),
      ...get(a1), ...get(b2), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
      ...get(a2), ...get(b1), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
      ...get(a2), ...get(b2), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
    ];
  return [
    ...get(o.a), ...get(o.b), ...f(SIMD.f64x2Mul), ...set(p),
    ...exactError,
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
