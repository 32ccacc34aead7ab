/**
 * Fuzzing the reader: random mutations of valid files must either be rejected with PARSE_ERROR or read
 * into a valid matrix that agrees with its own header — never crash, hang, or throw anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModprecError } from '../../src/core/errors.js';
import { readMatrixMarket, writeMatrixMarket } from '../../src/io/matrix-market.js';
import type { MatrixMarketData, MatrixMarketWriteOptions } from '../../src/io/matrix-market.js';
import { cooMatrix } from '../../src/sparse/coo-matrix.js';
import { cooToCsr } from '../../src/sparse/coo-to-csr.js';
import { denseMatrix } from '../../src/sparse/dense-matrix.js';
import { expandTriangleCoo, isSymmetricCsr } from '../../src/sparse/symmetric.js';
import { cooArbitrary } from '../sparse/sparse-arbitraries.js';

/** 2000 by default (about a second); set MODPREC_FUZZ_RUNS for a longer hunt. */
const fuzzRuns = Number(process.env.MODPREC_FUZZ_RUNS ?? 2000);

const small = fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constantFrom(0.5, -1.25e-3, 1e300, 5e-324));

/** Valid files of every kind the writer produces, plus hand-written ones with comments and CRLF. */
const validFile: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(cooArbitrary({ maxSize: 5, maxEntries: 8, value: small }), fc.constantFrom<MatrixMarketWriteOptions>(
    {}, { field: 'integer' }, { field: 'pattern' }, { format: 'array' }, { comments: ['c', ''] },
  )).map(([A, options]) => {
    const values = options.field === 'integer' ? A.values.map((v) => (Number.isSafeInteger(v) ? v : 7)) : A.values;
    return writeMatrixMarket({ ...A, values }, options);
  }),
  fc.tuple(cooArbitrary({ maxSize: 5, maxEntries: 8, value: small }), fc.constantFrom('symmetric', 'skew-symmetric' as const), fc.boolean()).map(([A, symmetry, array]) => {
    const n = Math.min(A.rows, A.cols);
    const keep = Array.from(A.values.keys()).filter((k) => A.rowIndex[k]! < n && A.colIndex[k]! < n && A.rowIndex[k]! > A.colIndex[k]!);
    const L = cooMatrix({ rows: n, cols: n, rowIndex: Int32Array.from(keep, (k) => A.rowIndex[k]!), colIndex: Int32Array.from(keep, (k) => A.colIndex[k]!), values: Float64Array.from(keep, (k) => A.values[k]!) });
    return writeMatrixMarket(expandTriangleCoo(L, symmetry), { symmetry, format: array ? 'array' : 'coordinate' });
  }),
  fc.constantFrom(
    '%%MatrixMarket matrix coordinate real general\r\n% comment\r\n\r\n3 3 3\r\n1 1 1.5e-3\r\n2 3 -.5\r\n3 2 +7\r\n',
    '%%MatrixMarket matrix coordinate pattern symmetric\n%\n4 4 3\n1 1\n3 1\n4 2\n',
    '%%MatrixMarket matrix array integer skew-symmetric\n3 3\n1\n-2\n3\n',
  ),
);

const noise = fc.constantFrom('0', '1', '9', '-', '+', '.', 'e', 'E', 'D', ' ', '\t', '\n', '\r', '%', 'x', 'n', 'a', 'i', 'f', '\uFEFF', '\u00A0', '\0');

type Mutation = (text: string) => string;
const at = (text: string, position: number) => (text.length === 0 ? 0 : position % (text.length + 1));
const lineOp = (f: (lines: string[], a: number, b: number) => void) => (a: number, b: number): Mutation => (text) => {
  const lines = text.split('\n');
  f(lines, a % lines.length, b % lines.length);
  return lines.join('\n');
};
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map((p): Mutation => (t) => t.slice(0, at(t, p)) + t.slice(at(t, p) + 1)), // delete a character
  fc.tuple(fc.nat(), noise).map(([p, c]): Mutation => (t) => t.slice(0, at(t, p)) + c + t.slice(at(t, p))), // insert
  fc.tuple(fc.nat(), noise).map(([p, c]): Mutation => (t) => t.slice(0, at(t, p)) + c + t.slice(at(t, p) + 1)), // replace
  fc.nat().map((p): Mutation => (t) => t.slice(0, at(t, p))), // truncate
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => lineOp((lines, i) => { lines.splice(i, 1); })(a, b)), // delete a line
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => lineOp((lines, i) => { lines.splice(i, 0, lines[i]!); })(a, b)), // duplicate a line
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => lineOp((lines, i, j) => { [lines[i], lines[j]] = [lines[j]!, lines[i]!]; })(a, b)), // swap lines
  fc.tuple(fc.nat(), fc.string({ maxLength: 12 })).map(([a, s]) => lineOp((lines, i) => { lines.splice(i, 0, s); })(a, 0)), // insert a line
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]): Mutation => (t) => { // swap two tokens anywhere in the file
    const tokens = t.split(/([ \t\n]+)/);
    const words = tokens.map((_, k) => k).filter((k) => k % 2 === 0);
    const i = words[a % words.length]!, j = words[b % words.length]!;
    [tokens[i], tokens[j]] = [tokens[j]!, tokens[i]!];
    return tokens.join('');
  }),
  fc.tuple(fc.nat(), fc.integer({ min: -3, max: 10 ** 6 })).map(([a, n]): Mutation => (t) => { // change a number
    let k = 0;
    const target = a % Math.max(1, (t.match(/\d+/g) ?? []).length);
    return t.replace(/\d+/g, (d) => (k++ === target ? String(n) : d));
  }),
);

/** A successful read must be a valid matrix that agrees with its header. */
function checkResult(data: MatrixMarketData): void {
  if (data.format === 'coordinate') {
    const A = cooMatrix(data.matrix);
    expect([A.rows, A.cols]).toEqual([data.rows, data.cols]);
    const expected = data.header.symmetry === 'general' ? data.storedEntries : undefined;
    if (expected !== undefined) expect(A.values.length).toBe(expected);
    if (data.header.symmetry !== 'general') expect(isSymmetricCsr(cooToCsr(A), data.header.symmetry)).toBe(true);
    if (data.header.field === 'pattern') expect(A.values.every((v) => v === 1)).toBe(true);
    expect(A.values.every(Number.isFinite)).toBe(true);
  } else {
    const D = denseMatrix(data.matrix);
    expect([D.rows, D.cols]).toEqual([data.rows, data.cols]);
    expect(D.data.every(Number.isFinite)).toBe(true);
  }
  const values = data.format === 'coordinate' ? data.matrix.values : data.matrix.data;
  if (data.header.field === 'integer') expect(values.every(Number.isSafeInteger)).toBe(true);
}

describe('Matrix Market reader under random mutations', () => {
  it('every valid file reads back (the seeds of the fuzzer are themselves valid)', () => {
    fc.assert(fc.property(validFile, (text) => checkResult(readMatrixMarket(text))), { numRuns: 300 });
  });

  it('a mutated file is either rejected with PARSE_ERROR or read as a valid matrix', () => {
    let rejected = 0, accepted = 0;
    fc.assert(fc.property(validFile, fc.array(mutation, { minLength: 1, maxLength: 4 }), (text, mutations) => {
      const mutated = mutations.reduce((t, m) => m(t), text);
      let data: MatrixMarketData;
      try {
        data = readMatrixMarket(mutated);
      } catch (e) {
        expect(e).toBeInstanceOf(ModprecError);
        expect((e as ModprecError).code).toBe('PARSE_ERROR');
        expect((e as ModprecError).parameter).toMatch(/^line \d+$/);
        expect((e as ModprecError).message.startsWith(`${(e as ModprecError).parameter}: `)).toBe(true);
        rejected++;
        return;
      }
      checkResult(data);
      accepted++;
    }), { numRuns: fuzzRuns });
    // Both outcomes must occur, or the mutations are too weak (or too destructive) to test anything.
    expect(rejected).toBeGreaterThan(fuzzRuns / 10);
    expect(accepted).toBeGreaterThan(fuzzRuns / 40);
  });
});
