/**
 * ASUM in WebAssembly SIMD (f64 or f32 arithmetic, recursive or kahan accumulation, built-in storage): Σ|xᵢ| in the DOT's
 * lane order — element i into partial sum i mod 8, then ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)) — each
 * term |xᵢ| exact, as in the JavaScript kernel (fp32: f32x4 lanes, each addition one binary32 rounding); the
 * recursive accumulation's bound holds for any order. With the kahan accumulation each |xᵢ| enters its lane's
 * compensated sum by the JavaScript template's TwoSum and the lanes are joined as the compensated DOT joins them,
 * within the same bound (src/backends/wasm/wasm-neumaier-step.ts says why).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { wasmExports } from '../../src/backends/wasm/wasm-runtime.js';
import { kahanLaneReduce, kahanLaneSums, neumaierScratch, neumaierStep } from '../../src/backends/wasm/wasm-neumaier-step.js';
import { LANE_SUMS_AT, laneReduce, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';

const ACC = LANE_SUMS_AT;

type AsumChunk = (px: number, sx: number, n: number) => void;

function asumChunk(sx: WasmStorage, scaled: boolean, lanes: 'f64' | 'f32', kahan: boolean): AsumChunk {
  return wasmExports(`asum${lanes === 'f32' ? '-f32' : ''}${kahan ? '-kahan' : ''} ${sx.name}${scaled ? '*s' : ''}`, 'the ASUM kernel', () => {
    const v = LANES[lanes];
    const ks = Array.from({ length: v.vectors }, (_, k) => k);
    const l = new WasmLocals();
    const px = operandParams(l, sx);
    const n = l.param(I32);
    const i = l.local(I32);
    const acc = l.locals_(V128, v.vectors);
    const x = operandLocals(l, px, scaled, lanes);
    // kahan: each |xᵢ| into its lane's compensated sum (acc the s's, c the compensations), as the JavaScript template adds it.
    const c = kahan ? l.locals_(V128, v.vectors) : -1, t = kahan ? l.local(V128) : -1;
    const scratch = kahan ? neumaierScratch(l) : undefined;
    const step = ks.flatMap((k) => kahan
      ? [...v.load(x, k), ...op.simd(v.abs), ...neumaierStep(scratch!, t, acc + k, c + k, lanes)]
      : [...op.get(acc + k), ...v.load(x, k), ...op.simd(v.abs), ...op.simd(v.add), ...op.set(acc + k)]);
    const body = [
      ...operandSetup(x, lanes),
      ...(kahan ? kahanLaneSums(acc, c, v.vectors, false) : ks.flatMap((k) => [...op.i32(0), ...op.simdMem(SIMD.load, 0, ACC + 16 * k), ...op.set(acc + k)])),
      ...stepLoop(i, n, [x], step),
      ...(kahan ? kahanLaneSums(acc, c, v.vectors, true) : ks.flatMap((k) => [...op.i32(0), ...op.get(acc + k), ...op.simdMem(SIMD.store, 0, ACC + 16 * k)])),
    ];
    return encodeModule([l.function('asum', [], body)], 1);
  }).asum as AsumChunk;
}

/**
 * Σ|xᵢ| for i < n in f64 arithmetic, or f32 with `lanes` 'f32' (the caller checked {@link wasmStorageOf}); with
 * `kahan`, the compensated sum in the lane order of kernels/dot/dot-kahan-wasm.ts — not finite where the JavaScript
 * kernel must answer (see kahanLaneReduce).
 */
export function wasmAsum(x: Accessor<1, any>, n: number, lanes: 'f64' | 'f32' = 'f64', kahan = false): number {
  const f = asumChunk(wasmStorageOf(x) as WasmStorage, !!x.scale, lanes, kahan);
  const chunk = (at: number, scale: number, padded: number): void => f(at, scale, padded);
  return kahan ? kahanLaneReduce(x, n, chunk, lanes) : laneReduce(x, n, chunk, lanes);
}
