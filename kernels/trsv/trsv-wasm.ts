/**
 * TRSV in WebAssembly SIMD, f64 arithmetic, recursive accumulation, x unscaled f64 or f32, in the loop order that
 * reads op(A) contiguously:
 * - contiguous columns (column-major A with trans 'N', row-major with 'T'): the generated JavaScript's column loop
 *   (kernels/trsv/trsv-cpu.ts) with its update in SIMD lanes — tᵢ := 0 + bᵢ, then for each column j in the row
 *   order xⱼ := tⱼ / tⱼⱼ (stored, read back) and tᵢ := (−aᵢⱼ)·xⱼ + tᵢ for the rows not yet solved. Every tᵢ sees the
 *   same operations in the same order as in JavaScript: the same bits, the same trsvBound.
 * - contiguous rows (row-major A with 'N', column-major with 'T'): row-oriented substitution, each row's
 *   Σⱼ tᵢⱼ·xⱼ over the solved x's a WebAssembly DOT (eight interleaved partial sums, kernels/dot/dot-wasm.ts), then
 *   xᵢ := (bᵢ − that sum) / tᵢᵢ (stored, read back). The sum bᵢ − Σ tᵢⱼxⱼ is the JavaScript's, its terms added in
 *   another order: the recursive accumulation's γ_n bound, and so trsvBound, holds for any order.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, numberAt, scaleOf, stageVector, wasmStorageNamed, wasmStorageOf, type WasmStorage, laneSum } from '../../src/backends/wasm/wasm-storage.js';
import type { Refusal } from '../../src/backends/backend.js';
import { dotChunk } from '../dot/dot-wasm.js';

/** Why op(A) has no WebAssembly TRSV (its columns are not contiguous), or undefined. */
export function wasmTrsvRefusal(T: Accessor<2, any>): Refusal | undefined {
  if (T.strides[0] === 1 || T.strides[1] === 1) return undefined;
  return { code: 'INVALID_OPTION', parameter: 'A', reason: 'WebAssembly reads a matrix whose rows or columns are contiguous (a unit stride) only' };
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
  if (T.strides[0] === 1) solveByColumns(T, x, n, lower, unit);
  else solveByRows(T, x, n, lower, unit);
}

/** Row-oriented substitution (op(A) has unit stride along its rows). */
function solveByRows(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean): void {
  const sa = wasmStorageOf(T) as WasmStorage;
  const f = dotChunk(sa, !!T.scale, wasmStorageNamed('f64')!, false);
  const scale = scaleOf(T), scaled = !!T.scale;
  // The solved x's at X_AT (zeros elsewhere: staged rows are padded with zeros, and 0·0 must stay 0); row chunks at A_AT.
  const X_AT = 128, A_AT = X_AT + n * 8 + 128;
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const solved = new Float64Array(buffer, X_AT, n + 16).fill(0);
  const acc = new Float64Array(buffer, 0, 8);
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number, ld = T.strides[0] as number;
  for (let step = 0; step < n; step++) {
    const i = lower ? step : n - 1 - step;
    const [from, count] = lower ? [0, i] : [i + 1, n - 1 - i];
    acc.fill(0);
    for (let c = 0; c < count; c += CHUNK) {
      const part = Math.min(CHUNK, count - c), padded = (part + 7) & ~7;
      stageVector({ data: T.data, storage: T.storage, offset: T.offset + i * ld + from + c, strides: [1] } as unknown as Accessor<1, any>, 0, part, A_AT, padded, buffer);
      f(A_AT, scale, X_AT + (from + c) * 8, 1, padded);
    }
    const sum = laneSum(acc);
    const xp = x.offset + i * xs;
    // 0 + bᵢ first, as the JavaScript's accumulator starts (−0 becomes +0).
    let q = (0 + xd[xp]!) - sum;
    if (!unit) {
      const d = numberAt(T, T.offset + i * ld + i);
      q = q / (scaled ? d * scale : d);
    }
    xd[xp] = q;
    solved[i] = xd[xp]!;
  }
}

/** Column-oriented substitution (op(A) has unit stride along its columns). */
function solveByColumns(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean): void {
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
