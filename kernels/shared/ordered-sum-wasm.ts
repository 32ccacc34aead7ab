/**
 * DOT, ASUM and NRM2's sum of squares in WebAssembly with the `pairwise` and `dot2` accumulations, in fp64 or fp32
 * arithmetic over the built-in storages: the operands are read 8 elements a step by the SIMD readers of the other
 * kernels (src/backends/wasm/wasm-storage.ts: the values the JavaScript kernels read, fp32 rounded as its
 * Math.fround), then each element's term enters the accumulation in element order, by the JavaScript templates'
 * operations (src/backends/wasm/wasm-ordered-sum.ts). The result is the JavaScript kernel's, bit for bit, and
 * the accumulation's own bound holds as it is. A non-finite result goes back to the JavaScript kernel (Dot2's
 * JavaScript TwoProd rescales where Dekker's splitting overflows; a non-finite error makes the result non-finite).
 * Operands in a wasmArena are read in place (whole steps of 8), the rest staged in chunks.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandParams, operandSetup, stepLoop, type WasmOperand } from '../../src/backends/wasm/wasm-function.js';
import { ORDERED_STATE_AT, ORDERED_STATE_BYTES, OrderedSum, absOf, orderedReset, orderedResult, roundTo, whenBelow, type OrderedAccumulation } from '../../src/backends/wasm/wasm-ordered-sum.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, streamPairs, streamVector, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';

/** Byte addresses of the staged chunks of x and y (after the accumulation's state). */
export const X_AT = (ORDERED_STATE_AT + ORDERED_STATE_BYTES + 63) & ~63, Y_AT = X_AT + CHUNK * 8;

/** Which sum a chunk adds: Σ xᵢyᵢ (DOT), Σ|xᵢ| (ASUM) or Σ (xᵢ·s₁·s₂)² (NRM2's second pass). */
type Terms = 'dot' | 'asum' | 'squares';

/**
 * A compiled chunk: adds the terms of the first `real` of `n` staged elements (n a multiple of 8) into the state.
 * DOT: (px, sx, py, sy, n, real); ASUM: (px, sx, n, real); squares: (px, sx, n, real, s1, s2).
 */
export type OrderedChunk = (...args: number[]) => void;

/** The compiled chunk for these terms, accumulation, arithmetic and storages (see {@link OrderedChunk}). */
export function orderedChunk(terms: Terms, accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32', sx: WasmStorage, scaledX: boolean, sy?: WasmStorage, scaledY = false): OrderedChunk {
  const key = `ordered-${terms}-${accumulation}-${arithmetic} ${sx.name}${scaledX ? '*s' : ''} ${sy ? sy.name + (scaledY ? '*s' : '') : ''}`;
  return wasmExports(key, `the ${terms === 'squares' ? 'NRM2' : terms.toUpperCase()} kernel`, () => {
    const v = LANES[arithmetic];
    const l = new WasmLocals();
    const px = operandParams(l, sx), py = sy ? operandParams(l, sy) : undefined;
    const n = l.param(I32), real = l.param(I32);
    const s1 = terms === 'squares' ? l.param(F64) : -1, s2 = terms === 'squares' ? l.param(F64) : -1;
    const i = l.local(I32), limit = l.local(I32), vector = l.local(V128), term = l.local(F64), sc1 = l.local(F64), sc2 = l.local(F64);
    const xs = l.locals_(F64, 8), ys = py ? l.locals_(F64, 8) : -1;
    const x = operandLocals(l, px, scaledX, arithmetic), y = py ? operandLocals(l, py, scaledY, arithmetic) : undefined;
    const sum = new OrderedSum(l, accumulation, arithmetic);
    const r = roundTo(arithmetic);
    // The step's 8 values of an operand into f64 locals: f64x2 lanes, or f32x4 lanes promoted (exact).
    const unpack = (o: WasmOperand, into: number): number[] => Array.from({ length: v.vectors }, (_, k) => k).flatMap((k) => [
      ...v.load(o, k), ...op.set(vector),
      ...Array.from({ length: 8 / v.vectors }, (_, j) => [
        ...op.get(vector), ...(arithmetic === 'f64' ? op.simd(SIMD.f64x2ExtractLane, j) : [...op.simd(0x1f /* f32x4.extract_lane */, j), 0xbb /* f64.promote_f32 */]),
        ...op.set(into + k * (8 / v.vectors) + j),
      ]).flat(),
    ]);
    const termOf = (j: number): number[] => {
      if (terms === 'dot') return sum.addProduct(xs + j, ys + j);
      if (terms === 'asum') return [...absOf(xs + j), ...op.set(term), ...sum.add(term)];
      // NRM2: t := fl(fl(x·s₁)·s₂), then t·t into the sum (the JavaScript kernel's emitMul, emitMul, emitAddProduct).
      return [...op.get(xs + j), ...op.get(sc1), 0xa2, ...r, ...op.get(sc2), 0xa2, ...r, ...op.set(term), ...sum.addProduct(term, term)];
    };
    const step = [
      ...op.get(real), ...op.get(i), ...op.i32Sub(), ...op.set(limit),
      ...unpack(x, xs), ...(y ? unpack(y, ys) : []),
      ...Array.from({ length: 8 }, (_, j) => whenBelow(limit, j, termOf(j))).flat(),
    ];
    const body = [
      ...operandSetup(x, arithmetic), ...(y ? operandSetup(y, arithmetic) : []),
      // The factors as the kernel's fromNumber converts them (exact powers of two in either arithmetic's range).
      ...(terms === 'squares' ? [...op.get(s1), ...r, ...op.set(sc1), ...op.get(s2), ...r, ...op.set(sc2)] : []),
      ...sum.load(),
      ...stepLoop(i, n, y ? [x, y] : [x], step),
      ...sum.store(),
    ];
    return encodeModule([l.function('sum', [], body)], 1);
  }).sum as OrderedChunk;
}

/**
 * Σ xᵢyᵢ for i < n with the pairwise or dot2 accumulation in fp64 or fp32 arithmetic (the caller checked
 * {@link wasmStorageOf} for both): the JavaScript DOT's bits, or a non-finite value where it must answer.
 */
export function wasmOrderedDot(x: Accessor<1, any>, y: Accessor<1, any>, n: number, accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32'): number {
  const sx = wasmStorageOf(x) as WasmStorage, sy = wasmStorageOf(y) as WasmStorage;
  const f = orderedChunk('dot', accumulation, arithmetic, sx, !!x.scale, sy, !!y.scale);
  const scaleX = scaleOf(x), scaleY = scaleOf(y);
  reserveBytes(Y_AT + CHUNK * 8);
  orderedReset(wasmMemory().buffer as ArrayBuffer);
  let done = 0;
  streamPairs(x, y, n, X_AT, Y_AT, (padded, at, bt) => {
    f(at, scaleX, bt, scaleY, padded, Math.min(padded, n - done));
    done += padded;
  }, 8, true);
  return orderedResult(wasmMemory().buffer as ArrayBuffer, accumulation, arithmetic);
}

/** Σ|xᵢ| for i < n with the pairwise or dot2 accumulation (as {@link wasmOrderedDot}: the JavaScript ASUM's bits or non-finite). */
export function wasmOrderedAsum(x: Accessor<1, any>, n: number, accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32'): number {
  const f = orderedChunk('asum', accumulation, arithmetic, wasmStorageOf(x) as WasmStorage, !!x.scale);
  return orderedOne(x, n, accumulation, arithmetic, (at, scale, padded, real) => f(at, scale, padded, real));
}

/** Σ (xᵢ·s₁·s₂)² for i < n with the pairwise or dot2 accumulation (NRM2's second pass; as {@link wasmOrderedAsum}). */
export function wasmOrderedSquares(x: Accessor<1, any>, n: number, s1: number, s2: number, accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32'): number {
  const f = orderedChunk('squares', accumulation, arithmetic, wasmStorageOf(x) as WasmStorage, !!x.scale);
  return orderedOne(x, n, accumulation, arithmetic, (at, scale, padded, real) => f(at, scale, padded, real, s1, s2));
}

function orderedOne(x: Accessor<1, any>, n: number, accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32', chunk: (at: number, scale: number, padded: number, real: number) => void): number {
  const scale = scaleOf(x);
  reserveBytes(X_AT + CHUNK * 8);
  orderedReset(wasmMemory().buffer as ArrayBuffer);
  let done = 0;
  streamVector(x, n, X_AT, (padded, at) => {
    chunk(at, scale, padded, Math.min(padded, n - done));
    done += padded;
  });
  return orderedResult(wasmMemory().buffer as ArrayBuffer, accumulation, arithmetic);
}
