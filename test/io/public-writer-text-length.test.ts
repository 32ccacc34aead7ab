/**
 * writeMatrixMarket refuses a text longer than a JavaScript string holds with a typed error: it was a bare RangeError
 * ('Invalid string length') from joining the lines, e.g. for two comments of 2^28 characters (V8 holds 2^29 − 24).
 * It also kept every line in one array, and V8 ends the process for an array of ~1.3·10^8 elements: a dense 1 × 1.4·10^8
 * matrix (a 280 MB file) killed it; lines are now joined 4096 at a time (that case, 20 s, is not run here — the text
 * must come out the same across those joins).
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

  it('a file of many lines is its lines, each ended by a newline, across the 4096-line joins', () => {
    for (const n of [4094, 4095, 4096, 4097, 3 * 4096 + 5]) {
      const A = cooMatrix({ rows: 1, cols: n, rowIndex: new Int32Array(n), colIndex: Int32Array.from({ length: n }, (_, k) => n - 1 - k),
        values: Float64Array.from({ length: n }, (_, k) => k / 7) });
      const lines = ['%%MatrixMarket matrix coordinate real general', `1 ${n} ${n}`, ...Array.from({ length: n }, (_, k) => `1 ${n - k} ${k / 7}`)];
      expect(writeMatrixMarket(A)).toBe(lines.map((line) => `${line}\n`).join(''));
    }
  });
});
