/**
 * A matrix view whose rows are its compact direction — a row-major matrix, a sub-range of one: |column stride| <
 * |row stride| — is, over the same span, the column-major matrix Aᵀ with leading dimension A's row stride. GEMV runs
 * op(A)·x as the other `trans` on Aᵀ and TRSV as the other `uplo` and `trans` on it (the same op(A), element for
 * element). Aᵀ's columns are A's rows, so the kernels split it over storage bindings in windows of them as they split
 * any column-major matrix, and adjacent threads read adjacent elements. Chosen from the layout alone (never from the
 * binding limit), so a call gives the same bits whether or not its matrix is split.
 * @module
 */
import { viewOf, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import type { DeviceMatrix } from './gemv-webgpu.js';

/**
 * Whether the kernels read `A` through its transpose: a view (a packed column-major matrix never is) with more than
 * one row whose column stride is below its row stride in magnitude (a single column's stride counts as 0).
 * @param A - the matrix
 * @returns whether {@link transposedDeviceMatrix} is what the kernels read
 */
export function readsTransposed(A: DeviceMatrix): boolean {
  if (!A.data.isView || A.rows <= 1) return false;
  const columnStride = A.cols <= 1 ? 0 : Math.abs(A.ld);
  return columnStride < Math.abs(A.data.stride);
}

/** The last transpose made of each view (kernels key their plans and cached block inverses on the array's identity). */
const transposes = new WeakMap<DeviceArray, { readonly rows: number; readonly cols: number; readonly ld: number; readonly T: DeviceMatrix }>();

/**
 * Aᵀ over A's span: element (j, i) at offset + j·colStride + i·rowStride. Packed column-major (the kernels' unit-stride
 * reads) where A is a row-major matrix from the span's first element whose rows do not overlap, else a view.
 * @param A - a matrix view (see {@link readsTransposed})
 * @returns its transpose, the same object for the same view and shape
 */
export function transposedDeviceMatrix(A: DeviceMatrix): DeviceMatrix {
  const cached = transposes.get(A.data);
  if (cached && cached.rows === A.rows && cached.cols === A.cols && cached.ld === A.ld) return cached.T;
  const [rows, cols] = [A.cols, A.rows];
  const [rowStride, colStride] = [A.cols <= 1 ? 1 : A.ld, A.data.stride];
  const { offset, spanLength } = A.data;
  let T: DeviceMatrix;
  if (offset === 0 && rowStride === 1 && colStride >= Math.max(1, rows)) {
    T = { rows, cols, ld: colStride, data: viewOf(A.data, { length: spanLength, offset: 0, stride: 1 }) };
  } else {
    T = { rows, cols, ld: colStride, data: viewOf(A.data, { length: rows * cols, offset, stride: rowStride, alwaysView: true }) };
  }
  transposes.set(A.data, { rows: A.rows, cols: A.cols, ld: A.ld, T });
  return T;
}
