/**
 * maxBytes bounds what readMatrixMarketCsr allocates for a coordinate file, the conversion included. Regression: the
 * plan counted cooToCsr's sorts and merged arrays (4·cols + 12·rows + 20 per entry) but not the copies of the merged
 * arrays it returns (`.slice(0, out)`: 12 more per entry, taken whether or not duplicates merge), so a 2 × 2 general
 * file with one entry read with maxBytes = 84 (its plan) allocated 92 bytes. The plan is now 32 per entry. Allocations
 * are tallied by typed-array constructors and `slice` that count the bytes they create (./allocation-tally.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { readMatrixMarketCsr } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { countAllocations } from './allocation-tally.js';

afterEach(() => { vi.unstubAllGlobals(); vi.restoreAllMocks(); });

/** Entries of an n × n matrix, duplicates likely; lower-triangular (row ≥ col) for a symmetric file. */
const files = fc.record({
  n: fc.integer({ min: 1, max: 5 }),
  symmetric: fc.boolean(),
  list: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: -9, max: 9 })), { minLength: 0, maxLength: 10 }),
});

describe('readMatrixMarketCsr: a coordinate file allocates at most maxBytes', () => {
  it('the plan (reader, sorts, merged arrays and their copies) is the peak; one byte less is INVALID_SIZE; the matrix sums duplicates', () => {
    fc.assert(fc.property(files, ({ n, symmetric, list }) => {
      const entries = list.map(([a, b, v]) => {
        const [i, j] = [a % n, b % n];
        return symmetric ? [Math.max(i, j), Math.min(i, j), v] as const : [i, j, v] as const;
      });
      const text = `%%MatrixMarket matrix coordinate integer ${symmetric ? 'symmetric' : 'general'}\n${n} ${n} ${entries.length}\n`
        + entries.map(([i, j, v]) => `${i + 1} ${j + 1} ${v}`).join('\n') + '\n';
      const expanded = symmetric ? 2 * entries.length : entries.length;
      const planned = 16 * expanded + 4 * (n + 1) + 12 * (n + 1) + 32 * expanded;
      expect(expectModprec(() => readMatrixMarketCsr(text, { maxBytes: planned - 1 }), 'INVALID_SIZE').code).toBe('INVALID_SIZE');
      const tally = countAllocations();
      const A = readMatrixMarketCsr(text, { maxBytes: planned });
      vi.unstubAllGlobals(); vi.restoreAllMocks();
      expect(tally.bytes).toBeLessThanOrEqual(planned);
      // Oracle: the dense sum of the entries (and their mirrors), against the CSR's rows.
      const dense = Array.from({ length: n }, () => new Array<number>(n).fill(0));
      const present = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
      for (const [i, j, v] of entries) {
        dense[i]![j]! += v; present[i]![j] = true;
        if (symmetric && i !== j) { dense[j]![i]! += v; present[j]![i] = true; }
      }
      for (let i = 0; i < n; i++) {
        const row = [];
        for (let t = A.rowPtr[i]!; t < A.rowPtr[i + 1]!; t++) row.push([A.colIndex[t]!, A.values[t]!]);
        expect(row).toEqual(dense[i]!.flatMap((v, j) => (present[i]![j] ? [[j, v]] : [])));
      }
    }), { numRuns: 60, examples: [[{ n: 2, symmetric: false, list: [[0, 1, 3]] }]] });
  });
});
