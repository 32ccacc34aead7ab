/**
 * Checks of LU factors and pivot vectors given back to the solves: wrong ones read past their arrays (NaN in
 * JavaScript, other memory in WebAssembly), so they are refused before any work.
 * @module
 */
import { fail } from '../core/errors.js';

/**
 * Checks a pivot vector for n rows: an Int32Array of length n, every entry a row index in 0 … n − 1.
 * @param name - the parameter's name in errors
 * @param pivots - the pivots
 * @param n - the order
 * @throws {@link ModprecError} `INVALID_STORAGE` (not an Int32Array), `DIMENSION_MISMATCH` (length),
 *   `INDEX_OUT_OF_RANGE` naming the entry
 */
export function checkPivots(name: string, pivots: unknown, n: number): Int32Array {
  if (!(pivots instanceof Int32Array)) fail('INVALID_STORAGE', name, 'must be an Int32Array', pivots);
  if (pivots.length !== n) fail('DIMENSION_MISMATCH', name, `must have length ${n}`, pivots.length);
  for (let k = 0; k < n; k++) {
    const p = pivots[k]!;
    if (p < 0 || p >= n) fail('INDEX_OUT_OF_RANGE', `${name}[${k}]`, `must be a row index in 0..${n - 1}`, p);
  }
  return pivots;
}

/**
 * Checks factors from `luFactor` (`'f64'`: `lu` a DenseMatrix with leading dimension max(1, n)) or `luFactorF32` (`'f32'`:
 * `lu` a Float32Array), packed n × n.
 * @param factors - the factors
 * @param kind - which factorisation made them
 * @returns n, the packed factors and the pivots
 * @throws {@link ModprecError} `INVALID_VALUE` (not an object), `INVALID_SIZE` (n), `INVALID_STORAGE` (array types),
 *   `INVALID_STRIDE` (ld), `DIMENSION_MISMATCH` (lengths), `INDEX_OUT_OF_RANGE` (a pivot), each naming the part
 */
export function checkLuFactors(factors: unknown, kind: 'f64' | 'f32'): { n: number; a: Float64Array | Float32Array; pivots: Int32Array } {
  if (typeof factors !== 'object' || factors === null) fail('INVALID_VALUE', 'factors', 'must be the object luFactor / luFactorF32 returns', factors);
  const f = factors as Record<string, unknown>;
  const n = f.n;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) fail('INVALID_SIZE', 'factors.n', 'must be a non-negative integer', n);
  let a: unknown;
  if (kind === 'f32') {
    a = f.lu;
    if (!(a instanceof Float32Array)) fail('INVALID_STORAGE', 'factors.lu', 'must be a Float32Array (luFactorF32)', a);
  } else {
    const lu = f.lu as Record<string, unknown> | null | undefined;
    if (typeof lu !== 'object' || lu === null) fail('INVALID_VALUE', 'factors.lu', 'must be a DenseMatrix (luFactor)', lu);
    a = lu.data;
    if (!(a instanceof Float64Array)) fail('INVALID_STORAGE', 'factors.lu.data', 'must be a Float64Array', a);
    if (lu.ld !== Math.max(1, n)) fail('INVALID_STRIDE', 'factors.lu.ld', `must be max(1, n) = ${Math.max(1, n)} (the factors are packed)`, lu.ld);
  }
  const data = a as Float64Array | Float32Array;
  if (data.length < n * n) fail('DIMENSION_MISMATCH', kind === 'f32' ? 'factors.lu' : 'factors.lu.data', `must hold n² = ${n * n} entries`, data.length);
  return { n, a: data, pivots: checkPivots('factors.pivots', f.pivots, n) };
}
