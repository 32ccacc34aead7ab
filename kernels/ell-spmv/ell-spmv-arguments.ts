/**
 * The arguments of ELL SpMV and their validation, shared by the kernel and its error bound.
 * @module
 */
import { checkNoOverlap } from '../shared/aliasing.js';
import { Range } from '../../src/core/range.js';
import type { EllMatrix } from '../../src/sparse/ell-matrix.js';
import { fail } from '../../src/core/errors.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { checkCoefficientsIn, checkRange, checkReadableIn, checkScalar } from '../shared/kernel-options.js';
import { EllOperand, ellFromMatrix } from './ell-operand.js';

/**
 * Arguments of {@link ellSpmv}: y := α·A·x + β·y.
 * @group Kernels
 */
export interface EllSpmvArguments {
  /** The coefficient α. */
  alpha: number;
  /**
   * The matrix: an {@link EllOperand} (validated once when built; values in any storage), or a plain fp64
   * {@link EllMatrix} (validated on every call).
   */
  A: EllOperand | EllMatrix;
  /** The vector multiplied, of length cols. */
  x: Range<1, any>;
  /** The coefficient β (β = 0: y is not read). */
  beta: number;
  /** The vector updated, of length rows; writable. */
  y: Range<1, any>;
}

/** Validated ELL SpMV arguments. */
export interface CheckedEllSpmv {
  readonly alpha: number;
  readonly beta: number;
  readonly A: EllOperand;
  readonly x: Range<1, any>;
  readonly y: Range<1, any>;
}

/**
 * Validates ELL SpMV arguments (nothing is read or written but A's structure, when a plain matrix).
 * @throws {@link ModprecError} `INVALID_OPTION` (not an object, not a range), `INVALID_VALUE` (α or β not a
 *   number), `DIMENSION_MISMATCH` (lengths), `INVALID_STORAGE` (read-only y, or y overlapping A's values or
 *   column indices or x in memory), and for a plain matrix as
 *   {@link ellMatrix} (e.g. `INDEX_OUT_OF_RANGE` for a column index outside the matrix)
 */
export function checkEllSpmvArguments(args: EllSpmvArguments): CheckedEllSpmv {
  if (typeof args !== 'object' || args === null) fail('INVALID_OPTION', 'arguments', 'must be an object { alpha, A, x, beta, y }', args);
  const alpha = checkScalar('alpha', args.alpha);
  const beta = checkScalar('beta', args.beta);
  // A dense range has no ELL structure: named as A, not as the structure's first missing field ('rows').
  if (typeof args.A !== 'object' || args.A === null || args.A instanceof Range) fail('INVALID_OPTION', 'A', 'must be an EllOperand or an EllMatrix (a dense range is GEMV\'s operand)', args.A);
  const A = args.A instanceof EllOperand ? args.A : ellFromMatrix(args.A);
  const x = checkRange('x', args.x, 1);
  const y = checkRange('y', args.y, 1, true);
  if (x.length() !== A.cols) fail('DIMENSION_MISMATCH', 'x', `must have length ${A.cols} (the columns of A, ${A.rows}×${A.cols})`, x.length());
  if (y.length() !== A.rows) fail('DIMENSION_MISMATCH', 'y', `must have length ${A.rows} (the rows of A, ${A.rows}×${A.cols})`, y.length());
  // y is written row by row while A and x are still read: no element of y may share memory with them.
  checkNoOverlap('y', y.accessor, [['A.values', A.values.accessor], ['A.colIndex', A.structure.colIndex], ['x', x.accessor]]);
  return { alpha, beta, A, x, y };
}

/**
 * α, β and the values ELL SpMV reads, checked in its arithmetic (an RNS one holds no NaN or ±∞) on every backend
 * and by its bound: none without rows or with α = 0, β = 1 (which return at once); α only with a stored entry; A's
 * values and x only with α ≠ 0, y only with β ≠ 0.
 * @throws {@link ModprecError} `INVALID_VALUE` naming the coefficient or the element
 */
export function checkEllValues(ar: ArithmeticFormat, alpha: number, beta: number, A: EllOperand, x: Range<1, any>, y: Range<1, any>): void {
  const { rows, cols, width } = A.structure;
  if (rows === 0 || (alpha === 0 && beta === 1)) return;
  checkCoefficientsIn(ar, [...(cols > 0 && width > 0 ? [['alpha', alpha] as const] : []), ['beta', beta]]);
  checkReadableIn(ar, [...(alpha !== 0 ? [['A.values', A.values], ['x', x]] as const : []), ...(beta !== 0 ? [['y', y] as const] : [])]);
}
