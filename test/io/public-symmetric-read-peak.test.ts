/**
 * maxBytes bounds what readMatrixMarket allocates for a symmetric or skew-symmetric coordinate file with entries on
 * the diagonal. Regression: the reader filled arrays sized for every entry mirrored (the planned 16·2·entries bytes),
 * then copied the entries read into new arrays with `.slice(0, out)` since a diagonal entry has no mirror: up to
 * 16·out bytes more, unplanned (a 2 × 2 symmetric file with entries (1,1) and (2,1), read with maxBytes = 64, allocated
 * 64 + 48 bytes). Now the arrays returned are views of the planned ones. The allocations are counted by typed-array
 * constructors and `slice` that tally the bytes they create (./allocation-tally.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { readMatrixMarket } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { countAllocations } from './allocation-tally.js';

afterEach(() => { vi.unstubAllGlobals(); vi.restoreAllMocks(); });


/** A lower-triangular entry list of an n × n matrix (diagonal entries 0 for skew-symmetric files). */
const lowerEntries = fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(fc.constant(n), fc.array(
  fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: -9, max: 9 }))
    .map(([a, b, v]) => [Math.max(a, b), Math.min(a, b), v] as const),
  { minLength: 1, maxLength: 12 })));

describe('readMatrixMarket: a symmetric file with diagonal entries allocates at most maxBytes', () => {
  it('the planned 16·2·entries bytes are the peak; one byte less is INVALID_SIZE naming entries; the matrix is the mirror', () => {
    fc.assert(fc.property(lowerEntries, fc.constantFrom('symmetric', 'skew-symmetric'), ([n, list], symmetry) => {
      const skew = symmetry === 'skew-symmetric';
      const entries = list.map(([i, j, v]) => [i, j, skew && i === j ? 0 : v] as const);
      const text = `%%MatrixMarket matrix coordinate real ${symmetry}\n${n} ${n} ${entries.length}\n`
        + entries.map(([i, j, v]) => `${i + 1} ${j + 1} ${v}`).join('\n') + '\n';
      const planned = 16 * 2 * entries.length;
      expectModprec(() => readMatrixMarket(text, { maxBytes: planned - 1 }), 'INVALID_SIZE', 'entries');
      const tally = countAllocations();
      const read = readMatrixMarket(text, { maxBytes: planned });
      vi.unstubAllGlobals(); vi.restoreAllMocks();
      expect(tally.bytes).toBeLessThanOrEqual(planned);
      // Oracle: each stored entry followed by its mirror (negated for skew-symmetric) unless on the diagonal.
      const expected = entries.flatMap(([i, j, v]) => (i === j ? [[i, j, v]] : [[i, j, v], [j, i, skew ? -v : v]]));
      if (read.format !== 'coordinate') throw new Error('expected a coordinate file');
      const { rowIndex, colIndex, values } = read.matrix;
      expect(Array.from(rowIndex, (i, k) => [i, colIndex[k], values[k]! + 0])).toEqual(expected.map(([i, j, v]) => [i, j, v! + 0]));
    }), { numRuns: 60 });
  });

  it('the 2 × 2 example: (1,1) and (2,1) within maxBytes = 64', () => {
    const text = '%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 4\n2 1 -1\n';
    const tally = countAllocations();
    const read = readMatrixMarket(text, { maxBytes: 64 });
    vi.unstubAllGlobals(); vi.restoreAllMocks();
    expect(tally.bytes).toBeLessThanOrEqual(64);
    expect(read.format === 'coordinate' && Array.from(read.matrix.values)).toEqual([4, -1, -1]);
  });
});
