/**
 * randomBandedCsr on bands too large for a CSR matrix. It collected entries in JavaScript arrays, and around 1.7e8
 * of them V8 ended the process ("Fatal JavaScript invalid size error"; no catch sees it): for example
 * randomBandedCsr({ rows: 2^31 − 1, lowerBandwidth: 0, upperBandwidth: 1, density: 1, seed: 1 }), whose band holds
 * 4,294,967,293 positions, ran until then. A full band of more than 2^31 − 1 positions is now INVALID_SIZE before any
 * draw, the entries grow in typed arrays (a failed allocation is INVALID_SIZE), and the matrices are unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomBandedCsr } from '../../src/sparse/random-banded.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { expectModprec } from './sparse-arbitraries.js';

/** Positions (i, j) with −lower ≤ j − i ≤ upper, diagonal by diagonal in BigInt (bandwidths kept small by the callers). */
function bandPositions(rows: number, cols: number, lower: number, upper: number): bigint {
  let sum = 0n;
  for (let d = -Math.min(lower, rows - 1); d <= Math.min(upper, cols - 1); d++) {
    sum += BigInt(d >= 0 ? Math.min(rows, cols - d) : Math.min(rows + d, cols));
  }
  return sum;
}

/** The generator as its documentation states it, in plain arrays: the oracle for small matrices. */
function reference(rows: number, cols: number, lower: number, upper: number, density: number, seed: number, dominant: boolean) {
  const random = seededRandom(seed);
  const rowPtr = [0], colIndex: number[] = [], values: number[] = [];
  for (let i = 0; i < rows; i++) {
    let diagonal = -1, off = 0;
    for (let j = Math.max(0, i - lower); j <= Math.min(cols - 1, i + upper); j++) {
      if (!(dominant && j === i) && random.nextDouble() >= density) continue;
      const v = 2 * random.nextDouble() - 1;
      if (j === i) diagonal = values.length; else off += Math.abs(v);
      colIndex.push(j); values.push(v);
    }
    if (dominant && diagonal >= 0) values[diagonal] = 1 + off;
    rowPtr.push(values.length);
  }
  return { rows, cols, rowPtr: Int32Array.from(rowPtr), colIndex: Int32Array.from(colIndex), values: Float64Array.from(values) };
}

const MAX = 2 ** 31 - 1;

describe('randomBandedCsr: bands larger than a CSR matrix holds', () => {
  it('a full band of more than 2^31 − 1 positions is INVALID_SIZE naming options, at once, with its exact count', () => {
    const big = fc.integer({ min: 2 ** 15, max: MAX });
    const band = fc.integer({ min: 0, max: 40 });
    const shapes = fc.tuple(big, big, band, band).filter(([r, c, l, u]) => bandPositions(r, c, l, u) > BigInt(MAX));
    fc.assert(fc.property(shapes, ([rows, cols, lowerBandwidth, upperBandwidth]) => {
      const e = expectModprec(() => randomBandedCsr({ rows, cols, lowerBandwidth, upperBandwidth, density: 1, seed: 1 }), 'INVALID_SIZE', 'options');
      expect(e.message).toContain(` ${bandPositions(rows, cols, lowerBandwidth, upperBandwidth)} band positions`);
    }), { numRuns: 200 });
    // the whole square, and the example of the header
    expectModprec(() => randomBandedCsr({ rows: 46341, lowerBandwidth: MAX, upperBandwidth: MAX, seed: 0 }), 'INVALID_SIZE', 'options');
    expectModprec(() => randomBandedCsr({ rows: MAX, lowerBandwidth: 0, upperBandwidth: 1, density: 1, seed: 1 }), 'INVALID_SIZE', 'options');
  });

  it('the matrices are the documented ones, bit for bit, across the typed arrays\' growth', () => {
    const small = fc.record({
      rows: fc.integer({ min: 0, max: 300 }), cols: fc.integer({ min: 0, max: 300 }), lower: fc.integer({ min: 0, max: 12 }),
      upper: fc.integer({ min: 0, max: 12 }), density: fc.constantFrom(0, 0.3, 1), seed: fc.integer(), dominant: fc.boolean(),
    });
    fc.assert(fc.property(small, ({ rows, cols, lower, upper, density, seed, dominant }) => {
      const A = randomBandedCsr({ rows, cols, lowerBandwidth: lower, upperBandwidth: upper, density, seed, diagonallyDominant: dominant });
      expect(A).toEqual(reference(rows, cols, lower, upper, density, seed, dominant));
      if (density === 1) expect(BigInt(A.values.length)).toBe(bandPositions(rows, cols, lower, upper));
    }), { numRuns: 60 });
  });
  it('below density 1, an expected count density × positions past 2^31 − 1 is INVALID_SIZE naming options before any draw', () => {
    const big = fc.integer({ min: 2 ** 20, max: MAX });
    const band = fc.integer({ min: 0, max: 2 ** 20 });
    const density = fc.double({ min: 2 ** -10, max: 1, noNaN: true, maxExcluded: true });
    const cases = fc.tuple(big, big, band, band, density).filter(([r, c, l, u, d]) => d * Number(bandPositions(r, c, Math.min(l, 64), Math.min(u, 64))) > MAX * 1.0001);
    fc.assert(fc.property(cases, ([rows, cols, l, u, density]) => {
      // Bandwidths up to 64 keep the oracle's diagonal loop short; the count is exact in a double below 2^53.
      const lowerBandwidth = Math.min(l, 64), upperBandwidth = Math.min(u, 64);
      const e = expectModprec(() => randomBandedCsr({ rows, cols, lowerBandwidth, upperBandwidth, density, seed: 3 }), 'INVALID_SIZE', 'options');
      // The up-front refusal states the expected count; the one after the draws says the entries ran past the limit.
      expect(e.message).toContain(`expects ${density} x ${bandPositions(rows, cols, lowerBandwidth, upperBandwidth)} band positions`);
    }), { numRuns: 30 });
  });
});
