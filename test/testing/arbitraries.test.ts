import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addRational, compareRational, doubleRoundingCasesOf, exactOf, matrixOf, midpointCasesOf, mulRational,
  nearOverflowOf, nearUnderflowOf, oracleRoundToFormat, rational, representableIn, resolveBinaryFormat, roundRationalToFormat,
  specialValuesOf, subRational, uniformUnit, vectorIn, vectorOf,
} from '../../src/testing/index.js';
import { BINARY16, BINARY32 } from '../../src/formats/convert/index.js';
import { ModprecError } from '../../src/core/errors.js';

const FORMATS = ['f16', 'bf16', 'f32', { significandBits: 4, minExponent: -6, maxExponent: 7 }] as const;
const TINY = rational(1n, 1n << 1300n);

describe('format arbitraries produce what they promise (checked with the oracle)', () => {
  for (const format of FORMATS) {
    const params = resolveBinaryFormat(format);
    const label = typeof format === 'string' ? format : 'p4';

    it(`${label}: representableIn gives fixed points of the format's rounding, and reaches subnormals and the top binade`, () => {
      const seen = { subnormal: false, top: false };
      fc.assert(fc.property(representableIn(format), (x) => {
        expect(Object.is(oracleRoundToFormat(x, params), x)).toBe(true);
        if (x !== 0 && Math.abs(x) < 2 ** params.minExponent) seen.subnormal = true;
        if (Math.abs(x) >= 2 ** params.maxExponent) seen.top = true;
      }), { numRuns: 1000 });
      expect(seen).toEqual({ subnormal: true, top: true });
    });

    it(`${label}: midpointCasesOf gives exact midpoints of adjacent values, and the even one`, () => {
      fc.assert(fc.property(midpointCasesOf(format), (c) => {
        const mid = exactOf(c.midpoint);
        expect(compareRational(mulRational(addRational(exactOf(c.lower), exactOf(c.upper)), rational(1n, 2n)), mid)).toBe(0);
        // adjacent: just below the midpoint rounds to lower, just above to upper (nothing representable between)
        expect(roundRationalToFormat(subRational(mid, TINY), params)).toBe(c.midpoint > 0 ? c.lower : c.upper);
        expect(roundRationalToFormat(addRational(mid, TINY), params)).toBe(c.midpoint > 0 ? c.upper : c.lower);
        expect(Object.is(oracleRoundToFormat(c.midpoint, params), c.even)).toBe(true);
      }), { numRuns: 1000 });
    });
  }

  it('doubleRoundingCasesOf: binary32 rounds each value onto a binary16 tie, while the direct rounding is the expected side', () => {
    fc.assert(fc.property(doubleRoundingCasesOf('f16', 'f32'), (c) => {
      expect(c.value).not.toBe(c.midpoint);
      expect(oracleRoundToFormat(c.value, BINARY32)).toBe(c.midpoint);
      expect(oracleRoundToFormat(c.value, BINARY16)).toBe(c.expected);
    }), { numRuns: 2000 });
    // the tie between 0 and the smallest subnormal is a power of two: below it binary32's spacing halves
    fc.assert(fc.property(doubleRoundingCasesOf('f16', 'f32').filter((c) => Math.abs(c.midpoint) === 2 ** -25), (c) => {
      expect(oracleRoundToFormat(c.value, BINARY32)).toBe(c.midpoint);
    }), { numRuns: 200 });
  });

  it('doubleRoundingCasesOf refuses an intermediate that is not wider', () => {
    expect(() => doubleRoundingCasesOf('f32', 'f16')).toThrowError(ModprecError);
    expect(() => doubleRoundingCasesOf('f16', { significandBits: 24, minExponent: -10, maxExponent: 15 })).toThrowError(ModprecError);
  });

  it('nearOverflowOf, nearUnderflowOf and specialValuesOf reach the thresholds themselves', () => {
    const overflow = fc.sample(nearOverflowOf('f16'), { numRuns: 3000, seed: 1 });
    expect(overflow).toContain(65520);
    expect(overflow).toContain(-65504);
    const underflow = fc.sample(nearUnderflowOf('f16'), { numRuns: 3000, seed: 2 });
    expect(underflow).toContain(2 ** -25);
    expect(underflow).toContain(-(2 ** -24));
    const specials = fc.sample(specialValuesOf('f16'), { numRuns: 500, seed: 3 });
    expect(specials.some(Number.isNaN)).toBe(true);
    expect(specials.some((v) => Object.is(v, -0))).toBe(true);
    expect(specials).toContain(-Infinity);
  });

  it('reject unknown names and formats that are not subsets of binary64', () => {
    expect(() => representableIn('f8' as never)).toThrowError(expect.objectContaining({ code: 'INVALID_FORMAT', parameter: 'format' }));
    expect(() => midpointCasesOf({ ...BINARY16, significandBits: 53 })).toThrowError(ModprecError);
    expect(() => representableIn({ ...BINARY16, minExponent: -1023 })).toThrowError(ModprecError);
  });
});

describe('data arbitraries', () => {
  it('vectorOf and vectorIn honour fixed and bounded lengths', () => {
    fc.assert(fc.property(vectorOf(fc.constant(1), 5), (v) => v.length === 5));
    fc.assert(fc.property(vectorIn('bf16', { min: 2, max: 4 }), (v) => {
      expect(v.length).toBeGreaterThanOrEqual(2);
      expect(v.length).toBeLessThanOrEqual(4);
      for (const x of v) expect(Object.is(oracleRoundToFormat(x, resolveBinaryFormat('bf16')), x)).toBe(true);
    }));
  });

  it('matrixOf gives row-major data of rows × cols entries, empty shapes included', () => {
    fc.assert(fc.property(matrixOf(fc.integer(), { rows: { min: 0, max: 4 }, cols: 3 }), (m) => {
      expect(m.cols).toBe(3);
      expect(m.data.length).toBe(m.rows * 3);
    }));
    expect(() => matrixOf(fc.integer(), { rows: -1, cols: 2 })).toThrowError(expect.objectContaining({ code: 'INVALID_SIZE', parameter: 'shape.rows' }));
    expect(() => vectorOf(fc.integer(), { min: 3, max: 1 })).toThrowError(expect.objectContaining({ code: 'INVALID_SIZE' }));
  });

  it('uniformUnit stays in [−1, 1] and is not biased towards extremes (seeded sample: mean and spread of U(−1, 1))', () => {
    const xs = fc.sample(uniformUnit(), { numRuns: 20000, seed: 42 });
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...xs)).toBeLessThanOrEqual(1);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
    // U(−1, 1): mean 0, variance 1/3; 20000 samples put the mean within ±0.02 and the variance within ±0.02 (≈ 5σ).
    expect(Math.abs(mean)).toBeLessThan(0.02);
    expect(Math.abs(variance - 1 / 3)).toBeLessThan(0.02);
    // fast-check's biased integers would pile up near the ends; here under 1% of samples have |x| > 0.99
    expect(xs.filter((x) => Math.abs(x) > 0.99).length / xs.length).toBeLessThan(0.01 + 0.005);
  });
});
