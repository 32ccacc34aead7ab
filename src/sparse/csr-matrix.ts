/**
 * Compressed sparse row (CSR) matrices.
 *
 * Row `i` owns the entries `rowPtr[i] … rowPtr[i + 1] − 1` of `colIndex` and `values`. The conversions
 * in this folder produce *canonical* CSR (columns strictly increasing within each row); the constructor
 * accepts any order and repeated columns, which mean "add these", as in COO.
 *
 * @module
 */
import { fail } from '../core/errors.js';
import { checkDimension, checkFloat64Array, checkIndices, checkInt32Array, checkLength, checkObject } from './sparse-checks.js';

/**
 * A sparse matrix in compressed sparse row format (0-based indices).
 * @group Sparse & IO
 */
export interface CsrMatrix {
  /** Number of rows. */
  readonly rows: number;
  /** Number of columns. */
  readonly cols: number;
  /** `rows + 1` offsets: row `i` is `rowPtr[i] … rowPtr[i+1] − 1`; starts at 0, ends at the entry count. */
  readonly rowPtr: Int32Array;
  /** Column index of every stored entry. */
  readonly colIndex: Int32Array;
  /** Value of every stored entry. */
  readonly values: Float64Array;
}

/**
 * Validates the parts of a CSR matrix and returns them as a {@link CsrMatrix} (the arrays are not copied).
 *
 * @param parts - `rows`, `cols`, `rowPtr`, `colIndex`, `values`
 * @returns a new matrix object sharing the given arrays
 * @throws {@link ModprecError} `INVALID_SIZE` for a bad `rows`/`cols`; `INVALID_STORAGE` for arrays of the
 *   wrong type; `DIMENSION_MISMATCH` when `rowPtr.length ≠ rows + 1`, when `colIndex` and `values` differ in
 *   length or when `rowPtr[rows]` is not that length; `INVALID_VALUE` when `rowPtr[0] ≠ 0` or `rowPtr`
 *   decreases; `INDEX_OUT_OF_RANGE` for a column outside the matrix
 * @example
 * ```ts
 * import { csrMatrix } from 'modprec';
 *
 * // [[4, -1], [-1, 4]]
 * const A = csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 2, 4), colIndex: Int32Array.of(0, 1, 0, 1),
 *                       values: Float64Array.of(4, -1, -1, 4) });
 * ```
 * @group Sparse & IO
 */
export function csrMatrix(parts: CsrMatrix): CsrMatrix {
  const p = checkObject('parts', parts);
  const rows = checkDimension('rows', p.rows);
  const cols = checkDimension('cols', p.cols);
  const rowPtr = checkInt32Array('rowPtr', p.rowPtr);
  const colIndex = checkInt32Array('colIndex', p.colIndex);
  const values = checkFloat64Array('values', p.values);
  checkLength('rowPtr.length', rowPtr.length, rows + 1, 'rows + 1');
  checkLength('values.length', values.length, colIndex.length, 'colIndex.length');
  if (rowPtr[0] !== 0) fail('INVALID_VALUE', 'rowPtr[0]', 'must be 0', rowPtr[0]);
  for (let i = 0; i < rows; i++) {
    if (rowPtr[i + 1]! < rowPtr[i]!) {
      fail('INVALID_VALUE', `rowPtr[${i + 1}]`, `must be at least rowPtr[${i}] = ${rowPtr[i]} (rowPtr never decreases)`, rowPtr[i + 1]);
    }
  }
  checkLength(`rowPtr[${rows}]`, rowPtr[rows]!, colIndex.length, 'colIndex.length');
  checkIndices('colIndex', colIndex, cols);
  return { rows, cols, rowPtr, colIndex, values };
}

/**
 * Largest number of stored entries in one row (0 for a matrix without rows).
 * @param A - the CSR matrix (validated)
 * @returns `max_i (rowPtr[i+1] − rowPtr[i])`
 * @throws {@link ModprecError} as {@link csrMatrix} for an invalid `A`
 * @example
 * ```ts
 * import { csrMatrix, csrMaxRowLength } from 'modprec';
 *
 * // [[4, -1, 0], [-1, 4, -1], [0, -1, 4]]
 * const A = csrMatrix({ rows: 3, cols: 3, rowPtr: Int32Array.of(0, 2, 5, 7), colIndex: Int32Array.of(0, 1, 0, 1, 2, 1, 2),
 *                       values: Float64Array.of(4, -1, -1, 4, -1, -1, 4) });
 * csrMaxRowLength(A); // → 3
 * ```
 * @group Sparse & IO
 */
export function csrMaxRowLength(A: CsrMatrix): number {
  // Validated: a rows of 2^40 with a short rowPtr looped for hours on undefined entries.
  return maxRowLength(csrMatrix(A));
}

/** {@link csrMaxRowLength} of a matrix already validated. */
export function maxRowLength(A: CsrMatrix): number {
  let width = 0;
  for (let i = 0; i < A.rows; i++) width = Math.max(width, A.rowPtr[i + 1]! - A.rowPtr[i]!);
  return width;
}
