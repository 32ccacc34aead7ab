/**
 * rnsFromDoubleDouble is exact when the pair's significand fits the set's precision p (docs/rns.md: double-double
 * storage is read exactly), also at the edge: hi + lo spanning p bits through a carry ((2^53 − 1) + 2^-53 in rns106)
 * or p + 1 bits with lo of the other sign (2^53 − 2^-53). Longer pairs are rounded within 2^-p. Checked exactly.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsFromDoubleDouble, rnsModuliSet, rnsToRational, rnsZero } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, powerOfTwo, rational, subRational } from '../../src/testing/rational.js';

/** The stored value of the pair in a set of precision p, and the exact hi + lo. */
function read(p: number, hi: number, lo: number) {
  const z = rnsZero(rnsModuliSet(p));
  rnsFromDoubleDouble(z, hi, lo);
  const q = rnsToRational(z);
  return { stored: rational(q.num, q.den), exact: addRational(exactOf(hi), exactOf(lo)) };
}

describe('rnsFromDoubleDouble at the edge of the precision', () => {
  it('(2^53 − 1, 2^-53) in rns106 and (2^53 − 1, 2^-2) in rns55: p-bit values read exactly (the last bit was lost)', () => {
    for (const [p, hi, lo] of [[106, 2 ** 53 - 1, 2 ** -53], [55, 2 ** 53 - 1, 0.25], [106, 2 ** 53, -(2 ** -53)], [55, -(2 ** 1023) * (2 - 2 ** -52), -(2 ** 969)]] as const) {
      const { stored, exact } = read(p, hi, lo);
      expect(compareRational(stored, exact), `p = ${p}: (${hi}, ${lo})`).toBe(0);
    }
  });

  it('any pair whose significand fits p bits is read exactly; one bit longer, within 2^-p', () => {
    const pairs = fc.record({
      p: fc.constantFrom(55, 60, 106, 107, 150),
      hiBits: fc.bigInt({ min: 2n ** 52n, max: 2n ** 53n - 1n }),
      loBits: fc.bigInt({ min: 1n, max: 2n ** 53n - 1n }),
      negativeLo: fc.boolean(),
      negative: fc.boolean(),
      extra: fc.constantFrom(0, 1),
      exponent: fc.integer({ min: -900, max: 900 }),
    });
    fc.assert(fc.property(pairs, ({ p, hiBits, loBits, negativeLo, negative, extra, exponent }) => {
      // lo's lowest bit sits p − 1 + extra bits below hi's top bit, so the span is p + extra bits.
      const lowBit = BigInt(loBits) | 1n;
      const loTop = lowBit.toString(2).length - 1;
      const loShift = exponent - (p - 1 + extra); // exponent of lo's lowest bit
      const hi = (negative ? -1 : 1) * Number(hiBits) * 2 ** (exponent - 52);
      const loMagnitude = Number(lowBit) * 2 ** loShift;
      if (loShift + loTop > exponent - 54) return; // keep |lo| < ulp(hi)/2: a normalised pair
      const lo = (negative !== negativeLo ? -1 : 1) * loMagnitude;
      const { stored, exact } = read(p, hi, lo);
      const bits = (n: bigint): number => // significant bits (exact is in lowest terms)
         (n < 0n ? -n : n).toString(2).replace(/0+$/, '').length;
      if (bits(exact.num) <= p) expect(compareRational(stored, exact)).toBe(0);
      else expect(compareRational(absRational(subRational(stored, exact)), mulRational(powerOfTwo(-p), absRational(exact)))).toBeLessThanOrEqual(0);
    }), { numRuns: 400 });
  });
});
