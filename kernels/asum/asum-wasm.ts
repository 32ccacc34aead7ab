/**
 * ASUM in WebAssembly SIMD (f64 or f32 arithmetic, recursive accumulation, built-in storage): Σ|xᵢ| in the DOT's
 * lane order — element i into partial sum i mod 8, then ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)) — each
 * term |xᵢ| exact, as in the JavaScript kernel (fp32: f32x4 lanes, each addition one binary32 rounding); the
 * recursive accumulation's bound holds for any order.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { wasmExports } from '../../src/backends/wasm/wasm-runtime.js';
import { LANE_SUMS_AT, laneReduce, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';

const ACC = LANE_SUMS_AT;

type AsumChunk = (px: number, sx: number, n: number) => void;

function asumChunk(sx: WasmStorage, scaled: boolean, lanes: 'f64' | 'f32'): AsumChunk {
  return wasmExports(`asum${lanes === 'f32' ? '-f32' : ''} ${sx.name}${scaled ? '*s' : ''}`, 'the ASUM kernel', () => {
    const v = LANES[lanes];
    const ks = Array.from({ length: v.vectors }, (_, k) => k);
    const l = new WasmLocals();
    const px = operandParams(l, sx);
    const n = l.param(I32);
    const i = l.local(I32);
    const acc = l.locals_(V128, v.vectors);
    const x = operandLocals(l, px, scaled, lanes);
    const step = ks.flatMap((k) => [
      ...op.get(acc + k), ...v.load(x, k), ...op.simd(v.abs), ...op.simd(v.add), ...op.set(acc + k),
    ]);
    const body = [
      ...operandSetup(x, lanes),
      ...ks.flatMap((k) => [...op.i32(0), ...op.simdMem(SIMD.load, 0, ACC + 16 * k), ...op.set(acc + k)]),
      ...stepLoop(i, n, [x], step),
      ...ks.flatMap((k) => [...op.i32(0), ...op.get(acc + k), ...op.simdMem(SIMD.store, 0, ACC + 16 * k)]),
    ];
    return encodeModule([l.function('asum', [], body)], 1);
  }).asum as AsumChunk;
}

/** Σ|xᵢ| for i < n in f64 arithmetic, or f32 with `lanes` 'f32' (the caller checked {@link wasmStorageOf}). */
export function wasmAsum(x: Accessor<1, any>, n: number, lanes: 'f64' | 'f32' = 'f64'): number {
  const f = asumChunk(wasmStorageOf(x) as WasmStorage, !!x.scale, lanes);
  return laneReduce(x, n, (at, scale, padded) => f(at, scale, padded), lanes);
}
