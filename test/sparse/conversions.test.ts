import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cooMatrix } from '../../src/sparse/coo-matrix.js';
import { cooToCsr } from '../../src/sparse/coo-to-csr.js';
import { csrToCoo } from '../../src/sparse/csr-to-coo.js';
import { cooToEll, csrToEll } from '../../src/sparse/csr-to-ell.js';
import { ellToCsr } from '../../src/sparse/ell-to-csr.js';
import { csrToDense, denseToCsr } from '../../src/sparse/csr-dense.js';
import { csrTranspose } from '../../src/sparse/csr-transpose.js';
import { csrMatrix } from '../../src/sparse/csr-matrix.js';
import { ELL_PADDING, ellMatrix } from '../../src/sparse/ell-matrix.js';
import type { EllLayoutOptions } from '../../src/sparse/ell-layout.js';
import { canonicalOracle, cooArbitrary, csrEqual, csrTimes, expectModprec } from './sparse-arbitraries.js';

const runs = { numRuns: 300 };

describe('cooToCsr', () => {
  it('equals the map-based oracle: sorted by (row, col), duplicates summed in input order', () => {
    fc.assert(fc.property(cooArbitrary({ nonFinite: true }), (A) => {
      const C = cooToCsr(A);
      csrMatrix(C);
      expect(csrEqual(C, canonicalOracle(A))).toBe(true);
    }), runs);
  });

  it('sums duplicates left to right (the order changes the rounded result)', () => {
    // 1 + 2^-53 rounds to 1 and again: (1 + 2^-53) + 2^-53 = 1, while 2^-53 + 2^-53 + 1 = 1 + 2^-52.
    const u = 2 ** -53;
    const A = cooMatrix({ rows: 1, cols: 1, rowIndex: Int32Array.of(0, 0, 0), colIndex: Int32Array.of(0, 0, 0), values: Float64Array.of(1, u, u) });
    const B = cooMatrix({ ...A, values: Float64Array.of(u, u, 1) });
    expect(cooToCsr(A).values[0]).toBe(1);
    expect(cooToCsr(B).values[0]).toBe(1 + 2 * u);
  });

  it('keeps a zero sum as an explicit entry and validates its input', () => {
    const A = cooMatrix({ rows: 2, cols: 2, rowIndex: Int32Array.of(1, 1), colIndex: Int32Array.of(0, 0), values: Float64Array.of(2, -2) });
    const C = cooToCsr(A);
    expect(Array.from(C.rowPtr)).toEqual([0, 0, 1]);
    expect(Array.from(C.values)).toEqual([0]);
    expectModprec(() => cooToCsr({ ...A, rowIndex: Int32Array.of(1, 2) }), 'INDEX_OUT_OF_RANGE', 'rowIndex[1]');
  });
});

describe('CSR ↔ COO, ELL and dense', () => {
  it('CSR → COO → CSR is the identity on canonical matrices', () => {
    fc.assert(fc.property(cooArbitrary(), (A) => {
      const C = cooToCsr(A);
      expect(csrEqual(cooToCsr(csrToCoo(C)), C)).toBe(true);
    }), runs);
  });

  it('CSR → ELL puts entry k of row i at i + k·stride, pads the rest, and ELL → CSR undoes it', () => {
    const layout = fc.oneof(
      fc.constant({}),
      fc.record({ strideMultiple: fc.integer({ min: 1, max: 8 }) }),
      fc.record({ extraStride: fc.integer({ min: 0, max: 3 }), extraWidth: fc.integer({ min: 0, max: 2 }) }),
    );
    fc.assert(fc.property(cooArbitrary(), layout, (A, opts) => {
      const C = cooToCsr(A);
      const longest = Math.max(0, ...Array.from({ length: C.rows }, (_, i) => C.rowPtr[i + 1]! - C.rowPtr[i]!));
      const options: EllLayoutOptions = 'extraStride' in opts ? { stride: C.rows + opts.extraStride, width: longest + opts.extraWidth } : opts;
      const E = csrToEll(C, options);
      ellMatrix(E); // the constructor's checks: padding last, padding rows, zero padding values
      expect(E.stride).toBeGreaterThanOrEqual(C.rows);
      if (options.strideMultiple !== undefined) expect(E.stride % options.strideMultiple).toBe(0);
      expect(E.width).toBe(options.width ?? longest);
      for (let i = 0; i < C.rows; i++) {
        for (let k = 0; k < E.width; k++) {
          const t = C.rowPtr[i]! + k;
          const at = i + k * E.stride;
          if (t < C.rowPtr[i + 1]!) {
            expect(E.colIndex[at]).toBe(C.colIndex[t]);
            expect(Object.is(E.values[at], C.values[t])).toBe(true);
          } else {
            expect(E.colIndex[at]).toBe(ELL_PADDING);
          }
        }
      }
      expect(csrEqual(ellToCsr(E), C)).toBe(true);
      expect(csrEqual(ellToCsr(cooToEll(A, options)), C)).toBe(true);
    }), runs);
  });

  it('ELL·x equals CSR·x bit for bit (same products in the same order)', () => {
    fc.assert(fc.property(cooArbitrary({ maxSize: 9, maxEntries: 40 }), fc.integer({ min: 1, max: 32 }), (A, multiple) => {
      const C = cooToCsr(A);
      const E = csrToEll(C, { strideMultiple: multiple });
      const x = Float64Array.from({ length: C.cols }, (_, j) => (j % 3) - 0.75 + j / 8);
      const y = new Float64Array(E.rows);
      for (let i = 0; i < E.rows; i++) {
        let sum = 0;
        for (let k = 0; k < E.width; k++) {
          const col = E.colIndex[i + k * E.stride]!;
          if (col !== ELL_PADDING) sum += E.values[i + k * E.stride]! * x[col]!;
        }
        y[i] = sum;
      }
      expect(y).toEqual(csrTimes(C, x));
    }), runs);
  });

  it('CSR → dense puts A(i,j) at i + j·ld and dense → CSR recovers the nonzero entries', () => {
    fc.assert(fc.property(cooArbitrary(), fc.integer({ min: 0, max: 3 }), (A, extra) => {
      const C = cooToCsr(A);
      const ld = Math.max(1, C.rows) + extra;
      const D = csrToDense(C, { ld });
      expect(D.ld).toBe(ld);
      const oracle = canonicalOracle(A);
      for (let i = 0; i < C.rows; i++) {
        for (let j = 0; j < C.cols; j++) {
          let expected = 0;
          for (let t = oracle.rowPtr[i]!; t < oracle.rowPtr[i + 1]!; t++) if (oracle.colIndex[t] === j) expected = oracle.values[t]!;
          expect(Object.is(D.data[i + j * ld], expected)).toBe(true);
        }
      }
      // dense → CSR keeps exactly the entries that are not ±0, in canonical order
      const back = denseToCsr(D);
      const keep = Array.from(oracle.values.keys()).filter((t) => oracle.values[t] !== 0);
      expect(Array.from(back.colIndex)).toEqual(keep.map((t) => oracle.colIndex[t]));
      expect(Array.from(back.values)).toEqual(keep.map((t) => oracle.values[t]));
      for (let i = 0; i < C.rows; i++) {
        expect(back.rowPtr[i + 1]! - back.rowPtr[i]!).toBe(keep.filter((t) => t >= oracle.rowPtr[i]! && t < oracle.rowPtr[i + 1]!).length);
      }
    }), runs);
  });

  it('rejects a too-small leading dimension', () => {
    const C = cooToCsr(cooMatrix({ rows: 3, cols: 1, rowIndex: Int32Array.of(2), colIndex: Int32Array.of(0), values: Float64Array.of(1) }));
    expectModprec(() => csrToDense(C, { ld: 2 }), 'INVALID_STRIDE', 'options.ld');
  });
});

describe('csrTranspose', () => {
  it('moves every entry (i, j) to (j, i), gives canonical output, and is an involution', () => {
    fc.assert(fc.property(cooArbitrary(), (A) => {
      const C = cooToCsr(A);
      const T = csrTranspose(C);
      expect([T.rows, T.cols]).toEqual([C.cols, C.rows]);
      const swapped = cooMatrix({ rows: A.cols, cols: A.rows, rowIndex: A.colIndex, colIndex: A.rowIndex, values: A.values });
      // Each position's value is the same input-order sum whether we transpose before or after summing.
      expect(csrEqual(T, canonicalOracle(swapped))).toBe(true);
      expect(csrEqual(csrTranspose(T), C)).toBe(true);
    }), runs);
  });
});
