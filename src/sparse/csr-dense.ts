/**
 * CSR ↔ dense column-major (mainly for tests and small examples).
 * @module
 */
import { checkDimension, checkOptions } from './sparse-checks.js';
import { fail } from '../core/errors.js';
import type { CsrMatrix } from './csr-matrix.js';
import { csrMatrix } from './csr-matrix.js';
import type { DenseMatrix } from './dense-matrix.js';
import { denseLength, denseMatrix } from './dense-matrix.js';
import { allocateFloat64, allocateInt32, checkEntryCount } from './sparse-checks.js';

/**
 * Expands a CSR matrix into a dense column-major matrix. Repeated columns in a row are added in stored order.
 *
 * @param A - the CSR matrix (validated)
 * @param options - `ld`, the leading dimension (default `max(1, rows)`)
 * @returns a new dense matrix, zero where `A` stores nothing
 * @throws {@link ModprecError} as {@link csrMatrix}; `INVALID_OPTION` naming `options` when it is not an object;
 *   `INVALID_SIZE` naming `options.ld` when it is not an integer; `INVALID_STRIDE` when `ld < max(1, rows)`;
 *   `INVALID_SIZE` when the dense array is too large to allocate
 * @example
 * ```ts
 * import { csrMatrix, csrToDense } from 'modprec';
 *
 * const A = csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 1, 2), colIndex: Int32Array.of(1, 0),
 *                       values: Float64Array.of(5, 6) });
 * csrToDense(A).data; // → Float64Array(4) [ 0, 6, 5, 0 ]
 * ```
 * @group Sparse & IO
 */
export function csrToDense(A: CsrMatrix, options: { readonly ld?: number } = {}): DenseMatrix {
  const { rows, cols, rowPtr, colIndex, values } = csrMatrix(A);
  const { ld: given } = checkOptions(options);
  const ld = given === undefined ? Math.max(1, rows) : checkDimension('options.ld', given);
  if (ld < Math.max(1, rows)) fail('INVALID_STRIDE', 'options.ld', `must be at least max(1, rows) = ${Math.max(1, rows)}`, ld);
  const data = allocateFloat64('dense matrix', denseLength(rows, cols, ld));
  let seen: Uint8Array; // first write copies, so a lone -0 entry keeps its sign
  try {
    seen = new Uint8Array(data.length);
  } catch {
    return fail('INVALID_SIZE', 'dense matrix', 'is too large to allocate', data.length);
  }
  for (let i = 0; i < rows; i++) {
    for (let t = rowPtr[i]!; t < rowPtr[i + 1]!; t++) {
      const at = i + colIndex[t]! * ld;
      if (seen[at]) data[at]! += values[t]!;
      else { data[at] = values[t]!; seen[at] = 1; }
    }
  }
  return { rows, cols, ld, data };
}

/**
 * Builds a canonical CSR matrix from the nonzero entries of a dense column-major matrix
 * (entries equal to 0, of either sign, are not stored; NaN is stored).
 *
 * @param D - the dense matrix (validated)
 * @returns a new CSR matrix with columns increasing in each row
 * @throws {@link ModprecError} as {@link denseMatrix} for an invalid `D`; `INVALID_SIZE` naming `D` when it has more
 *   than 2^31 − 1 nonzeros (the CSR's row pointers are Int32), before anything is returned
 * @example
 * ```ts
 * import { denseMatrix, denseToCsr } from 'modprec';
 *
 * // [[1, 0], [3, 4]], column-major
 * const A = denseToCsr(denseMatrix({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 3, 0, 4) }));
 * A.rowPtr; // → Int32Array(3) [ 0, 1, 3 ]
 * A.values; // → Float64Array(3) [ 1, 3, 4 ]
 * ```
 * @group Sparse & IO
 */
export function denseToCsr(D: DenseMatrix): CsrMatrix {
  const { rows, cols, ld, data } = denseMatrix(D);
  const rowPtr = allocateInt32('rowPtr', rows + 1);
  // Counted in a double and checked before each store: an Int32 running sum would wrap past 2^31 − 1 silently.
  let total = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) if (data[i + j * ld] !== 0) total++;
    checkEntryCount('D', total);
    rowPtr[i + 1] = total;
  }
  const colIndex = allocateInt32('colIndex', rowPtr[rows]!);
  const values = allocateFloat64('values', rowPtr[rows]!);
  for (let i = 0; i < rows; i++) {
    let t = rowPtr[i]!;
    for (let j = 0; j < cols; j++) {
      const v = data[i + j * ld]!;
      if (v !== 0) { colIndex[t] = j; values[t] = v; t++; }
    }
  }
  return { rows, cols, rowPtr, colIndex, values };
}
