/**
 * The overflow and gradual-underflow laws compare with the exact oracle on the inputs they draw near their
 * boundaries, so a conversion wrong only at the tie between the largest subnormal and the min normal (fp16: 2^-14 −
 * 2^-25 rounded down to the subnormal 1023·2^-24 instead of to the even 2^-14) fails them: before, it passed every law
 * (the error bound of the underflow law allows either neighbour, and the correct-rounding law drew that tie too rarely).
 */
import { describe, expect, it } from 'vitest';
import { createBinaryRounder, roundToF16 } from '../../src/index.js';
import { F16_DESCRIPTOR, checkStorageConversionLaws, lawGradualUnderflow, lawOverflow, type BinaryFormatDescriptor } from '../../src/testing/index.js';
import fc from 'fast-check';

const runs = { numRuns: 400 };
/** The message of the law's failure (fast-check keeps the property's own error as the cause). */
function failureOf(run: () => void): string {
  try {
    run();
  } catch (e) {
    const err = e as Error & { cause?: unknown };
    return `${err.message} ${err.cause instanceof Error ? err.cause.message : ''}`;
  }
  return 'passed';
}
const withRound = (name: string, round: (x: number) => number): BinaryFormatDescriptor => ({ ...F16_DESCRIPTOR, name, round, encode: undefined, decode: undefined });

describe('float laws at the subnormal and overflow boundaries', () => {
  it('the tie between the largest subnormal and the min normal, rounded to the odd side, fails the underflow law', () => {
    const boundary = 2 ** -14 - 2 ** -25;
    expect(roundToF16(boundary)).toBe(2 ** -14);
    const wrong = withRound('f16, boundary tie down', (x) => (Math.abs(x) === boundary ? Math.sign(x) * (2 ** -14 - 2 ** -24) : roundToF16(x)));
    expect(failureOf(() => fc.assert(lawGradualUnderflow(wrong), runs))).toMatch(/= -?0\.00006097555160522461, expected -?0\.00006103515625 \(rounding near the subnormal range\)/);
  });
  it('values between the largest finite and the overflow threshold rounded one step low fail the overflow law', () => {
    const wrong = withRound('f16, (65504, 65520) down', (x) => (Math.abs(x) > 65504 && Math.abs(x) < 65520 ? Math.sign(x) * 65472 : roundToF16(x)));
    expect(failureOf(() => fc.assert(lawOverflow(wrong), runs))).toMatch(/= -?65472, expected -?65504 \(rounding below the overflow threshold\)/);
  });
  it('correct conversions still pass every law: fp16, an 8-bit IEEE-style float, a 51-bit format', () => {
    checkStorageConversionLaws({ ...F16_DESCRIPTOR }, runs);
    for (const p of [{ significandBits: 4, minExponent: -6, maxExponent: 7 }, { significandBits: 51, minExponent: -1022, maxExponent: 1023 }]) {
      checkStorageConversionLaws({ name: `p${p.significandBits}`, ...p, round: createBinaryRounder(p) }, { numRuns: 200 });
    }
  });
});
