import { describe, expect, it } from 'vitest';
import { roundToInt16, roundToInt32, roundToInt8 } from '../../src/formats/convert/index.js';
import { I16_DESCRIPTOR, I32_DESCRIPTOR, I8_DESCRIPTOR, integerConversionLaws, oracleRoundToInteger } from '../../src/testing/index.js';

for (const format of [I8_DESCRIPTOR, I16_DESCRIPTOR, I32_DESCRIPTOR]) {
  describe(`${format.name} conversion laws (against the exact BigInt oracle)`, () => {
    for (const law of integerConversionLaws(format)) it(law.name, () => law.check({ numRuns: 3000 }));
  });
}

describe('integer rounding edge cases', () => {
  it('int8: every multiple of 1/8 in [−140, 140] agrees with the oracle (all ties and saturation)', () => {
    for (let k = -140 * 8; k <= 140 * 8; k++) {
      const x = k / 8;
      if (!Object.is(roundToInt8(x), oracleRoundToInteger(I8_DESCRIPTOR, x))) throw new Error(`roundToInt8(${x}) = ${roundToInt8(x)}`);
    }
  });

  it('ties go to even, NaN to 0, −0 and tiny negatives to +0, infinities saturate', () => {
    expect([0.5, 1.5, 2.5, -0.5, -1.5, -2.5].map(roundToInt16)).toEqual([0, 2, 2, 0, -2, -2]);
    expect(roundToInt8(NaN)).toBe(0);
    expect(Object.is(roundToInt8(-0), 0)).toBe(true);
    expect(Object.is(roundToInt32(-0.25), 0)).toBe(true);
    expect(roundToInt8(Infinity)).toBe(127);
    expect(roundToInt16(-Infinity)).toBe(-32768);
    expect(roundToInt32(2147483646.5)).toBe(2147483646);
    expect(roundToInt32(2147483647.4)).toBe(2147483647);
    expect(roundToInt32(-2147483648.6)).toBe(-2147483648);
    expect(roundToInt8(127.5)).toBe(127);
    expect(roundToInt8(-128.5)).toBe(-128);
  });
});
