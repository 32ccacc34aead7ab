/**
 * Column-major accessors: the first dimension is contiguous (BLAS/LAPACK and Ginkgo's ELL layout).
 * @module
 */
import type { Accessor, Dimensionality } from './accessor.js';
import { checkLayoutOptions, checkStrideAtLeast, makeAccessor, resolveGivenStrides, resolveSize, type LayoutOptions } from './layout-options.js';
import { rowMajorStridesOf, vectorDefaultOffset } from './row-major.js';

/** Strides of a column-major layout: 1, then D−1 given strides (innermost first). 1-D: the increment. */
function colMajorStrides(size: readonly number[], stride: LayoutOptions<Dimensionality>['stride']): number[] {
  const D = size.length;
  if (D === 1) return rowMajorStridesOf(size, stride);
  // Packed, but never below 1 (BLAS: ld ≥ max(1, m)), so empty shapes pass the checks below.
  const w = (k: number) => Math.max(1, size[k]!);
  const packed = D === 2 ? [w(0)] : [w(0), w(0) * w(1)];
  const given = resolveGivenStrides(stride, packed);
  if (D === 2) {
    checkStrideAtLeast(given[0]!, size[0]!, 'stride');
  } else {
    checkStrideAtLeast(given[0]!, size[0]!, 'stride[0]');
    checkStrideAtLeast(given[1]!, given[0]! * Math.max(0, size[1]! - 1) + size[0]!, 'stride[1]');
  }
  return [1, ...given];
}

/**
 * A column-major accessor (first dimension contiguous; for a matrix, `stride` is the leading dimension).
 * @example
 * ```ts
 * import { range, formats, colMajor } from 'modprec';
 *
 * // a 2×3 matrix inside a buffer with leading dimension 4 (BLAS's lda), stored in fp32
 * const data = new Float32Array(4 * 3);
 * const A = range(colMajor({ size: [2, 3], stride: 4, storage: formats.f32, arithmetic: formats.f64, data }));
 * A.set(1, 2, 5);
 * data[1 + 2 * 4]; // → 5
 * ```
 * @throws {@link ModprecError} `INVALID_SIZE`, `INVALID_STRIDE`, `INVALID_FORMAT`, `INVALID_STORAGE`; `INVALID_OPTION` naming `opts` when it is not an object
 * @group Ranges & accessors
 */
export function colMajor<D extends Dimensionality = 2, T = number>(opts: LayoutOptions<D, T>): Accessor<D, T> {
  checkLayoutOptions(opts);
  const size = resolveSize<D>(opts.size, [1, 2, 3]);
  const strides = colMajorStrides(size, opts.stride);
  return makeAccessor('col-major', opts, size, strides, vectorDefaultOffset(size, strides));
}

/**
 * A column-major accessor whose storage format differs from its arithmetic format.
 * @example
 * ```ts
 * import { range, formats, reducedColMajor } from 'modprec';
 *
 * const A = range(reducedColMajor({ size: [2, 3], storage: formats.f16, arithmetic: formats.f64 }));
 * A.set(1, 0, 0.1);
 * A.get(1, 0); // → 0.0999755859375
 * A.accessor.strides; // → [ 1, 2 ]
 * ```
 * @group Ranges & accessors
 */
export function reducedColMajor<D extends Dimensionality = 2, T = number>(
  opts: LayoutOptions<D, T> & { storage: LayoutOptions<D, T>['storage']; arithmetic: LayoutOptions<D, T>['arithmetic'] },
): Accessor<D, T> {
  return colMajor(opts);
}

/** Internal: column-major strides for the scaled factories. */
export const colMajorStridesOf = colMajorStrides;
