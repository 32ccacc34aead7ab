/**
 * roundRationalToNumber through the public API: typed errors naming the argument for a denominator of zero or a
 * non-bigint part (as ddFromRational gives), and otherwise num/den correctly rounded, a negative denominator
 * included. Regression: roundRationalToNumber(1n, 0n) threw a plain RangeError ("Division by zero") and
 * roundRationalToNumber(1 as never, 2n) a TypeError ("Cannot mix BigInt and other types").
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { roundRationalToNumber } from '../../src/index.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { rational } from '../../src/testing/rational.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

describe('roundRationalToNumber', () => {
  it('bad arguments are INVALID_VALUE naming them', () => {
    expectModprec(() => roundRationalToNumber(1n, 0n), 'INVALID_VALUE', 'den');
    expectModprec(() => roundRationalToNumber(0n, 0n), 'INVALID_VALUE', 'den');
    expectModprec(() => roundRationalToNumber(1n, 2 as never), 'INVALID_VALUE', 'den');
    expectModprec(() => roundRationalToNumber(1 as never, 2n), 'INVALID_VALUE', 'num');
  });

  it('num/den correctly rounded, either sign of den', () => {
    const big = fc.bigInt({ min: -(1n << 1100n), max: 1n << 1100n });
    fc.assert(fc.property(big, big.filter((d) => d !== 0n), (num, den) => {
      expect(roundRationalToNumber(num, den)).toBe(roundRationalToDouble(rational(num, den)));
    }), { numRuns: 300 });
  });
});
