/**
 * COO → canonical CSR, summing duplicates.
 * @module
 */
import type { CooMatrix } from './coo-matrix.js';
import { cooMatrix } from './coo-matrix.js';
import type { CsrMatrix } from './csr-matrix.js';
import { allocateFloat64, allocateInt32 } from './sparse-checks.js';

/**
 * Converts a COO matrix to canonical CSR: rows in order, columns strictly increasing within each row.
 *
 * Entries at the same position are summed in the order they are stored in `A` (left to right, in double
 * arithmetic, so the sum is rounded once per addition). A sum that is zero stays as an explicit zero entry.
 * Runs in O(nnz + rows + cols) time with two stable counting sorts (by column, then by row).
 *
 * @param A - the COO matrix (validated)
 * @returns a new CSR matrix owning new arrays
 * @throws {@link ModprecError} as {@link cooMatrix} for an invalid `A`
 * @example
 * ```ts
 * import { cooMatrix, cooToCsr } from 'modprec';
 *
 * const A = cooToCsr(cooMatrix({ rows: 1, cols: 2, rowIndex: Int32Array.of(0, 0, 0),
 *   colIndex: Int32Array.of(1, 0, 1), values: Float64Array.of(1, 2, 3) }));
 * // A.colIndex = [0, 1], A.values = [2, 4]
 * ```
 * @group Sparse & IO
 */
export function cooToCsr(A: CooMatrix): CsrMatrix {
  const { rows, cols, rowIndex, colIndex, values } = cooMatrix(A);
  const nnz = values.length;

  // Stable counting sort by column: byColumn lists entry numbers in column order.
  const colStart = allocateInt32('column counts', cols + 1);
  for (let k = 0; k < nnz; k++) colStart[colIndex[k]! + 1]!++;
  for (let j = 0; j < cols; j++) colStart[j + 1]! += colStart[j]!;
  const byColumn = allocateInt32('column order', nnz);
  for (let k = 0; k < nnz; k++) byColumn[colStart[colIndex[k]!]!++] = k;

  // Stable counting sort of that order by row: sorted by (row, column), input order among duplicates.
  const rowStart = allocateInt32('row counts', rows + 1);
  for (let k = 0; k < nnz; k++) rowStart[rowIndex[k]! + 1]!++;
  for (let i = 0; i < rows; i++) rowStart[i + 1]! += rowStart[i]!;
  const sorted = allocateInt32('sorted order', nnz);
  const next = rowStart.slice(0, rows);
  for (let t = 0; t < nnz; t++) {
    const k = byColumn[t]!;
    sorted[next[rowIndex[k]!]!++] = k;
  }

  // Merge runs of equal (row, column), summing values in input order.
  const rowPtr = allocateInt32('rowPtr', rows + 1);
  const outCol = allocateInt32('colIndex', nnz);
  const outVal = allocateFloat64('values', nnz);
  let out = 0;
  for (let i = 0; i < rows; i++) {
    rowPtr[i] = out;
    const end = rowStart[i + 1]!;
    for (let t = rowStart[i]!; t < end; t++) {
      const k = sorted[t]!;
      const col = colIndex[k]!;
      if (out > rowPtr[i]! && outCol[out - 1] === col) {
        outVal[out - 1]! += values[k]!;
      } else {
        outCol[out] = col;
        outVal[out] = values[k]!;
        out++;
      }
    }
  }
  rowPtr[rows] = out;
  return { rows, cols, rowPtr, colIndex: outCol.slice(0, out), values: outVal.slice(0, out) };
}
