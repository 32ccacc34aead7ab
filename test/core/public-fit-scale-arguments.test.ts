/**
 * fitScale's arguments through the public API: INVALID_VALUE naming maxAbs (finite, ≥ 0) or maxValue (finite, ≥ 1),
 * at once. Regression: fitScale(1, -1), fitScale(1, Infinity), fitScale(Infinity, 127) and fitScale(x, 0.75) never
 * returned (the loops that step the scale one ulp at a time ran on forever, or for 2^51 steps), fitScale(1, 0) returned
 * Number.MAX_VALUE and fitScale(NaN, 127) 1; a non-integer maxValue such as 1.9 stepped from quotient 1.9 to 1.5.
 * Valid calls keep the documented property: maxAbs / scale, rounded to an integer exactly, is at most maxValue, and
 * ⌊maxValue⌋ · scale (the largest value a write stores, read back) is finite.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fitScale } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { divRational } from '../../src/testing/rational.js';
import { roundRationalToInteger } from '../../src/testing/round-rational.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

describe('fitScale arguments', () => {
  it('out-of-range arguments are INVALID_VALUE naming them', () => {
    for (const maxAbs of [-1, NaN, Infinity, -Infinity, '1']) expectModprec(() => fitScale(maxAbs as number, 127), 'INVALID_VALUE', 'maxAbs');
    for (const maxValue of [-1, 0, -0, 0.75, NaN, Infinity, '127']) expectModprec(() => fitScale(1, maxValue as number), 'INVALID_VALUE', 'maxValue');
    expect(fitScale(0, 127)).toBe(1);
  });

  it('valid arguments: the rounded exact quotient is at most maxValue, ⌊maxValue⌋ · scale finite', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }), fc.constantFrom(127, 32767, 2147483647, 65504, 1, 1.9, 448.5), (maxAbs, maxValue) => {
      const s = fitScale(maxAbs, maxValue);
      expect(s > 0 && Number.isFinite(Math.floor(maxValue) * s)).toBe(true);
      if (maxAbs > 0) expect(Number(roundRationalToInteger(divRational(exactOf(maxAbs), exactOf(s))))).toBeLessThanOrEqual(maxValue);
      // Not needlessly coarse: for a normal maxAbs the quotient reaches the top integer, or one below it.
      if (maxAbs >= 2 ** -1000) expect(maxAbs / s).toBeGreaterThanOrEqual(Math.floor(maxValue) - 1);
    }), { numRuns: 300 });
  });
});
