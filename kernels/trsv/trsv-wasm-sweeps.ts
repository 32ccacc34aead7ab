/**
 * What the WebAssembly TRSVs (kernels/trsv/trsv-wasm.ts, trsv-kahan-wasm.ts) share: the column sweep of
 * column-oriented substitution, the diagonal read, and the run over a contiguous segment of op(A) — read in place
 * where A lives in a wasmArena (whole steps of 8, as the other kernels read arena operands), staged otherwise.
 * In-place pieces are whole steps of 8 from the segment's start, so each row's update (column sweep) and each
 * element's lane (row-oriented DOTs, lane k mod 8 from the segment's start) are the staging path's: the same bits.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { wasmAddressOf } from '../../src/backends/wasm/wasm-arena.js';
import { numberAt, scaleOf, stageVector, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';
import { wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { f32ValueAt } from '../gemv/gemv-wasm-values.js';

/** The diagonal element at storage position p as the arithmetic reads it (fp64: decoded, times the scale). */
export function diagonalAt(T: Accessor<2, any>, p: number, scale: number, lanes: 'f64' | 'f32'): number {
  if (lanes === 'f32') return f32ValueAt(T, p, scale);
  const d = numberAt(T, p);
  return T.scale ? d * scale : d;
}

/**
 * Runs `run(at, padded, offset)` over storage elements [start, start + count) of A (contiguous), `chunk` elements
 * at a time (a multiple of 8): in place at `at` for whole steps of 8 where A lives in a wasmArena, the rest staged at
 * `stageAt` and zero-padded to a multiple of 8; `offset` is the piece's first element within the segment.
 */
export function runSegment(T: Accessor<2, any>, start: number, count: number, stageAt: number, chunk: number, run: (at: number, padded: number, offset: number) => void): void {
  const sa = wasmStorageOf(T) as WasmStorage;
  for (let c = 0; c < count; c += chunk) {
    const part = Math.min(chunk, count - c);
    const address = wasmAddressOf(T.data, start + c, sa.bytes);
    const body = address < 0 ? 0 : part & ~7;
    if (body > 0) run(address, body, c);
    if (body === part) continue;
    const rest = part - body, padded = (rest + 7) & ~7;
    const segment = { data: T.data, storage: T.storage, offset: start + c + body, strides: [1] } as unknown as Accessor<1, any>;
    stageVector(segment, 0, rest, stageAt, padded, wasmMemory().buffer as ArrayBuffer);
    run(stageAt, padded, c + body);
  }
}

/**
 * Column-oriented substitution (op(A) has unit stride along its columns): for each column j in the solve order,
 * xⱼ := `valueOf(j)` / tⱼⱼ (unless `unit`), stored in x and read back rounded, then `update(from, at, padded, xj)`
 * for the column's rows not yet solved (row `from` first; `at` the byte address of those elements of A, in place
 * or staged at `stageAt`).
 */
export function sweepColumns(
  T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, lanes: 'f64' | 'f32', stageAt: number,
  valueOf: (j: number) => number, update: (from: number, at: number, padded: number, xj: number) => void,
): void {
  const scale = scaleOf(T), round = lanes === 'f64' ? Number : Math.fround;
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number, ld = T.strides[1] as number;
  for (let step = 0; step < n; step++) {
    const j = lower ? step : n - 1 - step;
    const column = T.offset + j * ld;
    let q = valueOf(j);
    if (!unit) q = round(q / diagonalAt(T, column + j, scale, lanes));
    const xp = x.offset + j * xs;
    xd[xp] = q;
    const xj = round(xd[xp]!);
    // Rows below the diagonal (forward) or above it (backward).
    const [from, count] = lower ? [j + 1, n - j - 1] : [0, j];
    runSegment(T, column + from, count, stageAt, Infinity, (at, padded, offset) => update(from + offset, at, padded, xj));
  }
}
