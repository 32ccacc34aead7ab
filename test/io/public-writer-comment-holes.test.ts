/**
 * writeMatrixMarket checked its comments with forEach, which skips the holes of a sparse array, then wrote every index:
 * `comments: [, 'b']` gave the comment line '%undefined'. A hole is now what any other non-string is, INVALID_VALUE
 * naming options.comments[k] (the first bad index), and comments that write read back as given.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readMatrixMarket, writeMatrixMarket } from '../../src/io/matrix-market.js';
import { cooArbitrary, expectModprec } from '../sparse/sparse-arbitraries.js';

const comment = fc.string({ maxLength: 6 }).filter((c) => !/[\r\n]/.test(c));

describe('writeMatrixMarket: comments with holes', () => {
  it('the example: [, \'b\'] is INVALID_VALUE naming options.comments[0]', () => {
    const A = { rows: 1, cols: 1, rowIndex: Int32Array.of(0), colIndex: Int32Array.of(0), values: Float64Array.of(1) };
    expectModprec(() => writeMatrixMarket(A, { comments: [, 'b'] as string[] }), 'INVALID_VALUE', 'options.comments[0]');
  });

  it('any sparse array: the first hole is named, nothing else; a dense one reads back as written', () => {
    fc.assert(fc.property(cooArbitrary({ maxSize: 3, maxEntries: 3 }), fc.sparseArray(comment, { maxLength: 6 }), (A, comments) => {
      const hole = Array.from({ length: comments.length }, (_, k) => k).find((k) => !(k in comments));
      if (hole !== undefined) {
        expectModprec(() => writeMatrixMarket(A, { comments }), 'INVALID_VALUE', `options.comments[${hole}]`);
        return;
      }
      expect(readMatrixMarket(writeMatrixMarket(A, { comments })).comments).toEqual([...comments]);
    }), { numRuns: 200 });
  });
});
