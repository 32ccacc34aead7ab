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
 * const A = readMatrixMarketCsr(readFileSync('bcsstk01.mtx', 'utf8')); // 48 × 48, 400 entries
 * ```
 * @group Sparse & IO
 */
export function readMatrixMarketCsr(text: string, options: MatrixMarketReadOptions = {}): CsrMatrix {
  const data = readMatrixMarket(text, options);
  return data.format === 'coordinate' ? cooToCsr(data.matrix) : denseToCsr(data.matrix);
}
