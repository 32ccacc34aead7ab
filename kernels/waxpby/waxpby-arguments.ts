/**
 * The arguments of WAXPBY and their validation, shared by the kernel and its error bound.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { checkCoefficientsIn, checkRange, checkReadableIn, checkSameLength, checkScalar } from '../shared/kernel-options.js';
import { checkNoOverlap } from '../shared/aliasing.js';

/**
 * Validates WAXPBY's arguments (nothing is read or written).
 * @throws {@link ModprecError} `INVALID_VALUE` (α or β not a number), `INVALID_OPTION` / `DIMENSION_MISMATCH` (not
 *   1-D ranges, different lengths), `INVALID_STORAGE` (read-only w, or w overlapping x or y other than as the same
 *   elements)
 */
export function checkWaxpbyArguments(
  alpha: unknown, x: unknown, beta: unknown, y: unknown, w: unknown,
): { alpha: number; x: Range<1, any>; beta: number; y: Range<1, any>; w: Range<1, any> } {
  const a = checkScalar('alpha', alpha);
  const b = checkScalar('beta', beta);
  const xr = checkRange('x', x, 1);
  const yr = checkRange('y', y, 1);
  const wr = checkRange('w', w, 1, true);
  checkSameLength('x', xr.length(), 'y', yr.length());
  checkSameLength('x', xr.length(), 'w', wr.length());
  // Element-wise: w may be x or y itself (same elements), never a shifted or differently strided view of them.
  checkNoOverlap('w', wr.accessor, [['x', xr.accessor], ['y', yr.accessor]], true);
  return { alpha: a, x: xr, beta: b, y: yr, w: wr };
}

/**
 * WAXPBY's coefficients and values in its arithmetic (an RNS one holds no NaN or ±∞), checked by the kernel on every
 * backend and by its bound: α and β where there is an element (n > 0), x only with α ≠ 0, y only with β ≠ 0.
 * @throws {@link ModprecError} `INVALID_VALUE` naming `alpha`, `beta` or the element (`y[0]`)
 */
export function checkWaxpbyValues(ar: ArithmeticFormat, alpha: number, x: Range<1, any>, beta: number, y: Range<1, any>): void {
  if (x.length() > 0) checkCoefficientsIn(ar, [['alpha', alpha], ['beta', beta]]);
  checkReadableIn(ar, [...(alpha !== 0 ? [['x', x] as const] : []), ...(beta !== 0 ? [['y', y] as const] : [])]);
}
