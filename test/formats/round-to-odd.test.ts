import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createBinaryRounder, nextDown, nextUp, ulp, roundToBf16, roundToF16, roundToF32, roundToOddDd } from '../../src/formats/convert/index.js';
import {
  addRational, compareRational, doubleDoubles, doubleDoublesNearTiesOf, exactOf, lawDoubleDoubleExport, roundRationalToDouble,
} from '../../src/testing/index.js';

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);
const isOdd = (x: number) => {
  F64[0] = x;
  return (U64[0]! & 1n) === 1n;
};

describe('roundToOddDd', () => {
  it('is round-to-odd at 53 bits: exact sums are kept, inexact ones go to the odd neighbour bracketing hi + lo', () => {
    fc.assert(fc.property(doubleDoublesNearTiesOf('f16'), doubleDoublesNearTiesOf('f32'), (a, b) => {
      for (const { hi, lo } of [a, b]) {
        const r = roundToOddDd(hi, lo);
        const exact = addRational(exactOf(hi), exactOf(lo));
        if (lo === 0) {
          expect(Object.is(r, hi)).toBe(true);
          continue;
        }
        expect(isOdd(r)).toBe(true);
        // hi + lo is inexact at 53 bits, so it lies strictly between two adjacent doubles, hi being one
        // of them (the pair is normalised); r must be the odd one of the two.
        const side = compareRational(exact, exactOf(r));
        expect(side).not.toBe(0);
        if (isOdd(hi)) expect(r).toBe(hi);
        else {
          expect(r).toBe(side < 0 ? nextUp(hi) : nextDown(hi)); // adjacent to hi…
          expect(compareRational(exactOf(hi), exactOf(r))).toBe(side); // …on the far side of hi + lo from hi
        }
        expect(roundRationalToDouble(exact)).toBe(hi); // the pair is normalised
      }
    }), { numRuns: 3000 });
  });

  it('doubleDoubles() gives normalised pairs (hi = fl(hi + lo)) with lo up to half an ulp', () => {
    let sawTie = false;
    fc.assert(fc.property(doubleDoubles({ minExponent: -100, maxExponent: 100 }), ({ hi, lo }) => {
      expect(roundRationalToDouble(addRational(exactOf(hi), exactOf(lo)))).toBe(hi);
      if (lo !== 0 && Math.abs(lo) === ulp(hi) / 2) sawTie = true;
    }), { numRuns: 2000 });
    expect(sawTie).toBe(true);
    expect(() => doubleDoubles({ minExponent: 5, maxExponent: 1 })).toThrowError(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });

  it('exports to binary16, bfloat16, binary32 and a 51-bit format with one correct rounding of hi + lo', () => {
    const p51 = { significandBits: 51, minExponent: -1022, maxExponent: 1023 };
    const roundToP51 = createBinaryRounder(p51);
    for (const [format, round] of [['f16', roundToF16], ['bf16', roundToBf16], ['f32', roundToF32], [p51, roundToP51]] as const) {
      fc.assert(lawDoubleDoubleExport(format, (hi, lo) => round(roundToOddDd(hi, lo))), { numRuns: 3000 });
    }
  });

  it('is needed: rounding hi alone breaks a binary16 tie the wrong way', () => {
    const hi = 1 + 2 ** -11; // a binary16 tie; lo above it makes the sum round up
    const lo = 2 ** -60;
    expect(roundToF16(hi)).toBe(1);
    expect(roundToF16(roundToOddDd(hi, lo))).toBe(1 + 2 ** -10);
    expect(roundToF16(roundToOddDd(hi, -lo))).toBe(1);
  });

  it('handles borrows across the 32-bit word boundary, powers of two, and non-finite or zero hi', () => {
    // hi = 1 (even, low word 0) with negative lo: the odd neighbour is the predecessor 1 − 2^−53.
    expect(roundToOddDd(1, -(2 ** -60))).toBe(1 - 2 ** -53);
    expect(roundToOddDd(-1, 2 ** -60)).toBe(-(1 - 2 ** -53));
    expect(roundToOddDd(1, 2 ** -60)).toBe(1 + 2 ** -52);
    expect(roundToOddDd(2 ** 32 + 2, -(2 ** -30))).toBe(2 ** 32 + 2 - 2 ** -20);
    expect(roundToOddDd(Infinity, 0)).toBe(Infinity);
    expect(roundToOddDd(NaN, 1)).toBeNaN();
    expect(Object.is(roundToOddDd(-0, 0), -0)).toBe(true);
    expect(roundToOddDd(0, 2 ** -1074)).toBe(2 ** -1074);
  });
});
