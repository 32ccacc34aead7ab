/**
 * ELLPACK (ELL) sparse matrices in Ginkgo's layout.
 *
 * Every row gets the same number of slots, `width` (the longest row's length). Slot `k` of row `i`
 * lives at `i + k·stride`: the slots are stored column-major, so at a fixed `k` consecutive rows are
 * consecutive in memory and GPU threads (one per row) read coalesced. A row's entries come first; the
 * unused slots after them are padding, marked by the column index {@link ELL_PADDING} and the value 0.
 * Rows `rows … stride − 1` (present when `stride` is rounded up, e.g. to a multiple of 32) are all padding.
 *
 * ```text
 *  A = [ a . b ]      width = 2, stride = 4 (rows = 3 rounded up to a multiple of 4)
 *      [ . c . ]
 *      [ d e . ]      colIndex  = [ 0  1  0 -1 | 2 -1  1 -1 ]
 *                     values    = [ a  c  d  0 | b  0  e  0 ]
 *                                   k = 0         k = 1
 * ```
 *
 * The structure ({@link EllStructure}) is kept apart from the values so a kernel can pair it with
 * values held in any storage format.
 *
 * @module
 */
import { fail } from '../core/errors.js';
import { checkDimension, checkFloat64Array, checkInt32Array, checkLength, checkObject } from './sparse-checks.js';

/**
 * Column index marking an unused ELL slot (its value is 0).
 * @group Sparse & IO
 */
export const ELL_PADDING = -1;

/**
 * The index part of an ELL matrix: sizes, layout and column indices, no values.
 * @group Sparse & IO
 */
export interface EllStructure {
  /** Number of rows. */
  readonly rows: number;
  /** Number of columns. */
  readonly cols: number;
  /** Slots per row (K): at least the longest row's entry count. */
  readonly width: number;
  /** Leading dimension of the column-major slot arrays, `≥ rows`; slot `k` of row `i` is at `i + k·stride`. */
  readonly stride: number;
  /** `stride·width` column indices, {@link ELL_PADDING} in unused slots. */
  readonly colIndex: Int32Array;
}

/**
 * An ELL matrix with double-precision values.
 * @group Sparse & IO
 */
export interface EllMatrix extends EllStructure {
  /** `stride·width` values, 0 in padding slots. */
  readonly values: Float64Array;
}

/**
 * Validates the structure of an ELL matrix: sizes, `stride ≥ rows`, `colIndex.length = stride·width`,
 * every column index inside the matrix or {@link ELL_PADDING}, padding only after a row's entries, and
 * rows `rows … stride − 1` made of padding only.
 *
 * @param parts - `rows`, `cols`, `width`, `stride`, `colIndex`
 * @returns a new structure object sharing `colIndex`
 * @throws {@link ModprecError} `INVALID_SIZE` for a bad `rows`/`cols`/`width`; `INVALID_STRIDE` when
 *   `stride < rows`; `INVALID_STORAGE` when `colIndex` is not an `Int32Array`; `DIMENSION_MISMATCH` for a
 *   wrong length; `INDEX_OUT_OF_RANGE` for a column outside `-1 … cols − 1`; `INVALID_VALUE` for an entry
 *   after padding in the same row, or an entry in a row at or beyond `rows`
 * @example
 * ```ts
 * import { ELL_PADDING, ellStructure } from 'modprec';
 *
 * // [[2, 1], [0, 3]]: width 2, row 1 padded
 * const S = ellStructure({ rows: 2, cols: 2, width: 2, stride: 2, colIndex: Int32Array.of(0, 1, 1, ELL_PADDING) });
 * S.width; // → 2
 * ```
 * @group Sparse & IO
 */
export function ellStructure(parts: EllStructure): EllStructure {
  const shape = ellShape(parts, 'parts');
  checkEllSlots(shape.colIndex, shape);
  return shape;
}

/** The O(1) checks of {@link ellStructure}: sizes, stride and the length of `colIndex` (not the indices themselves). */
function ellShape(parts: EllStructure, name: string): EllStructure {
  const p = checkObject(name, parts);
  const rows = checkDimension('rows', p.rows);
  const cols = checkDimension('cols', p.cols);
  const width = checkDimension('width', p.width);
  const stride = checkDimension('stride', p.stride);
  if (stride < rows) fail('INVALID_STRIDE', 'stride', `must be at least rows = ${rows}`, stride);
  const colIndex = checkInt32Array('colIndex', p.colIndex);
  checkLength('colIndex.length', colIndex.length, stride * width, 'stride * width');
  return { rows, cols, width, stride, colIndex };
}

/**
 * Checks an ELL structure's column indices slot by slot (the shape already checked): every index inside the matrix
 * or {@link ELL_PADDING}, padding only after a row's entries, rows `rows … stride − 1` padding only. The one check
 * {@link ellStructure} and the GPU's upload (`toDeviceEll`, which names the indices `A.colIndex`) share.
 * @param colIndex - at least stride·width indices, slot k of row i at i + k·stride
 * @param shape - rows, cols, width, stride
 * @param name - the indices' parameter name in errors (default `colIndex`)
 * @throws {@link ModprecError} `INDEX_OUT_OF_RANGE` for a column outside `-1 … cols − 1`; `INVALID_VALUE` for an entry
 *   after padding in the same row, or an entry in a row at or beyond `rows`
 */
export function checkEllSlots(colIndex: ArrayLike<number>, shape: { rows: number; cols: number; width: number; stride: number }, name = 'colIndex'): void {
  const { rows, cols, width, stride } = shape;
  for (let i = 0; i < stride; i++) {
    let padded = i >= rows; // rows added by rounding the stride up hold padding only
    for (let k = 0; k < width; k++) {
      const at = i + k * stride;
      const col = colIndex[at]!;
      if (col === ELL_PADDING) {
        padded = true;
      } else if (col < 0 || col >= cols) {
        fail('INDEX_OUT_OF_RANGE', `${name}[${at}]`, `(row ${i}, slot ${k}) must lie in 0..${cols - 1} or be ELL_PADDING = -1`, col);
      } else if (padded) {
        const where = i >= rows ? `is in row ${i} beyond rows = ${rows}, which must be padding` : `(row ${i}, slot ${k}) follows padding; padding must come last in a row`;
        fail('INVALID_VALUE', `${name}[${at}]`, where, col);
      }
    }
  }
}

/**
 * Validates an ELL matrix: its structure (see {@link ellStructure}) and its values, which must have
 * length `stride·width` and be 0 in every padding slot.
 *
 * @param parts - `rows`, `cols`, `width`, `stride`, `colIndex`, `values`
 * @returns a new matrix object sharing the given arrays
 * @throws {@link ModprecError} as {@link ellStructure}; also `INVALID_STORAGE` when `values` is not a
 *   `Float64Array`, `DIMENSION_MISMATCH` for its length, `INVALID_VALUE` for a nonzero padding value
 * @example
 * ```ts
 * import { ELL_PADDING, ellMatrix } from 'modprec';
 *
 * // [[2, 1], [0, 3]]: width 2, row 1 padded
 * const A = ellMatrix({ rows: 2, cols: 2, width: 2, stride: 2,
 *   colIndex: Int32Array.of(0, 1, 1, ELL_PADDING), values: Float64Array.of(2, 3, 1, 0) });
 * ```
 * @group Sparse & IO
 */
export function ellMatrix(parts: EllMatrix): EllMatrix {
  const structure = ellStructure(parts);
  const values = checkFloat64Array('values', parts.values);
  checkLength('values.length', values.length, structure.colIndex.length, 'stride * width');
  const { colIndex } = structure;
  for (let at = 0; at < colIndex.length; at++) {
    if (colIndex[at] === ELL_PADDING && values[at] !== 0) {
      fail('INVALID_VALUE', `values[${at}]`, 'must be 0 in a padding slot (colIndex = ELL_PADDING)', values[at]);
    }
  }
  return { ...structure, values };
}

/**
 * Number of entries (non-padding slots) in row `i`.
 * @param A - an ELL structure (its sizes, stride and `colIndex` length are checked, as {@link ellStructure}; not each
 *   index, which would make a loop over the rows quadratic)
 * @param i - row, `0 … rows − 1`
 * @returns the count of slots of row `i` whose column is not {@link ELL_PADDING}
 * @throws {@link ModprecError} as {@link ellStructure} for a bad shape; `INDEX_OUT_OF_RANGE` for an `i` outside the rows
 * @example
 * ```ts
 * import { ELL_PADDING, ellStructure, ellRowLength } from 'modprec';
 *
 * const S = ellStructure({ rows: 2, cols: 2, width: 2, stride: 2, colIndex: Int32Array.of(0, 1, 1, ELL_PADDING) });
 * ellRowLength(S, 0); // → 2
 * ellRowLength(S, 1); // → 1
 * ```
 * @group Sparse & IO
 */
export function ellRowLength(A: EllStructure, i: number): number {
  A = ellShape(A, 'A');
  if (!Number.isSafeInteger(i) || i < 0 || i >= A.rows) fail('INDEX_OUT_OF_RANGE', 'i', `must be an integer in 0..${A.rows - 1}`, i);
  let k = 0;
  while (k < A.width && A.colIndex[i + k * A.stride] !== ELL_PADDING) k++;
  return k;
}
