/**
 * Sizes declared by a Matrix Market size line are checked against what reading will allocate, before allocating:
 * a 3-line file cannot exhaust memory. Accessor and vector sizes of 2^31 or more are typed errors too.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readMatrixMarket, readMatrixMarketCsr } from '../../src/io/matrix-market.js';
import { range, rowMajor, colMajor, vector, formats } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const coordinate = (symmetry: string, rows: number, cols: number, body: string[]): string =>
  [`%%MatrixMarket matrix coordinate real ${symmetry}`, `${rows} ${cols} ${body.length}`, ...body].join('\n') + '\n';

describe('Matrix Market size lines are checked before allocating', () => {
  it('2·10^9 rows and one entry (the 19 GB file): INVALID_SIZE naming rows, at once', () => {
    const text = coordinate('general', 2e9, 1, ['1 1 1']);
    const e = expectModprec(() => readMatrixMarketCsr(text), 'INVALID_SIZE', 'rows');
    expect(e.message).toContain('line 2');
    // The COO reader itself allocates per entry only: one entry is fine.
    expect(readMatrixMarket(text).rows).toBe(2e9);
  });

  it('any declared rows or columns whose CSR needs more than maxBytes: INVALID_SIZE naming the largest term', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 2 ** 20 }),
      (rows, cols, maxBytes) => {
        const text = coordinate('general', rows, cols, ['1 1 1']);
        const needed = 16 + 4 * (cols + 1) + 12 * (rows + 1) + 32;
        if (needed <= maxBytes) {
          expect(readMatrixMarketCsr(text, { maxBytes }).rows).toBe(rows);
        } else {
          // rows cost 12 bytes each, columns 4, the one entry 16 + 32 (it is the largest term when rows and cols are tiny:
          // the oracle missed that case, e.g. rows = cols = 1, maxBytes = 1); rows and cols costing the same name the larger
          // size, cols (12·rows = 4·cols: cols = 3·rows; the oracle named rows, e.g. 9 × 27)
          const largest = 48 >= 12 * rows && 48 >= 4 * cols ? 'entries' : 12 * rows > 4 * cols ? 'rows' : 'cols';
          expectModprec(() => readMatrixMarketCsr(text, { maxBytes }), 'INVALID_SIZE', largest);
        }
      }), { numRuns: 300, examples: [[1, 1, 1], [3, 1, 1], [1, 9, 1], [1, 10, 1], [9, 27, 1]] });
  });

  it('entries count too (symmetric files double them), for both readers', () => {
    const body = Array.from({ length: 50 }, (_, k) => `${k + 2} 1 ${k}`);
    const text = coordinate('symmetric', 60, 60, body);
    // COO: 2·50 entries of 16 bytes.
    expectModprec(() => readMatrixMarket(text, { maxBytes: 1599 }), 'INVALID_SIZE', 'entries');
    expect(readMatrixMarket(text, { maxBytes: 1600 }).storedEntries).toBe(50);
  });

  it('dense (array) files: rows × cols of doubles', () => {
    const text = ['%%MatrixMarket matrix array real general', '3 4', ...Array.from({ length: 12 }, (_, k) => `${k}`)].join('\n');
    expectModprec(() => readMatrixMarket(text, { maxBytes: 95 }), 'INVALID_SIZE', 'cols');
    expect(readMatrixMarket(text, { maxBytes: 96 }).rows).toBe(3);
  });

  it('a count the file cannot hold stays a PARSE_ERROR (corrupt file, not a memory limit)', () => {
    const text = ['%%MatrixMarket matrix array real general', '100000 100000', '1'].join('\n');
    expectModprec(() => readMatrixMarket(text), 'PARSE_ERROR', 'line 2');
  });

  it('maxBytes must be a non-negative number; Infinity lifts the limit', () => {
    const text = coordinate('general', 2, 2, ['1 1 1']);
    for (const bad of [-1, NaN, '10', null]) expectModprec(() => readMatrixMarket(text, { maxBytes: bad as never }), 'INVALID_OPTION', 'options.maxBytes');
    expect(readMatrixMarketCsr(text, { maxBytes: Infinity }).rows).toBe(2);
  });
});

describe('accessor and vector sizes of 2^31 or more', () => {
  it('any extent ≥ 2^31: INVALID_SIZE naming it, for every layout', () => {
    fc.assert(fc.property(fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: 1 }), (big, d) => {
      expectModprec(() => vector(big), 'INVALID_SIZE', 'size[0]');
      const size: [number, number] = d === 0 ? [big, 1] : [1, big];
      expectModprec(() => rowMajor({ size }), 'INVALID_SIZE', `size[${d}]`);
      expectModprec(() => colMajor({ size }), 'INVALID_SIZE', `size[${d}]`);
    }), { numRuns: 50 });
  });

  it('extents below 2^31 whose storage needs 2^31 elements or more: INVALID_SIZE naming size', () => {
    expectModprec(() => range(rowMajor({ size: [2 ** 16, 2 ** 16] })), 'INVALID_SIZE', 'size');
    expectModprec(() => range(colMajor({ size: [2 ** 16, 2 ** 15], storage: formats.f32 })), 'INVALID_SIZE', 'size');
  });
});
