/**
 * The arguments of DOT and their validation, shared by the kernel and its error bound.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { checkRange, checkSameLength } from '../shared/kernel-options.js';
import { checkNoOverlap } from '../shared/aliasing.js';

/**
 * Validates DOT's operands and `options.into` (nothing is read or written).
 * @throws {@link ModprecError} `INVALID_OPTION` / `DIMENSION_MISMATCH` (not 1-D ranges, different lengths, an into
 *   of length ≠ 1), `INVALID_STORAGE` (read-only into, or into overlapping x or y)
 */
export function checkDotArguments(x: unknown, y: unknown, into: unknown): { x: Range<1, any>; y: Range<1, any>; into: Range<1, any> | undefined } {
  const xr = checkRange('x', x, 1);
  const yr = checkRange('y', y, 1);
  checkSameLength('x', xr.length(), 'y', yr.length());
  if (into === undefined) return { x: xr, y: yr, into: undefined };
  const ir = checkRange('options.into', into, 1, true);
  checkSameLength('a scalar result', 1, 'options.into', ir.length());
  checkNoOverlap('options.into', ir.accessor, [['x', xr.accessor], ['y', yr.accessor]]);
  return { x: xr, y: yr, into: ir };
}
