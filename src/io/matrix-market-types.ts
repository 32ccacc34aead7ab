/**
 * Types describing a Matrix Market file: its banner and what reading one returns.
 * @module
 */
import type { CooMatrix } from '../sparse/coo-matrix.js';
import type { DenseMatrix } from '../sparse/dense-matrix.js';

/**
 * `coordinate` (sparse: one line per stored entry) or `array` (dense, column by column).
 * @group Sparse & IO
 */
export type MatrixMarketFormat = 'coordinate' | 'array';
/**
 * The entry type: `real`, `integer`, or `pattern` (positions only; read as the value 1).
 * @group Sparse & IO
 */
export type MatrixMarketField = 'real' | 'integer' | 'pattern';
/**
 * Which part of the matrix the file stores: all of it, or the lower triangle of a (skew-)symmetric matrix.
 * @group Sparse & IO
 */
export type MatrixMarketSymmetry = 'general' | 'symmetric' | 'skew-symmetric';

/**
 * The banner line `%%MatrixMarket matrix <format> <field> <symmetry>`, in lower case.
 * @group Sparse & IO
 */
export interface MatrixMarketHeader {
  /** Always `'matrix'` (the `vector` object of later extensions is not supported). */
  readonly object: 'matrix';
  /** Sparse or dense. */
  readonly format: MatrixMarketFormat;
  /** Entry type. */
  readonly field: MatrixMarketField;
  /** Stored part of the matrix. */
  readonly symmetry: MatrixMarketSymmetry;
}

/**
 * What {@link readMatrixMarket} returns for a `coordinate` file.
 * @group Sparse & IO
 */
export interface MatrixMarketCoordinateData {
  /** Discriminant, same as `header.format`. */
  readonly format: 'coordinate';
  /** The banner. */
  readonly header: MatrixMarketHeader;
  /** Number of rows (from the size line). */
  readonly rows: number;
  /** Number of columns (from the size line). */
  readonly cols: number;
  /** Number of entries stored in the file (the third number of the size line), before expansion. */
  readonly storedEntries: number;
  /** The comment lines, without their leading `%`. */
  readonly comments: readonly string[];
  /**
   * The matrix, 0-based, entries in file order; a symmetric or skew-symmetric file's off-diagonal entries
   * are each followed by their mirror, so this is always the full matrix. Duplicates, if the file has any,
   * are kept (COO sums them on conversion).
   */
  readonly matrix: CooMatrix;
}

/**
 * What {@link readMatrixMarket} returns for an `array` file.
 * @group Sparse & IO
 */
export interface MatrixMarketArrayData {
  /** Discriminant, same as `header.format`. */
  readonly format: 'array';
  /** The banner. */
  readonly header: MatrixMarketHeader;
  /** Number of rows. */
  readonly rows: number;
  /** Number of columns. */
  readonly cols: number;
  /** The comment lines, without their leading `%`. */
  readonly comments: readonly string[];
  /** The full matrix, column-major with `ld = max(1, rows)` (a symmetric file's upper triangle filled in). */
  readonly matrix: DenseMatrix;
}

/**
 * Result of reading a Matrix Market file; `format` tells which kind.
 * @group Sparse & IO
 */
export type MatrixMarketData = MatrixMarketCoordinateData | MatrixMarketArrayData;

/**
 * Options of {@link readMatrixMarket}.
 * @group Sparse & IO
 */
export interface MatrixMarketReadOptions {
  /**
   * Accept the non-finite values `nan`, `inf` and `infinity` (any case, optionally signed; also what JS
   * writes: `NaN`, `Infinity`) and finite-looking values that overflow the double range. Default `false`:
   * such values are a `PARSE_ERROR`.
   */
  readonly allowNonFinite?: boolean;
  /**
   * The most bytes reading may allocate for the matrix (its arrays and, for `readMatrixMarketCsr`, the working
   * arrays of the conversion), computed from the size line before anything is allocated. Default 2^31 (2 GiB): a
   * size line declaring 2·10^9 rows is an `INVALID_SIZE`, not an allocation that exhausts memory. `Infinity`
   * lifts the limit (allocation failures are still typed).
   */
  readonly maxBytes?: number;
}

/**
 * Options of {@link writeMatrixMarket}.
 * @group Sparse & IO
 */
export interface MatrixMarketWriteOptions {
  /** `coordinate` (default for COO and CSR input) or `array` (default for dense input). */
  readonly format?: MatrixMarketFormat;
  /** `real` (default), `integer` (every value must be a safe integer) or `pattern` (values not written). */
  readonly field?: MatrixMarketField;
  /**
   * `general` (default) writes every entry; `symmetric` / `skew-symmetric` check that the matrix has that
   * symmetry exactly and write its lower triangle (strictly lower for skew-symmetric array files).
   */
  readonly symmetry?: MatrixMarketSymmetry;
  /** Comment lines written after the banner (without the `%`; no line breaks inside). */
  readonly comments?: readonly string[];
  /** Write NaN and ±Infinity (as `NaN`, `Infinity`, `-Infinity`) instead of rejecting them. Default `false`. */
  readonly allowNonFinite?: boolean;
}
