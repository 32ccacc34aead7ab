/**
 * ELL → CSR.
 * @module
 */
import type { CsrMatrix } from './csr-matrix.js';
import type { EllMatrix } from './ell-matrix.js';
import { ELL_PADDING, ellMatrix } from './ell-matrix.js';
import { allocateFloat64, allocateInt32 } from './sparse-checks.js';

/**
 * Converts an ELL matrix to CSR, dropping the padding and keeping each row's slot order.
 *
 * @param A - the ELL matrix (validated)
 * @returns a new CSR matrix
 * @throws {@link ModprecError} as {@link ellMatrix} for an invalid `A`; `INVALID_SIZE` when the result's arrays cannot be allocated
 * @example
 * ```ts
 * import { ELL_PADDING, ellMatrix, ellToCsr } from 'modprec';
 *
 * const E = ellMatrix({ rows: 2, cols: 2, width: 2, stride: 2,
 *   colIndex: Int32Array.of(0, 1, 1, ELL_PADDING), values: Float64Array.of(2, 3, 1, 0) });
 * ellToCsr(E).rowPtr; // → Int32Array(3) [ 0, 2, 3 ]
 * ```
 * @group Sparse & IO
 */
export function ellToCsr(A: EllMatrix): CsrMatrix {
  const { rows, cols, width, stride, colIndex, values } = ellMatrix(A);
  const rowPtr = allocateInt32('rowPtr', rows + 1); // INVALID_SIZE, not a bare RangeError, when it cannot be allocated
  for (let i = 0; i < rows; i++) {
    let k = 0;
    while (k < width && colIndex[i + k * stride] !== ELL_PADDING) k++;
    rowPtr[i + 1] = rowPtr[i]! + k;
  }
  const nnz = rowPtr[rows]!;
  const csrCol = allocateInt32('colIndex', nnz);
  const csrVal = allocateFloat64('values', nnz);
  for (let i = 0; i < rows; i++) {
    for (let t = rowPtr[i]!, at = i; t < rowPtr[i + 1]!; t++, at += stride) {
      csrCol[t] = colIndex[at]!;
      csrVal[t] = values[at]!;
    }
  }
  return { rows, cols, rowPtr, colIndex: csrCol, values: csrVal };
}
