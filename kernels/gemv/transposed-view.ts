/**
 * op(A) for a matrix accessor: the transpose is the same storage with the two strides (and the scale's strides
 * and mask) swapped, so kernels only ever handle the non-transposed case.
 * @module
 */
import { Accessor } from '../../accessors/accessor.js';

/** The matrix accessor `A` itself for `trans = 'N'`, its transposed view (shared storage) for `'T'`. */
export function operatorView<T>(A: Accessor<2, T>, trans: 'N' | 'T'): Accessor<2, T> {
  if (trans === 'N') return A;
  const s = A.scale;
  return new Accessor<2, T>({
    size: [A.size[1], A.size[0]],
    strides: [A.strides[1], A.strides[0]],
    offset: A.offset,
    storage: A.storage,
    arithmetic: A.arithmetic,
    data: A.data,
    layout: 'strided',
    scale: s ? { data: s.data, offset: s.offset, strides: [s.strides[1]!, s.strides[0]!], mask: [s.mask[1]!, s.mask[0]!] } : undefined,
    writable: A.writable,
  });
}
