/**
 * CSR transpose.
 * @module
 */
import type { CsrMatrix } from './csr-matrix.js';
import { csrMatrix } from './csr-matrix.js';

/**
 * Transposes a CSR matrix in O(nnz + rows + cols) with a counting sort by column.
 * Row `j` of the result lists the entries of column `j` of `A` in increasing row order, so the transpose
 * of any CSR matrix is canonical when `A` has no repeated columns in a row.
 *
 * @param A - the CSR matrix (validated)
 * @returns a new `cols × rows` CSR matrix
 * @throws {@link ModprecError} as {@link csrMatrix} for an invalid `A`
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
  const tPtr = new Int32Array(cols + 1);
  for (let t = 0; t < nnz; t++) tPtr[colIndex[t]! + 1]!++;
  for (let j = 0; j < cols; j++) tPtr[j + 1]! += tPtr[j]!;
  const next = tPtr.slice(0, cols);
  const tCol = new Int32Array(nnz);
  const tVal = new Float64Array(nnz);
  for (let i = 0; i < rows; i++) {
    for (let t = rowPtr[i]!; t < rowPtr[i + 1]!; t++) {
      const at = next[colIndex[t]!]!++;
      tCol[at] = i;
      tVal[at] = values[t]!;
    }
  }
  return { rows: cols, cols: rows, rowPtr: tPtr, colIndex: tCol, values: tVal };
}
