/**
 * What the WebAssembly TRSVs (kernels/trsv/trsv-wasm.ts, trsv-kahan-wasm.ts) share: the column sweep of
 * column-oriented substitution and the diagonal read. Both read op(A)'s contiguous segments through GEMV's
 * `rowPieces` (kernels/gemv/gemv-in-place.ts): in place where A lives in a wasmArena, whole steps of 8 from the
 * segment's start, the rest staged — so each row's update (column sweep) and each element's lane (row-oriented
 * DOTs, lane k mod 8 from the segment's start) are the staging path's: the same bits.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { numberAt, scaleOf, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';
import { rowPieces } from '../gemv/gemv-in-place.js';
import { wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { f32ValueAt } from '../gemv/gemv-wasm-values.js';
import type { StoredX } from './trsv-stored-x-wasm.js';

/** The diagonal element at storage position p as the arithmetic reads it (fp64: decoded, times the scale). */
export function diagonalAt(T: Accessor<2, any>, p: number, scale: number, lanes: 'f64' | 'f32'): number {
  if (lanes === 'f32') return f32ValueAt(T, p, scale);
  const d = numberAt(T, p);
  return T.scale ? d * scale : d;
}

/**
 * Column-oriented substitution (op(A) has unit stride along its columns): for each column j in the solve order,
 * xⱼ := `valueOf(j)` / tⱼⱼ (unless `unit`), stored in x and read back rounded (through `stored` where x is a twin
 * of a stored x: ./trsv-stored-x-wasm.ts), then `update(from, at, padded, xj)`
 * for the column's rows not yet solved (row `from` first; `at` the byte address of those elements of A, in place
 * or staged at `stageAt`).
 */
export function sweepColumns(
  T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, lanes: 'f64' | 'f32', stageAt: number,
  valueOf: (j: number) => number, update: (from: number, at: number, padded: number, xj: number) => void, stored?: StoredX,
): void {
  const sa = wasmStorageOf(T) as WasmStorage, buffer = wasmMemory().buffer as ArrayBuffer;
  const scale = scaleOf(T), round = lanes === 'f64' ? Number : Math.fround;
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number, ld = T.strides[1] as number;
  for (let step = 0; step < n; step++) {
    const j = lower ? step : n - 1 - step;
    const column = T.offset + j * ld;
    let q = valueOf(j);
    if (!unit) q = round(q / diagonalAt(T, column + j, scale, lanes));
    const xp = x.offset + j * xs;
    xd[xp] = stored ? stored(j, q) : q;
    const xj = round(xd[xp]!);
    // Rows below the diagonal (forward) or above it (backward).
    const [from, count] = lower ? [j + 1, n - j - 1] : [0, j];
    rowPieces(T, sa, column + from, count, stageAt, buffer, (at, offset, padded) => update(from + offset, at, padded, xj));
  }
}
