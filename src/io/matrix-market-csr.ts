/**
 * Reading a Matrix Market file straight into canonical CSR.
 * @module
 */
import { cooToCsr } from '../sparse/coo-to-csr.js';
import { denseToCsr } from '../sparse/csr-dense.js';
import type { CsrMatrix } from '../sparse/csr-matrix.js';
import { expandedEntries, readerBytes, readMatrixMarketPlanned } from './matrix-market-reader.js';
import type { MatrixMarketHeader, MatrixMarketReadOptions } from './matrix-market-types.js';

/**
 * Reads a Matrix Market file and returns the full matrix as canonical CSR (symmetric files expanded,
 * duplicates summed, explicit zeros of coordinate files kept; zeros of array files dropped).
 *
 * @param text - the whole file: a string, or its UTF-8 bytes (a `Uint8Array`, e.g. Node's `Buffer`)
 * @param options - as {@link readMatrixMarket}; `maxBytes` also counts the conversion's arrays
 * @returns the matrix
 * @throws {@link ModprecError} as {@link readMatrixMarket}; `INVALID_SIZE` when the size line asks for more than
 *   `options.maxBytes` (default 2 GiB) of reader and conversion arrays together
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
export function readMatrixMarketCsr(text: string | Uint8Array, options: MatrixMarketReadOptions = {}): CsrMatrix {
  const data = readMatrixMarketPlanned(text, options, csrReadBytes);
  return data.format === 'coordinate' ? cooToCsr(data.matrix) : denseToCsr(data.matrix);
}

/**
 * Bytes reading into CSR allocates at its peak: the reader's arrays, then the conversion's — for COO two counting
 * sorts and the merged arrays (cooToCsr: 4·cols + 12·rows + 20·nnz), then the copies of the merged arrays it returns
 * (12·nnz: `.slice(0, out)`, taken whether or not duplicates were merged; 20·nnz alone let the peak pass maxBytes by
 * that much); for dense a row pointer and up to rows·cols entries (Int32 column and Float64 value each).
 */
function csrReadBytes(header: MatrixMarketHeader, rows: number, cols: number, entries: number): number {
  const own = readerBytes(header, rows, cols, entries);
  if (header.format === 'coordinate') return own + 4 * (cols + 1) + 12 * (rows + 1) + 32 * expandedEntries(header, entries);
  return own + 4 * (rows + 1) + 12 * rows * cols;
}
