/**
 * A file of very many lines. The reader split the text into an array of lines, and V8 ends the process for an array
 * of about 1.3·10^8 elements ("Fatal JavaScript invalid size error", which no catch sees): a 140 MB file of blank
 * lines after a bad entry on line 3 killed the process instead of raising PARSE_ERROR on line 3. Lines are now read one
 * at a time; comment lines, which the reader returns as an array, are limited to MAX_COMMENT_LINES (2^20).
 */
import { describe, expect, it } from 'vitest';
import { readMatrixMarket, readMatrixMarketCsr, writeMatrixMarket } from '../../src/io/matrix-market.js';
import { cooMatrix } from '../../src/sparse/coo-matrix.js';
import { MAX_COMMENT_LINES } from '../../src/io/matrix-market-lines.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const banner = '%%MatrixMarket matrix coordinate real general\n';

describe('files of very many lines', () => {
  it('1.4·10^8 blank lines: a bad entry is a PARSE_ERROR on its line, a valid file reads with every line counted', () => {
    const blank = '\n'.repeat(1.4e8);
    const e = expectModprec(() => readMatrixMarket(`${banner}1 1 1\n1 1 x\n${blank}`), 'PARSE_ERROR', 'line 3');
    expect(e.message).toContain("'x'");
    expect(readMatrixMarket(`${banner}1 1 1\n${blank}1 1 5\n`).matrix.values).toEqual(Float64Array.of(5));
    // a missing entry is reported at the last line of the file, after the blank ones
    expectModprec(() => readMatrixMarketCsr(`${banner}1 1 1\n${'\n'.repeat(1e6)}`), 'PARSE_ERROR', `line ${2 + 1e6}`);
  });

  it(`${MAX_COMMENT_LINES} comment lines read; one more is a PARSE_ERROR on the first line past the limit`, () => {
    const comments = '% c\n'.repeat(MAX_COMMENT_LINES);
    expect(readMatrixMarket(`${banner}${comments}0 0 0\n`).comments.length).toBe(MAX_COMMENT_LINES);
    const e = expectModprec(() => readMatrixMarket(`${banner}${comments}0 0 0\n%\n`), 'PARSE_ERROR', `line ${MAX_COMMENT_LINES + 3}`);
    expect(e.message).toContain(`more than ${MAX_COMMENT_LINES} comment lines`);
  });

  it(`writeMatrixMarket writes ${MAX_COMMENT_LINES} comments, and refuses more (INVALID_VALUE naming options.comments)`, () => {
    const A = cooMatrix({ rows: 0, cols: 0, rowIndex: new Int32Array(0), colIndex: new Int32Array(0), values: new Float64Array(0) });
    expect(readMatrixMarket(writeMatrixMarket(A, { comments: new Array<string>(MAX_COMMENT_LINES).fill('') })).comments.length).toBe(MAX_COMMENT_LINES);
    expectModprec(() => writeMatrixMarket(A, { comments: new Array<string>(MAX_COMMENT_LINES + 1).fill('') }), 'INVALID_VALUE', 'options.comments');
  });
});
