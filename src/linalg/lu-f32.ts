/**
 * LU factorisation with partial pivoting stored in fp32: the cheap factorisation of mixed-precision iterative
 * refinement. Half the memory traffic of the fp64 factorisation, whose algorithm it follows step for step.
 * @module
 */
import { fail } from '../core/errors.js';
import { denseMatrix, type DenseMatrix } from '../sparse/dense-matrix.js';
import { factorPacked, packedSolver } from './lu-run.js';
import { checkLuFactors } from './lu-checks.js';
import type { LuOptions } from './lu-wasm.js';

/**
 * P·A = L·U of a square matrix, held in fp32.
 * @group Kernels
 */
export interface LuFactorsF32 {
  /** Order of the matrix. */
  readonly n: number;
  /** L (unit diagonal not stored) and U packed column-major in fp32, leading dimension n. */
  readonly lu: Float32Array;
  /** Row i was swapped with row pivots[i] (≥ i) at step i (LAPACK's IPIV, 0-based). */
  readonly pivots: Int32Array;
  /** First i with uᵢᵢ = 0 in fp32, or −1. */
  readonly firstZeroPivot: number;
}

/**
 * Factorises a square matrix as P·A = L·U with partial pivoting, in fp32 storage (the algorithm of {@link luFactor},
 * swept in panels of 48 columns for cache reuse).
 * A is rounded once to fp32; every update a − l·u is an fp32 multiply and an fp32 subtract, each rounded (no fused
 * multiply-add: what fp32 SIMD lanes compute), and each division a/pivot is rounded once. The trailing updates run in
 * WebAssembly SIMD (four fp32 lanes) where the engine has it, else in JavaScript: the same bits on both.
 * @param A - a square dense column-major fp64 matrix (not modified)
 * @param options - `backend`: `'cpu'` (default), `'wasm'` or `'js'`
 * @returns the fp32 factors and pivots
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` for a non-square matrix; `INVALID_OPTION` naming `options.backend`;
 *   as {@link denseMatrix} for invalid parts; `INVALID_SIZE` naming `A` with backend `'wasm'` when the WebAssembly
 *   memory cannot grow to hold it (`'cpu'` then runs JavaScript), or when its packed factors cannot be allocated
 * @example
 * ```ts
 * import { luFactorF32, denseMatrix } from 'modprec';
 *
 * const f = luFactorF32(denseMatrix({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 4, 2, 3) }));
 * f.pivots; // → Int32Array(2) [ 1, 1 ]
 * f.lu; // → Float32Array(4) [ 4, 0.25, 3, 1.25 ]
 * ```
 * @group Kernels
 */
export function luFactorF32(A: DenseMatrix, options?: LuOptions): LuFactorsF32 {
  const { rows: n, cols, ld, data } = denseMatrix(A);
  if (cols !== n) fail('DIMENSION_MISMATCH', 'A', 'must be square', `${n}×${cols}`);
  const { a, pivots, firstZeroPivot } = factorPacked('f32', n, ld, data, options);
  return { n, lu: a, pivots, firstZeroPivot };
}

/**
 * Solves A·x = b with fp32 factors: b is rounded to fp32, the triangular solves run in fp32 (each update an fp32
 * multiply and subtract, each rounded; a zero x_j contributes nothing), in WebAssembly SIMD where the engine has it,
 * else JavaScript (the same bits), and the fp32 result is returned as doubles.
 * @param factors - from {@link luFactorF32}
 * @param b - the right-hand side (not modified)
 * @param options - `backend`: `'cpu'` (default), `'wasm'` or `'js'`
 * @returns x (fp32 values)
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` when b is not a Float64Array of length n; `INVALID_OPTION` naming
 *   `options.backend`; `INVALID_SIZE` naming `factors` with backend `'wasm'` when the WebAssembly memory cannot grow to
 *   hold them; for factors that are not {@link luFactorF32}'s (n, a Float32Array `lu` of n² entries, pivots in
 *   0 … n − 1) an error naming the part (`factors.n`, `factors.lu`, `factors.pivots[k]`, …)
 * @example
 * ```ts
 * import { luFactorF32, luSolveF32, denseMatrix } from 'modprec';
 *
 * const f = luFactorF32(denseMatrix({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 4, 2, 3) }));
 * luSolveF32(f, Float64Array.of(5, 10)); // → Float64Array(2) [ 1, 2 ]
 * ```
 * @group Kernels
 */
export function luSolveF32(factors: LuFactorsF32, b: Float64Array, options?: LuOptions): Float64Array {
  const { n, a, pivots } = checkLuFactors(factors, 'f32');
  if (!(b instanceof Float64Array) || b.length !== n) fail('DIMENSION_MISMATCH', 'b', `must be a Float64Array of length ${n}`, b);
  return packedSolver('f32', { n, a, pivots }, options)(b);
}
