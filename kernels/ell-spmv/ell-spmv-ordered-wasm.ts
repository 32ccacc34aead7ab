/**
 * ELL SpMV with the `pairwise` and `dot2` accumulations in WebAssembly, fp64 or fp32 arithmetic: each row's products
 * enter the accumulation in slot order, up to the row's first padding slot — the JavaScript kernel's terms
 * (ell-spmv-cpu.ts) — through the ordered DOT chunks of kernels/shared/ordered-sum-wasm.ts: the row's values staged
 * (a scale per row passed as the operand's scale, read as the JavaScript reads it), the x values its columns name
 * gathered beside them (decoded once, as the other WebAssembly ELL kernels decode x). The same row sums, then
 * combined with α and β by `combineSums` (the JavaScript's roundings): the JavaScript's bits. A non-finite row sum
 * leaves y untouched and sends the call to the JavaScript kernel.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import type { EllStructure } from '../../src/sparse/ell-matrix.js';
import { orderedReset, orderedResult, type OrderedAccumulation } from '../../src/backends/wasm/wasm-ordered-sum.js';
import { reserveBytes, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, stageVector, wasmStorageNamed, wasmStorageOfFormat, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { X_AT, Y_AT, orderedChunk } from '../shared/ordered-sum-wasm.js';
import { combineSums, combineSumsF32, xValues, xValuesF32 } from '../gemv/gemv-wasm-values.js';

/**
 * y := α·A·x + β·y for α ≠ 0 (the caller checked storages, the values' scales and the quick returns); false, with y
 * untouched, where a row sum is not finite.
 */
export function wasmOrderedEllSpmv(
  alpha: number, structure: EllStructure, values: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>,
  accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32',
): boolean {
  const { rows, cols, width, stride, colIndex } = structure;
  const sv = wasmStorageOfFormat(values.storage) as WasmStorage;
  const sc = values.scale;
  const f = orderedChunk('dot', accumulation, arithmetic, sv, !!sc, wasmStorageNamed('f64')!, false);
  // The row's staged values at X_AT (at most CHUNK elements of ≤ 8 bytes), the gathered x values at Y_AT.
  reserveBytes(Y_AT + CHUNK * 8 + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const xv = arithmetic === 'f64' ? xValues(x, cols) : xValuesF32(x, cols);
  const gathered = new Float64Array(buffer, Y_AT, CHUNK);
  const [s0, s1] = values.strides as [number, number];
  const sums = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    orderedReset(buffer);
    let length = 0;
    while (length < width && colIndex[i + length * stride]! >= 0) length++;
    const scale = sc ? sc.data[sc.offset + (sc.mask[0] ? i * sc.strides[0]! : 0)]! : 1;
    for (let from = 0; from < length; from += CHUNK) {
      const count = Math.min(CHUNK, length - from), padded = (count + 7) & ~7;
      const slots = { data: values.data, storage: values.storage, offset: values.offset + i * s0 + from * s1, strides: [s1] } as unknown as Accessor<1, any>;
      stageVector(slots, 0, count, X_AT, padded, buffer);
      for (let k = 0; k < count; k++) gathered[k] = xv[colIndex[i + (from + k) * stride]!]!;
      gathered.fill(0, count, padded);
      f(X_AT, scale, Y_AT, 1, padded, count);
    }
    const s = orderedResult(buffer, accumulation, arithmetic);
    if (!Number.isFinite(s)) return false;
    sums[i] = s;
  }
  if (arithmetic === 'f64') combineSums(alpha, sums, beta, y, rows);
  else combineSumsF32(alpha, sums, beta, y, rows);
  return true;
}
