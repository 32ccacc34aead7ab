/**
 * NRM2's second pass in WebAssembly SIMD (f64 arithmetic, recursive accumulation, built-in storage):
 * Σ (xᵢ·s₁·s₂)² with the two exact power-of-two factors of kernels/nrm2/nrm2.ts, in the DOT's lane order —
 * element i into partial sum i mod 8, then ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)). Each term sees the
 * JavaScript kernel's roundings; the recursive accumulation's bound holds for any order.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { wasmExports } from '../../src/backends/wasm/wasm-runtime.js';
import { LANE_SUMS_AT, laneReduce, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';

const ACC = LANE_SUMS_AT;

type SquaresChunk = (px: number, sx: number, n: number, s1: number, s2: number) => void;

function squaresChunk(sx: WasmStorage, scaled: boolean): SquaresChunk {
  return wasmExports(`nrm2-squares ${sx.name}${scaled ? '*s' : ''}`, 'the NRM2 kernel', () => {
    const l = new WasmLocals();
    const px = operandParams(l, sx);
    const n = l.param(I32), s1 = l.param(F64), s2 = l.param(F64);
    const i = l.local(I32), v1 = l.local(V128), v2 = l.local(V128), t = l.local(V128);
    const acc = l.locals_(V128, 4);
    const x = operandLocals(l, px, scaled);
    const step = [0, 1, 2, 3].flatMap((k) => [
      ...load2(x, k), ...op.get(v1), ...op.simd(SIMD.f64x2Mul), ...op.get(v2), ...op.simd(SIMD.f64x2Mul), ...op.tee(t),
      ...op.get(t), ...op.simd(SIMD.f64x2Mul), ...op.get(acc + k), ...op.simd(SIMD.f64x2Add), ...op.set(acc + k),
    ]);
    const body = [
      ...operandSetup(x),
      ...op.get(s1), ...op.simd(SIMD.f64x2Splat), ...op.set(v1),
      ...op.get(s2), ...op.simd(SIMD.f64x2Splat), ...op.set(v2),
      ...[0, 1, 2, 3].flatMap((k) => [...op.i32(0), ...op.simdMem(SIMD.load, 0, ACC + 16 * k), ...op.set(acc + k)]),
      ...stepLoop(i, n, [x], step),
      ...[0, 1, 2, 3].flatMap((k) => [...op.i32(0), ...op.get(acc + k), ...op.simdMem(SIMD.store, 0, ACC + 16 * k)]),
    ];
    return encodeModule([l.function('squares', [], body)], 1);
  }).squares as SquaresChunk;
}

/** Σ (xᵢ·s₁·s₂)² for i < n in f64 arithmetic (the caller checked {@link wasmStorageOf}). */
export function wasmSumOfScaledSquares(x: Accessor<1, any>, n: number, s1: number, s2: number): number {
  const f = squaresChunk(wasmStorageOf(x) as WasmStorage, !!x.scale);
  return laneReduce(x, n, (at, scale, padded) => f(at, scale, padded, s1, s2));
}
