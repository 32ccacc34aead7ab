/**
 * CSR / COO → ELL.
 * @module
 */
import type { CooMatrix } from './coo-matrix.js';
import { cooToCsr } from './coo-to-csr.js';
import type { CsrMatrix } from './csr-matrix.js';
import { csrMatrix, maxRowLength } from './csr-matrix.js';
import type { EllMatrix } from './ell-matrix.js';
import { ELL_PADDING } from './ell-matrix.js';
import type { EllLayoutOptions } from './ell-layout.js';
import { resolveEllStride, resolveEllWidth } from './ell-layout.js';
import { allocateFloat64, allocateInt32 } from './sparse-checks.js';

/**
 * Converts a CSR matrix to ELL, keeping each row's entries in their CSR order (so a row-wise SpMV adds
 * the same products in the same order in both formats).
 *
 * @param A - the CSR matrix (validated)
 * @param options - `stride` or `strideMultiple` (e.g. 32 for a GPU), and `width` (default: the longest row)
 * @returns a new ELL matrix
 * @throws {@link ModprecError} as {@link csrMatrix} for an invalid `A`; as {@link resolveEllStride} and
 *   {@link resolveEllWidth} for bad options; `INVALID_SIZE` when `stride·width` is too large to allocate
 * @example
 * ```ts
 * import { csrMatrix, csrToEll } from 'modprec';
 *
 * const A = csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 2, 3), colIndex: Int32Array.of(0, 1, 1),
 *                       values: Float64Array.of(4, -1, 4) });
 * const E = csrToEll(A, { strideMultiple: 32 });
 * E.stride; // → 32
 * E.width; // → 2
 * ```
 * @group Sparse & IO
 */
export function csrToEll(A: CsrMatrix, options: EllLayoutOptions = {}): EllMatrix {
  const checked = csrMatrix(A);
  const { rows, cols, rowPtr, colIndex, values } = checked;
  const stride = resolveEllStride(rows, options);
  const width = resolveEllWidth(maxRowLength(checked), options);
  const ellCol = allocateInt32('stride * width', stride * width).fill(ELL_PADDING);
  const ellVal = allocateFloat64('stride * width', stride * width);
  for (let i = 0; i < rows; i++) {
    for (let t = rowPtr[i]!, at = i; t < rowPtr[i + 1]!; t++, at += stride) {
      ellCol[at] = colIndex[t]!;
      ellVal[at] = values[t]!;
    }
  }
  return { rows, cols, width, stride, colIndex: ellCol, values: ellVal };
}

/**
 * Converts a COO matrix to ELL through canonical CSR (duplicates summed, columns increasing in a row).
 *
 * @param A - the COO matrix (validated)
 * @param options - as {@link csrToEll}
 * @returns a new ELL matrix
 * @throws {@link ModprecError} as {@link cooToCsr} and {@link csrToEll}
 * @example
 * ```ts
 * import { cooMatrix, cooToEll } from 'modprec';
 *
 * // [[1, 0], [0, 2]] with the (0,0) entry given as 0.5 + 0.5: duplicates are summed
 * const A = cooMatrix({ rows: 2, cols: 2, rowIndex: Int32Array.of(0, 1, 0), colIndex: Int32Array.of(0, 1, 0),
 *                       values: Float64Array.of(0.5, 2, 0.5) });
 * const E = cooToEll(A);
 * E.width; // → 1
 * E.values; // → Float64Array(2) [ 1, 2 ]
 * ```
 * @group Sparse & IO
 */
export function cooToEll(A: CooMatrix, options: EllLayoutOptions = {}): EllMatrix {
  return csrToEll(cooToCsr(A), options);
}
