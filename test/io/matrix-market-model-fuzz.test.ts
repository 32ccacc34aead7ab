/**
 * Model-based fuzzing of the Matrix Market reader: files are rendered from a random model (banner, comments, size
 * line, entries with random decimal spellings, random keyword case, blank lines, CRLF), so the expected outcome is
 * known exactly — the matrix, with every value the correctly rounded double of its decimal token by an exact BigInt
 * oracle (not Number()), or, for one injected defect, a PARSE_ERROR naming the defect's line. The mutation fuzzer
 * (matrix-market-fuzz.test.ts) checks that damaged files are refused; this one checks what is read is right.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModprecError } from '../../src/core/errors.js';
import { readMatrixMarket, readMatrixMarketCsr, writeMatrixMarket } from '../../src/io/matrix-market.js';
import { rational, type Rational } from '../../src/testing/rational.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { cooMatrix } from '../../src/sparse/coo-matrix.js';

type Field = 'real' | 'integer' | 'pattern';
type Symmetry = 'general' | 'symmetric' | 'skew-symmetric';
interface Entry { readonly i: number; readonly j: number; readonly token: string }
interface Model {
  readonly field: Field; readonly symmetry: Symmetry; readonly rows: number; readonly cols: number;
  readonly entries: readonly Entry[]; readonly comments: readonly string[]; readonly crlf: boolean; readonly upper: boolean;
}

/** The exact value of a decimal token [+-]?(d+.?d*|.d+)([eE][+-]?d+)?, as a rational. */
function decimalValue(token: string): Rational {
  const m = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(token)!;
  const digits = BigInt((m[2] || '0') + (m[3] || ''));
  const exponent = Number(m[4] ?? 0) - (m[3] ?? '').length;
  const signed = m[1] === '-' ? -digits : digits;
  return exponent >= 0 ? rational(signed * 10n ** BigInt(exponent)) : rational(signed, 10n ** BigInt(-exponent));
}

/** The double a real token must read as: the exact decimal rounded to nearest, −0 kept for a negative zero. */
function expectedReal(token: string): number {
  const v = roundRationalToDouble(decimalValue(token));
  return v === 0 && token.startsWith('-') ? -0 : v;
}

const digits = (min: number, max: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));
/** Decimal spellings of every shape: integers, leading/trailing dots, long mantissas, exponents near the double range's ends. */
const realToken: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom('', '+', '-'), digits(0, 22), fc.constantFrom('', '.'), digits(0, 22),
  fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 280, max: 345 })))),
).map(([sign, whole, dot, frac, exp]) => {
  let mantissa = dot === '.' ? `${whole}.${frac}` : whole + frac;
  if (!/\d/.test(mantissa)) mantissa = '0' + mantissa;
  return sign + mantissa + (exp ? exp[0] + exp[1] + exp[2] : '');
});
const integerToken = fc.tuple(fc.constantFrom('', '+', '-'), fc.oneof(digits(1, 6), fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }).map(String)))
  .map(([s, d]) => s + d);

const model: fc.Arbitrary<Model> = fc.record({
  field: fc.constantFrom<Field>('real', 'integer', 'pattern'),
  symmetry: fc.constantFrom<Symmetry>('general', 'symmetric', 'skew-symmetric'),
  rows: fc.integer({ min: 0, max: 5 }), cols: fc.integer({ min: 0, max: 5 }),
  count: fc.integer({ min: 0, max: 8 }),
  comments: fc.array(fc.string({ maxLength: 10 }).filter((c) => !/[\r\n]/.test(c)), { maxLength: 2 }),
  crlf: fc.boolean(), upper: fc.boolean(), seed: fc.array(fc.tuple(fc.nat(), fc.nat(), realToken, integerToken), { minLength: 8, maxLength: 8 }),
}).map(({ field, symmetry: s, rows, cols: c, count, comments, crlf, upper, seed }) => {
  const symmetry: Symmetry = field === 'pattern' && s === 'skew-symmetric' ? 'symmetric' : s;
  const cols = symmetry === 'general' ? c : rows;
  const entries: Entry[] = [];
  for (const [a, b, real, int] of seed.slice(0, rows * cols === 0 ? 0 : count)) {
    let i = a % rows, j = b % cols;
    if (symmetry !== 'general' && i < j) [i, j] = [j, i];
    if (symmetry === 'skew-symmetric' && i === j) continue;   // a skew diagonal holds zeros only
    entries.push({ i, j, token: field === 'real' ? real : field === 'integer' ? int : '' });
  }
  return { field, symmetry, rows, cols, entries, comments, crlf, upper };
});

/** The file of a model; `lines` receives the 1-based line of each entry. */
function render(m: Model, entries: readonly Entry[] = m.entries, declared = entries.length, lines: number[] = []): string {
  const keyword = (k: string) => (m.upper ? k.toUpperCase() : k);
  const out = [`%%MatrixMarket ${keyword('matrix')} ${keyword('coordinate')} ${keyword(m.field)} ${keyword(m.symmetry)}`];
  for (const c of m.comments) out.push(`%${c}`);
  out.push(`${m.rows} ${m.cols} ${declared}`);
  for (const e of entries) {
    lines.push(out.length + 1);
    out.push(m.field === 'pattern' ? `${e.i + 1} ${e.j + 1}` : `${e.i + 1}\t${e.j + 1}  ${e.token}`);
  }
  return out.join(m.crlf ? '\r\n' : '\n') + (m.crlf ? '\r\n' : '\n');
}

/** What the reader must return for a valid model, or undefined when a value cannot be read (overflow, 2^53). */
function expectedMatrix(m: Model): { rowIndex: number[]; colIndex: number[]; values: number[] } | undefined {
  const rowIndex: number[] = [], colIndex: number[] = [], values: number[] = [];
  for (const e of m.entries) {
    const v = m.field === 'pattern' ? 1 : m.field === 'integer' ? Number(BigInt(e.token)) * 1 : expectedReal(e.token);
    if (m.field === 'integer' && (BigInt(e.token) > 2n ** 53n - 1n || BigInt(e.token) < -(2n ** 53n - 1n))) return undefined;
    if (!Number.isFinite(v)) return undefined;
    const value = m.field === 'integer' && e.token.startsWith('-') && v === 0 ? -0 : v;
    rowIndex.push(e.i); colIndex.push(e.j); values.push(value);
    if (m.symmetry !== 'general' && e.i !== e.j) { rowIndex.push(e.j); colIndex.push(e.i); values.push(m.symmetry === 'skew-symmetric' ? -value : value); }
  }
  return { rowIndex, colIndex, values };
}

function expectParseError(read: () => unknown, line?: number): void {
  let error: unknown;
  try { read(); } catch (e) { error = e; }
  expect(error).toBeInstanceOf(ModprecError);
  expect((error as ModprecError).code).toBe('PARSE_ERROR');
  if (line !== undefined) expect((error as ModprecError).parameter).toBe(`line ${line}`);
}

describe('Matrix Market reader against a model of the file', () => {
  it('reads exactly the modelled matrix: indices, mirrors, and every decimal correctly rounded (BigInt oracle)', () => {
    fc.assert(fc.property(model, (m) => {
      const text = render(m);
      const expected = expectedMatrix(m);
      if (expected === undefined) { expectParseError(() => readMatrixMarket(text)); return; }
      const data = readMatrixMarket(text);
      if (data.format !== 'coordinate') throw new Error('format');
      expect([data.rows, data.cols, data.storedEntries, data.comments]).toEqual([m.rows, m.cols, m.entries.length, m.comments]);
      expect(data.header).toEqual({ object: 'matrix', format: 'coordinate', field: m.field, symmetry: m.symmetry });
      expect(Array.from(data.matrix.rowIndex)).toEqual(expected.rowIndex);
      expect(Array.from(data.matrix.colIndex)).toEqual(expected.colIndex);
      expect(Array.from(data.matrix.values).map((v) => (Object.is(v, -0) ? '-0' : v))).toEqual(expected.values.map((v) => (Object.is(v, -0) ? '-0' : v)));
      // and what was read writes back and reads back to the same bits
      const again = readMatrixMarket(writeMatrixMarket(data.matrix));
      expect(Array.from(again.format === 'coordinate' ? again.matrix.values : [])).toEqual(Array.from(data.matrix.values));
    }), { numRuns: 400 });
  });

  type Defect = (m: Model, entries: Entry[]) => { entries: Entry[]; declared?: number; line: 'entry' | 'none'; at: number } | undefined;
  const defects: Record<string, Defect> = {
    'row index 0': (m, e) => (e.length ? { entries: e.map((x, k) => (k === 0 ? { ...x, i: -1 } : x)), line: 'entry', at: 0 } : undefined),
    'column index beyond cols': (m, e) => (e.length ? { entries: e.map((x, k) => (k === e.length - 1 ? { ...x, j: m.cols } : x)), line: 'entry', at: e.length - 1 } : undefined),
    'a Fortran exponent': (m, e) => (e.length && m.field === 'real' ? { entries: e.map((x, k) => (k === 0 ? { ...x, token: '1.5D3' } : x)), line: 'entry', at: 0 } : undefined),
    'a hexadecimal value': (m, e) => (e.length && m.field !== 'pattern' ? { entries: e.map((x, k) => (k === 0 ? { ...x, token: '0x10' } : x)), line: 'entry', at: 0 } : undefined),
    'a fraction in an integer file': (m, e) => (e.length && m.field === 'integer' ? { entries: e.map((x, k) => (k === 0 ? { ...x, token: '1.0' } : x)), line: 'entry', at: 0 } : undefined),
    'an entry above the diagonal of a symmetric file': (m, e) => {
      const k = e.findIndex((x) => x.i > x.j);
      return m.symmetry !== 'general' && k >= 0 ? { entries: e.map((x, q) => (q === k ? { ...x, i: x.j, j: x.i } : x)), line: 'entry', at: k } : undefined;
    },
    'one entry fewer than declared': (m, e) => ({ entries: e, declared: e.length + 1, line: 'none', at: 0 }),
    'one entry more than declared': (m, e) => (e.length ? { entries: e, declared: e.length - 1, line: 'entry', at: e.length - 1 } : undefined),
  };

  it.each(Object.keys(defects))('%s: PARSE_ERROR naming its line, from both readers', (name) => {
    fc.assert(fc.property(model, (m) => {
      const d = defects[name]!(m, [...m.entries]);
      fc.pre(d !== undefined && m.rows > 0 && m.cols > 0 && expectedMatrix(m) !== undefined);   // one defect, in an otherwise valid file
      // Indices are rendered 1-based: i = -1 writes the row index 0.
      const lines: number[] = [];
      const text = render(m, d!.entries, d!.declared ?? d!.entries.length, lines);
      const line = d!.line === 'entry' ? lines[d!.at] : undefined;
      expectParseError(() => readMatrixMarket(text), line);
      expectParseError(() => readMatrixMarketCsr(text), line);
    }), { numRuns: 150 });
  });

  it('any argument of any type: a string or a ModprecError from the writer, a result or a ModprecError from the readers', () => {
    const matrixLike = fc.oneof(fc.anything(), fc.record({ rows: fc.anything(), cols: fc.anything(), rowIndex: fc.anything(), colIndex: fc.anything(), values: fc.anything() }),
      fc.record({ rows: fc.integer({ min: -1, max: 3 }), cols: fc.integer({ min: -1, max: 3 }), ld: fc.anything(), data: fc.oneof(fc.anything(), fc.float64Array({ maxLength: 9 })) }));
    const options = fc.oneof(fc.anything(), fc.record({ format: fc.anything(), field: fc.anything(), symmetry: fc.anything(), comments: fc.anything(), allowNonFinite: fc.anything(), maxBytes: fc.anything() }, { requiredKeys: [] }));
    fc.assert(fc.property(matrixLike, options, fc.oneof(fc.anything(), fc.string()), (A, o, text) => {
      for (const call of [() => writeMatrixMarket(A as never, o as never), () => readMatrixMarket(text as never, o as never), () => readMatrixMarketCsr(text as never, o as never)]) {
        try { call(); } catch (e) { expect(e, String(e)).toBeInstanceOf(ModprecError); }
      }
    }), { numRuns: 1500 });
  });

  it('random text is never anything but a typed error or a valid matrix', () => {
    const token = fc.oneof(fc.constantFrom('%%MatrixMarket', 'matrix', 'coordinate', 'array', 'real', 'integer', 'pattern', 'complex',
      'general', 'symmetric', 'skew-symmetric', 'hermitian', '%', '1', '2', '0', '-1', '1e400', 'nan', '\n', '\r\n', ' ', '\t', '2147483648'), fc.string({ maxLength: 4 }));
    fc.assert(fc.property(fc.array(token, { maxLength: 40 }), fc.boolean(), (tokens, withBanner) => {
      const text = (withBanner ? '%%MatrixMarket matrix coordinate real general\n' : '') + tokens.join(' ');
      for (const read of [() => readMatrixMarket(text), () => readMatrixMarketCsr(text)]) {
        try {
          const data = read();
          expect(data).toBeTypeOf('object');
          if ('format' in data && data.format === 'coordinate') cooMatrix(data.matrix);
        } catch (e) {
          expect(e).toBeInstanceOf(ModprecError);
          expect(['PARSE_ERROR', 'INVALID_SIZE']).toContain((e as ModprecError).code);
        }
      }
    }), { numRuns: 1500 });
  });
});
