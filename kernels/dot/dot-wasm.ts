/**
 * DOT in WebAssembly SIMD (f64 or f32 arithmetic, recursive accumulation, built-in storage): operands are staged
 * in chunks (src/backends/wasm/wasm-storage.ts) or, in a wasmArena, read in place (the same chunks), and each step of 8 elements adds the products of elements
 * 8t + 2k, 8t + 2k + 1 into lane pair k of four f64x2 accumulators (fp32: elements 8t + 4k … 8t + 4k + 3 into two
 * f32x4, each product and sum one binary32 rounding, as the JavaScript f32 arithmetic's Math.fround). Summation
 * order, both: eight interleaved recursive sums (element i into partial sum i mod 8, in order), then
 * ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)) in the same arithmetic.
 * Every product passes through at most n − 1 additions in any order of a sum of n terms, so the recursive
 * accumulation's bound γ_n·Σ|xᵢyᵢ| (dotBound, u of the arithmetic) holds as it is (kernels/shared/bound-terms.ts).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { NARROW_16_LANES, checkedNarrowDotChunk, narrowDotChunk, narrowPadding } from './dot-narrow-wasm.js';
import { wasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { CHUNK, scaleOf, streamPairs, type WasmStorage, wasmStorageOf, laneSum, laneSumF32 } from '../../src/backends/wasm/wasm-storage.js';

/** Byte address of the four f64x2 accumulators. */
const ACC = 0;
/** Byte addresses of the staged chunks of x and y. */
const X_AT = 64, Y_AT = X_AT + CHUNK * 8;
/** Byte address of 96 bytes of constants for the narrow-pair chunks (kernels/dot/dot-narrow-wasm.ts). */
const CONSTANTS_AT = Y_AT + CHUNK * 8;

/**
 * A compiled DOT chunk: adds Σ x·y over `n` staged elements (a multiple of 8) into the accumulators at byte
 * address 0 (four f64x2, element 8t + 2k + l into lane l of accumulator k; fp32: two f32x4, element 8t + 4k + l).
 */
export type DotChunk = (px: number, sx: number, py: number, sy: number, n: number) => void;

/** The compiled chunk function for these storages and scalings, in f64 (default) or f32 lanes. */
export function dotChunk(sx: WasmStorage, scaledX: boolean, sy: WasmStorage, scaledY: boolean, lanes: 'f64' | 'f32' = 'f64'): DotChunk {
  const key = `dot${lanes === 'f32' ? '-f32' : ''} ${sx.name}${scaledX ? '*s' : ''} ${sy.name}${scaledY ? '*s' : ''}`;
  return wasmExports(key, 'the DOT kernel', () => {
    const v = LANES[lanes];
    const ks = Array.from({ length: v.vectors }, (_, k) => k);
    const l = new WasmLocals();
    const px = operandParams(l, sx), py = operandParams(l, sy);
    const n = l.param(I32);
    const i = l.local(I32);
    const acc = l.locals_(V128, v.vectors);
    const x = operandLocals(l, px, scaledX, lanes), y = operandLocals(l, py, scaledY, lanes);
    const step = ks.flatMap((k) => [
      ...op.get(acc + k), ...v.load(x, k), ...v.load(y, k), ...op.simd(v.mul), ...op.simd(v.add), ...op.set(acc + k),
    ]);
    const body = [
      ...operandSetup(x, lanes), ...operandSetup(y, lanes),
      ...ks.flatMap((k) => [...op.i32(0), ...op.simdMem(SIMD.load, 0, ACC + 16 * k), ...op.set(acc + k)]),
      ...stepLoop(i, n, [x, y], step),
      ...ks.flatMap((k) => [...op.i32(0), ...op.get(acc + k), ...op.simdMem(SIMD.store, 0, ACC + 16 * k)]),
    ];
    return encodeModule([l.function('dot', [], body)], 1);
  }).dot as DotChunk;
}

/**
 * Σ xᵢyᵢ for i < n in f64 arithmetic, or in f32 arithmetic with `lanes` 'f32' (the caller checked
 * {@link wasmStorageOf} for both, and for f32 that both storages have a binary32 read, `load4`).
 */
export function wasmDot(x: Accessor<1, any>, y: Accessor<1, any>, n: number, lanes: 'f64' | 'f32' = 'f64'): number {
  const sx = wasmStorageOf(x) as WasmStorage, sy = wasmStorageOf(y) as WasmStorage;
  const narrow = lanes === 'f64' ? narrowDotChunk(sx, !!x.scale, sy, !!y.scale, CONSTANTS_AT) : null;
  const f = narrow ?? dotChunk(sx, !!x.scale, sy, !!y.scale, lanes);
  const scaleX = scaleOf(x), scaleY = scaleOf(y);
  reserveBytes(CONSTANTS_AT + 96);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const acc = lanes === 'f64' ? new Float64Array(buffer, ACC, 8) : new Float32Array(buffer, ACC, 8);
  acc.fill(0);
  // The checked chunk runs until it first stops early (at an element it does not handle exactly); the exact chunk
  // goes on from there, and takes every later call of this DOT.
  let checked = narrow && wasmKernelForms().halfDotChecked ? checkedNarrowDotChunk(sx, !!x.scale, sy, !!y.scale, CONSTANTS_AT, wasmKernelForms().halfDotLean, wasmKernelForms().halfDotLookahead) : null;
  streamPairs(x, y, n, X_AT, Y_AT, (padded, px, py) => {
    const done = checked ? checked(px, scaleX, py, scaleY, padded) : 0;
    if (done === padded) return;
    checked = null;
    f(px + done * sx.bytes, scaleX, py + done * sy.bytes, scaleY, padded - done);
  }, narrow ? narrowPadding(sx) : 8, true);
  if (narrow && sx.name !== 'i8') return laneSum(Float64Array.from(NARROW_16_LANES, (m) => acc[m]!));
  return acc instanceof Float64Array ? laneSum(acc) : laneSumF32(acc);
}
