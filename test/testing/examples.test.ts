/** The usage example of src/testing/index.ts, run as written, and shown to be able to fail. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createBinaryRounder } from '../../src/index.js';
import { checkStorageConversionLaws, exactDot, roundRationalToDouble, vectorIn } from '../../src/testing/index.js';

describe('modprec/testing usage example', () => {
  it('1. a custom format built with createBinaryRounder obeys every law', () => {
    const params = { significandBits: 4, minExponent: -6, maxExponent: 7 };
    checkStorageConversionLaws({ name: 'e4m3-ieee', ...params, round: createBinaryRounder(params) }, { numRuns: 500 });
  });

  it('2. fp64 recursive summation of an fp16 dot product stays within γ_n·Σ|x_i·y_i|, and a sloppier sum does not', () => {
    const withinBound = (sum: (terms: number[]) => number) => fc.property(vectorIn('f16', 64), vectorIn('f16', 64), (x, y) => {
      const terms = x.map((xi, i) => xi * y[i]!);
      const s = sum(terms);
      const magnitude = terms.reduce((a, t) => a + Math.abs(t), 0);
      const u = 2 ** -53, gamma = (64 * u) / (1 - 64 * u);
      const exact = roundRationalToDouble(exactDot(x, y));
      return Math.abs(s - exact) <= gamma * magnitude * (1 + 4 * u) + Math.abs(exact) * u;
    });
    fc.assert(withinBound((t) => t.reduce((a, b) => a + b, 0)), { numRuns: 300 });
    // accumulating in fp32 breaks the fp64 bound: the check can fail
    expect(() => fc.assert(withinBound((t) => t.reduce((a, b) => Math.fround(a + b), 0)), { numRuns: 300 })).toThrow();
  });
});
