/**
 * Matrix Market options of the wrong type are typed errors naming the option, as the sparse helpers' boolean options
 * are: readMatrixMarket, readMatrixMarketCsr and writeMatrixMarket read `allowNonFinite === true`, so 1 or 'true'
 * silently meant false (a file holding NaN was refused although NaN had been asked for), and writeMatrixMarket took
 * `comments: null` as no comments while `format: null` was refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csrMatrix, readMatrixMarket, readMatrixMarketCsr, writeMatrixMarket } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const notBoolean = fc.constantFrom<unknown>(1, 0, 'true', 'false', null, {}, [], 1n, NaN);
const text = '%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 nan\n2 2 -inf\n';
const A = csrMatrix({ rows: 1, cols: 1, rowPtr: Int32Array.of(0, 1), colIndex: Int32Array.of(0), values: Float64Array.of(NaN) });

describe('allowNonFinite must be a boolean', () => {
  it('readMatrixMarket, readMatrixMarketCsr and writeMatrixMarket refuse anything else with INVALID_OPTION', () => {
    fc.assert(fc.property(notBoolean, (bad) => {
      expectModprec(() => readMatrixMarket(text, { allowNonFinite: bad as boolean }), 'INVALID_OPTION', 'options.allowNonFinite');
      expectModprec(() => readMatrixMarketCsr(text, { allowNonFinite: bad as boolean }), 'INVALID_OPTION', 'options.allowNonFinite');
      expectModprec(() => writeMatrixMarket(A, { allowNonFinite: bad as boolean }), 'INVALID_OPTION', 'options.allowNonFinite');
    }));
  });

  it('true reads and writes the non-finite values; false and omitted refuse them', () => {
    const data = readMatrixMarket(text, { allowNonFinite: true });
    expect(data.format === 'coordinate' && Array.from(data.matrix.values)).toEqual([NaN, -Infinity]);
    expect(writeMatrixMarket(A, { allowNonFinite: true })).toBe('%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 NaN\n');
    for (const options of [{}, { allowNonFinite: false }, undefined]) {
      expectModprec(() => readMatrixMarket(text, options), 'PARSE_ERROR', 'line 3');
      expectModprec(() => writeMatrixMarket(A, options), 'INVALID_VALUE', 'matrix.values[0]');
    }
  });
});

describe('writeMatrixMarket comments', () => {
  it('null or a non-array is INVALID_OPTION naming options.comments, as a null format is', () => {
    for (const bad of [null, 'x', 5, {}]) {
      expectModprec(() => writeMatrixMarket(A, { comments: bad as never, allowNonFinite: true }), 'INVALID_OPTION', 'options.comments');
    }
    expectModprec(() => writeMatrixMarket(A, { format: null as never }), 'INVALID_OPTION', 'options.format');
    expect(writeMatrixMarket(A, { comments: [' one', ''], allowNonFinite: true }).split('\n').slice(1, 3)).toEqual(['% one', '%']);
  });
});
