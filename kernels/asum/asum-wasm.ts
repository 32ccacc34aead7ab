/**
 * ASUM in WebAssembly SIMD (f64 arithmetic, recursive accumulation, built-in storage): Σ|xᵢ| in the DOT's lane
 * order — element i into partial sum i mod 8, then ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)) — each term
 * |xᵢ| exact, as in the JavaScript kernel; the recursive accumulation's bound holds for any order.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, chunkElements, scaleOf, stageVector, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';

const ACC = 0, X_AT = 64;
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
  const sx = wasmStorageOf(x) as WasmStorage;
  const f = asumChunk(sx, !!x.scale);
  const scale = scaleOf(x);
  reserveBytes(X_AT + CHUNK * 8);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const acc = new Float64Array(buffer, ACC, 8);
  acc.fill(0);
  const chunk = chunkElements(sx);
  for (let from = 0; from < n; from += chunk) {
    const count = Math.min(chunk, n - from);
    const padded = (count + 7) & ~7;
    stageVector(x, from, count, X_AT, padded, buffer);
    f(X_AT, scale, padded);
  }
  return ((acc[0]! + acc[1]!) + (acc[2]! + acc[3]!)) + ((acc[4]! + acc[5]!) + (acc[6]! + acc[7]!));
}
