/**
 * Matrix Market input and output: {@link readMatrixMarket} and {@link writeMatrixMarket}.
 * @module
 */
export type {
  MatrixMarketArrayData, MatrixMarketCoordinateData, MatrixMarketData, MatrixMarketField, MatrixMarketFormat,
  MatrixMarketHeader, MatrixMarketReadOptions, MatrixMarketSymmetry, MatrixMarketWriteOptions,
} from './matrix-market-types.js';
export { readMatrixMarket } from './matrix-market-reader.js';
export { writeMatrixMarket } from './matrix-market-writer.js';
export { readMatrixMarketCsr } from './matrix-market-csr.js';
