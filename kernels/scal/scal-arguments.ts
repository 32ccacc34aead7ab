/**
 * The arguments of SCAL and their validation, shared by the kernel and its error bound.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { checkRange, checkScalar } from '../shared/kernel-options.js';

/**
 * Validates SCAL's arguments (nothing is read or written).
 * @throws {@link ModprecError} `INVALID_VALUE` (α not a number), `INVALID_OPTION` / `DIMENSION_MISMATCH` (x not a
 *   1-D range), `INVALID_STORAGE` (read-only x)
 */
export function checkScalArguments(alpha: unknown, x: unknown): { alpha: number; x: Range<1, any> } {
  return { alpha: checkScalar('alpha', alpha), x: checkRange('x', x, 1, true) };
}
