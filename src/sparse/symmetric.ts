/**
 * Symmetric and skew-symmetric matrices stored by their lower triangle.
 *
 * Matrix Market files (and many solvers) store a symmetric matrix by the entries on and below the
 * diagonal, and a skew-symmetric one (`Aᵀ = −A`, so its diagonal is zero) by the entries below it.
 * These helpers expand such a triangle into the full matrix, test a full matrix for (skew-)symmetry
 * exactly, and extract the triangle again.
 *
 * @module
 */
import { fail } from '../core/errors.js';
import type { CooMatrix } from './coo-matrix.js';
import { cooMatrix } from './coo-matrix.js';
import { cooToCsr } from './coo-to-csr.js';
import { csrToCoo } from './csr-to-coo.js';
import type { CsrMatrix } from './csr-matrix.js';
import { csrMatrix } from './csr-matrix.js';
import { csrTranspose } from './csr-transpose.js';
import { allocateFloat64, allocateInt32, booleanOption, checkOptions } from './sparse-checks.js';

/**
 * A symmetry that lets a square matrix be stored by its lower triangle.
 * @group Sparse & IO
 */
export type TriangleSymmetry = 'symmetric' | 'skew-symmetric';

function checkSymmetry(symmetry: unknown): TriangleSymmetry {
  if (symmetry !== 'symmetric' && symmetry !== 'skew-symmetric') {
    fail('INVALID_OPTION', 'symmetry', "must be 'symmetric' or 'skew-symmetric'", symmetry);
  }
  return symmetry;
}

/**
 * Expands the lower triangle of a symmetric or skew-symmetric matrix into the full matrix.
 *
 * Each stored entry `(i, j, v)` is kept, and when `i ≠ j` its mirror `(j, i, v)` (symmetric) or
 * `(j, i, −v)` (skew-symmetric) follows it directly. Diagonal entries are kept once; in a skew-symmetric
 * matrix they must be zero (an explicit zero is kept as a stored entry).
 *
 * @param L - the stored triangle: every entry has `row ≥ col`
 * @param symmetry - `'symmetric'` or `'skew-symmetric'`
 * @returns a new COO matrix holding both triangles
 * @throws {@link ModprecError} as {@link cooMatrix}; `DIMENSION_MISMATCH` when `L` is not square;
 *   `INDEX_OUT_OF_RANGE` for an entry above the diagonal; `INVALID_VALUE` for a nonzero diagonal entry
 *   of a skew-symmetric matrix; `INVALID_OPTION` for an unknown `symmetry`
 * @example
 * ```ts
 * import { cooMatrix, expandTriangleCoo } from 'modprec';
 *
 * // lower triangle of [[2, 1], [1, 2]]
 * const L = cooMatrix({ rows: 2, cols: 2, rowIndex: Int32Array.of(0, 1, 1), colIndex: Int32Array.of(0, 0, 1),
 *                       values: Float64Array.of(2, 1, 2) });
 * expandTriangleCoo(L, 'symmetric').values; // → Float64Array(4) [ 2, 1, 1, 2 ]
 * ```
 * @group Sparse & IO
 */
export function expandTriangleCoo(L: CooMatrix, symmetry: TriangleSymmetry): CooMatrix {
  const { rows, cols, rowIndex, colIndex, values } = cooMatrix(L);
  const skew = checkSymmetry(symmetry) === 'skew-symmetric';
  if (rows !== cols) fail('DIMENSION_MISMATCH', 'L.cols', `must equal L.rows = ${rows} (a ${symmetry} matrix is square)`, cols);
  let offDiagonal = 0;
  for (let k = 0; k < rowIndex.length; k++) {
    const i = rowIndex[k]!, j = colIndex[k]!;
    if (i < j) fail('INDEX_OUT_OF_RANGE', `L.colIndex[${k}]`, `must be at most the row ${i} (only the lower triangle is stored)`, j);
    if (i !== j) offDiagonal++;
    else if (skew && values[k] !== 0) fail('INVALID_VALUE', `L.values[${k}]`, `(diagonal entry ${i}) must be 0 in a skew-symmetric matrix`, values[k]);
  }
  const nnz = rowIndex.length + offDiagonal;
  const outRow = allocateInt32('expanded rowIndex', nnz);
  const outCol = allocateInt32('expanded colIndex', nnz);
  const outVal = allocateFloat64('expanded values', nnz);
  let out = 0;
  for (let k = 0; k < rowIndex.length; k++) {
    const i = rowIndex[k]!, j = colIndex[k]!, v = values[k]!;
    outRow[out] = i; outCol[out] = j; outVal[out] = v; out++;
    if (i !== j) { outRow[out] = j; outCol[out] = i; outVal[out] = skew ? -v : v; out++; }
  }
  return { rows, cols, rowIndex: outRow, colIndex: outCol, values: outVal };
}

/**
 * Tests exactly whether a square matrix is symmetric (`A(i,j) = A(j,i)`) or skew-symmetric
 * (`A(i,j) = −A(j,i)`, zero diagonal), after summing repeated entries.
 *
 * The pattern counts: an explicit entry at `(i, j)` needs an explicit entry at `(j, i)`. Values are
 * compared with `Object.is` for symmetry, so `+0` and `−0` differ and NaN matches NaN — the test a lossless
 * lower-triangle file needs. For skew-symmetry `A(i,j) = −A(j,i)` is tested numerically (NaN matches NaN,
 * and a zero matches a zero of either sign, because `x + (−x)` is `+0` whichever sign `x` has); diagonal
 * entries must be `±0`.
 *
 * @param A - the CSR matrix (validated)
 * @param symmetry - `'symmetric'` (default) or `'skew-symmetric'`
 * @returns whether `A` has that symmetry; `false` for a non-square matrix
 * @throws {@link ModprecError} as {@link csrMatrix}; `INVALID_OPTION` for an unknown `symmetry`
 * @example
 * ```ts
 * import { csrMatrix, isSymmetricCsr } from 'modprec';
 *
 * const A = csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 2, 4), colIndex: Int32Array.of(0, 1, 0, 1),
 *                       values: Float64Array.of(4, -1, -1, 4) });
 * isSymmetricCsr(A); // → true
 * isSymmetricCsr(A, 'skew-symmetric'); // → false
 * ```
 * @group Sparse & IO
 */
export function isSymmetricCsr(A: CsrMatrix, symmetry: TriangleSymmetry = 'symmetric'): boolean {
  csrMatrix(A);
  const skew = checkSymmetry(symmetry) === 'skew-symmetric';
  if (A.rows !== A.cols) return false;
  const C = cooToCsr(csrToCoo(A));
  const T = csrTranspose(C);
  for (let i = 0; i <= C.rows; i++) if (C.rowPtr[i] !== T.rowPtr[i]) return false;
  for (let i = 0; i < C.rows; i++) {
    for (let t = C.rowPtr[i]!; t < C.rowPtr[i + 1]!; t++) {
      const j = C.colIndex[t]!;
      if (T.colIndex[t] !== j) return false;
      const v = C.values[t]!, w = T.values[t]!;
      // Skew: x + (−x) rounds to +0, so a cancelled sum and its negated mirror can both be +0; zeros of
      // either sign therefore count as negatives of each other.
      const ok = !skew ? Object.is(v, w) : i === j ? v === 0 : v === -w || (v !== v && w !== w);
      if (!ok) return false;
    }
  }
  return true;
}

/**
 * The lower triangle of a matrix as canonical CSR (repeated entries summed, columns increasing).
 *
 * @param A - the CSR matrix (validated)
 * @param options - `includeDiagonal` (default `true`)
 * @returns a new CSR matrix of the same size holding the entries with `col ≤ row` (`col < row` without the diagonal)
 * @throws {@link ModprecError} as {@link csrMatrix}; `INVALID_SIZE` when the result's arrays cannot be allocated;
 *   `INVALID_OPTION` naming `options` when it is not an object,
 *   `options.includeDiagonal` when it is given and not a boolean
 * @example
 * ```ts
 * import { csrMatrix, csrLowerTriangle } from 'modprec';
 *
 * const A = csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 2, 4), colIndex: Int32Array.of(0, 1, 0, 1),
 *                       values: Float64Array.of(4, -1, -1, 4) });
 * csrLowerTriangle(A).values; // → Float64Array(3) [ 4, -1, 4 ]
 * csrLowerTriangle(A, { includeDiagonal: false }).values; // → Float64Array(1) [ -1 ]
 * ```
 * @group Sparse & IO
 */
export function csrLowerTriangle(A: CsrMatrix, options: { readonly includeDiagonal?: boolean } = {}): CsrMatrix {
  const diagonal = booleanOption('options.includeDiagonal', checkOptions(options).includeDiagonal, true);
  const C = cooToCsr(csrToCoo(A));
  const rowPtr = allocateInt32('rowPtr', C.rows + 1); // INVALID_SIZE, not a bare RangeError
  let count = 0;
  for (let i = 0; i < C.rows; i++) {
    for (let t = C.rowPtr[i]!; t < C.rowPtr[i + 1]!; t++) {
      const j = C.colIndex[t]!;
      if (j < i || (diagonal && j === i)) count++;
    }
    rowPtr[i + 1] = count;
  }
  const colIndex = allocateInt32('colIndex', count);
  const values = allocateFloat64('values', count);
  let out = 0;
  for (let i = 0; i < C.rows; i++) {
    for (let t = C.rowPtr[i]!; t < C.rowPtr[i + 1]!; t++) {
      const j = C.colIndex[t]!;
      if (j < i || (diagonal && j === i)) { colIndex[out] = j; values[out] = C.values[t]!; out++; }
    }
  }
  return { rows: C.rows, cols: C.cols, rowPtr, colIndex, values };
}
