import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readMatrixMarket, writeMatrixMarket } from '../../src/io/matrix-market.js';
import type { MatrixMarketData } from '../../src/io/matrix-market.js';
import type { CooMatrix } from '../../src/sparse/coo-matrix.js';
import { cooMatrix } from '../../src/sparse/coo-matrix.js';
import { cooToCsr } from '../../src/sparse/coo-to-csr.js';
import { csrToDense } from '../../src/sparse/csr-dense.js';
import type { DenseMatrix } from '../../src/sparse/dense-matrix.js';
import { expandTriangleCoo } from '../../src/sparse/symmetric.js';
import { laplacianCsr } from '../../src/sparse/laplacian.js';
import { canonicalOracle, cooArbitrary, csrEqual, entryValue, expectModprec } from '../sparse/sparse-arbitraries.js';

const runs = { numRuns: 200 };

function coo(data: MatrixMarketData): CooMatrix {
  if (data.format !== 'coordinate') throw new Error('expected a coordinate file');
  return data.matrix;
}
function dense(data: MatrixMarketData): DenseMatrix {
  if (data.format !== 'array') throw new Error('expected an array file');
  return data.matrix;
}
/** Exact equality of the elements A(i, j) of two dense matrices of the same shape (ld may differ). */
function sameDense(A: DenseMatrix, B: DenseMatrix): boolean {
  if (A.rows !== B.rows || A.cols !== B.cols) return false;
  for (let j = 0; j < A.cols; j++) for (let i = 0; i < A.rows; i++) if (!Object.is(A.data[i + j * A.ld], B.data[i + j * B.ld])) return false;
  return true;
}
function sameArray(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.from(a).every((v, k) => Object.is(v, b[k]));
}

/** A square lower triangle (strictly lower when `strict`) built from a random COO matrix. */
function triangle(strict: boolean, value?: fc.Arbitrary<number>): fc.Arbitrary<CooMatrix> {
  return cooArbitrary(value === undefined ? {} : { value }).map((A) => {
    const n = Math.min(A.rows, A.cols);
    const keep = Array.from(A.values.keys()).filter((k) => A.rowIndex[k]! < n && A.colIndex[k]! < n && (A.rowIndex[k]! > A.colIndex[k]! || (!strict && A.rowIndex[k] === A.colIndex[k])));
    return cooMatrix({
      rows: n, cols: n,
      rowIndex: Int32Array.from(keep, (k) => A.rowIndex[k]!), colIndex: Int32Array.from(keep, (k) => A.colIndex[k]!), values: Float64Array.from(keep, (k) => A.values[k]!),
    });
  });
}

/** A random dense matrix (optionally symmetric / skew-symmetric) in column-major order with ld = max(1, rows). */
function denseArbitrary(symmetry: 'general' | 'symmetric' | 'skew-symmetric', value: fc.Arbitrary<number> = entryValue()): fc.Arbitrary<DenseMatrix> {
  return fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })).chain(([r, c]) => {
    const rows = r, cols = symmetry === 'general' ? c : r;
    const ld = Math.max(1, rows);
    return fc.array(value, { minLength: ld * cols, maxLength: ld * cols }).map((values) => {
      const data = Float64Array.from(values);
      if (symmetry !== 'general') {
        for (let j = 0; j < cols; j++) {
          if (symmetry === 'skew-symmetric') data[j + j * ld] = 0;
          for (let i = j + 1; i < rows; i++) data[j + i * ld] = symmetry === 'symmetric' ? data[i + j * ld]! : -data[i + j * ld]!;
        }
      }
      return { rows, cols, ld, data };
    });
  });
}

describe('writeMatrixMarket then readMatrixMarket', () => {
  it('a general COO matrix comes back identical, entry order, duplicates, -0, subnormals and extremes included', () => {
    fc.assert(fc.property(cooArbitrary({ nonFinite: true, maxSize: 8, maxEntries: 30 }), (A) => {
      const back = coo(readMatrixMarket(writeMatrixMarket(A, { allowNonFinite: true }), { allowNonFinite: true }));
      expect([back.rows, back.cols]).toEqual([A.rows, A.cols]);
      expect(sameArray(back.rowIndex, A.rowIndex) && sameArray(back.colIndex, A.colIndex) && sameArray(back.values, A.values)).toBe(true);
    }), runs);
  });

  it('a CSR matrix comes back as the same canonical matrix', () => {
    fc.assert(fc.property(cooArbitrary(), (A) => {
      const C = cooToCsr(A); // summing duplicates may overflow to ±Infinity
      const text = writeMatrixMarket(C, { allowNonFinite: true });
      expect(csrEqual(cooToCsr(coo(readMatrixMarket(text, { allowNonFinite: true }))), C)).toBe(true);
    }), runs);
  });

  it('symmetric and skew-symmetric matrices survive being stored by their lower triangle', () => {
    for (const symmetry of ['symmetric', 'skew-symmetric'] as const) {
      fc.assert(fc.property(triangle(symmetry === 'skew-symmetric'), (L) => {
        const full = expandTriangleCoo(L, symmetry);
        const nonFinite = { allowNonFinite: true }; // summing duplicates may overflow to ±Infinity
        const data = readMatrixMarket(writeMatrixMarket(full, { symmetry, ...nonFinite }), nonFinite);
        expect(data.header.symmetry).toBe(symmetry);
        expect(data.format === 'coordinate' && data.storedEntries).toBe(cooToCsr(L).values.length);
        // bit for bit, except that a cancelled skew entry (x + (−x) = +0 on both sides) reads back as −0 above the diagonal
        expect(csrEqual(cooToCsr(coo(data)), canonicalOracle(full), symmetry === 'symmetric')).toBe(true);
      }), runs);
    }
  });

  it('integer and pattern fields keep the values (integers) or the pattern (ones)', () => {
    const integers = fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 });
    fc.assert(fc.property(cooArbitrary({ value: integers }), (A) => {
      const back = coo(readMatrixMarket(writeMatrixMarket(A, { field: 'integer' })));
      expect(sameArray(back.values, A.values)).toBe(true);
      const pattern = readMatrixMarket(writeMatrixMarket(A, { field: 'pattern' }));
      expect(pattern.header.field).toBe('pattern');
      expect(sameArray(coo(pattern).rowIndex, A.rowIndex) && sameArray(coo(pattern).colIndex, A.colIndex)).toBe(true);
      expect(Array.from(coo(pattern).values).every((v) => v === 1)).toBe(true);
    }), runs);
  });

  it('dense matrices come back identical as general, symmetric and skew-symmetric arrays', () => {
    for (const symmetry of ['general', 'symmetric', 'skew-symmetric'] as const) {
      fc.assert(fc.property(denseArbitrary(symmetry), (D) => {
        const back = dense(readMatrixMarket(writeMatrixMarket(D, { symmetry })));
        expect([back.rows, back.cols, back.ld]).toEqual([D.rows, D.cols, D.ld]);
        expect(sameDense(back, D)).toBe(true);
      }), runs);
    }
  });

  it('sparse input can be written as an array and dense input as coordinates', () => {
    fc.assert(fc.property(cooArbitrary(), (A) => {
      const D = csrToDense(cooToCsr(A)); // summing duplicates may overflow to ±Infinity
      const nonFinite = { allowNonFinite: true };
      expect(sameDense(dense(readMatrixMarket(writeMatrixMarket(A, { format: 'array', ...nonFinite }), nonFinite)), D)).toBe(true);
      const back = csrToDense(cooToCsr(coo(readMatrixMarket(writeMatrixMarket(D, { format: 'coordinate', ...nonFinite }), nonFinite))));
      expect(Array.from(back.data)).toEqual(Array.from(D.data, (v) => (v === 0 ? 0 : v)));
    }), runs);
  });
});

describe('writeMatrixMarket output and errors', () => {
  it('writes the banner, comments, size line and 1-based lower-triangle entries', () => {
    const text = writeMatrixMarket(laplacianCsr([2]), { symmetry: 'symmetric', field: 'integer', comments: [' 1-D Laplacian'] });
    expect(text).toBe('%%MatrixMarket matrix coordinate integer symmetric\n% 1-D Laplacian\n2 2 3\n1 1 2\n2 1 -1\n2 2 2\n');
    const D = { rows: 2, cols: 2, ld: 2, data: Float64Array.of(0.1, -0, 1e21, 5e-324) };
    expect(writeMatrixMarket(D)).toBe('%%MatrixMarket matrix array real general\n2 2\n0.1\n-0\n1e+21\n5e-324\n');
  });

  it('rejects matrices without the requested symmetry, unrepresentable values and bad options', () => {
    const A = cooMatrix({ rows: 2, cols: 2, rowIndex: Int32Array.of(0, 1), colIndex: Int32Array.of(1, 0), values: Float64Array.of(1, 2) });
    expectModprec(() => writeMatrixMarket(A, { symmetry: 'symmetric' }), 'INVALID_VALUE', 'matrix');
    expectModprec(() => writeMatrixMarket(A, { symmetry: 'skew-symmetric' }), 'INVALID_VALUE', 'matrix');
    expectModprec(() => writeMatrixMarket({ ...A, cols: 3 }, { symmetry: 'symmetric' }), 'DIMENSION_MISMATCH', 'matrix');
    const D = { rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 2, 3, 4) };
    expectModprec(() => writeMatrixMarket(D, { symmetry: 'symmetric' }), 'INVALID_VALUE', 'matrix(1, 0)');
    expectModprec(() => writeMatrixMarket({ ...D, data: Float64Array.of(1, 2, -2, 0) }, { symmetry: 'skew-symmetric' }), 'INVALID_VALUE', 'matrix(0, 0)');
    expectModprec(() => writeMatrixMarket({ ...A, values: Float64Array.of(1, 0.5) }, { field: 'integer' }), 'INVALID_VALUE', 'matrix.values[1]');
    expectModprec(() => writeMatrixMarket({ ...A, values: Float64Array.of(NaN, 1) }), 'INVALID_VALUE', 'matrix.values[0]');
    expectModprec(() => writeMatrixMarket(A, { format: 'dense' as 'array' }), 'INVALID_OPTION', 'options.format');
    expectModprec(() => writeMatrixMarket(A, { field: 'pattern', format: 'array' }), 'INVALID_OPTION', 'options.field');
    expectModprec(() => writeMatrixMarket(A, { comments: ['two\nlines'] }), 'INVALID_VALUE', 'options.comments[0]');
    expectModprec(() => writeMatrixMarket({ rows: 1 } as unknown as CooMatrix), 'INVALID_VALUE', 'matrix');
    expectModprec(() => writeMatrixMarket({ ...A, rowIndex: Int32Array.of(0, 5) }), 'INDEX_OUT_OF_RANGE', 'rowIndex[1]');
  });
});
