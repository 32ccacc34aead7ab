import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BINARY16, F16_QUIET_NAN_BITS, f16BitsFromNumber, numberFromF16Bits, roundToF16,
} from '../../src/formats/convert/index.js';
import { F16_DESCRIPTOR, exactOf, oracleRoundToFormat, roundRationalToFormat, storageConversionLaws } from '../../src/testing/index.js';

describe('binary16 conversion laws (against the exact BigInt oracle)', () => {
  for (const law of storageConversionLaws(F16_DESCRIPTOR)) {
    it(law.name, () => law.check({ numRuns: 3000 }));
  }
});

describe('binary16, exhaustively over all 65536 bit patterns', () => {
  const patterns = Array.from({ length: 65536 }, (_, b) => b);
  const isNaNPattern = (b: number) => (b & 0x7c00) === 0x7c00 && (b & 0x3ff) !== 0;

  // Plain checks that throw on the first mismatch: an expect() per element would dominate the run time.
  const check = (ok: boolean, message: () => string) => {
    if (!ok) throw new Error(message());
  };

  it('decodes positive patterns 0x0000…0x7c00 to a strictly increasing run of 31745 binary16 values, 0 to Infinity', () => {
    // binary16 has exactly 31744 finite non-negative values; a strictly increasing run of that many
    // values that the oracle confirms are representable must be all of them, in order.
    let previous = -Infinity;
    for (let b = 0; b <= 0x7c00; b++) {
      const v = numberFromF16Bits(b);
      check(v > previous && !Object.is(v, -0), () => `pattern ${b.toString(16)} decodes to ${v}, not above ${previous}`);
      if (b < 0x7c00) check(roundRationalToFormat(exactOf(v), BINARY16) === v, () => `${v} is not a binary16 value`);
      previous = v;
    }
    expect(numberFromF16Bits(0x7c00)).toBe(Infinity);
    expect(numberFromF16Bits(0x7bff)).toBe(65504);
    expect(numberFromF16Bits(0x0001)).toBe(2 ** -24);
    expect(numberFromF16Bits(0x0400)).toBe(2 ** -14);
  });

  it('decodes the sign bit as negation (−0 included) and every NaN pattern as NaN', () => {
    for (const b of patterns) {
      const v = numberFromF16Bits(b);
      if (isNaNPattern(b)) check(Number.isNaN(v), () => `NaN pattern ${b.toString(16)} decodes to ${v}`);
      else check(Object.is(numberFromF16Bits(b ^ 0x8000), -v), () => `sign bit of ${b.toString(16)}`);
    }
  });

  it('re-encodes every non-NaN pattern to itself, and NaN patterns to the quiet NaN of their sign', () => {
    for (const b of patterns) {
      const got = f16BitsFromNumber(numberFromF16Bits(b));
      check(got === (isNaNPattern(b) ? (b & 0x8000) | F16_QUIET_NAN_BITS : b), () => `pattern ${b.toString(16)} re-encodes to ${got.toString(16)}`);
    }
  });

  it('rounds every midpoint between adjacent finite values to the even pattern, and its neighbours to the near side', () => {
    for (let b = 0; b < 0x7c00; b++) {
      for (const sign of [0, 0x8000]) {
        const a = numberFromF16Bits(sign | b);
        const c = numberFromF16Bits(sign | (b + 1)); // b + 1 = 0x7c00 is Infinity: that tie is the overflow threshold
        const mid = b + 1 === 0x7c00 ? (sign ? -65520 : 65520) : (a + c) / 2; // exact: few bits, far from double underflow
        const evenBits = sign | ((b & 1) === 0 ? b : b + 1);
        check(f16BitsFromNumber(mid) === evenBits, () => `tie ${mid} encodes to ${f16BitsFromNumber(mid).toString(16)}, expected ${evenBits.toString(16)}`);
        check(Object.is(roundToF16(mid), numberFromF16Bits(evenBits)), () => `roundToF16(${mid}) = ${roundToF16(mid)}`);
        if (b + 1 < 0x7c00) {
          const towardA = mid - (c - a) * 2 ** -30;
          const towardC = mid + (c - a) * 2 ** -30;
          check(Object.is(roundToF16(towardA), a) && Object.is(roundToF16(towardC), c), () => `neighbours of the tie ${mid}`);
        }
      }
    }
  });
});

describe('binary16 landmarks', () => {
  it('overflows exactly at 65520 and keeps 65519.99… finite', () => {
    expect(roundToF16(65520)).toBe(Infinity);
    expect(roundToF16(-65520)).toBe(-Infinity);
    expect(roundToF16(65519.999999)).toBe(65504);
    expect(f16BitsFromNumber(65520)).toBe(0x7c00);
    expect(f16BitsFromNumber(-Infinity)).toBe(0xfc00);
    expect(f16BitsFromNumber(1e300)).toBe(0x7c00);
  });

  it('underflows gradually: half the smallest subnormal ties to a signed zero, just above it rounds up', () => {
    expect(Object.is(roundToF16(2 ** -25), 0)).toBe(true);
    expect(Object.is(roundToF16(-(2 ** -25)), -0)).toBe(true);
    expect(roundToF16(2 ** -25 + 2 ** -60)).toBe(2 ** -24);
    expect(f16BitsFromNumber(-(2 ** -26))).toBe(0x8000);
    expect(f16BitsFromNumber(2 ** -14 - 2 ** -25)).toBe(0x0400); // tie between max subnormal and min normal → even
  });

  it('keeps NaN and the sign of zero', () => {
    expect(roundToF16(NaN)).toBeNaN();
    expect(f16BitsFromNumber(NaN)).toBe(F16_QUIET_NAN_BITS);
    expect(f16BitsFromNumber(-NaN)).toBe(0x8000 | F16_QUIET_NAN_BITS); // V8 keeps a NaN's sign through negation
    expect(f16BitsFromNumber(roundToF16(-NaN))).toBe(0xfe00);
    expect(Object.is(roundToF16(-0), -0)).toBe(true);
    expect(f16BitsFromNumber(-0)).toBe(0x8000);
    expect(f16BitsFromNumber(0)).toBe(0);
  });

  it('rounds straight from the double where Math.fround first would round twice', () => {
    const x = 1 + 2 ** -11 + 2 ** -40; // just above a binary16 tie; binary32 drops the 2^−40
    expect(Math.fround(x)).toBe(1 + 2 ** -11);
    expect(roundToF16(Math.fround(x))).toBe(1); // the double-rounded (wrong) answer
    expect(roundToF16(x)).toBe(1 + 2 ** -10);
    expect(roundToF16(x)).toBe(oracleRoundToFormat(x, BINARY16));
  });
});

describe('binary16 against the oracle on uniform data', () => {
  it('agrees on doubles drawn uniformly from [−70000, 70000]', () => {
    fc.assert(fc.property(fc.double({ min: -70000, max: 70000, noNaN: true }), (x) => {
      expect(Object.is(roundToF16(x), oracleRoundToFormat(x, BINARY16))).toBe(true);
      expect(Object.is(numberFromF16Bits(f16BitsFromNumber(x)), roundToF16(x))).toBe(true);
    }), { numRuns: 5000 });
  });
});
