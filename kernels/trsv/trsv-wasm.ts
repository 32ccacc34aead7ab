/**
 * TRSV in WebAssembly SIMD, column-oriented (op(A) with contiguous columns: column-major A with trans 'N',
 * row-major with 'T'), f64 arithmetic, recursive accumulation, x unscaled f64 or f32: the generated JavaScript's
 * column loop (kernels/trsv/trsv-cpu.ts) with its update in SIMD lanes — tᵢ := 0 + bᵢ, then for each column j in
 * the row order xⱼ := tⱼ / tⱼⱼ (stored, read back) and tᵢ := (−aᵢⱼ)·xⱼ + tᵢ for the rows not yet solved. Every tᵢ
 * sees the same operations in the same order as in JavaScript: the same bits, the same trsvBound.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { numberAt, scaleOf, stageVector, wasmStorageNamed, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import type { Refusal } from '../../src/backends/backend.js';

/** Why op(A) has no WebAssembly TRSV (its columns are not contiguous), or undefined. */
export function wasmTrsvRefusal(T: Accessor<2, any>): Refusal | undefined {
  if (T.strides[0] === 1) return undefined;
  return { code: 'INVALID_OPTION', parameter: 'A', reason: 'WebAssembly solves column by column: op(A) must have contiguous columns (column-major A with trans N, row-major with T)' };
}

type UpdateChunk = (pt: number, pa: number, scale: number, n: number, xj: number) => void;

/** t[0 … n) := (−(a·scale))·xⱼ + t over a staged column segment (n a multiple of 8). */
function updateChunk(sa: WasmStorage, scaled: boolean): UpdateChunk {
  return wasmExports(`trsv-column ${sa.name}${scaled ? '*s' : ''}`, 'the TRSV kernel', () => {
    const l = new WasmLocals();
    const pt = l.param(I32);
    const pa = operandParams(l, sa);
    const n = l.param(I32), xj = l.param(F64);
    const i = l.local(I32), xv = l.local(V128);
    const a = operandLocals(l, pa, scaled);
    const step = [0, 1, 2, 3].flatMap((k) => [
      ...op.get(pt),
      ...load2(a, k), ...op.simd(SIMD.f64x2Neg), ...op.get(xv), ...op.simd(SIMD.f64x2Mul),
      ...op.get(pt), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.simd(SIMD.f64x2Add),
      ...op.simdMem(SIMD.store, 0, 16 * k),
    ]);
    const body = [
      ...operandSetup(a),
      ...op.get(xj), ...op.simd(SIMD.f64x2Splat), ...op.set(xv),
      ...stepLoop(i, n, [a, { pointer: pt, storage: wasmStorageNamed('f64')! }], step),
    ];
    return encodeModule([l.function('update', [], body)], 1);
  }).update as UpdateChunk;
}

/** Solves T·x = b in place (the caller checked storages and layout; n ≥ 1). */
export function wasmTrsv(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean): void {
  const sa = wasmStorageOf(T) as WasmStorage;
  const f = updateChunk(sa, !!T.scale);
  const scale = scaleOf(T), scaled = !!T.scale;
  const T_AT = 64, A_AT = T_AT + n * 8 + 128;
  reserveBytes(A_AT + n * sa.bytes + 128);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const t = new Float64Array(buffer, T_AT, n + 16);
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number;
  for (let i = 0, p = x.offset; i < n; i++, p += xs) t[i] = 0 + xd[p]!;
  const ld = T.strides[1] as number;
  for (let step = 0; step < n; step++) {
    const j = lower ? step : n - 1 - step;
    const column = T.offset + j * ld;
    let q = t[j]!;
    if (!unit) {
      const d = numberAt(T, column + j);
      q = q / (scaled ? d * scale : d);
    }
    const xp = x.offset + j * xs;
    xd[xp] = q;
    const xj = xd[xp]!;
    // Rows below the diagonal (forward) or above it (backward).
    const [from, count] = lower ? [j + 1, n - j - 1] : [0, j];
    if (count === 0) continue;
    const padded = (count + 7) & ~7;
    stageVector({ data: T.data, storage: T.storage, offset: column + from, strides: [1] } as unknown as Accessor<1, any>, 0, count, A_AT, padded, buffer);
    f(T_AT + from * 8, A_AT, scale, padded, xj);
  }
}
