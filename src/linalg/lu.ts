/**
 * LU factorisation with partial pivoting in fp64 (LAPACK's GETRF, unblocked, right-looking), and the
 * solve with its factors: the reference factorisation behind the TRSV accuracy study.
 * @module
 */
import { fail } from '../core/errors.js';
import { factorPacked, packedSolver } from './lu-run.js';
import { checkLuFactors, checkPivots } from './lu-checks.js';
import type { LuOptions } from './lu-wasm.js';
import { denseMatrix, type DenseMatrix } from '../sparse/dense-matrix.js';

/**
 * P·A = L·U of a square matrix.
 * @group Kernels
 */
export interface LuFactors {
  /** Order of the matrix. */
  readonly n: number;
  /**
   * L and U packed column-major (leading dimension max(1, n), a valid {@link DenseMatrix}): U on and above the
   * diagonal, L strictly below it (L's unit diagonal is not stored).
   */
  readonly lu: DenseMatrix;
  /** Row i was swapped with row pivots[i] (≥ i) at step i, in order (LAPACK's IPIV, 0-based). */
  readonly pivots: Int32Array;
  /** First i with uᵢᵢ = 0 (the factorisation completes, but U is singular), or −1. */
  readonly firstZeroPivot: number;
}

/**
 * Factorises a square matrix as P·A = L·U with partial pivoting (the largest magnitude in each column
 * becomes the pivot; ties keep the first). A zero pivot column is skipped, as in LAPACK, and reported.
 * The trailing updates (the O(n³) part) run in WebAssembly SIMD where the engine has it (`options.backend`: `'cpu'`,
 * the default), else in JavaScript: the same operations in the same order, so the same bits on both.
 * @param A - a square dense column-major matrix (not modified)
 * @param options - `backend`: `'cpu'` (default), `'wasm'` or `'js'`
 * @returns the packed factors and pivots
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` for a non-square matrix; `INVALID_OPTION` naming `options.backend`;
 *   as {@link denseMatrix} for invalid parts; `INVALID_SIZE` naming `A` with backend `'wasm'` when the WebAssembly
 *   memory cannot grow to hold it (`'cpu'` then runs JavaScript), or when its packed factors cannot be allocated
 * @example
 * ```ts
 * import { luFactor, denseMatrix } from 'modprec';
 *
 * const { lu, pivots } = luFactor(denseMatrix({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 4, 2, 3) }));
 * ```
 * @group Kernels
 */
export function luFactor(A: DenseMatrix, options?: LuOptions): LuFactors {
  const { rows: n, cols, ld, data } = denseMatrix(A);
  if (cols !== n) fail('DIMENSION_MISMATCH', 'A', 'must be square', `${n}×${cols}`);
  // The panel-blocked sweep: the same operations on every element in the same order as the right-looking loop (bit for
  // bit its factors), with the trailing matrix swept once per panel of columns instead of once per pivot.
  const { a, pivots, firstZeroPivot } = factorPacked('f64', n, ld, data, options);
  // ld max(1, n), as denseMatrix asks: a 0 × 0 matrix's factors had ld 0, which denseMatrix and writeMatrixMarket refused.
  return { n, lu: { rows: n, cols: n, ld: Math.max(1, n), data: a }, pivots, firstZeroPivot };
}

/**
 * Applies the row interchanges of a factorisation to a vector in place: b := P·b.
 * @param pivots - the pivots of {@link luFactor}
 * @param b - a vector of length pivots.length
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` when the lengths differ; `INVALID_STORAGE` when pivots is not an
 *   Int32Array or b neither a Float64Array nor a writable array; `INDEX_OUT_OF_RANGE` for a pivot outside 0 … n − 1 (before b is touched)
 * @example
 * ```ts
 * import { luFactor, applyPivots, denseMatrix } from 'modprec';
 *
 * const { pivots } = luFactor(denseMatrix({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 4, 2, 3) }));
 * const b = Float64Array.of(5, 10);
 * applyPivots(pivots, b);   // row 1 holds the larger pivot: the rows swap
 * b; // → Float64Array(2) [ 10, 5 ]
 * ```
 * @group Kernels
 */
export function applyPivots(pivots: Int32Array, b: Float64Array): void {
  if (!(pivots instanceof Int32Array)) fail('INVALID_STORAGE', 'pivots', 'must be an Int32Array', pivots);
  // An object with a length (or a frozen array) passed the length check, and the swaps threw a TypeError writing to it.
  if (!(b instanceof Float64Array) && !(Array.isArray(b) && !Object.isFrozen(b))) fail('INVALID_STORAGE', 'b', 'must be a Float64Array (or a writable array)', b);
  if (b.length !== pivots.length) fail('DIMENSION_MISMATCH', 'b', `must have length ${pivots.length}`, b);
  checkPivots('pivots', pivots, pivots.length);
  for (let k = 0; k < pivots.length; k++) {
    const p = pivots[k]!;
    if (p !== k) { const t = b[k]!; b[k] = b[p]!; b[p] = t; }
  }
}

/**
 * Solves A·x = b in fp64 with the factors of A: x = U⁻¹·L⁻¹·P·b, column-oriented substitutions (a zero x_j
 * contributes nothing), in WebAssembly SIMD where the engine has it, else JavaScript: the same bits on both.
 * @param factors - from {@link luFactor}
 * @param b - the right-hand side (not modified)
 * @param options - `backend`: `'cpu'` (default), `'wasm'` or `'js'`
 * @returns x
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` when b has the wrong length; `INVALID_OPTION` naming `options.backend`;
 *   `INVALID_SIZE` naming `factors` with backend `'wasm'` when the WebAssembly memory cannot grow to hold them;
 *   for factors that are not {@link luFactor}'s (n, packed `lu` of leading dimension n, pivots in 0 … n − 1) an error
 *   naming the part (`factors.n`, `factors.lu.data`, `factors.pivots[k]`, …)
 * @example
 * ```ts
 * import { luFactor, luSolve, denseMatrix } from 'modprec';
 *
 * // [[1, 2], [4, 3]] · x = [5, 10]
 * const factors = luFactor(denseMatrix({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 4, 2, 3) }));
 * luSolve(factors, Float64Array.of(5, 10)); // → Float64Array(2) [ 1, 2 ]
 * ```
 * @group Kernels
 */
export function luSolve(factors: LuFactors, b: Float64Array, options?: LuOptions): Float64Array {
  const { n, a, pivots } = checkLuFactors(factors, 'f64');
  if (!(b instanceof Float64Array) || b.length !== n) fail('DIMENSION_MISMATCH', 'b', `must be a Float64Array of length ${n}`, b);
  return packedSolver('f64', { n, a: a as Float64Array, pivots }, options)(b);
}
