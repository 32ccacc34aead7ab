/**
 * GEMV with the `pairwise` and `dot2` accumulations in WebAssembly, fp64 or fp32 arithmetic: each row of op(A) is
 * the ordered DOT of kernels/shared/ordered-sum-wasm.ts against x — the JavaScript row loop's terms (its `dot` and
 * `dot-blocked` loops add each row's products in column order) through the same operations, so the same row sums —
 * then combined with α and β as the recursive WebAssembly GEMV does (`combineSums`, the JavaScript's roundings).
 * A row of column-major A is staged with its stride; a wasmArena row of unit stride is read in place. A non-finite
 * row sum leaves y untouched and sends the call to the JavaScript kernel.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import type { OrderedAccumulation } from '../../src/backends/wasm/wasm-ordered-sum.js';
import { wasmOrderedDot } from '../shared/ordered-sum-wasm.js';
import { combineSums, combineSumsF32 } from './gemv-wasm-values.js';

/**
 * y := α·op(A)·x + β·y for α ≠ 0 (the caller checked storages, layout and the quick returns); false, with y
 * untouched, where a row sum is not finite.
 */
export function wasmOrderedGemv(
  alpha: number, opA: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>, m: number, n: number,
  accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32',
): boolean {
  const sums = new Float64Array(m);
  const [rowStride, columnStride] = opA.strides as [number, number];
  for (let i = 0; i < m; i++) {
    // Row i as a 1-D operand (its one scale, if any, is the matrix's: the WebAssembly readers take no other).
    const row = { data: opA.data, storage: opA.storage, offset: opA.offset + i * rowStride, strides: [columnStride], scale: opA.scale } as unknown as Accessor<1, any>;
    const s = wasmOrderedDot(row, x, n, accumulation, arithmetic);
    if (!Number.isFinite(s)) return false;
    sums[i] = s;
  }
  if (arithmetic === 'f64') combineSums(alpha, sums, beta, y, m);
  else combineSumsF32(alpha, sums, beta, y, m);
  return true;
}
