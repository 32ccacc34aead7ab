/**
 * writeMatrixMarket refuses a text longer than a JavaScript string holds with a typed error: it was a bare RangeError
 * ('Invalid string length') from joining the lines, e.g. for two comments of 2^28 characters (V8 holds 2^29 − 24).
 */
import { describe, expect, it } from 'vitest';
import { writeMatrixMarket } from '../../src/io/matrix-market.js';
import { cooMatrix } from '../../src/sparse/coo-matrix.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

describe('writeMatrixMarket: the longest text', () => {
  it('a text over the engine\'s longest string is INVALID_SIZE naming matrix; half of it still writes', () => {
    const A = cooMatrix({ rows: 1, cols: 1, rowIndex: Int32Array.of(0), colIndex: Int32Array.of(0), values: Float64Array.of(1) });
    const half = 'x'.repeat(2 ** 28); // twice, with the banner and the entry, past V8's 2^29 − 24 characters
    expectModprec(() => writeMatrixMarket(A, { comments: [half, half] }), 'INVALID_SIZE', 'matrix');
    const text = writeMatrixMarket(A, { comments: [half] });
    expect(text.length).toBe('%%MatrixMarket matrix coordinate real general\n'.length + 2 ** 28 + 2 + '1 1 1\n1 1 1\n'.length);
  });
});
