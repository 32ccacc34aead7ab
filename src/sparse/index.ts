/**
 * Sparse matrix formats (COO, CSR, ELL), dense column-major matrices, conversions between them, and
 * generators of test matrices.
 * @module
 */
export type { CooMatrix } from './coo-matrix.js';
export { cooMatrix } from './coo-matrix.js';
export type { CsrMatrix } from './csr-matrix.js';
export { csrMatrix, csrMaxRowLength } from './csr-matrix.js';
export type { EllMatrix, EllStructure } from './ell-matrix.js';
export { ELL_PADDING, ellMatrix, ellStructure, ellRowLength } from './ell-matrix.js';
export type { EllLayoutOptions } from './ell-layout.js';
export { resolveEllStride, resolveEllWidth } from './ell-layout.js';
export type { DenseMatrix } from './dense-matrix.js';
export { denseMatrix, denseLength } from './dense-matrix.js';
export { cooToCsr } from './coo-to-csr.js';
export { csrToCoo } from './csr-to-coo.js';
export { csrToEll, cooToEll } from './csr-to-ell.js';
export { ellToCsr } from './ell-to-csr.js';
export { csrToDense, denseToCsr } from './csr-dense.js';
export { csrTranspose } from './csr-transpose.js';
export type { TriangleSymmetry } from './symmetric.js';
export { expandTriangleCoo, isSymmetricCsr, csrLowerTriangle } from './symmetric.js';
export { laplacianEll, laplacianCsr } from './laplacian.js';
export type { RandomBandedOptions } from './random-banded.js';
export { randomBandedCsr } from './random-banded.js';
export type { SeededRandom } from './seeded-random.js';
export { seededRandom } from './seeded-random.js';
export { MAX_SPARSE_INDEX } from './sparse-checks.js';
