/**
 * A Matrix Market file carried to the kernels: the text a random COO matrix writes (duplicates, unsorted entries,
 * empty rows, signed zeros, subnormals, 0 rows or columns), read back as CSR, converted to ELL under any stride
 * rounding and extra width, multiplied by ellSpmv, and expanded to a dense column-major array with a leading
 * dimension above rows for gemv. Every result is checked against the exact product of the matrix read (BigInt
 * rationals), within the kernel's own a-priori bound, on both CPU backends.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readMatrixMarketCsr, writeMatrixMarket } from '../../src/io/matrix-market.js';
import { csrToDense } from '../../src/sparse/csr-dense.js';
import { csrToEll } from '../../src/sparse/csr-to-ell.js';
import { ellWithStorage, ellSpmv, ellSpmvBound, gemv, gemvBound, range, colMajor, vector, toArray, formats } from '../../src/index.js';
import { addRational, absoluteError, compareRational, exactOf, mulRational, ZERO, type Rational } from '../../src/testing/index.js';
import type { CsrMatrix } from '../../src/sparse/csr-matrix.js';
import { cooArbitrary } from '../sparse/sparse-arbitraries.js';

const value = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, 5e-324, -3),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e10, max: 1e10 }),
  fc.integer({ min: -9, max: 9 }),
);

/** The exact A·x of the CSR matrix read from the file (its duplicates summed by the reader, as the format says). */
function exactProduct(A: CsrMatrix, x: readonly number[]): Rational[] {
  return Array.from({ length: A.rows }, (_, i) => {
    let sum: Rational = ZERO;
    for (let t = A.rowPtr[i]!; t < A.rowPtr[i + 1]!; t++) sum = addRational(sum, mulRational(exactOf(A.values[t]!), exactOf(x[A.colIndex[t]!]!)));
    return sum;
  });
}

function expectWithin(got: Float64Array, exact: readonly Rational[], bound: Float64Array): void {
  expect(got.length).toBe(exact.length);
  exact.forEach((e, i) => {
    expect(Number.isFinite(got[i]!), `y[${i}] = ${got[i]}`).toBe(true);
    expect(compareRational(absoluteError(got[i]!, e), exactOf(bound[i]!)) <= 0, `y[${i}] = ${got[i]}, bound ${bound[i]}`).toBe(true);
  });
}

describe('Matrix Market file → CSR → ELL / dense → ellSpmv / gemv', () => {
  it('each y is within the kernel\'s bound of the exact product of the file\'s values', () => {
    fc.assert(fc.property(
      cooArbitrary({ value, maxSize: 7, maxEntries: 25 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 2 }),
      fc.integer({ min: 0, max: 3 }), fc.array(value, { minLength: 7, maxLength: 7 }), fc.constantFrom('js', 'wasm'),
      (coo, multiple, extraWidth, extraLd, xs, backend) => {
        const A = readMatrixMarketCsr(writeMatrixMarket(coo));
        const longest = Math.max(0, ...Array.from({ length: A.rows }, (_, i) => A.rowPtr[i + 1]! - A.rowPtr[i]!));
        const E = ellWithStorage(csrToEll(A, { strideMultiple: multiple, width: longest + extraWidth }), { storage: formats.f64 });
        const x = vector(xs.slice(0, A.cols));
        const exact = exactProduct(A, xs);

        const y = vector(A.rows);
        const ell = { alpha: 1, A: E, x, beta: 0, y };
        ellSpmv(ell, { backend });
        expectWithin(toArray(y), exact, ellSpmvBound(ell, { backend }));

        if (A.rows === 0 || A.cols === 0) return;
        const ld = A.rows + extraLd;
        const D = csrToDense(A, { ld });
        const G = range(colMajor<2>({ size: [A.rows, A.cols], stride: ld, storage: 'f64', data: D.data }));
        const y2 = vector(A.rows);
        const dense = { alpha: 1, A: G, x, beta: 0, y: y2, trans: 'N' as const };
        gemv(dense, { backend });
        expectWithin(toArray(y2), exact, gemvBound(dense, { backend }));
      }), { numRuns: 200 });
  });
});
