/**
 * NRM2's second pass summed in double-double in WebAssembly SIMD (double-double arithmetic with the recursive or
 * `dd` accumulation, or fp64 arithmetic with the `dd` accumulation; built-in storage, unscaled or with one scale): Σ zᵢ² with
 * zᵢ = xᵢ·s₁·s₂, the two exact power-of-two factors of kernels/nrm2/nrm2.ts. zᵢ² goes into lane i mod 8 of eight
 * double-double partial sums by the DD DOT's steps (src/backends/wasm/wasm-dd-steps.ts): an exact double zᵢ by
 * those of ddTwoProdAccumulate; double-double storage under double-double arithmetic as its pair (both parts scaled,
 * exact but for underflow, then FastTwoSum as the arithmetic's product by (s, 0)) by those of ddMulAccumulate (cross terms,
 * TwoSum). A scaled x is read as the JavaScript reads it (src/backends/wasm/wasm-dd-read.ts): fp64 arithmetic's
 * double fl(xᵢ·s), then as an exact double; double-double arithmetic's pair (xᵢ, 0)·(s, 0) (exact but for
 * underflow), then as a pair, both parts times s₁ and s₂. The lanes are joined as the DD DOT joins them (joinDdLanes); the caller takes the root as the JavaScript
 * kernel does. Not the JavaScript's bits (it adds in one or two chains), but within nrm2Bound: each step errs by at
 * most 2^-104 (exact doubles) or 2^-102 (a pair) of what it adds — within the double-double unit roundoff and the dd
 * accumulation's DD_ADD_BOUND — and a term meets at most ⌈n/8⌉ − 1 steps and 3 joins that are not exact, never more
 * than the recursive sum's n nor the dd accumulation's ⌈n/2⌉ (the DD DOT's argument, kernels/dot/dot-dd-wasm.ts);
 * the products that underflow are Dekker's, as in the JavaScript templates. ±Inf and NaN make the sum non-finite;
 * the caller then runs the JavaScript kernel.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { ddAccumulateStep, ddLanesAround, ddStepScratch, ddStepSetup } from '../../src/backends/wasm/wasm-dd-steps.js';
import { ddReadOf, ddReader, scalesInLoad, type DdRead } from '../../src/backends/wasm/wasm-dd-read.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, streamVector, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';
import { joinDdLanes } from '../dot/dot-dd-wasm.js';

/** Byte addresses of the eight high parts, the eight low parts, and the staged chunk of x. */
const HI = 0, LO = 64, X_AT = 128;

type DdSquaresChunk = (px: number, sx: number, n: number, s1: number, s2: number) => void;

function ddSquaresChunk(sx: WasmStorage, read: DdRead, scaledLoad: boolean): DdSquaresChunk {
  return wasmExports(`nrm2-squares-dd ${sx.name} ${read}${scaledLoad ? '*s' : ''}`, 'the double-double NRM2 kernel', () => {
    const l = new WasmLocals();
    const px = operandParams(l, sx);
    const n = l.param(I32), s1 = l.param(F64), s2 = l.param(F64);
    const i = l.local(I32), v1 = l.local(V128), v2 = l.local(V128);
    const hi = l.locals_(V128, 4), lo = l.locals_(V128, 4);
    const z = l.local(V128), zl = l.local(V128), t = l.local(V128);
    const scratch = ddStepScratch(l);
    const x = operandLocals(l, px, scaledLoad);
    const reader = ddReader(l, x, read);
    const pairs = read !== 'number';
    const scaled = (v: number): number[] => [...op.get(v), ...op.get(v1), ...op.simd(SIMD.f64x2Mul), ...op.get(v2), ...op.simd(SIMD.f64x2Mul), ...op.set(v)];
    // A pair's product by (s, 0) ends in FastTwoSum (the arithmetic's ddMul): the identity on a normalised pair, and a
    // raw one read from storage, (0, −1) or (1, −3), is normalised as the JavaScript kernel's scaling normalises it.
    const normalise = [
      ...op.get(z), ...op.get(zl), ...op.simd(SIMD.f64x2Add), ...op.set(t),
      ...op.get(zl), ...op.get(t), ...op.get(z), ...op.simd(SIMD.f64x2Sub), ...op.simd(SIMD.f64x2Sub), ...op.set(zl),
      ...op.get(t), ...op.set(z),
    ];
    const step = (k: number): number[] => [
      ...(pairs ? [...reader.read(k, z, zl), ...scaled(z), ...scaled(zl), ...normalise] : [...load2(x, k), ...op.set(z), ...scaled(z)]),
      ...ddAccumulateStep(scratch, { a: z, b: z, low: pairs ? { a: zl, b: zl } : undefined, hi: hi + k, lo: lo + k }),
    ];
    const body = [
      ...operandSetup(x), ...reader.setup, ...ddStepSetup(scratch),
      ...op.get(s1), ...op.simd(SIMD.f64x2Splat), ...op.set(v1),
      ...op.get(s2), ...op.simd(SIMD.f64x2Splat), ...op.set(v2),
      ...ddLanesAround(hi, lo, HI, LO, stepLoop(i, n, [x], [0, 1, 2, 3].flatMap(step))),
    ];
    return encodeModule([l.function('squares', [], body)], 1);
  }).squares as DdSquaresChunk;
}

/**
 * Σ (xᵢ·s₁·s₂)² for i < n summed in double-double, as [hi, lo] (the caller checked {@link wasmStorageOf}: one scale
 * at most); `ddArithmetic`: x read as double-double arithmetic reads it ({@link ddReadOf}: double-double storage and
 * scaled operands as pairs), else as fp64 arithmetic. Non-finite where an element is (the caller then runs the
 * JavaScript kernel).
 */
export function wasmDdSumOfScaledSquares(x: Accessor<1, any>, n: number, s1: number, s2: number, ddArithmetic: boolean): [number, number] {
  const sx = wasmStorageOf(x) as WasmStorage;
  const read = ddReadOf(x, ddArithmetic);
  const f = ddSquaresChunk(sx, read, scalesInLoad(x, read));
  reserveBytes(X_AT + CHUNK * 8);
  new Float64Array(wasmMemory().buffer as ArrayBuffer, HI, 16).fill(0);
  const scale = scaleOf(x);
  streamVector(x, n, X_AT, (padded, at) => f(at, scale, padded, s1, s2));
  const out = new Float64Array(2);
  joinDdLanes(new Float64Array(wasmMemory().buffer as ArrayBuffer, HI, 16), out);
  return [out[0]!, out[1]!];
}
