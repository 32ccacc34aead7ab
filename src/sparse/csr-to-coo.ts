/**
 * CSR → COO.
 * @module
 */
import type { CooMatrix } from './coo-matrix.js';
import type { CsrMatrix } from './csr-matrix.js';
import { csrMatrix } from './csr-matrix.js';

/**
 * Converts a CSR matrix to COO, keeping the entry order (row by row, columns as stored).
 *
 * @param A - the CSR matrix (validated)
 * @returns a new COO matrix with copies of `colIndex` and `values`
 * @throws {@link ModprecError} as {@link csrMatrix} for an invalid `A`
 * @example
 * ```ts
 * import { csrMatrix, csrToCoo } from 'modprec';
 *
 * const A = csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 2, 3), colIndex: Int32Array.of(0, 1, 1),
 *                       values: Float64Array.of(4, -1, 4) });
 * csrToCoo(A).rowIndex; // → Int32Array(3) [ 0, 0, 1 ]
 * ```
 * @group Sparse & IO
 */
export function csrToCoo(A: CsrMatrix): CooMatrix {
  const { rows, cols, rowPtr, colIndex, values } = csrMatrix(A);
  const rowIndex = new Int32Array(colIndex.length);
  for (let i = 0; i < rows; i++) rowIndex.fill(i, rowPtr[i]!, rowPtr[i + 1]!);
  return { rows, cols, rowIndex, colIndex: colIndex.slice(), values: values.slice() };
}
