import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cooMatrix } from '../../src/sparse/coo-matrix.js';
import type { CooMatrix } from '../../src/sparse/coo-matrix.js';
import { cooToCsr } from '../../src/sparse/coo-to-csr.js';
import { csrToDense } from '../../src/sparse/csr-dense.js';
import { csrLowerTriangle, expandTriangleCoo, isSymmetricCsr } from '../../src/sparse/symmetric.js';
import { cooArbitrary, csrEqual, expectModprec } from './sparse-arbitraries.js';

/** Keeps the entries with row > col (and row = col unless `strict`), as a triangle file would store them. */
function lowerOnly(A: CooMatrix, strict: boolean): CooMatrix {
  const keep = Array.from(A.values.keys()).filter((k) => A.rowIndex[k]! > A.colIndex[k]! || (!strict && A.rowIndex[k] === A.colIndex[k]));
  return cooMatrix({
    rows: A.rows, cols: A.cols,
    rowIndex: Int32Array.from(keep, (k) => A.rowIndex[k]!),
    colIndex: Int32Array.from(keep, (k) => A.colIndex[k]!),
    values: Float64Array.from(keep, (k) => A.values[k]!),
  });
}

const square = fc.integer({ min: 0, max: 6 }).chain((n) => cooArbitrary({ maxSize: 6 }).map((A) => {
  // square it up: keep entries that fit an n × n matrix
  const keep = Array.from(A.values.keys()).filter((k) => A.rowIndex[k]! < n && A.colIndex[k]! < n);
  return cooMatrix({ rows: n, cols: n, rowIndex: Int32Array.from(keep, (k) => A.rowIndex[k]!), colIndex: Int32Array.from(keep, (k) => A.colIndex[k]!), values: Float64Array.from(keep, (k) => A.values[k]!) });
}));

describe('expandTriangleCoo', () => {
  it('symmetric: the dense expansion has A(i,j) = A(j,i) = stored value, and each mirror follows its entry', () => {
    fc.assert(fc.property(square, (A) => {
      const L = lowerOnly(A, false);
      const F = expandTriangleCoo(L, 'symmetric');
      const D = csrToDense(cooToCsr(F));
      const Lsum = csrToDense(cooToCsr(L));
      for (let i = 0; i < L.rows; i++) {
        for (let j = 0; j <= i; j++) {
          expect(Object.is(D.data[i + j * D.ld], Lsum.data[i + j * Lsum.ld])).toBe(true);
          expect(Object.is(D.data[j + i * D.ld], Lsum.data[i + j * Lsum.ld])).toBe(true);
        }
      }
      let out = 0;
      for (let k = 0; k < L.values.length; k++) {
        expect([F.rowIndex[out], F.colIndex[out]]).toEqual([L.rowIndex[k], L.colIndex[k]]);
        out += L.rowIndex[k] === L.colIndex[k] ? 1 : 2;
      }
      expect(out).toBe(F.values.length);
      expect(isSymmetricCsr(cooToCsr(F))).toBe(true);
    }), { numRuns: 200 });
  });

  it('skew-symmetric: mirrors are negated, diagonal zeros kept, and the result is skew', () => {
    fc.assert(fc.property(square, (A) => {
      const L = lowerOnly(A, true);
      const F = expandTriangleCoo(L, 'skew-symmetric');
      for (let k = 0, out = 0; k < L.values.length; k++, out += 2) {
        expect(Object.is(F.values[out + 1], -L.values[k]!)).toBe(true);
        expect([F.rowIndex[out + 1], F.colIndex[out + 1]]).toEqual([L.colIndex[k], L.rowIndex[k]]);
      }
      const C = cooToCsr(F);
      expect(isSymmetricCsr(C, 'skew-symmetric')).toBe(true);
      if (C.values.some((v) => v !== 0 && !Number.isNaN(v))) expect(isSymmetricCsr(C, 'symmetric')).toBe(false);
    }), { numRuns: 200 });
    const withZeroDiagonal = cooMatrix({ rows: 2, cols: 2, rowIndex: Int32Array.of(0, 1), colIndex: Int32Array.of(0, 0), values: Float64Array.of(0, 3) });
    expect(Array.from(expandTriangleCoo(withZeroDiagonal, 'skew-symmetric').values)).toEqual([0, 3, -3]);
  });

  it('rejects entries above the diagonal, nonzero skew diagonals, non-square input and unknown symmetries', () => {
    const upper = cooMatrix({ rows: 2, cols: 2, rowIndex: Int32Array.of(1, 0), colIndex: Int32Array.of(0, 1), values: Float64Array.of(1, 1) });
    expectModprec(() => expandTriangleCoo(upper, 'symmetric'), 'INDEX_OUT_OF_RANGE', 'L.colIndex[1]');
    const diagonal = cooMatrix({ rows: 2, cols: 2, rowIndex: Int32Array.of(1), colIndex: Int32Array.of(1), values: Float64Array.of(2) });
    expect(expandTriangleCoo(diagonal, 'symmetric').values.length).toBe(1);
    expectModprec(() => expandTriangleCoo(diagonal, 'skew-symmetric'), 'INVALID_VALUE', 'L.values[0]');
    expectModprec(() => expandTriangleCoo({ ...diagonal, cols: 3 }, 'symmetric'), 'DIMENSION_MISMATCH', 'L.cols');
    expectModprec(() => expandTriangleCoo(diagonal, 'hermitian' as 'symmetric'), 'INVALID_OPTION', 'symmetry');
  });
});

describe('isSymmetricCsr and csrLowerTriangle', () => {
  const csr = (n: number, entries: [number, number, number][]) => cooToCsr(cooMatrix({
    rows: n, cols: n,
    rowIndex: Int32Array.from(entries, (e) => e[0]), colIndex: Int32Array.from(entries, (e) => e[1]), values: Float64Array.from(entries, (e) => e[2]),
  }));

  it('compares values exactly and patterns structurally', () => {
    expect(isSymmetricCsr(csr(2, [[0, 1, 2], [1, 0, 2], [1, 1, 5]]))).toBe(true);
    expect(isSymmetricCsr(csr(2, [[0, 1, 2], [1, 0, 2 + 2 ** -51]]))).toBe(false);
    expect(isSymmetricCsr(csr(2, [[0, 1, 0], [1, 1, 5]]))).toBe(false); // explicit zero without its mirror
    expect(isSymmetricCsr(csr(2, [[0, 1, 0], [1, 0, -0]]))).toBe(false); // +0 and -0 differ
    expect(isSymmetricCsr(csr(2, [[0, 1, NaN], [1, 0, NaN]]))).toBe(true);
    expect(isSymmetricCsr(csr(2, [[0, 1, 0.5], [1, 0, -0.25], [1, 0, -0.25]]), 'skew-symmetric')).toBe(true); // duplicates summed
    expect(isSymmetricCsr(csr(2, [[0, 1, 1], [1, 0, -1], [0, 0, 1]]), 'skew-symmetric')).toBe(false);
    // a cancelled pair sums to +0 on both sides; it still counts as skew
    expect(isSymmetricCsr(csr(2, [[1, 0, 0.5], [1, 0, -0.5], [0, 1, -0.5], [0, 1, 0.5]]), 'skew-symmetric')).toBe(true);
    expect(isSymmetricCsr(csr(2, [[1, 0, NaN], [0, 1, NaN]]), 'skew-symmetric')).toBe(true);
    expect(isSymmetricCsr(cooToCsr(cooMatrix({ rows: 1, cols: 2, rowIndex: new Int32Array(0), colIndex: new Int32Array(0), values: new Float64Array(0) })))).toBe(false);
  });

  it('the lower triangle of a symmetric matrix expands back to the matrix', () => {
    fc.assert(fc.property(square, (A) => {
      const L = lowerOnly(A, false);
      const full = cooToCsr(expandTriangleCoo(L, 'symmetric'));
      const tri = csrLowerTriangle(full);
      expect(csrEqual(tri, cooToCsr(L))).toBe(true);
      const strict = csrLowerTriangle(full, { includeDiagonal: false });
      expect(csrEqual(strict, cooToCsr(lowerOnly(L, true)))).toBe(true);
    }), { numRuns: 200 });
  });
});
