/**
 * The arguments of AXPY and their validation, shared by the kernel and its error bound.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { checkCoefficientsIn, checkRange, checkReadableIn, checkSameLength, checkScalar } from '../shared/kernel-options.js';
import { checkNoOverlap } from '../shared/aliasing.js';

/**
 * Validates AXPY's arguments (nothing is read or written).
 * @throws {@link ModprecError} `INVALID_VALUE` (α not a number), `INVALID_OPTION` / `DIMENSION_MISMATCH` (not 1-D
 *   ranges, different lengths), `INVALID_STORAGE` (read-only y, or y overlapping x other than as the same elements)
 */
export function checkAxpyArguments(alpha: unknown, x: unknown, y: unknown): { alpha: number; x: Range<1, any>; y: Range<1, any> } {
  const a = checkScalar('alpha', alpha);
  const xr = checkRange('x', x, 1);
  const yr = checkRange('y', y, 1, true);
  checkSameLength('x', xr.length(), 'y', yr.length());
  // Element-wise: y may be x itself (same elements), never a shifted or differently strided view of its memory.
  checkNoOverlap('y', yr.accessor, [['x', xr.accessor]], true);
  return { alpha: a, x: xr, y: yr };
}

/**
 * AXPY's coefficient and values in its arithmetic (an RNS one holds no NaN or ±∞), checked by the kernel on every
 * backend and by its bound: α only where it multiplies (n > 0, α ≠ 0), x and y only where they are read (α ≠ 0: α = 0
 * returns at once).
 * @throws {@link ModprecError} `INVALID_VALUE` naming `alpha` or the element (`x[2]`)
 */
export function checkAxpyValues(ar: ArithmeticFormat, alpha: number, x: Range<1, any>, y: Range<1, any>): void {
  if (x.length() > 0 && alpha !== 0) checkCoefficientsIn(ar, [['alpha', alpha]]);
  if (alpha !== 0) checkReadableIn(ar, [['x', x], ['y', y]]);
}
