import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BINARY32, F32_QUIET_NAN_BITS, f32FromBits, f32ToBits, roundToF32 } from '../../src/formats/convert/index.js';
import { F32_DESCRIPTOR, oracleRoundToFormat, storageConversionLaws } from '../../src/testing/index.js';

describe('binary32 conversion laws (against the exact BigInt oracle)', () => {
  for (const law of storageConversionLaws(F32_DESCRIPTOR)) {
    it(law.name, () => law.check({ numRuns: 2000 }));
  }
});

describe('binary32 bit patterns', () => {
  it('decode then encode is the identity on random non-NaN patterns; NaN patterns decode to NaN', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (b) => {
      const v = f32FromBits(b);
      const isNaNPattern = (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0;
      if (isNaNPattern) expect(v).toBeNaN();
      else expect(f32ToBits(v)).toBe(b);
    }), { numRuns: 20000 });
  });

  it('decodes to values the oracle confirms are binary32, and knows the IEEE landmarks', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0x7f7fffff }), (b) => {
      const v = f32FromBits(b);
      expect(oracleRoundToFormat(v, BINARY32)).toBe(v);
      expect(f32FromBits(b + 1)).toBeGreaterThan(v); // consecutive patterns, increasing values
    }), { numRuns: 5000 });
    expect(f32ToBits(1)).toBe(0x3f800000);
    expect(f32ToBits(-0)).toBe(0x80000000);
    expect(f32ToBits(NaN)).toBe(F32_QUIET_NAN_BITS);
    expect(f32ToBits(-NaN)).toBe(0xffc00000);
    expect(f32ToBits(f32FromBits(0xff800001))).toBe(0xffc00000); // signalling, negative: quiet, sign kept
    expect(f32FromBits(0x7f7fffff)).toBe((2 - 2 ** -23) * 2 ** 127);
    expect(f32FromBits(1)).toBe(2 ** -149);
    expect(roundToF32(0.1)).toBe(0.10000000149011612);
  });
});
