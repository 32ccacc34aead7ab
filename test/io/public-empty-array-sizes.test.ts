/**
 * The memory plan of an array file counted max(1, rows)·cols doubles, but a file with 0 rows allocates none (the dense
 * array of a 0 × n matrix is empty, as docs/matrix-market.md's 8·rows·cols says): a valid 0 × 2147483647 file, or
 * 0 × 300000000, was refused as INVALID_SIZE ("needs 17179869176 bytes") by readMatrixMarket and readMatrixMarketCsr.
 * Now the plan is the dense array's own length, so exactly the files that allocate more than maxBytes are refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readMatrixMarket, readMatrixMarketCsr } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const array = (rows: number, cols: number, values: string[] = []): string =>
  ['%%MatrixMarket matrix array real general', `${rows} ${cols}`, ...values].join('\n') + '\n';

describe('array files with 0 rows or 0 columns', () => {
  it('0 × n and n × 0 read at any n up to 2^31 − 1, as empty matrices, by both readers', () => {
    for (const [rows, cols] of [[0, 2147483647], [0, 300000000], [2147483647, 0], [0, 0]] as const) {
      const data = readMatrixMarket(array(rows, cols));
      expect([data.rows, data.cols, data.format === 'array' && data.matrix.data.length]).toEqual([rows, cols, 0]);
      const A = readMatrixMarketCsr(array(0, cols));
      expect([A.rows, A.cols, A.values.length]).toEqual([0, cols, 0]);
    }
  });

  it('maxBytes is met exactly by 8·rows·cols bytes (readMatrixMarket), and names the larger size when exceeded', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), (rows, cols) => {
      const text = array(rows, cols, Array.from({ length: rows * cols }, (_, k) => `${k}`));
      const bytes = 8 * rows * cols;
      expect(readMatrixMarket(text, { maxBytes: bytes }).rows).toBe(rows);
      if (bytes > 0) expectModprec(() => readMatrixMarket(text, { maxBytes: bytes - 1 }), 'INVALID_SIZE', rows > cols ? 'rows' : 'cols');
    }));
  });
});
