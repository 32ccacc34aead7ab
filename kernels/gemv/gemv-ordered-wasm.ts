/**
 * GEMV with the `pairwise` and `dot2` accumulations in WebAssembly, fp64 or fp32 arithmetic: each row of op(A) is
 * summed against x by the ordered DOT chunks of kernels/shared/ordered-sum-wasm.ts — the JavaScript row loop's terms
 * (its `dot` and `dot-blocked` loops add each row's products in column order) through the same operations, so the
 * same row sums — then combined with α and β as the recursive WebAssembly GEMV does (`combineSums`, the
 * JavaScript's roundings). x is decoded once, as the other WebAssembly GEMVs decode it (its values in the
 * arithmetic, exact in an f64 slot); each row (contiguous: {@link wasmOrderedGemvRefusal}) is read in place from a
 * wasmArena (whole steps of 8) or staged by chunks. A non-finite row sum leaves y untouched and sends the call to
 * the JavaScript kernel.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import type { Refusal } from '../../src/backends/backend.js';
import { orderedReset, orderedResult, type OrderedAccumulation } from '../../src/backends/wasm/wasm-ordered-sum.js';
import { reserveBytes, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, wasmStorageNamed, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { X_AT, orderedChunk } from '../shared/ordered-sum-wasm.js';
import { combineSums, combineSumsF32, xValues, xValuesF32 } from './gemv-wasm-values.js';
import { rowPieces } from './gemv-in-place.js';

/**
 * Why the pairwise or dot2 GEMV leaves op(A) to JavaScript: rows that are not contiguous (column-major A with
 * trans 'N'). Each row's scalar chain would be fed by a strided gather per row, slower than the JavaScript loop's
 * blocked rows; undefined for the other accumulations and for contiguous rows.
 */
export function wasmOrderedGemvRefusal(opA: Accessor<2, any>, acc: { readonly name: string }): Refusal | undefined {
  if ((acc.name !== 'pairwise' && acc.name !== 'dot2') || opA.strides[1] === 1) return undefined;
  return { code: 'INVALID_OPTION', parameter: 'A', reason: `WebAssembly sums GEMV with the ${acc.name} accumulation over contiguous rows of op(A) only (row-major A with trans 'N', column-major with 'T')` };
}

/**
 * y := α·op(A)·x + β·y for α ≠ 0 (the caller checked storages, layout and the quick returns); false, with y
 * untouched, where a row sum is not finite.
 */
export function wasmOrderedGemv(
  alpha: number, opA: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>, m: number, n: number,
  accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32',
): boolean {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const f = orderedChunk('dot', accumulation, arithmetic, sa, !!opA.scale, wasmStorageNamed('f64')!, false);
  const scale = scaleOf(opA);
  // x's values from X_AT (padded with zeros to a step), then a staged chunk of the row.
  const paddedN = (n + 7) & ~7, A_AT = X_AT + paddedN * 8 + 64;
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const xv = new Float64Array(buffer, X_AT, paddedN).fill(0);
  xv.set(arithmetic === 'f64' ? xValues(x, n) : xValuesF32(x, n));
  const sums = new Float64Array(m);
  const rowStride = opA.strides[0] as number;
  for (let i = 0; i < m; i++) {
    orderedReset(buffer);
    rowPieces(opA, sa, opA.offset + i * rowStride, n, A_AT, buffer, (at, from, padded) => f(at, scale, X_AT + from * 8, 1, padded, Math.min(padded, n - from)));
    const s = orderedResult(buffer, accumulation, arithmetic);
    if (!Number.isFinite(s)) return false;
    sums[i] = s;
  }
  if (arithmetic === 'f64') combineSums(alpha, sums, beta, y, m);
  else combineSumsF32(alpha, sums, beta, y, m);
  return true;
}
