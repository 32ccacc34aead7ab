/**
 * Block-column-major accessor (Ginkgo's block_col_major): a stack of column-major matrices.
 * For size [blocks, rows, cols], element (b, i, j) sits at offset + b·stride[0] + i + j·stride[1]:
 * the middle dimension (rows) is contiguous. For 2-D it is the column-major layout.
 * @module
 */
import type { Accessor, Dimensionality } from './accessor.js';
import { checkLayoutOptions, checkStrideAtLeast, makeAccessor, resolveGivenStrides, resolveSize, type LayoutOptions } from './layout-options.js';
import { colMajor } from './col-major.js';

/**
 * A block-column-major accessor over [blocks, rows, cols] (or a column-major one over [rows, cols]).
 * `stride` is [block stride, leading dimension] (default packed: [rows·cols, rows]).
 * @throws {@link ModprecError} `INVALID_SIZE`, `INVALID_STRIDE`, `INVALID_FORMAT`, `INVALID_STORAGE`; `INVALID_OPTION` naming `opts` when it is not an object
 * @example
 * ```ts
 * import { range, blockColMajor } from 'modprec';
 *
 * // four 2×2 blocks, each column-major
 * const B = range(blockColMajor({ size: [4, 2, 2] }));
 * B.set(3, 1, 0, 7);   // block 3, row 1, column 0
 * B.accessor.strides; // → [ 4, 1, 2 ]
 * B.get(3, 1, 0); // → 7
 * ```
 * @group Ranges & accessors
 */
export function blockColMajor<D extends 2 | 3 = 3, T = number>(opts: LayoutOptions<D, T>): Accessor<D, T> {
  checkLayoutOptions(opts);
  const size = resolveSize<D>(opts.size, [2, 3]);
  if (size.length === 2) return colMajor(opts as LayoutOptions<Dimensionality, T>) as Accessor<D, T>;
  const [, m, n] = size as unknown as [number, number, number];
  const [blockStride, ld] = resolveGivenStrides(opts.stride, [Math.max(1, m) * Math.max(1, n), Math.max(1, m)]) as [number, number];
  checkStrideAtLeast(ld, m, 'stride[1]');
  checkStrideAtLeast(blockStride, ld * Math.max(0, n - 1) + m, 'stride[0]');
  return makeAccessor('block-col-major', opts, size, [blockStride, 1, ld], 0);
}
