import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BF16_QUIET_NAN_BITS, BFLOAT16, bf16BitsFromNumber, f32ToBits, numberFromBf16Bits, roundToBf16,
} from '../../src/formats/convert/index.js';
import { BF16_DESCRIPTOR, exactOf, oracleRoundToFormat, roundRationalToFormat, storageConversionLaws } from '../../src/testing/index.js';

describe('bfloat16 conversion laws (against the exact BigInt oracle)', () => {
  for (const law of storageConversionLaws(BF16_DESCRIPTOR)) {
    it(law.name, () => law.check({ numRuns: 3000 }));
  }
});

describe('bfloat16, exhaustively over all 65536 bit patterns', () => {
  const isNaNPattern = (b: number) => (b & 0x7f80) === 0x7f80 && (b & 0x7f) !== 0;

  it('decodes positive patterns to a strictly increasing run of bfloat16 values ending at Infinity', () => {
    let previous = -Infinity;
    for (let b = 0; b <= 0x7f80; b++) {
      const v = numberFromBf16Bits(b);
      if (!(v > previous || b === 0)) throw new Error(`pattern ${b.toString(16)} decodes to ${v}, not above ${previous}`);
      if (b < 0x7f80 && roundRationalToFormat(exactOf(v), BFLOAT16) !== v) throw new Error(`${v} is not a bfloat16 value`);
      previous = v;
    }
    expect(previous).toBe(Infinity);
    expect(numberFromBf16Bits(0x7f7f)).toBe((2 - 2 ** -7) * 2 ** 127);
    expect(numberFromBf16Bits(0x0001)).toBe(2 ** -133);
  });

  it('re-encodes every non-NaN pattern to itself, NaN patterns to the quiet NaN of their sign; the sign bit negates', () => {
    for (let b = 0; b < 65536; b++) {
      const v = numberFromBf16Bits(b);
      const expected = isNaNPattern(b) ? (b & 0x8000) | BF16_QUIET_NAN_BITS : b;
      if (bf16BitsFromNumber(v) !== expected) throw new Error(`pattern ${b.toString(16)} re-encodes to ${bf16BitsFromNumber(v).toString(16)}`);
      if (!isNaNPattern(b) && !Object.is(numberFromBf16Bits(b ^ 0x8000), -v)) throw new Error(`sign bit of ${b.toString(16)}`);
    }
  });

  it('rounds every midpoint between adjacent finite values to the even pattern', () => {
    for (let b = 0; b < 0x7f80; b++) {
      for (const sign of [0, 0x8000]) {
        const a = numberFromBf16Bits(sign | b);
        const c = numberFromBf16Bits(sign | (b + 1));
        const mid = b + 1 === 0x7f80 ? (sign ? -1 : 1) * (2 - 2 ** -8) * 2 ** 127 : (a + c) / 2;
        const evenBits = sign | ((b & 1) === 0 ? b : b + 1);
        if (bf16BitsFromNumber(mid) !== evenBits) throw new Error(`tie ${mid} encodes to ${bf16BitsFromNumber(mid).toString(16)}, expected ${evenBits.toString(16)}`);
      }
    }
  });
});

describe('bfloat16 avoids double rounding through binary32', () => {
  it('matches the oracle where truncating Math.fround bits (the usual recipe) is wrong', () => {
    const x = 1 + 2 ** -8 + 2 ** -30; // above the tie 1 + 2^−8; binary32 drops 2^−30 and makes it a tie
    const viaF32 = (v: number) => numberFromBf16Bits((f32ToBits(v) + 0x7fff + ((f32ToBits(v) >>> 16) & 1)) >>> 16);
    expect(viaF32(x)).toBe(1); // the double-rounded answer
    expect(roundToBf16(x)).toBe(1 + 2 ** -7);
    expect(roundToBf16(x)).toBe(oracleRoundToFormat(x, BFLOAT16));
  });

  it('agrees with the oracle on doubles whose binary32 rounding is a bfloat16 tie', () => {
    // x = tie ± j·2^−40 relative: binary32 rounds it onto the tie, the direct rounding must not.
    fc.assert(fc.property(fc.integer({ min: 128, max: 255 }), fc.integer({ min: -120, max: 120 }), fc.integer({ min: 1, max: 2 ** 12 }), fc.boolean(),
      (m, e, j, up) => {
        const tie = (2 * m + 1) * 2 ** (e - 8);
        const x = tie + (up ? 1 : -1) * j * 2 ** (e - 40);
        expect(roundToBf16(x)).toBe(oracleRoundToFormat(x, BFLOAT16));
        expect(roundToBf16(x)).toBe(up ? (m + 1) * 2 ** (e - 7) : m * 2 ** (e - 7));
      }), { numRuns: 3000 });
  });
});

describe('bfloat16 landmarks', () => {
  it('overflows at (2 − 2^−8)·2^127, underflows gradually below 2^−126, keeps NaN and −0', () => {
    const threshold = (2 - 2 ** -8) * 2 ** 127;
    expect(roundToBf16(threshold)).toBe(Infinity);
    expect(roundToBf16(-threshold)).toBe(-Infinity);
    expect(roundToBf16(threshold * (1 - 2 ** -30))).toBe((2 - 2 ** -7) * 2 ** 127);
    expect(roundToBf16(3 * 2 ** -135)).toBe(2 ** -133); // 0.75 of the smallest subnormal
    expect(Object.is(roundToBf16(-(2 ** -134)), -0)).toBe(true); // tie with zero → even (zero), sign kept
    expect(roundToBf16(NaN)).toBeNaN();
    expect(bf16BitsFromNumber(NaN)).toBe(BF16_QUIET_NAN_BITS);
    expect(bf16BitsFromNumber(-NaN)).toBe(0xffc0);
    expect(bf16BitsFromNumber(-0)).toBe(0x8000);
  });
});
