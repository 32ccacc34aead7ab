import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createBinaryRounder, roundToBf16, roundToF16 } from '../../src/formats/convert/index.js';
import { checkStorageConversionLaws, interestingDoublesFor } from '../../src/testing/index.js';
import { ModprecError } from '../../src/core/errors.js';

describe('createBinaryRounder', () => {
  it('passes every storage law on randomly drawn formats (2 ≤ p ≤ 51, any exponent range within binary64)', () => {
    const formats = fc.record({
      significandBits: fc.integer({ min: 2, max: 51 }),
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

  it('breaks every tie of the binade [1, 2) to even for p = 2…16, and random ties for p = 17…51', () => {
    // Splitting commutes with scaling by powers of two (away from under/overflow): one binade stands for all.
    for (let p = 2; p <= 51; p++) {
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

  it('rejects parameters it cannot round with, naming the field', () => {
    const bad = [
      [{ significandBits: 52, minExponent: -14, maxExponent: 15 }, 'params.significandBits'],
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
