/**
 * NRM2's second pass in WebAssembly SIMD (f64 or f32 arithmetic, recursive or kahan accumulation, built-in storage):
 * Σ (xᵢ·s₁·s₂)² with the two exact power-of-two factors of kernels/nrm2/nrm2.ts, in the DOT's lane order —
 * element i into partial sum i mod 8, then ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)). Each term sees the
 * JavaScript kernel's roundings (fp32: f32x4 lanes, the factors converted to binary32 as the kernel's
 * `fromNumber` does — exact, they are powers of two within its range); the recursive accumulation's bound holds
 * for any order. With the kahan accumulation each square enters its lane's compensated sum by the JavaScript
 * template's TwoSum and the lanes are joined as the compensated DOT joins them (src/backends/wasm/wasm-neumaier-step.ts).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { wasmExports } from '../../src/backends/wasm/wasm-runtime.js';
import { kahanLaneReduce, kahanLaneSums, neumaierScratch, neumaierStep } from '../../src/backends/wasm/wasm-neumaier-step.js';
import { LANE_SUMS_AT, laneReduce, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';

const ACC = LANE_SUMS_AT;

type SquaresChunk = (px: number, sx: number, n: number, s1: number, s2: number) => void;

function squaresChunk(sx: WasmStorage, scaled: boolean, lanes: 'f64' | 'f32', kahan: boolean): SquaresChunk {
  return wasmExports(`nrm2-squares${lanes === 'f32' ? '-f32' : ''}${kahan ? '-kahan' : ''} ${sx.name}${scaled ? '*s' : ''}`, 'the NRM2 kernel', () => {
    const v = LANES[lanes];
    const ks = Array.from({ length: v.vectors }, (_, k) => k);
    const l = new WasmLocals();
    const px = operandParams(l, sx);
    const n = l.param(I32), s1 = l.param(F64), s2 = l.param(F64);
    const i = l.local(I32), v1 = l.local(V128), v2 = l.local(V128), t = l.local(V128);
    const acc = l.locals_(V128, v.vectors);
    const x = operandLocals(l, px, scaled, lanes);
    // kahan: each square into its lane's compensated sum (acc the s's, c the compensations), as the JavaScript template adds it.
    const c = kahan ? l.locals_(V128, v.vectors) : -1, term = kahan ? l.local(V128) : -1;
    const scratch = kahan ? neumaierScratch(l) : undefined;
    const step = ks.flatMap((k) => [
      ...v.load(x, k), ...op.get(v1), ...op.simd(v.mul), ...op.get(v2), ...op.simd(v.mul), ...op.tee(t),
      ...op.get(t), ...op.simd(v.mul),
      ...(kahan ? neumaierStep(scratch!, term, acc + k, c + k, lanes) : [...op.get(acc + k), ...op.simd(v.add), ...op.set(acc + k)]),
    ]);
    const body = [
      ...operandSetup(x, lanes),
      ...op.get(s1), ...v.splat, ...op.set(v1),
      ...op.get(s2), ...v.splat, ...op.set(v2),
      ...(kahan ? kahanLaneSums(acc, c, v.vectors, false) : ks.flatMap((k) => [...op.i32(0), ...op.simdMem(SIMD.load, 0, ACC + 16 * k), ...op.set(acc + k)])),
      ...stepLoop(i, n, [x], step),
      ...(kahan ? kahanLaneSums(acc, c, v.vectors, true) : ks.flatMap((k) => [...op.i32(0), ...op.get(acc + k), ...op.simdMem(SIMD.store, 0, ACC + 16 * k)])),
    ];
    return encodeModule([l.function('squares', [], body)], 1);
  }).squares as SquaresChunk;
}

/**
 * Σ (xᵢ·s₁·s₂)² for i < n in f64 arithmetic, or f32 with `lanes` 'f32' (the caller checked {@link wasmStorageOf});
 * with `kahan`, the compensated sum in the lane order of kernels/dot/dot-kahan-wasm.ts — not finite where the
 * JavaScript kernel must answer (see kahanLaneReduce).
 */
export function wasmSumOfScaledSquares(x: Accessor<1, any>, n: number, s1: number, s2: number, lanes: 'f64' | 'f32' = 'f64', kahan = false): number {
  const f = squaresChunk(wasmStorageOf(x) as WasmStorage, !!x.scale, lanes, kahan);
  const chunk = (at: number, scale: number, padded: number): void => f(at, scale, padded, s1, s2);
  return kahan ? kahanLaneReduce(x, n, chunk, lanes) : laneReduce(x, n, chunk, lanes);
}
