/**
 * The arguments of DOT and their validation, shared by the kernel and its error bound.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { checkRange, checkSameLength } from '../shared/kernel-options.js';
import { checkNoOverlap } from '../shared/aliasing.js';
import { fail } from '../../src/core/errors.js';
import type { GpuCall } from '../../src/backends/webgpu-bridge/gpu-backend.js';

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

/**
 * Checks `options.into` for a `backend: 'gpu'` call: the GPU's float-float (or binary32) result is rounded into the
 * storage once, which a multiple-precision storage has no write for (an RNS arithmetic keeps its own values).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.into`
 */
export function checkDotGpuInto(into: Range<1, any> | undefined, call: GpuCall): void {
  if (into && into.accessor.storage.kind === 'mp' && !call.rns) fail('INVALID_OPTION', 'options.into', "must be a range of a number or double-double storage for backend 'gpu' (or any storage with an RNS arithmetic)", into.accessor.storage.name);
}

/**
 * Checks `options.into` against `options.threads`: a split DOT returns the parts' sum as a double, with no register to store.
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.into`
 */
export function checkDotThreadsInto(into: Range<1, any> | undefined, threads: unknown): void {
  if (into && threads) fail('INVALID_OPTION', 'options.into', 'is not for options.threads');
}
