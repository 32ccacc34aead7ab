import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csrMatrix } from '../../src/sparse/csr-matrix.js';
import { randomBandedCsr } from '../../src/sparse/random-banded.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { csrEqual, expectModprec } from './sparse-arbitraries.js';

describe('seededRandom', () => {
  it('is reproducible, stays in [0, 1), uses 53 bits and is roughly uniform', () => {
    const a = seededRandom(12345), b = seededRandom(12345), c = seededRandom(12346);
    const xs = Array.from({ length: 20000 }, () => a.nextDouble());
    expect(Array.from({ length: 20000 }, () => b.nextDouble())).toEqual(xs);
    expect(Array.from({ length: 100 }, () => c.nextDouble())).not.toEqual(xs.slice(0, 100));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(xs.some((x) => (x * 2 ** 53) % 2 === 1)).toBe(true); // the last of the 53 bits is used
    for (let bin = 0; bin < 10; bin++) {
      const count = xs.filter((x) => Math.floor(x * 10) === bin).length;
      expect(Math.abs(count - 2000)).toBeLessThan(200); // ~4.7 standard deviations; fixed seed, so no flakiness
    }
    expectModprec(() => seededRandom(0.5), 'INVALID_VALUE', 'seed');
  });
});

describe('randomBandedCsr', () => {
  const params = fc.record({
    rows: fc.integer({ min: 0, max: 30 }),
    cols: fc.integer({ min: 0, max: 30 }),
    lowerBandwidth: fc.integer({ min: 0, max: 5 }),
    upperBandwidth: fc.integer({ min: 0, max: 5 }),
    density: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer(),
    diagonallyDominant: fc.boolean(),
  });

  it('stays inside the band, is canonical, reproducible by seed, and diagonally dominant when asked', () => {
    fc.assert(fc.property(params, (p) => {
      const A = csrMatrix(randomBandedCsr(p));
      expect(csrEqual(A, randomBandedCsr(p))).toBe(true);
      for (let i = 0; i < A.rows; i++) {
        let off = 0, diagonal: number | undefined;
        for (let t = A.rowPtr[i]!; t < A.rowPtr[i + 1]!; t++) {
          const j = A.colIndex[t]!;
          if (t > A.rowPtr[i]!) expect(j).toBeGreaterThan(A.colIndex[t - 1]!);
          expect(i - j).toBeLessThanOrEqual(p.lowerBandwidth);
          expect(j - i).toBeLessThanOrEqual(p.upperBandwidth);
          if (j === i) diagonal = A.values[t]!;
          else { off += Math.abs(A.values[t]!); expect(Math.abs(A.values[t]!)).toBeLessThanOrEqual(1); }
        }
        if (p.diagonallyDominant && i < A.cols) expect(diagonal! > off).toBe(true);
      }
    }), { numRuns: 200 });
  });

  it('density 1 fills the band exactly; density 0 leaves only the forced diagonal', () => {
    const full = randomBandedCsr({ rows: 10, lowerBandwidth: 2, upperBandwidth: 1, seed: 3 });
    expect(full.values.length).toBe(10 + 9 + 9 + 8); // main, one above, two below
    expect(randomBandedCsr({ rows: 10, lowerBandwidth: 2, upperBandwidth: 1, density: 0, seed: 3 }).values.length).toBe(0);
    const diag = randomBandedCsr({ rows: 10, lowerBandwidth: 2, upperBandwidth: 1, density: 0, seed: 3, diagonallyDominant: true });
    expect(Array.from(diag.colIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Array.from(diag.values).every((v) => v === 1)).toBe(true);
    const other = randomBandedCsr({ rows: 10, lowerBandwidth: 2, upperBandwidth: 1, seed: 4 });
    expect(Array.from(other.values)).not.toEqual(Array.from(full.values));
  });

  it('rejects bad parameters, naming them', () => {
    const ok = { rows: 5, lowerBandwidth: 1, upperBandwidth: 1, seed: 1 };
    expectModprec(() => randomBandedCsr({ ...ok, rows: -1 }), 'INVALID_SIZE', 'options.rows');
    expectModprec(() => randomBandedCsr({ ...ok, upperBandwidth: 1.5 }), 'INVALID_SIZE', 'options.upperBandwidth');
    expectModprec(() => randomBandedCsr({ ...ok, density: 1.5 }), 'INVALID_VALUE', 'options.density');
    expectModprec(() => randomBandedCsr({ ...ok, density: NaN }), 'INVALID_VALUE', 'options.density');
    expectModprec(() => randomBandedCsr({ ...ok, seed: 2 ** 60 }), 'INVALID_VALUE', 'options.seed');
  });
});
