import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createBinaryRounder, roundToBf16, roundToF16 } from '../../src/formats/convert/index.js';
import { checkStorageConversionLaws, interestingDoublesFor } from '../../src/testing/index.js';
import { oracleRoundToFormat } from '../../src/testing/exact.js';
import { ModprecError } from '../../src/core/errors.js';

describe('createBinaryRounder', () => {
  it('passes every storage law on randomly drawn formats (2 ≤ p ≤ 52, any exponent range within binary64)', () => {
    const formats = fc.record({
      significandBits: fc.oneof(fc.integer({ min: 2, max: 52 }), fc.constant(52)),
      minExponent: fc.integer({ min: -1022, max: 100 }),
      span: fc.integer({ min: 1, max: 2045 }),
    }).map(({ significandBits, minExponent, span }) => ({
      significandBits, minExponent, maxExponent: Math.min(1023, minExponent + span),
    }));
    fc.assert(fc.property(formats, (params) => {
      const name = `p${params.significandBits}[${params.minExponent},${params.maxExponent}]`;
      checkStorageConversionLaws({ name, ...params, round: createBinaryRounder(params) }, { numRuns: 60 });
    }), { numRuns: 40 });
  });

  it('breaks every tie of the binade [1, 2) to even for p = 2…16, and random ties for p = 17…52', () => {
    // Splitting commutes with scaling by powers of two (away from under/overflow): one binade stands for all.
    for (let p = 2; p <= 52; p++) {
      const round = createBinaryRounder({ significandBits: p, minExponent: -1022, maxExponent: 1023 });
      const ulp = 2 ** (1 - p);
      const count = 2 ** (p - 1);
      const ks = p <= 16 ? Array.from({ length: count }, (_, k) => k) : fc.sample(fc.integer({ min: 0, max: count - 1 }), { numRuns: 500, seed: p });
      for (const k of ks) {
        const mid = 1 + (k + 0.5) * ulp; // between 1 + k·ulp and 1 + (k+1)·ulp
        const even = k % 2 === 0 ? 1 + k * ulp : 1 + (k + 1) * ulp;
        if (round(mid) !== even || round(-mid) !== -even) throw new Error(`p = ${p}: tie ${mid} rounds to ${round(mid)}, expected ${even}`);
      }
    }
  });

  it('with binary16 and bfloat16 parameters equals the specialised conversions', () => {
    const f16 = createBinaryRounder({ significandBits: 11, minExponent: -14, maxExponent: 15 });
    const bf16 = createBinaryRounder({ significandBits: 8, minExponent: -126, maxExponent: 127 });
    fc.assert(fc.property(interestingDoublesFor('f16'), interestingDoublesFor('bf16'), (x, y) => {
      expect(Object.is(f16(x), roundToF16(x))).toBe(true);
      expect(Object.is(bf16(y), roundToBf16(y))).toBe(true);
    }), { numRuns: 3000 });
  });

  // Regression: the TSDoc said p ≤ 51 and createBinaryRounder refused 52, while checkBinaryFormatParameters (and every
  // other user of format parameters) allows p ≤ 52. p = 52 now rounds (by a shifter per binade), checked here against
  // the exact rational oracle at the boundary, over the whole exponent range, ties and the largest binade included.
  it('p = 52, the largest the shared check allows: correctly rounded against the exact oracle', () => {
    const formats = fc.record({ minExponent: fc.integer({ min: -1022, max: 1000 }), span: fc.integer({ min: 1, max: 2045 }) })
      .map(({ minExponent, span }) => ({ significandBits: 52, minExponent, maxExponent: Math.min(1023, minExponent + span) }));
    const doubles = fc.oneof(
      fc.double({ noNaN: true }),
      // odd last bit: exactly a tie between two 52-bit neighbours
      fc.tuple(fc.integer({ min: 0, max: 2 ** 26 - 1 }), fc.integer({ min: 0, max: 2 ** 26 - 1 }), fc.integer({ min: -1074, max: 971 }), fc.boolean())
        .map(([hi, lo, e, neg]) => (neg ? -1 : 1) * (2 ** 52 + (hi * 2 ** 26 + lo) * 2 + 1) * 2 ** e).filter(Number.isFinite),
      fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 1023, 2 ** -1022, 5e-324, 0, -0),
    );
    fc.assert(fc.property(formats, doubles, (params, x) => {
      const got = createBinaryRounder(params)(x);
      expect(Object.is(got, oracleRoundToFormat(x, params)), `${x} in p52[${params.minExponent}, ${params.maxExponent}]: ${got}`).toBe(true);
    }), { numRuns: 3000 });
  });

  it('rejects parameters it cannot round with, naming the field', () => {
    const bad = [
      [{ significandBits: 53, minExponent: -14, maxExponent: 15 }, 'params.significandBits'],
      [{ significandBits: 1, minExponent: -14, maxExponent: 15 }, 'params.significandBits'],
      [{ significandBits: 11.5, minExponent: -14, maxExponent: 15 }, 'params.significandBits'],
      [{ significandBits: 11, minExponent: -1023, maxExponent: 15 }, 'params.minExponent'],
      [{ significandBits: 11, minExponent: -14, maxExponent: 1024 }, 'params.maxExponent'],
      [{ significandBits: 11, minExponent: 5, maxExponent: 5 }, 'params.maxExponent'],
    ] as const;
    for (const [params, parameter] of bad) {
      expect(() => createBinaryRounder(params)).toThrowError(expect.objectContaining({ code: 'INVALID_FORMAT', parameter }));
    }
    expect(() => createBinaryRounder(undefined as never)).toThrowError(ModprecError);
  });
});
