/**
 * Coordinate (COO) sparse matrices: one `(row, col, value)` triple per stored entry.
 *
 * COO is the assembly format: entries may come in any order and the same position may appear
 * more than once. Duplicates mean "add these": every conversion out of COO ({@link cooToCsr})
 * sums them, in the order they are stored.
 *
 * @module
 */
import { checkDimension, checkEntryCount, checkFloat64Array, checkIndices, checkInt32Array, checkLength, checkObject } from './sparse-checks.js';

/**
 * A sparse matrix in coordinate format. Entry `k` is `A(rowIndex[k], colIndex[k]) += values[k]` (0-based).
 * @group Sparse & IO
 */
export interface CooMatrix {
  /** Number of rows. */
  readonly rows: number;
  /** Number of columns. */
  readonly cols: number;
  /** Row index of every stored entry, `0 … rows − 1`. */
  readonly rowIndex: Int32Array;
  /** Column index of every stored entry, `0 … cols − 1`. */
  readonly colIndex: Int32Array;
  /** Value of every stored entry (any double, explicit zeros and non-finite values included). */
  readonly values: Float64Array;
}

/**
 * Validates the parts of a COO matrix and returns them as a {@link CooMatrix} (the arrays are not copied).
 *
 * @param parts - `rows`, `cols`, `rowIndex`, `colIndex`, `values`
 * @returns a new matrix object sharing the given arrays
 * @throws {@link ModprecError} `INVALID_SIZE` for a bad `rows`/`cols`; `INVALID_STORAGE` for arrays of the
 *   wrong type; `DIMENSION_MISMATCH` when the three arrays differ in length; `INDEX_OUT_OF_RANGE` for an
 *   index outside the matrix (the message names the position, e.g. `colIndex[3]`); `INVALID_SIZE` naming `values`
 *   for more than 2^31 − 1 entries (the CSR row pointers it converts to are Int32)
 * @example
 * ```ts
 * import { cooMatrix } from 'modprec';
 *
 * // [[1, 0], [0, 2]] with the (0,0) entry given as 0.5 + 0.5
 * const A = cooMatrix({ rows: 2, cols: 2, rowIndex: Int32Array.of(0, 1, 0), colIndex: Int32Array.of(0, 1, 0),
 *                       values: Float64Array.of(0.5, 2, 0.5) });
 * ```
 * @group Sparse & IO
 */
export function cooMatrix(parts: CooMatrix): CooMatrix {
  const p = checkObject('parts', parts);
  const rows = checkDimension('rows', p.rows);
  const cols = checkDimension('cols', p.cols);
  const rowIndex = checkInt32Array('rowIndex', p.rowIndex);
  const colIndex = checkInt32Array('colIndex', p.colIndex);
  const values = checkFloat64Array('values', p.values);
  checkLength('colIndex.length', colIndex.length, rowIndex.length, 'rowIndex.length');
  checkLength('values.length', values.length, rowIndex.length, 'rowIndex.length');
  checkEntryCount('values', values.length);
  checkIndices('rowIndex', rowIndex, rows);
  checkIndices('colIndex', colIndex, cols);
  return { rows, cols, rowIndex, colIndex, values };
}
