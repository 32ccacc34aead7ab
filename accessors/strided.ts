/**
 * The general strided accessor: any strides, including transposed or overlapping-free custom views.
 * @module
 */
import type { Accessor, Dimensionality, Tuple } from './accessor.js';
import { checkLayoutOptions, makeAccessor, resolveSize, type LayoutOptions } from './layout-options.js';
import { fail } from '../src/core/errors.js';

/**
 * An accessor with one explicit stride per dimension (element (i…) at offset + Σ i_d·strides[d]).
 * Use it for views the named layouts do not cover, e.g. the transpose of a row-major matrix.
 * Distinct indices must not share an element unless the view is read-only: this is not checked.
 * @throws {@link ModprecError} `INVALID_STRIDE` for a zero stride; others as {@link rowMajor}
 * @example
 * ```ts
 * import { range, strided } from 'modprec';
 *
 * // the transpose of a packed row-major 2×3 matrix, over the same memory
 * const data = Float64Array.of(1, 2, 3, 4, 5, 6);
 * const At = range(strided({ size: [3, 2], strides: [1, 3], data }));
 * At.get(2, 1); // → 6
 * ```
 * @group Ranges & accessors
 */
export function strided<D extends Dimensionality, T = number>(
  opts: Omit<LayoutOptions<D, T>, 'stride'> & { strides: Tuple<D> },
): Accessor<D, T> {
  checkLayoutOptions(opts);
  const size = resolveSize<D>(opts.size, [1, 2, 3]);
  if (!Array.isArray(opts.strides)) fail('INVALID_STRIDE', 'strides', `must be an array of ${size.length} integers`, opts.strides);
  const strides = [...opts.strides];
  if (strides.length !== size.length) fail('INVALID_STRIDE', 'strides', `must have ${size.length} entries`, opts.strides);
  strides.forEach((s, d) => {
    if (!Number.isSafeInteger(s) || s === 0) fail('INVALID_STRIDE', `strides[${d}]`, 'must be a non-zero integer', s);
  });
  let offset = 0;
  strides.forEach((s, d) => { if (s < 0) offset += -s * Math.max(0, size[d]! - 1); });
  return makeAccessor('strided', opts, size, strides, offset);
}
