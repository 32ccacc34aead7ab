/**
 * The arguments of SCAL and their validation, shared by the kernel and its error bound.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { checkCoefficientsIn, checkRange, checkReadableIn, checkScalar } from '../shared/kernel-options.js';
import { checkNoOverlap } from '../shared/aliasing.js';

/**
 * Validates SCAL's arguments (nothing is read or written).
 * @throws {@link ModprecError} `INVALID_VALUE` (α not a number), `INVALID_OPTION` / `DIMENSION_MISMATCH` (x not a
 *   1-D range), `INVALID_STORAGE` (read-only x, or split double-double x whose hi and lo arrays overlap)
 */
export function checkScalArguments(alpha: unknown, x: unknown): { alpha: number; x: Range<1, any> } {
  const checked = { alpha: checkScalar('alpha', alpha), x: checkRange('x', x, 1, true) };
  // No input besides x itself: only the output's own hi and lo (dd-split) can overlap.
  checkNoOverlap('x', checked.x.accessor, []);
  return checked;
}

/**
 * SCAL's coefficient and values in its arithmetic (an RNS one holds no NaN or ±∞), checked by the kernel on every
 * backend and by its bound: α unless the call returns at once (n = 0, α = 1); x only where it is read (α = 0 writes
 * zeros, α = 1 returns at once).
 * @throws {@link ModprecError} `INVALID_VALUE` naming `alpha` or the element (`x[1]`)
 */
export function checkScalValues(ar: ArithmeticFormat, alpha: number, x: Range<1, any>): void {
  if (x.length() > 0 && alpha !== 1) checkCoefficientsIn(ar, [['alpha', alpha]]);
  checkReadableIn(ar, alpha !== 0 && alpha !== 1 ? [['x', x]] : []);
}
