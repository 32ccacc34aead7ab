/**
 * ASUM in WebAssembly SIMD (f64 arithmetic, recursive accumulation, built-in storage): Σ|xᵢ| in the DOT's lane
 * order — element i into partial sum i mod 8, then ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)) — each term
 * |xᵢ| exact, as in the JavaScript kernel; the recursive accumulation's bound holds for any order.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { wasmExports } from '../../src/backends/wasm/wasm-runtime.js';
import { LANE_SUMS_AT, laneReduce, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';

const ACC = LANE_SUMS_AT;
const F64X2_ABS = 0xec;

type AsumChunk = (px: number, sx: number, n: number) => void;

function asumChunk(sx: WasmStorage, scaled: boolean): AsumChunk {
  return wasmExports(`asum ${sx.name}${scaled ? '*s' : ''}`, 'the ASUM kernel', () => {
    const l = new WasmLocals();
    const px = operandParams(l, sx);
    const n = l.param(I32);
    const i = l.local(I32);
    const acc = l.locals_(V128, 4);
    const x = operandLocals(l, px, scaled);
    const step = [0, 1, 2, 3].flatMap((k) => [
      ...op.get(acc + k), ...load2(x, k), ...op.simd(F64X2_ABS), ...op.simd(SIMD.f64x2Add), ...op.set(acc + k),
    ]);
    const body = [
      ...operandSetup(x),
      ...[0, 1, 2, 3].flatMap((k) => [...op.i32(0), ...op.simdMem(SIMD.load, 0, ACC + 16 * k), ...op.set(acc + k)]),
      ...stepLoop(i, n, [x], step),
      ...[0, 1, 2, 3].flatMap((k) => [...op.i32(0), ...op.get(acc + k), ...op.simdMem(SIMD.store, 0, ACC + 16 * k)]),
    ];
    return encodeModule([l.function('asum', [], body)], 1);
  }).asum as AsumChunk;
}

/** Σ|xᵢ| for i < n in f64 arithmetic (the caller checked {@link wasmStorageOf}). */
export function wasmAsum(x: Accessor<1, any>, n: number): number {
  const f = asumChunk(wasmStorageOf(x) as WasmStorage, !!x.scale);
  return laneReduce(x, n, (at, scale, padded) => f(at, scale, padded));
}
