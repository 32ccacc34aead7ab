/**
 * DOT with the compensated `kahan` accumulation (Neumaier; src/formats/dd/neumaier-accumulation.ts) in WebAssembly
 * SIMD, in fp64 or fp32 arithmetic over the built-in storages: each product is rounded as in the recursive DOT
 * (kernels/dot/dot-wasm.ts, the same lanes: element i into lane i mod 8) and added into its lane's compensated sum
 * (s, c) by the JavaScript template's TwoSum (src/backends/wasm/wasm-neumaier-step.ts); the eight lanes are joined by
 * `joinNeumaierLanes` and the result is s + c. The order differs from the JavaScript loop's, the bound
 * (`dotBound` with `accumulation: 'kahan'`) does not depend on it (see joinNeumaierLanes).
 *
 * A non-finite operand or an overflowing sum makes TwoSum's error NaN (∞ − ∞) and the result NaN; such a result
 * sends the call to the JavaScript kernel (kernels/dot/dot.ts), so every non-finite answer is the JavaScript's.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { joinNeumaierLanes, neumaierScratch, neumaierStep } from '../../src/backends/wasm/wasm-neumaier-step.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, streamPairs, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';

/** Byte addresses of the eight sums s, the eight compensations c, and the staged chunks of x and y. */
const S_AT = 0, C_AT = 64, X_AT = 128, Y_AT = X_AT + CHUNK * 8;

/** A compiled chunk: adds x·y over `n` staged elements (a multiple of 8) into the lanes' (s, c) at bytes 0–127. */
export type KahanDotChunk = (px: number, sx: number, py: number, sy: number, n: number) => void;

/** The compiled chunk for these storages and scalings, in f64x2 or f32x4 lanes. */
export function kahanDotChunk(sx: WasmStorage, scaledX: boolean, sy: WasmStorage, scaledY: boolean, lanes: 'f64' | 'f32'): KahanDotChunk {
  const key = `dot-kahan-${lanes} ${sx.name}${scaledX ? '*s' : ''} ${sy.name}${scaledY ? '*s' : ''}`;
  return wasmExports(key, 'the compensated DOT kernel', () => {
    const v = LANES[lanes];
    const ks = Array.from({ length: v.vectors }, (_, k) => k);
    const l = new WasmLocals();
    const px = operandParams(l, sx), py = operandParams(l, sy);
    const n = l.param(I32);
    const i = l.local(I32), t = l.local(V128);
    const s = l.locals_(V128, v.vectors), c = l.locals_(V128, v.vectors);
    const scratch = neumaierScratch(l);
    const x = operandLocals(l, px, scaledX, lanes), y = operandLocals(l, py, scaledY, lanes);
    const step = ks.flatMap((k) => [...v.load(x, k), ...v.load(y, k), ...op.simd(v.mul), ...neumaierStep(scratch, t, s + k, c + k, lanes)]);
    const memory = (at: number, k: number, store: boolean, local: number): number[] => (store
      ? [...op.i32(0), ...op.get(local), ...op.simdMem(SIMD.store, 0, at + 16 * k)]
      : [...op.i32(0), ...op.simdMem(SIMD.load, 0, at + 16 * k), ...op.set(local)]);
    const body = [
      ...operandSetup(x, lanes), ...operandSetup(y, lanes),
      ...ks.flatMap((k) => [...memory(S_AT, k, false, s + k), ...memory(C_AT, k, false, c + k)]),
      ...stepLoop(i, n, [x, y], step),
      ...ks.flatMap((k) => [...memory(S_AT, k, true, s + k), ...memory(C_AT, k, true, c + k)]),
    ];
    return encodeModule([l.function('dot', [], body)], 1);
  }).dot as KahanDotChunk;
}

/**
 * Σ xᵢyᵢ for i < n with the `kahan` accumulation in fp64 or fp32 arithmetic (the caller checked
 * {@link wasmStorageOf} for both, and for fp32 that both storages have a binary32 read); NaN where the JavaScript
 * kernel must answer (see the module comment).
 */
export function wasmKahanDot(x: Accessor<1, any>, y: Accessor<1, any>, n: number, lanes: 'f64' | 'f32'): number {
  const sx = wasmStorageOf(x) as WasmStorage, sy = wasmStorageOf(y) as WasmStorage;
  const f = kahanDotChunk(sx, !!x.scale, sy, !!y.scale, lanes);
  const scaleX = scaleOf(x), scaleY = scaleOf(y);
  reserveBytes(Y_AT + CHUNK * 8);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  // s at [0, 8), c at [8, 16) of one view: the lanes' layout for joinNeumaierLanes (fp32: bytes 0–31 and 64–95).
  const sums = lanes === 'f64' ? new Float64Array(buffer, S_AT, 16) : new Float32Array(buffer, S_AT, 32);
  sums.fill(0);
  // wasmArena operands in place: whole steps of 8, so every element keeps its lane (streamPairs).
  streamPairs(x, y, n, X_AT, Y_AT, (padded, px, py) => f(px, scaleX, py, scaleY, padded), 8, true);
  if (sums instanceof Float64Array) return joinNeumaierLanes(sums);
  return joinNeumaierLanes(sums, 'f32', 16);
}
