/**
 * Row-major accessors: the last dimension is contiguous (Ginkgo's row_major / reduced_row_major).
 * @module
 */
import type { Accessor, Dimensionality } from './accessor.js';
import { checkLayoutOptions, checkStrideAtLeast, makeAccessor, resolveGivenStrides, resolveSize, type LayoutOptions } from './layout-options.js';
import { fail } from '../src/core/errors.js';

/** Strides of a row-major layout: D−1 given strides (outermost first), then 1. 1-D: the increment. */
function rowMajorStrides(size: readonly number[], stride: LayoutOptions<Dimensionality>['stride']): number[] {
  const D = size.length;
  if (D === 1) {
    const [inc] = resolveGivenStrides(stride, [1]);
    if (inc === 0) fail('INVALID_STRIDE', 'stride', 'must be non-zero', 0);
    return [inc!];
  }
  // Packed, but never below 1 (BLAS: ld ≥ max(1, n)), so empty shapes pass the checks below.
  const w = (k: number) => Math.max(1, size[k]!);
  const packed = D === 2 ? [w(1)] : [w(1) * w(2), w(2)];
  const given = resolveGivenStrides(stride, packed);
  if (D === 2) {
    checkStrideAtLeast(given[0]!, size[1]!, 'stride');
  } else {
    checkStrideAtLeast(given[1]!, size[2]!, 'stride[1]');
    checkStrideAtLeast(given[0]!, given[1]! * Math.max(0, size[1]! - 1) + size[2]!, 'stride[0]');
  }
  return [...given, 1];
}

/** Offset that makes a negative 1-D increment walk backwards from the far end, as BLAS does. */
export function vectorDefaultOffset(size: readonly number[], strides: readonly number[]): number {
  return size.length === 1 && strides[0]! < 0 ? -strides[0]! * Math.max(0, size[0]! - 1) : 0;
}

/**
 * A row-major accessor (last dimension contiguous). Storage and arithmetic may differ: reads convert
 * storage → arithmetic, writes round arithmetic → storage.
 * @example
 * ```ts
 * import { formats, rowMajor } from 'modprec';
 *
 * const A = rowMajor({ size: [3, 4], storage: formats.f32, arithmetic: formats.f64 });
 * ```
 * @throws {@link ModprecError} `INVALID_SIZE`, `INVALID_STRIDE`, `INVALID_FORMAT`, `INVALID_STORAGE`; `INVALID_OPTION` naming `opts` when it is not an object
 * @group Ranges & accessors
 */
export function rowMajor<D extends Dimensionality = 2, T = number>(opts: LayoutOptions<D, T>): Accessor<D, T> {
  checkLayoutOptions(opts);
  const size = resolveSize<D>(opts.size, [1, 2, 3]);
  const strides = rowMajorStrides(size, opts.stride);
  return makeAccessor('row-major', opts, size, strides, vectorDefaultOffset(size, strides));
}

/**
 * A row-major accessor whose storage format differs from its arithmetic format (Ginkgo's reduced_row_major).
 * @example
 * ```ts
 * import { range, formats, reducedRowMajor } from 'modprec';
 *
 * const A = range(reducedRowMajor({ size: [2, 2], storage: formats.bf16, arithmetic: formats.f32 }));
 * A.set(0, 1, 1 / 3);
 * A.get(0, 1); // → 0.333984375
 * ```
 * @group Ranges & accessors
 */
export function reducedRowMajor<D extends Dimensionality = 2, T = number>(
  opts: LayoutOptions<D, T> & { storage: LayoutOptions<D, T>['storage']; arithmetic: LayoutOptions<D, T>['arithmetic'] },
): Accessor<D, T> {
  return rowMajor(opts);
}

/** Internal: row-major strides for the scaled factories. */
export const rowMajorStridesOf = rowMajorStrides;
