/**
 * DOT summed in double-double in WebAssembly SIMD (double-double arithmetic, or fp64 arithmetic with the `dd`
 * accumulation) on unscaled built-in storage, double-double storage included (read as its pair in double-double
 * arithmetic — the product then takes the cross terms of `ddMulAccumulate`, src/formats/dd/mul.ts, with TwoSum
 * at the end — and as hi + lo in fp64 arithmetic, as the JavaScript kernels read it). Each step of 8 elements adds
 * xᵢ·yᵢ into lane i mod 8 of eight double-double partial sums by the steps of `ddTwoProdAccumulate`
 * (src/formats/dd/two-prod-accumulate.ts): Dekker's exact product with Veltkamp's splitting (no FMA: relaxed-SIMD
 * FMA may or may not be fused, and an unfused one would make the "exact" product inexact), TwoSum of the high
 * parts, the low parts in two roundings, FastTwoSum. The eight sums are joined by the accurate double-double
 * addition in the tree ((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇)).
 *
 * Bounds: each step is s(1 + δ₁) + xy(1 + δ₂) with |δᵢ| ≤ (3 + 8u)u² < 2^-104 (exact doubles) or ≤ 15u² + 4u²
 * < 2^-102 (a double-double factor: ddMulAccumulate's bound, DD_UNIT_ROUNDOFF), and each join (a + b)(1 + δ)
 * with |δ| ≤ 3u² + 13u³; a term passes through at most ⌈n/8⌉ − 1 steps and 3 joins (the first step of a chain
 * with exact doubles and joins with an empty chain are exact), no more than the ⌈n/2⌉ steps of dotBound's dd models,
 * so dotBound holds as it is for both.
 *
 * Operands near the top of the range make the splitting overflow; non-finite inputs make everything NaN or ±∞.
 * Both reach the result through +, −, × only, so a finite result proves neither happened; a non-finite one sends
 * the call to the generated JavaScript, whose guarded loop handles them (kernels/dot/dot.ts).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, streamPairs, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';
import { ddAdd } from '../../src/formats/dd/add.js';

/** Byte addresses of the eight high parts, the eight low parts, and the staged chunks of x and y. */
const HI = 0, LO = 64, X_AT = 128, Y_AT = X_AT + CHUNK * 8;

type DdDotChunk = (px: number, sx: number, py: number, sy: number, n: number) => void;

/** The (hi₀, hi₁) or (lo₀, lo₁) of two double-double elements at pointer + offset (interleaved pairs). */
function ddHalf(pointer: number, offset: number, lo: boolean): number[] {
  const lanes = lo ? [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
  return [...op.get(pointer), ...op.simdMem(SIMD.load, 0, offset), ...op.get(pointer), ...op.simdMem(SIMD.load, 0, offset + 16), ...op.simd(0x0d /* i8x16.shuffle */, ...lanes)];
}

const SPLITTER = 134217729; // 2^27 + 1

/** The compiled chunk function for these storages (unscaled). */
function ddDotChunk(sx: WasmStorage, sy: WasmStorage, ddArithmetic: boolean): DdDotChunk {
  return wasmExports(`dot-dd ${sx.name} ${sy.name}${ddArithmetic ? ' dd' : ''}`, 'the double-double DOT kernel', () => {
    const l = new WasmLocals();
    const px = operandParams(l, sx), py = operandParams(l, sy);
    const n = l.param(I32);
    const i = l.local(I32);
    const hi = l.locals_(V128, 4), lo = l.locals_(V128, 4);
    const [a, b, p, e, t, h, z, w, split, al, bl] = Array.from({ length: 11 }, () => l.local(V128));
    const x = operandLocals(l, px, false), y = operandLocals(l, py, false);
    // Double-double storage (dd arithmetic): both parts are read, and the product's cross terms enter as in
    // ddMulAccumulate (src/formats/dd/mul.ts); an exact double's low part is 0, as in the JavaScript kernels.
    const pairX = ddArithmetic && sx.name === 'dd', pairY = ddArithmetic && sy.name === 'dd';
    const general = pairX || pairY;
    const read = (o: typeof x, pair: boolean, k: number, hiInto: number, loInto: number): number[] => (pair
      ? [...ddHalf(o.pointer, 32 * k, false), ...set(hiInto), ...ddHalf(o.pointer, 32 * k, true), ...set(loInto)]
      : [...load2(o, k), ...set(hiInto), ...(general ? [...op.f64(0), ...f(SIMD.f64x2Splat), ...set(loInto)] : [])]);
    const f = (code: number): number[] => op.simd(code);
    const get = op.get, set = op.set;
    // (v1, v2) := Veltkamp's split of local v (v1 into `into1`, v2 into `into2`)
    const veltkamp = (v: number, into1: number, into2: number): number[] => [
      ...get(split), ...get(v), ...f(SIMD.f64x2Mul), ...op.tee(into1),             // s = c·v
      ...get(into1), ...get(v), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...set(into1), // v1 = s − (s − v)
      ...get(v), ...get(into1), ...f(SIMD.f64x2Sub), ...set(into2),              // v2 = v − v1
    ];
    const step = (k: number): number[] => {
      const [a1, a2, b1, b2] = [t, h, z, w]; // scratch reused before TwoSum needs them
      return [
        ...read(x, pairX, k, a, al), ...read(y, pairY, k, b, bl),
        ...get(a), ...get(b), ...f(SIMD.f64x2Mul), ...set(p),
        ...veltkamp(a, a1, a2), ...veltkamp(b, b1, b2),
        // e = (((a1·b1 − p) + a1·b2) + a2·b1) + a2·b2
        ...get(a1), ...get(b1), ...f(SIMD.f64x2Mul), ...get(p), ...f(SIMD.f64x2Sub),
        ...get(a1), ...get(b2), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
        ...get(a2), ...get(b1), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
        ...get(a2), ...get(b2), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
        // general: e := e + (ah·bl + al·bh)
        ...(general ? [...get(a), ...get(bl), ...f(SIMD.f64x2Mul), ...get(al), ...get(b), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add), ...f(SIMD.f64x2Add)] : []),
        ...set(e),
        // h = ch + p; z = h − ch; t = (ch − (h − z)) + (p − z)
        ...get(hi + k), ...get(p), ...f(SIMD.f64x2Add), ...set(h),
        ...get(h), ...get(hi + k), ...f(SIMD.f64x2Sub), ...set(z),
        ...get(hi + k), ...get(h), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub),
        ...get(p), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Add), ...set(t),
        // w = t + (cl + e); hi = h + w; lo = w − (hi − h)
        ...get(t), ...get(lo + k), ...get(e), ...f(SIMD.f64x2Add), ...f(SIMD.f64x2Add), ...set(w),
        ...get(h), ...get(w), ...f(SIMD.f64x2Add), ...set(hi + k),
        ...(general
          // TwoSum(h, w): z := hi − h; lo := (h − (hi − z)) + (w − z)
          ? [...get(hi + k), ...get(h), ...f(SIMD.f64x2Sub), ...set(z),
            ...get(h), ...get(hi + k), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...get(w), ...get(z), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Add), ...set(lo + k)]
          // FastTwoSum(h, w), exact here (two-prod-accumulate.ts)
          : [...get(w), ...get(hi + k), ...get(h), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...set(lo + k)]),
      ];
    };
    const body = [
      ...operandSetup(x), ...operandSetup(y),
      ...op.f64(SPLITTER), ...f(SIMD.f64x2Splat), ...set(split),
      ...[0, 1, 2, 3].flatMap((k) => [
        ...op.i32(0), ...op.simdMem(SIMD.load, 0, HI + 16 * k), ...set(hi + k),
        ...op.i32(0), ...op.simdMem(SIMD.load, 0, LO + 16 * k), ...set(lo + k),
      ]),
      ...stepLoop(i, n, [x, y], [0, 1, 2, 3].flatMap(step)),
      ...[0, 1, 2, 3].flatMap((k) => [
        ...op.i32(0), ...get(hi + k), ...op.simdMem(SIMD.store, 0, HI + 16 * k),
        ...op.i32(0), ...get(lo + k), ...op.simdMem(SIMD.store, 0, LO + 16 * k),
      ]),
    ];
    return encodeModule([l.function('dot', [], body)], 1);
  }).dot as DdDotChunk;
}

/**
 * Σ xᵢyᵢ for i < n summed in double-double, as [hi, lo] (the caller checked {@link wasmStorageOf} for both and
 * that neither is scaled; double-double storage only under double-double arithmetic). Non-finite when the inputs or the splitting were (see the module comment).
 */
export function wasmDdDot(x: Accessor<1, any>, y: Accessor<1, any>, n: number, ddArithmetic: boolean): [number, number] {
  const sx = wasmStorageOf(x) as WasmStorage, sy = wasmStorageOf(y) as WasmStorage;
  const f = ddDotChunk(sx, sy, ddArithmetic);
  reserveBytes(Y_AT + CHUNK * 8);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const acc = new Float64Array(buffer, HI, 16);
  acc.fill(0);
  streamPairs(x, y, n, X_AT, Y_AT, (padded) => f(X_AT, 1, Y_AT, 1, padded));
  // The joining tree, on eight pairs (hi at k, lo at 8 + k).
  const s = Array.from({ length: 8 }, (_, k) => [acc[k]!, acc[8 + k]!] as [number, number]);
  const out = new Float64Array(2);
  const join = (u: [number, number], v: [number, number]): [number, number] => { ddAdd(out, u[0], u[1], v[0], v[1]); return [out[0]!, out[1]!]; };
  return join(join(join(s[0]!, s[1]!), join(s[2]!, s[3]!)), join(join(s[4]!, s[5]!), join(s[6]!, s[7]!)));
}
