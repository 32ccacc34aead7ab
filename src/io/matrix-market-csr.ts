/**
 * Reading a Matrix Market file straight into canonical CSR.
 * @module
 */
import { cooToCsr } from '../sparse/coo-to-csr.js';
import { denseToCsr } from '../sparse/csr-dense.js';
import type { CsrMatrix } from '../sparse/csr-matrix.js';
import { readMatrixMarket } from './matrix-market-reader.js';
import type { MatrixMarketReadOptions } from './matrix-market-types.js';

/**
 * Reads a Matrix Market file and returns the full matrix as canonical CSR (symmetric files expanded,
 * duplicates summed, explicit zeros of coordinate files kept; zeros of array files dropped).
 *
 * @param text - the whole file
 * @param options - as {@link readMatrixMarket}
 * @returns the matrix
 * @throws {@link ModprecError} as {@link readMatrixMarket}
 * @example
 * ```ts
 * import { readMatrixMarketCsr } from 'modprec';
 *
 * // the text of a .mtx file, e.g. readFileSync('bcsstk01.mtx', 'utf8')
 * const text = '%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2\n2 1 -1\n2 2 2\n3 3 2\n';
 * const A = readMatrixMarketCsr(text);   // the symmetric file's lower triangle, mirrored
 * A.rowPtr; // → Int32Array(4) [ 0, 2, 4, 5 ]
 * ```
 * @group Sparse & IO
 */
export function readMatrixMarketCsr(text: string, options: MatrixMarketReadOptions = {}): CsrMatrix {
  const data = readMatrixMarket(text, options);
  return data.format === 'coordinate' ? cooToCsr(data.matrix) : denseToCsr(data.matrix);
}
