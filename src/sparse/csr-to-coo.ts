/**
 * CSR → COO.
 * @module
 */
import type { CooMatrix } from './coo-matrix.js';
import type { CsrMatrix } from './csr-matrix.js';
import { csrMatrix } from './csr-matrix.js';
import { allocateFloat64, allocateInt32 } from './sparse-checks.js';

/**
 * Converts a CSR matrix to COO, keeping the entry order (row by row, columns as stored).
 *
 * @param A - the CSR matrix (validated)
 * @returns a new COO matrix with copies of `colIndex` and `values`
 * @throws {@link ModprecError} as {@link csrMatrix} for an invalid `A`; `INVALID_SIZE` when the result's arrays cannot be allocated
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
  const rowIndex = allocateInt32('rowIndex', colIndex.length); // INVALID_SIZE, not a bare RangeError
  for (let i = 0; i < rows; i++) rowIndex.fill(i, rowPtr[i]!, rowPtr[i + 1]!);
  const colCopy = allocateInt32('colIndex', colIndex.length), valueCopy = allocateFloat64('values', values.length);
  colCopy.set(colIndex);
  valueCopy.set(values);
  return { rows, cols, rowIndex, colIndex: colCopy, values: valueCopy };
}
