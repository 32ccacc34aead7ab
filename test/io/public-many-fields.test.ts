/**
 * The reader split every line into an array of all its fields: a 280 MB file whose third line holds 1.4·10^8 fields
 * ('1 1 1 …') ended the Node process ("FATAL ERROR: invalid array length", which no catch sees) instead of reporting
 * line 3. Only the first few fields are kept now and the rest counted: the same PARSE_ERROR with the true count, and
 * long lines (spaces and tabs between fields, long comments) read exactly as short ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readMatrixMarket } from '../../src/io/matrix-market.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const BANNER = '%%MatrixMarket matrix coordinate real general\n';

describe('readMatrixMarket: lines of many fields', () => {
  it('a data line of 1.35·10^8 fields (past V8\'s longest array) is a PARSE_ERROR on its line with the count', () => {
    const fields = 135_000_000;
    const e = expectModprec(() => readMatrixMarket(`${BANNER}1 1 1\n${'1 '.repeat(fields)}\n`), 'PARSE_ERROR', 'line 3');
    expect(e.message).toBe(`line 3: expected 3 fields 'row col value', got ${fields}`);
  });

  it('any line, short or past the regular-expression path (4096 characters): the error counts every field', () => {
    const blank = fc.stringMatching(/^[ \t]{1,3}$/);
    fc.assert(fc.property(fc.integer({ min: 0, max: 3000 }), blank, fc.constantFrom('size', 'data', 'banner'), (count, gap, where) => {
      const many = Array.from({ length: count }, (_, k) => String(k % 10)).join(gap);
      const text = where === 'banner' ? `%%MatrixMarket matrix coordinate real general${gap}${many}\n1 1 1\n1 1 1\n`
        : where === 'size' ? `${BANNER}${many}\n` : `${BANNER}1 1 1\n${many}\n`;
      const total = where === 'banner' ? count + 5 : count;
      const wanted = where === 'banner' ? 5 : 3;
      if (total === wanted || total === 0) return; // a valid line (read below), or a blank one (the end-of-file error)
      const line = where === 'banner' ? 1 : where === 'size' ? 2 : 3;
      const e = expectModprec(() => readMatrixMarket(text), 'PARSE_ERROR', `line ${line}`);
      expect(e.message).toContain(`fields`);
      expect(e.message).toContain(`got ${total}`);
    }), { numRuns: 150 });
  });

  it('padding a file\'s lines with runs of spaces and tabs (any length) reads the same matrix and comments', () => {
    const pad = fc.array(fc.constantFrom(' ', '\t'), { minLength: 1, maxLength: 6000 }).map((a) => a.join(''));
    fc.assert(fc.property(pad, pad, pad, fc.double({ noNaN: true, noDefaultInfinity: true }), (a, b, c, v) => {
      const plain = readMatrixMarket(`${BANNER}% note\n2 3 1\n2 3 ${v}\n`);
      const padded = readMatrixMarket(`${BANNER}${a}% note\n${a}2${b}3${c}1${a}\n${c}2${b}3${a}${v}${b}\n`);
      expect(padded.matrix).toEqual(plain.matrix);
      expect(padded.comments).toEqual([' note']);
    }), { numRuns: 60 });
  });
});
