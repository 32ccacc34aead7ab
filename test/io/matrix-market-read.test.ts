import { describe, expect, it } from 'vitest';
import { readMatrixMarket, readMatrixMarketCsr } from '../../src/io/matrix-market.js';
import type { MatrixMarketData } from '../../src/io/matrix-market.js';
import { ModprecError } from '../../src/core/errors.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

function coordinate(data: MatrixMarketData) {
  if (data.format !== 'coordinate') throw new Error('expected a coordinate file');
  const { rowIndex, colIndex, values } = data.matrix;
  return Array.from(values, (v, k) => [rowIndex[k], colIndex[k], v]);
}

function dense(data: MatrixMarketData): number[][] {
  if (data.format !== 'array') throw new Error('expected an array file');
  const { rows, cols, ld, data: a } = data.matrix;
  return Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => a[i + j * ld]!));
}

describe('readMatrixMarket: what it accepts', () => {
  it('reads a general real file with comments, blank lines, tabs and every number style', () => {
    const text = [
      '%%MatrixMarket matrix coordinate real general',
      '% a comment',
      '',
      '%another',
      '3 4 7',
      '1 1 1.5',
      '  2\t3   -.25  ',
      '% comment between entries',
      '3 4 +2.',
      '',
      '1 4 1e3',
      '2 2 -6.0E-2',
      '3 1 +.5e+1',
      '1 1 -0',
    ].join('\n');
    const data = readMatrixMarket(text);
    expect(data.header).toEqual({ object: 'matrix', format: 'coordinate', field: 'real', symmetry: 'general' });
    expect([data.rows, data.cols]).toEqual([3, 4]);
    expect(data.format === 'coordinate' && data.storedEntries).toBe(7);
    expect(data.comments).toEqual([' a comment', 'another', ' comment between entries']);
    expect(coordinate(data)).toEqual([[0, 0, 1.5], [1, 2, -0.25], [2, 3, 2], [0, 3, 1000], [1, 1, -0.06], [2, 0, 5], [0, 0, -0]]);
    expect(Object.is(coordinate(data)[6]![2], -0)).toBe(true);
  });

  it('accepts Windows line endings, a byte-order mark, a missing final newline and any keyword case', () => {
    const text = '\uFEFF%%matrixmarket MATRIX Coordinate REAL General\r\n% c\r\n2 2 1\r\n2 1 7';
    expect(coordinate(readMatrixMarket(text))).toEqual([[1, 0, 7]]);
    expect(readMatrixMarket('%%MatrixMarket matrix coordinate double general\n1 1 1\n1 1 2\n').header.field).toBe('real');
  });

  it('rounds decimal values correctly to the nearest double', () => {
    const text = '%%MatrixMarket matrix coordinate real general\n1 1 3\n1 1 0.1\n1 1 2.2250738585072011e-308\n1 1 4.9e-324\n';
    expect(coordinate(readMatrixMarket(text)).map((e) => e[2])).toEqual([0.1, 2.2250738585072011e-308, 5e-324]);
  });

  it('expands symmetric files, mirroring each off-diagonal entry right after it', () => {
    const text = '%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 4\n2 1 -1\n3 3 4\n3 2 -2\n';
    const data = readMatrixMarket(text);
    expect(data.format === 'coordinate' && data.storedEntries).toBe(4);
    expect(coordinate(data)).toEqual([[0, 0, 4], [1, 0, -1], [0, 1, -1], [2, 2, 4], [2, 1, -2], [1, 2, -2]]);
  });

  it('expands skew-symmetric files with negated mirrors and accepts explicit zero diagonals', () => {
    const text = '%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 3\n2 1 5\n3 3 0\n3 2 -7\n';
    expect(coordinate(readMatrixMarket(text))).toEqual([[1, 0, 5], [0, 1, -5], [2, 2, 0], [2, 1, -7], [1, 2, 7]]);
  });

  it('reads pattern files as ones, including symmetric patterns', () => {
    const text = '%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n';
    expect(coordinate(readMatrixMarket(text))).toEqual([[0, 0, 1], [1, 0, 1], [0, 1, 1]]);
  });

  it('reads array files column by column, and symmetric / skew arrays from their lower triangle', () => {
    expect(dense(readMatrixMarket('%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n'))).toEqual([[1, 3, 5], [2, 4, 6]]);
    expect(dense(readMatrixMarket('%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n'))).toEqual([[1, 2, 3], [2, 4, 5], [3, 5, 6]]);
    expect(dense(readMatrixMarket('%%MatrixMarket matrix array integer skew-symmetric\n3 3\n1\n2\n3\n'))).toEqual([[0, -1, -2], [1, 0, -3], [2, 3, 0]]);
  });

  it('reads empty matrices and files without entries', () => {
    const empty = readMatrixMarket('%%MatrixMarket matrix coordinate real general\n0 0 0\n');
    expect([empty.rows, empty.cols, coordinate(empty).length]).toEqual([0, 0, 0]);
    expect(dense(readMatrixMarket('%%MatrixMarket matrix array real general\n0 3\n'))).toEqual([]);
    expect(coordinate(readMatrixMarket('%%MatrixMarket matrix coordinate real general\n5 7 0\n% end\n\n'))).toEqual([]);
  });

  it('accepts non-finite values only when asked, including JavaScript spellings and overflow', () => {
    const text = '%%MatrixMarket matrix coordinate real general\n1 1 5\n1 1 nan\n1 1 -Inf\n1 1 Infinity\n1 1 NaN\n1 1 1e400\n';
    expectModprec(() => readMatrixMarket(text), 'PARSE_ERROR', 'line 3');
    expect(coordinate(readMatrixMarket(text, { allowNonFinite: true })).map((e) => e[2])).toEqual([NaN, -Infinity, Infinity, NaN, Infinity]);
  });

  it('readMatrixMarketCsr returns the full canonical CSR for both formats', () => {
    const A = readMatrixMarketCsr('%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n2 2 3\n1 1 1\n2 1 2\n');
    expect([Array.from(A.rowPtr), Array.from(A.colIndex), Array.from(A.values)]).toEqual([[0, 2, 4], [0, 1, 0, 1], [1, 2, 2, 3]]);
    const B = readMatrixMarketCsr('%%MatrixMarket matrix array real general\n2 2\n0\n5\n6\n0\n');
    expect([Array.from(B.rowPtr), Array.from(B.colIndex), Array.from(B.values)]).toEqual([[0, 1, 2], [1, 0], [6, 5]]);
  });
});

describe('readMatrixMarket: malformed files', () => {
  const banner = '%%MatrixMarket matrix coordinate real general';
  const cases: [string, string, string, string][] = [
    ['empty file', '', 'line 1', 'expected the banner'],
    ['no banner', '3 3 1\n1 1 1\n', 'line 1', 'expected the banner'],
    ['short banner', '%%MatrixMarket matrix coordinate real\n', 'line 1', 'expected 5 fields'],
    ['vector object', '%%MatrixMarket vector coordinate real general\n', 'line 1', "object must be 'matrix'"],
    ['unknown format', '%%MatrixMarket matrix coord real general\n', 'line 1', "format must be 'coordinate' or 'array', got 'coord'"],
    ['complex field', '%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n', 'line 1', "field 'complex' is not supported"],
    ['unknown field', '%%MatrixMarket matrix coordinate float general\n', 'line 1', "field must be 'real', 'integer' or 'pattern'"],
    ['hermitian', '%%MatrixMarket matrix coordinate real hermitian\n', 'line 1', "'hermitian' needs complex values"],
    ['pattern array', '%%MatrixMarket matrix array pattern general\n', 'line 1', "'pattern' is only defined for the 'coordinate' format"],
    ['pattern skew', '%%MatrixMarket matrix coordinate pattern skew-symmetric\n', 'line 1', "'pattern' cannot be 'skew-symmetric'"],
    ['no size line', `${banner}\n% only a comment\n`, 'line 2', "expected the size line 'rows cols entries'"],
    ['size line too short', `${banner}\n3 3\n`, 'line 2', "expected 3 fields in the size line 'rows cols entries', got 2"],
    ['array size line too long', '%%MatrixMarket matrix array real general\n2 2 4\n', 'line 2', "expected 2 fields in the size line 'rows cols', got 3"],
    ['negative size', `${banner}\n-3 3 0\n`, 'line 2', "rows must be a non-negative integer, got '-3'"],
    ['size too large', `${banner}\n3 2147483648 0\n`, 'line 2', 'exceeds 2147483647'],
    ['non-square symmetric', '%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n', 'line 2', 'must be square, got 2 x 3'],
    ['more declared than lines', `${banner}\n2 2 5\n1 1 1\n`, 'line 2', 'declares 5 entries, but only 1 line follows'],
    ['missing entries', `${banner}\n2 2 2\n1 1 1\n%\n`, 'line 4', 'end of file: expected 2 entries as declared on line 2, found 1'],
    ['extra entries', `${banner}\n2 2 1\n1 1 1\n2 2 2\n`, 'line 4', 'more entries than the 1 declared on line 2'],
    ['too few fields', `${banner}\n2 2 1\n1 1\n`, 'line 3', "expected 3 fields 'row col value', got 2"],
    ['too many fields', `${banner}\n2 2 1\n1 1 1 1\n`, 'line 3', "expected 3 fields 'row col value', got 4"],
    ['pattern with value', '%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n', 'line 3', "expected 2 fields 'row col', got 3"],
    ['row 0', `${banner}\n2 2 1\n0 1 1\n`, 'line 3', 'row index 0 is outside 1..2'],
    ['column too large', `${banner}\n2 2 1\n1 3 1\n`, 'line 3', 'column index 3 is outside 1..2'],
    ['fractional index', `${banner}\n2 2 1\n1.0 1 1\n`, 'line 3', "row index must be a positive integer, got '1.0'"],
    ['text value', `${banner}\n2 2 1\n1 1 abc\n`, 'line 3', "value must be a real number such as 1, -2.5 or 1.5e-3, got 'abc'"],
    ['hex value', `${banner}\n2 2 1\n1 1 0x10\n`, 'line 3', 'value must be a real number'],
    ['Fortran D exponent', `${banner}\n2 2 1\n1 1 1.5D-3\n`, 'line 3', "Fortran exponent letter; Matrix Market numbers use 'e' (write '1.5e-3')"],
    ['NaN by default', `${banner}\n2 2 1\n1 1 NaN\n`, 'line 3', "value 'NaN' is not finite"],
    ['overflow by default', `${banner}\n2 2 1\n1 1 1e309\n`, 'line 3', 'overflows the double range'],
    ['decimal in integer file', '%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.0\n', 'line 3', "value must be an integer (field 'integer'), got '1.0'"],
    ['huge integer', '%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 9007199254740993\n', 'line 3', 'exceeds 2^53 - 1'],
    ['upper entry in symmetric', '%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1\n1 3 2\n', 'line 4', 'entry (1, 3) lies above the diagonal; a symmetric file stores only the lower triangle'],
    ['upper entry in skew', '%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 3 2\n', 'line 3', 'lies above the diagonal'],
    ['nonzero skew diagonal', '%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1.5\n', 'line 3', "diagonal entry (2, 2) is '1.5'; the diagonal of a skew-symmetric matrix is zero"],
    ['two values on an array line', '%%MatrixMarket matrix array real general\n1 2\n1 2\n3\n', 'line 3', "expected 1 field 'value', got 2"],
    ['short array', '%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n\n', 'line 5', 'end of file: expected 3 values as declared on line 2, found 2'],
    ['long array', '%%MatrixMarket matrix array real skew-symmetric\n2 2\n1\n2\n', 'line 4', 'more entries than the 1 declared on line 2'],
    ['old Mac line endings', `${banner}\r2 2 1\r1 1 1\r`, 'line 1', 'carriage return inside a line'],
  ];

  it.each(cases)('%s', (_name, text, parameter, message) => {
    const e = expectModprec(() => readMatrixMarket(text), 'PARSE_ERROR', parameter);
    expect(e.message).toContain(`${parameter}: `);
    expect(e.message).toContain(message);
    expect(e).toBeInstanceOf(ModprecError);
  });

  it('rejects a text that is not a string, or options that are not an object, with INVALID_VALUE', () => {
    expectModprec(() => readMatrixMarket(42 as unknown as string), 'INVALID_VALUE', 'text');
    expectModprec(() => readMatrixMarket('', null as unknown as object), 'INVALID_VALUE', 'options');
  });
});
