/**
 * The arguments of DOT and their validation, shared by the kernel and its error bound.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { checkRange, checkSameLength } from '../shared/kernel-options.js';
import { checkNoOverlap } from '../shared/aliasing.js';

/**
 * Validates DOT's operands (nothing is read or written).
 * @throws {@link ModprecError} `INVALID_OPTION` / `DIMENSION_MISMATCH` (not 1-D ranges, different lengths)
 */
export function checkDotOperands(x: unknown, y: unknown): { x: Range<1, any>; y: Range<1, any> } {
  const xr = checkRange('x', x, 1);
  const yr = checkRange('y', y, 1);
  checkSameLength('x', xr.length(), 'y', yr.length());
  return { x: xr, y: yr };
}

/**
 * Validates `options.into` against checked operands: the kernel reads it only once `options` is known to be an
 * object, so its errors come after those of the operands and of the options.
 * @throws {@link ModprecError} `INVALID_OPTION` / `DIMENSION_MISMATCH` (not a 1-D range of length 1),
 *   `INVALID_STORAGE` (read-only, or overlapping x or y)
 */
export function checkDotInto(x: Range<1, any>, y: Range<1, any>, into: unknown): Range<1, any> | undefined {
  if (into === undefined) return undefined;
  const ir = checkRange('options.into', into, 1, true);
  checkSameLength('a scalar result', 1, 'options.into', ir.length());
  checkNoOverlap('options.into', ir.accessor, [['x', x.accessor], ['y', y.accessor]]);
  return ir;
}

/**
 * Validates DOT's operands and `options.into` (nothing is read or written).
 * @throws {@link ModprecError} as {@link checkDotOperands} and {@link checkDotInto}
 */
export function checkDotArguments(x: unknown, y: unknown, into: unknown): { x: Range<1, any>; y: Range<1, any>; into: Range<1, any> | undefined } {
  const operands = checkDotOperands(x, y);
  return { ...operands, into: checkDotInto(operands.x, operands.y, into) };
}
