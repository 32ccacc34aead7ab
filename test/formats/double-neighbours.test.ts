import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextDown, nextUp, ulp } from '../../src/formats/convert/index.js';
import { addRational, exactOf, mulRational, rational, roundRationalToDouble, subRational } from '../../src/testing/index.js';

const TINY = rational(1n, 1n << 1200n); // far below any gap between doubles

describe('nextUp / nextDown / ulp', () => {
  it('nextUp(x) is the next double: the exact midpoint of x and nextUp(x), nudged either way, rounds to each', () => {
    // If a double z lay strictly between them, z would be nearer to that midpoint than x or nextUp(x) is.
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      const y = nextUp(x);
      expect(y).toBeGreaterThan(x);
      if (y === Infinity) {
        expect(x).toBe(Number.MAX_VALUE);
        return;
      }
      const mid = mulRational(addRational(exactOf(x), exactOf(y)), rational(1n, 2n));
      expect(roundRationalToDouble(subRational(mid, TINY)) === x).toBe(true);
      expect(roundRationalToDouble(addRational(mid, TINY))).toBe(y);
      expect(nextDown(y) === x).toBe(true);
    }), { numRuns: 5000 });
  });

  it('ulp(x) = nextUp(|x|) − |x| exactly, and 2^−52 at 1', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, max: 1e307, min: -1e307 }), (x) => {
      const a = Math.abs(x);
      expect(exactOf(ulp(x))).toEqual(subRational(exactOf(nextUp(a)), exactOf(a)));
    }));
    expect(ulp(1)).toBe(2 ** -52);
    expect(ulp(-1)).toBe(2 ** -52);
    expect(ulp(0)).toBe(2 ** -1074);
    expect(ulp(Number.MAX_VALUE)).toBe(2 ** 971);
    expect(ulp(Infinity)).toBe(Infinity);
    expect(ulp(NaN)).toBeNaN();
  });

  it('handles zeros, the subnormal/normal boundary, the extremes and non-finite input', () => {
    expect(nextUp(0)).toBe(2 ** -1074);
    expect(nextUp(-0)).toBe(2 ** -1074);
    expect(Object.is(nextUp(-(2 ** -1074)), -0)).toBe(true);
    expect(nextDown(0)).toBe(-(2 ** -1074));
    expect(nextUp(2 ** -1022 - 2 ** -1074)).toBe(2 ** -1022);
    expect(nextDown(2 ** -1022)).toBe(2 ** -1022 - 2 ** -1074);
    expect(nextUp(Number.MAX_VALUE)).toBe(Infinity);
    expect(nextUp(-Infinity)).toBe(-Number.MAX_VALUE);
    expect(nextUp(Infinity)).toBe(Infinity);
    expect(nextDown(-Infinity)).toBe(-Infinity);
    expect(nextUp(NaN)).toBeNaN();
    expect(nextUp(2 ** 32 - 1)).toBe(2 ** 32 - 1 + 2 ** -21); // carry across the low word
  });
});
