/**
 * CSR transpose.
 * @module
 */
import type { CsrMatrix } from './csr-matrix.js';
import { csrMatrix } from './csr-matrix.js';
import { allocateFloat64, allocateInt32 } from './sparse-checks.js';

/**
 * Transposes a CSR matrix in O(nnz + rows + cols) with a counting sort by column.
 * Row `j` of the result lists the entries of column `j` of `A` in increasing row order, so the transpose
 * of any CSR matrix is canonical when `A` has no repeated columns in a row.
 *
 * @param A - the CSR matrix (validated)
 * @returns a new `cols × rows` CSR matrix
 * @throws {@link ModprecError} as {@link csrMatrix} for an invalid `A`; `INVALID_SIZE` when the result's arrays cannot be allocated
 * @example
 * ```ts
 * import { csrMatrix, csrTranspose } from 'modprec';
 *
 * // [[1, 2], [0, 3]] → [[1, 0], [2, 3]]
 * const A = csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 2, 3), colIndex: Int32Array.of(0, 1, 1),
 *                       values: Float64Array.of(1, 2, 3) });
 * csrTranspose(A).values; // → Float64Array(3) [ 1, 2, 3 ]
 * csrTranspose(A).rowPtr; // → Int32Array(3) [ 0, 1, 3 ]
 * ```
 * @group Sparse & IO
 */
export function csrTranspose(A: CsrMatrix): CsrMatrix {
  const { rows, cols, rowPtr, colIndex, values } = csrMatrix(A);
  const nnz = colIndex.length;
  // A failed allocation (e.g. 2^31 − 1 columns) is INVALID_SIZE, as in cooToCsr, not the engine's bare RangeError.
  const tPtr = allocateInt32('rowPtr', cols + 1);
  for (let t = 0; t < nnz; t++) tPtr[colIndex[t]! + 1]!++;
  for (let j = 0; j < cols; j++) tPtr[j + 1]! += tPtr[j]!;
  const next = tPtr.slice(0, cols);
  const tCol = allocateInt32('colIndex', nnz);
  const tVal = allocateFloat64('values', nnz);
  for (let i = 0; i < rows; i++) {
    for (let t = rowPtr[i]!; t < rowPtr[i + 1]!; t++) {
      const at = next[colIndex[t]!]!++;
      tCol[at] = i;
      tVal[at] = values[t]!;
    }
  }
  return { rows: cols, cols: rows, rowPtr: tPtr, colIndex: tCol, values: tVal };
}
