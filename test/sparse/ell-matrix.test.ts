import { describe, expect, it } from 'vitest';
import { ELL_PADDING, ellMatrix, ellRowLength, ellStructure } from '../../src/sparse/ell-matrix.js';
import { resolveEllStride, resolveEllWidth } from '../../src/sparse/ell-layout.js';
import { expectModprec } from './sparse-arbitraries.js';

const P = ELL_PADDING;
// [[a . b], [. c .], [d e .]] with width 2 and stride 4 (one all-padding row at the end)
const good = {
  rows: 3, cols: 3, width: 2, stride: 4,
  colIndex: Int32Array.of(0, 1, 0, P, 2, P, 1, P),
  values: Float64Array.of(1, 3, 4, 0, 2, 0, 5, 0),
};

describe('ellMatrix', () => {
  it('accepts the documented layout and counts row lengths', () => {
    const A = ellMatrix(good);
    expect(A.colIndex).toBe(good.colIndex);
    expect([0, 1, 2].map((i) => ellRowLength(A, i))).toEqual([2, 1, 2]);
    expect(ELL_PADDING).toBe(-1);
    expect(ellMatrix({ rows: 0, cols: 0, width: 0, stride: 0, colIndex: new Int32Array(0), values: new Float64Array(0) }).width).toBe(0);
  });

  it('rejects stride < rows and wrong array lengths', () => {
    expectModprec(() => ellMatrix({ ...good, stride: 2 }), 'INVALID_STRIDE', 'stride');
    expectModprec(() => ellMatrix({ ...good, colIndex: good.colIndex.slice(0, 6) }), 'DIMENSION_MISMATCH', 'colIndex.length');
    expectModprec(() => ellMatrix({ ...good, values: good.values.slice(0, 7) }), 'DIMENSION_MISMATCH', 'values.length');
    expectModprec(() => ellMatrix({ ...good, width: -1 }), 'INVALID_SIZE', 'width');
  });

  it('rejects columns outside -1..cols-1', () => {
    const colIndex = good.colIndex.slice();
    colIndex[1] = 3;
    expectModprec(() => ellMatrix({ ...good, colIndex }), 'INDEX_OUT_OF_RANGE', 'colIndex[1]');
    colIndex[1] = -2;
    expectModprec(() => ellMatrix({ ...good, colIndex }), 'INDEX_OUT_OF_RANGE', 'colIndex[1]');
  });

  it('rejects an entry after padding, an entry in a stride-padding row, and nonzero padding values', () => {
    const middle = { ...good, colIndex: Int32Array.of(0, P, 0, P, 2, 1, 1, P), values: Float64Array.of(1, 0, 4, 0, 2, 3, 5, 0) };
    expectModprec(() => ellMatrix(middle), 'INVALID_VALUE', 'colIndex[5]');
    const beyond = good.colIndex.slice();
    beyond[3] = 0;
    expectModprec(() => ellStructure({ ...good, colIndex: beyond }), 'INVALID_VALUE', 'colIndex[3]');
    const values = good.values.slice();
    values[5] = -0.5;
    expectModprec(() => ellMatrix({ ...good, values }), 'INVALID_VALUE', 'values[5]');
  });
});

describe('ELL layout options', () => {
  it('rounds the stride up to a multiple, or takes an exact stride', () => {
    expect(resolveEllStride(100, { strideMultiple: 32 })).toBe(128);
    expect(resolveEllStride(96, { strideMultiple: 32 })).toBe(96);
    expect(resolveEllStride(0, { strideMultiple: 32 })).toBe(0);
    expect(resolveEllStride(5, { stride: 7 })).toBe(7);
    expect(resolveEllStride(5)).toBe(5);
    expect(resolveEllWidth(3, { width: 5 })).toBe(5);
  });

  it('rejects contradictory or impossible options', () => {
    expectModprec(() => resolveEllStride(5, { stride: 8, strideMultiple: 4 }), 'INVALID_OPTION', 'options');
    expectModprec(() => resolveEllStride(5, { stride: 4 }), 'INVALID_STRIDE', 'options.stride');
    expectModprec(() => resolveEllStride(5, { strideMultiple: 0 }), 'INVALID_SIZE', 'options.strideMultiple');
    expectModprec(() => resolveEllStride(2 ** 31 - 2, { strideMultiple: 64 }), 'INVALID_SIZE', 'options.strideMultiple');
    expectModprec(() => resolveEllWidth(3, { width: 2 }), 'INVALID_SIZE', 'options.width');
  });
});
