/**
 * Dense column-major matrices (as in BLAS/LAPACK): `A(i, j)` is `data[i + j·ld]`.
 * @module
 */
import { checkSize, fail } from '../core/errors.js';
import { checkDimension, checkFloat64Array, checkObject } from './sparse-checks.js';

/**
 * A dense matrix in column-major order with leading dimension `ld`.
 * @group Sparse & IO
 */
export interface DenseMatrix {
  /** Number of rows. */
  readonly rows: number;
  /** Number of columns. */
  readonly cols: number;
  /** Leading dimension, `≥ max(1, rows)`: distance between the starts of consecutive columns. */
  readonly ld: number;
  /** Storage; `A(i, j) = data[i + j·ld]`. At least `(cols − 1)·ld + rows` long. */
  readonly data: Float64Array;
}

/**
 * Validates the parts of a dense column-major matrix (the array is not copied).
 *
 * @param parts - `rows`, `cols`, `ld`, `data`
 * @returns a new matrix object sharing `data`
 * @throws {@link ModprecError} `INVALID_SIZE` for a bad size; `INVALID_STRIDE` when `ld < max(1, rows)`;
 *   `INVALID_STORAGE` when `data` is not a `Float64Array` or is too short
 * @example
 * ```ts
 * import { denseMatrix } from 'modprec';
 *
 * const A = denseMatrix({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 3, 2, 4) }); // [[1, 2], [3, 4]]
 * ```
 * @group Sparse & IO
 */
export function denseMatrix(parts: DenseMatrix): DenseMatrix {
  const p = checkObject('parts', parts);
  const rows = checkDimension('rows', p.rows);
  const cols = checkDimension('cols', p.cols);
  const ld = checkDimension('ld', p.ld);
  if (ld < Math.max(1, rows)) fail('INVALID_STRIDE', 'ld', `must be at least max(1, rows) = ${Math.max(1, rows)}`, ld);
  const data = checkFloat64Array('data', p.data);
  const needed = denseLength(rows, cols, ld);
  if (data.length < needed) fail('INVALID_STORAGE', 'data.length', `must be at least (cols - 1) * ld + rows = ${needed}`, data.length);
  return { rows, cols, ld, data };
}

/**
 * Number of elements a column-major `rows × cols` matrix with leading dimension `ld` spans:
 * `(cols − 1)·ld + rows`, or 0 when it has no element.
 * @param rows - number of rows
 * @param cols - number of columns
 * @param ld - leading dimension
 * @returns the minimum storage length
 * @throws {@link ModprecError} `INVALID_SIZE` for rows or cols, `INVALID_STRIDE` for ld, that is not a non-negative integer
 * @example
 * ```ts
 * import { denseLength } from 'modprec';
 *
 * denseLength(3, 2, 4); // → 7
 * denseLength(0, 5, 1); // → 0
 * ```
 * @group Sparse & IO
 */
export function denseLength(rows: number, cols: number, ld: number): number {
  checkSize('rows', rows);
  checkSize('cols', cols);
  if (typeof ld !== 'number' || !Number.isSafeInteger(ld) || ld < 0) fail('INVALID_STRIDE', 'ld', 'must be a non-negative integer', ld);
  return rows === 0 || cols === 0 ? 0 : (cols - 1) * ld + rows;
}
