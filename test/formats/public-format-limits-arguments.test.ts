/**
 * binaryFormatLimits through the public API: parameters outside the range where its landmarks are exact doubles
 * are INVALID_FORMAT naming the field (they returned silent garbage: p = 60 gave maxFinite 65536 for binary16's
 * exponents, p = 1.5 a non-dyadic maxFinite, emax < emin a maxFinite below minNormal, null a TypeError), and the
 * valid ones keep their exact landmarks.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BFLOAT16, BINARY16, BINARY32, BINARY64, ModprecError, binaryFormatLimits } from '../../src/index.js';

function errorOf(f: () => unknown): ModprecError {
  try { f(); } catch (e) { if (e instanceof ModprecError) return e; throw e; }
  throw new Error('no error');
}

describe('binaryFormatLimits arguments', () => {
  it('bad fields are INVALID_FORMAT naming the field', () => {
    const cases: [unknown, string][] = [
      [{ significandBits: 60, minExponent: -14, maxExponent: 15 }, 'params.significandBits'],
      [{ significandBits: 1.5, minExponent: -14, maxExponent: 15 }, 'params.significandBits'],
      [{ significandBits: 0, minExponent: -14, maxExponent: 15 }, 'params.significandBits'],
      [{ significandBits: 11, minExponent: -1100, maxExponent: 15 }, 'params.minExponent'],
      [{ significandBits: 11, minExponent: 15, maxExponent: -14 }, 'params.maxExponent'],
      [{ significandBits: 11, minExponent: -14, maxExponent: 2000 }, 'params.maxExponent'],
      [null, 'params.significandBits'],
    ];
    for (const [params, parameter] of cases) {
      const e = errorOf(() => binaryFormatLimits(params as never));
      expect(e.code, JSON.stringify(params)).toBe('INVALID_FORMAT');
      expect(e.parameter).toBe(parameter);
    }
  });

  it('valid parameters: the exact landmarks', () => {
    expect(binaryFormatLimits(BINARY16)).toEqual({ maxFinite: 65504, minNormal: 2 ** -14, minSubnormal: 2 ** -24, overflowThreshold: 65520, unitRoundoff: 2 ** -11 });
    expect(binaryFormatLimits(BINARY64).maxFinite).toBe(Number.MAX_VALUE);
    expect(binaryFormatLimits(BINARY64).overflowThreshold).toBe(Infinity);
    expect(binaryFormatLimits(BINARY32).minSubnormal).toBe(2 ** -149);
    expect(binaryFormatLimits(BFLOAT16).overflowThreshold).toBe((2 - 2 ** -8) * 2 ** 127);
    fc.assert(fc.property(fc.integer({ min: 1, max: 52 }), fc.integer({ min: -1022, max: 1023 }), fc.integer({ min: 0, max: 2045 }), (p, emin, width) => {
      const emax = Math.min(1023, emin + width);
      const l = binaryFormatLimits({ significandBits: p, minExponent: emin, maxExponent: emax });
      // maxFinite is the largest p-bit integer times 2^(emax − p + 1); the threshold the midpoint above it.
      expect(l.maxFinite / 2 ** (emax - p + 1)).toBe(2 ** p - 1);
      expect(l.overflowThreshold - l.maxFinite).toBe(2 ** (emax - p));
      expect(l.minSubnormal).toBe(2 ** (emin - p + 1));
    }));
  });
});
