/**
 * nearUnderflowOf promises "values in and around a format's subnormal range … and random values in [0, 2·min normal]",
 * and lawGradualUnderflow that "below the min normal the absolute error is at most half a subnormal step". Its random
 * part was fc.double over [0, 2·min normal], uniform over bit patterns: for fp16, bf16 and fp32 about one draw in a
 * hundred landed in the subnormal range, so 2000 draws held only 10–23 distinct subnormal magnitudes (the constants),
 * and a conversion that rounds subnormals up from 0.3 of a step (a sticky-bit bug) passed lawGradualUnderflow on 20 of
 * 20 seeds (checkStorageConversionLaws caught it on 5). Now half the draws are on a grid finer than the subnormals'.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBinaryRounder } from '../../src/index.js';
import { BF16_DESCRIPTOR, F16_DESCRIPTOR, F32_DESCRIPTOR, lawGradualUnderflow, nearUnderflowOf } from '../../src/testing/index.js';

const formats = [
  F16_DESCRIPTOR, BF16_DESCRIPTOR, F32_DESCRIPTOR,
  { name: 'e5m2', significandBits: 3, minExponent: -14, maxExponent: 15 },
  { name: 'p52 at the bottom of binary64', significandBits: 52, minExponent: -1022, maxExponent: 1023 },
];

describe('nearUnderflowOf draws subnormals', () => {
  it.each(formats)('$name: many distinct subnormal magnitudes, most of them not representable', (f) => {
    const minNormal = 2 ** f.minExponent, minSubnormal = 2 ** (f.minExponent - f.significandBits + 1);
    const xs = fc.sample(nearUnderflowOf(f), { numRuns: 1000, seed: 7 });
    const sub = xs.map(Math.abs).filter((a) => a > minSubnormal && a < minNormal);
    expect(sub.length).toBeGreaterThan(150);
    expect(new Set(sub).size).toBeGreaterThan(100);
    // Between two subnormals: what a rounding in the subnormal range must decide (binary64's are all representable).
    const between = sub.filter((a) => !Number.isInteger(a / minSubnormal));
    if (f.minExponent - f.significandBits + 1 > -1074) expect(between.length).toBeGreaterThan(100);
    // Still inside [−2·min normal, 2·min normal], both signs.
    expect(xs.every((x) => Math.abs(x) <= 2 * minNormal)).toBe(true);
    expect(xs.some((x) => x < 0) && xs.some((x) => x > 0)).toBe(true);
  });

  it('lawGradualUnderflow catches a subnormal rounding that goes up from 0.3 of a step', () => {
    const P = { significandBits: 11, minExponent: -14, maxExponent: 15 };
    const good = createBinaryRounder(P);
    const q = 2 ** -24, minNormal = 2 ** -14;
    // Correct everywhere but strictly between 0.3 and 0.45 of a subnormal step, where it rounds up.
    const sticky = (x: number): number => {
      const a = Math.abs(x), frac = a / q - Math.floor(a / q);
      if (!(a > 0 && a < minNormal && frac > 0.3 && frac < 0.45)) return good(x);
      const r = Math.ceil(a / q) * q;
      return x < 0 ? -r : r;
    };
    const law = lawGradualUnderflow({ name: 'sticky', ...P, round: sticky });
    const caught = Array.from({ length: 10 }, (_, seed) => fc.check(law, { seed, numRuns: 100 }).failed).filter(Boolean).length;
    expect(caught).toBeGreaterThanOrEqual(8);
    // and the correct rounding passes it
    expect(fc.check(lawGradualUnderflow({ name: 'good', ...P, round: good }), { seed: 1, numRuns: 300 }).failed).toBe(false);
  });
});
