/**
 * A DdSplitArray whose hi and lo views share memory can be read, but `range.set` through it is INVALID_STORAGE naming
 * `data`, before anything is written — as the kernels refuse such an output. It used to write: with hi and lo the same
 * array, set(0, (1, 2^-60)) stored (2^-60, 2^-60); with lo one element past hi, it overwrote element 1's high part.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DdSplitArray, formats, range, reducedRowMajor } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

describe('split double-double storage over overlapping views', () => {
  it('set refuses, writing nothing; reads and disjoint views are unaffected', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), fc.nat(), (n, hiAt, loAt, pick) => {
      const buffer = new Float64Array(20).map((_, k) => k + 0.5);
      const data = new DdSplitArray({ hi: buffer.subarray(hiAt, hiAt + n), lo: buffer.subarray(loAt, loAt + n) });
      const x = range(reducedRowMajor<1>({ size: [n], storage: formats.ddSplit, arithmetic: formats.dd, data }));
      const before = Array.from(buffer);
      const k = pick % n;
      const overlap = hiAt < loAt + n && loAt < hiAt + n;
      expect(x.get(k)).toEqual({ hi: buffer[hiAt + k], lo: buffer[loAt + k] });
      if (overlap) {
        expectModprec(() => x.set(k, { hi: 1, lo: 2 ** -60 }), 'INVALID_STORAGE', 'data');
        expectModprec(() => x.set(k, 3), 'INVALID_STORAGE', 'data');
        expect(Array.from(buffer)).toEqual(before);
      } else {
        x.set(k, { hi: 1, lo: 2 ** -60 });
        expect(x.get(k)).toEqual({ hi: 1, lo: 2 ** -60 });
      }
    }), { numRuns: 300 });
  });
});
