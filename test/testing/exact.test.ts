import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  absoluteError, addRational, compareRational, divRational, exactDot, exactOf, exactSum, mulRational, oracleRoundToFormat,
  rational, relativeError, roundRationalExact, roundRationalToDouble, roundRationalToFormat, roundRationalToInteger,
  subRational,
} from '../../src/testing/index.js';
import { ModprecError } from '../../src/core/errors.js';

const BINARY32 = { significandBits: 24, minExponent: -126, maxExponent: 127 };
const BINARY16 = { significandBits: 11, minExponent: -14, maxExponent: 15 };
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });

describe('exactOf', () => {
  it('gives dyadic rationals equal to known values', () => {
    expect(exactOf(0.5)).toEqual({ num: 1n, den: 2n });
    expect(exactOf(-3)).toEqual({ num: -3n, den: 1n });
    expect(exactOf(2 ** -1074)).toEqual({ num: 1n, den: 1n << 1074n });
    expect(exactOf(Number.MAX_VALUE)).toEqual({ num: ((1n << 53n) - 1n) << 971n, den: 1n });
    expect(exactOf(-0)).toEqual({ num: 0n, den: 1n });
    // 0.1 = 3602879701896397 / 2^55 (its significand is odd, so the fraction is reduced)
    expect(exactOf(0.1)).toEqual({ num: 3602879701896397n, den: 1n << 55n });
  });

  it('rejects non-finite input with a typed error', () => {
    for (const x of [NaN, Infinity, -Infinity]) expect(() => exactOf(x)).toThrowError(ModprecError);
  });

  it('round-trips every finite double through roundRationalToDouble', () => {
    fc.assert(fc.property(finite, (x) => Object.is(roundRationalToDouble(exactOf(x)), x === 0 ? 0 : x)), { numRuns: 2000 });
  });
});

describe('rational arithmetic agrees with IEEE double arithmetic once rounded', () => {
  // IEEE 754 fact: + − × ÷ of doubles are the correctly rounded exact results.
  const ops: [string, (a: number, b: number) => number, typeof addRational][] = [
    ['add', (a, b) => a + b, addRational],
    ['sub', (a, b) => a - b, subRational],
    ['mul', (a, b) => a * b, mulRational],
    ['div', (a, b) => a / b, divRational],
  ];
  for (const [name, op, exact] of ops) {
    it(name, () => {
      fc.assert(
        fc.property(finite, finite, (a, b) => {
          if (name === 'div' && b === 0) return;
          const r = op(a, b);
          if (!Number.isFinite(r)) {
            expect(roundRationalToDouble(exact(exactOf(a), exactOf(b)))).toBe(r); // overflow to the same infinity
            return;
          }
          // The rational has no signed zero: compare zeros by value only.
          expect(roundRationalToDouble(exact(exactOf(a), exactOf(b))) === r).toBe(true);
        }),
        { numRuns: 1500 },
      );
    });
  }

  it('compares like doubles', () => {
    fc.assert(fc.property(finite, finite, (a, b) => compareRational(exactOf(a), exactOf(b)) === (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('reduces fractions and normalises the sign of the denominator', () => {
    expect(rational(6n, -4n)).toEqual({ num: -3n, den: 2n });
    expect(rational(10n, 15n)).toEqual({ num: 2n, den: 3n });
    expect(rational(0n, -7n)).toEqual({ num: 0n, den: 1n });
    expect(() => rational(1n, 0n)).toThrowError(ModprecError);
    expect(() => divRational(rational(1n), rational(0n))).toThrowError(ModprecError);
  });
});

describe('roundRationalToFormat', () => {
  it('with binary32 parameters agrees with Math.fround on random doubles (independent cross-check)', () => {
    fc.assert(
      fc.property(fc.oneof(finite, fc.double({ min: -1e-36, max: 1e-36, noNaN: true }), fc.double({ min: 3e38, max: 4e38, noNaN: true })), (x) => {
        if (x === 0) return;
        expect(Object.is(roundRationalToFormat(exactOf(x), BINARY32), Math.fround(x))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('with binary32 parameters agrees with Math.fround on binary32 ties and their neighbours', () => {
    // a midpoint between adjacent floats: m·2^k + 2^(k−1) with a 24-bit m
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 24 - 1 }), fc.integer({ min: -149, max: 104 }), fc.constantFrom(-1, 0, 1), (m, k, nudge) => {
        const tie = (2 * m + 1) * 2 ** (k - 1);
        const x = nudge === 0 ? tie : tie + nudge * 2 ** (k - 40);
        expect(Object.is(roundRationalToFormat(exactOf(x), BINARY32), Math.fround(x))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('knows binary16 landmarks from the IEEE 754 tables', () => {
    const r = (x: number) => roundRationalToFormat(exactOf(x), BINARY16);
    expect(r(65504)).toBe(65504); // max finite
    expect(r(65519.99)).toBe(65504);
    expect(r(65520)).toBe(Infinity); // the overflow threshold is a tie that goes to the even 2^16
    expect(r(-65520)).toBe(-Infinity);
    expect(r(2 ** -24)).toBe(2 ** -24); // smallest subnormal
    expect(r(2 ** -25)).toBe(0); // tie with 0 → even 0
    expect(Object.is(r(-(2 ** -25)), -0)).toBe(true);
    expect(r(3 * 2 ** -25)).toBe(2 ** -23); // tie between 1 and 2 subnormal units → 2
    expect(r(1 / 3)).toBe(0x555 * 2 ** -12); // 0.333251953125
    expect(r(1 + 2 ** -11)).toBe(1); // tie → even
    expect(r(1 + 3 * 2 ** -11)).toBe(1 + 2 ** -9);
  });

  it('rounds general rationals (1/3, 2/3, 1/10) like the double literals', () => {
    expect(roundRationalToDouble(rational(1n, 3n))).toBe(1 / 3);
    expect(roundRationalToDouble(rational(2n, 3n))).toBe(2 / 3);
    expect(roundRationalToDouble(rational(1n, 10n))).toBe(0.1);
    expect(roundRationalToDouble(rational(-(10n ** 400n), 1n))).toBe(-Infinity);
    expect(Object.is(roundRationalToDouble(rational(-1n, 10n ** 400n)), -0)).toBe(true);
  });

  it('rejects formats that are not subsets of binary64', () => {
    expect(() => roundRationalToFormat(rational(1n), { significandBits: 54, minExponent: -14, maxExponent: 15 })).toThrowError(ModprecError);
    expect(() => roundRationalToFormat(rational(1n), { significandBits: 11, minExponent: -1023, maxExponent: 15 })).toThrowError(ModprecError);
    expect(() => roundRationalToFormat(rational(1n), { significandBits: 11, minExponent: -14, maxExponent: 1024 })).toThrowError(ModprecError);
  });
});

describe('roundRationalExact', () => {
  it('with 106 bits and no exponent bound, keeps a sum spanning 106 bits and rounds one spanning 107', () => {
    // a ∈ [1, 2) has its top bit at 2^0; b ∈ [2^−53, 2^−52) its lowest at 2^−105: 106 bits in all.
    fc.assert(fc.property(fc.double({ min: 1, max: 2, maxExcluded: true, noNaN: true }), fc.double({ min: 2 ** -53, max: 2 ** -52, maxExcluded: true, noNaN: true }), (a, b) => {
      const q = addRational(exactOf(a), exactOf(b));
      expect(compareRational(roundRationalExact(q, { significandBits: 106 }), q)).toBe(0);
    }));
    const q = addRational(exactOf(1), exactOf(3 * 2 ** -107)); // 1 + 2^−106 + 2^−107: 108 bits, rounds up
    expect(roundRationalExact(q, { significandBits: 106 })).toEqual(addRational(exactOf(1), exactOf(2 ** -105)));
  });

  it('rounds 1/3 to p bits with error at most 2^−p relative (unit roundoff)', () => {
    for (const p of [1, 2, 11, 53, 106, 200]) {
      const q = rational(1n, 3n);
      const r = roundRationalExact(q, { significandBits: p });
      const err = subRational(r, q);
      const bound = mulRational(q, rational(1n, 1n << BigInt(p)));
      expect(compareRational(err.num < 0n ? { num: -err.num, den: err.den } : err, bound)).toBeLessThanOrEqual(0);
    }
  });
});

describe('roundRationalToInteger', () => {
  it('rounds halves to even and agrees with a Math.round-based reference elsewhere', () => {
    expect(roundRationalToInteger(rational(5n, 2n))).toBe(2n);
    expect(roundRationalToInteger(rational(7n, 2n))).toBe(4n);
    expect(roundRationalToInteger(rational(-7n, 2n))).toBe(-4n);
    expect(roundRationalToInteger(rational(-5n, 2n))).toBe(-2n);
    fc.assert(fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (x) => {
      const frac = Math.abs(x - Math.trunc(x));
      if (frac === 0.5) return;
      expect(Number(roundRationalToInteger(exactOf(x)))).toBe(Math.round(x) + 0); // Math.round is exact away from ties
    }));
  });
});

describe('exactSum and exactDot', () => {
  it('are exact where floating-point summation cancels catastrophically', () => {
    expect(roundRationalToDouble(exactSum([1e100, 1, -1e100]))).toBe(1);
    expect(roundRationalToDouble(exactDot([1e16, 1, -1e16], [1, 1, 1]))).toBe(1);
    expect(exactSum([])).toEqual({ num: 0n, den: 1n });
    expect(exactDot([], [])).toEqual({ num: 0n, den: 1n });
    // products of subnormals are exact too: 2^−1074 · 2^−1074 = 2^−2148
    expect(exactDot([2 ** -1074], [2 ** -1074])).toEqual({ num: 1n, den: 1n << 2148n });
  });

  it('equal the reduction of exact products and exact sums', () => {
    fc.assert(fc.property(fc.array(fc.tuple(finite, finite), { maxLength: 8 }), (pairs) => {
      const x = pairs.map((p) => p[0]);
      const y = pairs.map((p) => p[1]);
      let expected = rational(0n);
      for (let i = 0; i < x.length; i++) expected = addRational(expected, mulRational(exactOf(x[i]!), exactOf(y[i]!)));
      expect(exactDot(x, y)).toEqual(expected);
      expect(exactSum(x)).toEqual(x.reduce((s, v) => addRational(s, exactOf(v)), rational(0n)));
    }), { numRuns: 300 });
  });

  it('accept typed arrays and reject mismatched lengths and non-finite entries', () => {
    expect(roundRationalToDouble(exactDot(new Float32Array([0.5, 2]), new Float64Array([4, 0.25])))).toBe(2.5);
    expect(() => exactDot([1, 2], [1])).toThrowError(expect.objectContaining({ code: 'DIMENSION_MISMATCH', parameter: 'y' }));
    expect(() => exactSum([1, NaN])).toThrowError(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'xs[1]' }));
  });
});

describe('error measures', () => {
  it('absoluteError and relativeError of correctly rounded values respect the unit roundoff', () => {
    expect(relativeError(0.1, rational(1n, 10n))).toBeLessThanOrEqual(2 ** -53);
    expect(relativeError(0.1, rational(1n, 10n))).toBeGreaterThan(0);
    expect(relativeError(0, rational(0n))).toBe(0);
    expect(relativeError(1, rational(0n))).toBe(Infinity);
    expect(absoluteError(1.5, rational(3n, 2n))).toEqual({ num: 0n, den: 1n });
  });
});

describe('oracleRoundToFormat', () => {
  it('keeps NaN, infinities and signed zeros', () => {
    expect(oracleRoundToFormat(NaN, BINARY16)).toBeNaN();
    expect(oracleRoundToFormat(-Infinity, BINARY16)).toBe(-Infinity);
    expect(Object.is(oracleRoundToFormat(-0, BINARY16), -0)).toBe(true);
    expect(Object.is(oracleRoundToFormat(-1e-30, BINARY16), -0)).toBe(true);
  });
});
