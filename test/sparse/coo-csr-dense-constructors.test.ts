import { describe, expect, it } from 'vitest';
import { cooMatrix } from '../../src/sparse/coo-matrix.js';
import { csrMatrix, csrMaxRowLength } from '../../src/sparse/csr-matrix.js';
import { denseMatrix } from '../../src/sparse/dense-matrix.js';
import { expectModprec } from './sparse-arbitraries.js';

const i32 = (...v: number[]) => Int32Array.from(v);
const f64 = (...v: number[]) => Float64Array.from(v);

describe('cooMatrix', () => {
  const good = { rows: 2, cols: 3, rowIndex: i32(0, 1, 0), colIndex: i32(2, 0, 2), values: f64(1, 2, 3) };

  it('accepts valid parts (duplicates included) and shares the arrays', () => {
    const A = cooMatrix(good);
    expect(A.rowIndex).toBe(good.rowIndex);
    expect(A.values).toBe(good.values);
    expect(cooMatrix({ rows: 0, cols: 0, rowIndex: i32(), colIndex: i32(), values: f64() }).rows).toBe(0);
  });

  it('rejects bad sizes, array types, lengths and indices with the parameter named', () => {
    expectModprec(() => cooMatrix({ ...good, rows: -1 }), 'INVALID_SIZE', 'rows');
    expectModprec(() => cooMatrix({ ...good, cols: 1.5 }), 'INVALID_SIZE', 'cols');
    expectModprec(() => cooMatrix({ ...good, rows: 2 ** 31 }), 'INVALID_SIZE', 'rows');
    expectModprec(() => cooMatrix({ ...good, rowIndex: [0, 1, 0] as unknown as Int32Array }), 'INVALID_STORAGE', 'rowIndex');
    expectModprec(() => cooMatrix({ ...good, values: new Float32Array(3) as unknown as Float64Array }), 'INVALID_STORAGE', 'values');
    expectModprec(() => cooMatrix({ ...good, colIndex: i32(0, 1) }), 'DIMENSION_MISMATCH', 'colIndex.length');
    expectModprec(() => cooMatrix({ ...good, values: f64(1) }), 'DIMENSION_MISMATCH', 'values.length');
    expectModprec(() => cooMatrix({ ...good, rowIndex: i32(0, 2, 0) }), 'INDEX_OUT_OF_RANGE', 'rowIndex[1]');
    expectModprec(() => cooMatrix({ ...good, colIndex: i32(2, 0, -1) }), 'INDEX_OUT_OF_RANGE', 'colIndex[2]');
    expectModprec(() => cooMatrix(null as unknown as never), 'INVALID_VALUE', 'parts');
  });
});

describe('csrMatrix', () => {
  const good = { rows: 3, cols: 2, rowPtr: i32(0, 2, 2, 3), colIndex: i32(1, 0, 1), values: f64(1, 2, 3) };

  it('accepts valid parts, any column order, and reports the longest row', () => {
    const A = csrMatrix(good);
    expect(A.colIndex).toBe(good.colIndex);
    expect(csrMaxRowLength(A)).toBe(2);
    expect(csrMaxRowLength(csrMatrix({ rows: 0, cols: 4, rowPtr: i32(0), colIndex: i32(), values: f64() }))).toBe(0);
  });

  it('rejects a rowPtr that does not start at 0, decreases, or does not end at nnz', () => {
    expectModprec(() => csrMatrix({ ...good, rowPtr: i32(1, 2, 2, 3) }), 'INVALID_VALUE', 'rowPtr[0]');
    expectModprec(() => csrMatrix({ ...good, rowPtr: i32(0, 2, 1, 3) }), 'INVALID_VALUE', 'rowPtr[2]');
    expectModprec(() => csrMatrix({ ...good, rowPtr: i32(0, 2, 2, 2) }), 'DIMENSION_MISMATCH', 'rowPtr[3]');
    expectModprec(() => csrMatrix({ ...good, rowPtr: i32(0, 2, 3) }), 'DIMENSION_MISMATCH', 'rowPtr.length');
  });

  it('rejects mismatched arrays and columns outside the matrix', () => {
    expectModprec(() => csrMatrix({ ...good, values: f64(1, 2) }), 'DIMENSION_MISMATCH', 'values.length');
    expectModprec(() => csrMatrix({ ...good, colIndex: i32(1, 2, 1) }), 'INDEX_OUT_OF_RANGE', 'colIndex[1]');
    expectModprec(() => csrMatrix({ ...good, rowPtr: new Uint32Array(4) as unknown as Int32Array }), 'INVALID_STORAGE', 'rowPtr');
  });
});

describe('denseMatrix', () => {
  it('accepts ld ≥ max(1, rows) and data long enough, including empty shapes', () => {
    expect(denseMatrix({ rows: 2, cols: 2, ld: 3, data: new Float64Array(5) }).ld).toBe(3);
    expect(denseMatrix({ rows: 0, cols: 3, ld: 1, data: new Float64Array(0) }).cols).toBe(3);
  });

  it('rejects a small ld or short data', () => {
    expectModprec(() => denseMatrix({ rows: 2, cols: 2, ld: 1, data: new Float64Array(4) }), 'INVALID_STRIDE', 'ld');
    expectModprec(() => denseMatrix({ rows: 0, cols: 2, ld: 0, data: new Float64Array(4) }), 'INVALID_STRIDE', 'ld');
    expectModprec(() => denseMatrix({ rows: 2, cols: 2, ld: 3, data: new Float64Array(4) }), 'INVALID_STORAGE', 'data.length');
  });
});
