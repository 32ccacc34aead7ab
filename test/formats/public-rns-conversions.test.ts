/**
 * RNS conversions that round (docs/rns.md, "Rounding": to nearest, ties to even, everywhere), checked bit for bit
 * against the exact value rounded to p bits: a double-double pair read into a set of p bits (exact where it fits,
 * else rounded once — including p = 53 and 54, where almost every pair is wider), a number of one set converted
 * (rnsConvert) or stored (rnsStore) into a set of another precision, and a decimal string parsed. Exponent limits:
 * a result that could leave ±2^30 is INVALID_VALUE naming `result` (or `value` for a conversion), z untouched.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MAX_EXPONENT, ModprecError, RnsArray, rnsConvert, rnsFromDecimalString, rnsFromDoubleDouble, rnsFromNumber, rnsFromRational,
  rnsLoad, rnsModuliSet, rnsMul, rnsStore, rnsToRational, rnsZero, type RnsNumber,
} from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, rational, type Rational } from '../../src/testing/rational.js';
import { roundRationalExact } from '../../src/testing/round-rational.js';

function valueOf(x: RnsNumber): Rational {
  const r = rnsToRational(x);
  return rational(r.num, r.den);
}

/** A pair hi + lo with lo anywhere from just below hi's last bit to far below it, both signs, ties included. */
const pair = fc.record({
  hi: fc.oneof(fc.double({ min: -1e30, max: 1e30, noNaN: true }), fc.integer({ min: -(2 ** 30), max: 2 ** 30 }).map((k) => k * 2 ** 23)),
  gap: fc.integer({ min: 0, max: 120 }), f: fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constantFrom(0.5, -0.5, 0.25, 1, -1)),
}).map(({ hi, gap, f }) => {
  const lo = hi === 0 ? f * 2 ** -gap : f * Math.abs(hi) * 2 ** (-52 - gap);
  return [hi, lo] as const;
});

describe.each([53, 54, 60, 106, 107, 200])('RNS conversions into %i bits round once, ties to even', (p) => {
  const set = rnsModuliSet(p);
  const RN = (v: Rational) => roundRationalExact(v, { significandBits: p });

  it('rnsFromDoubleDouble gives RN_p(hi + lo)', () => {
    fc.assert(fc.property(pair, ([hi, lo]) => {
      const z = rnsZero(set);
      rnsFromDoubleDouble(z, hi, lo);
      expect(valueOf(z)).toEqual(RN(addRational(exactOf(hi), exactOf(lo))));
    }), { numRuns: 300 });
  });

  it('rnsConvert and rnsStore from wider and narrower sets give RN_p(x)', () => {
    const other = fc.constantFrom(53, 61, 106, 150, 424).map((q) => rnsModuliSet(q));
    const value = fc.tuple(fc.bigInt({ min: -(1n << 424n), max: 1n << 424n }), fc.integer({ min: -600, max: 200 }), fc.integer({ min: 0, max: 424 }));
    fc.assert(fc.property(other, value, (from, [m, e, cut]) => {
      const x = rnsZero(from);
      rnsFromRational(x, m >> BigInt(cut), e >= 0 ? 1n : 1n << BigInt(-e)); // rounded to from's precision
      const xv = valueOf(x), z = rnsZero(set);
      rnsConvert(z, x);
      expect(valueOf(z)).toEqual(RN(xv));
      const a = new RnsArray(set, 2);
      rnsStore(a, 1, x);
      rnsLoad(z, a, 1);
      expect(valueOf(z)).toEqual(RN(xv));
    }), { numRuns: 150 });
  });

  it('a decimal string is parsed exactly and rounded once', () => {
    const text = fc.tuple(fc.bigInt({ min: -(10n ** 80n), max: 10n ** 80n }), fc.integer({ min: -60, max: 60 }))
      .map(([d, e]) => ({ text: `${d}e${e}`, exact: e >= 0 ? rational(d * 10n ** BigInt(e)) : rational(d, 10n ** BigInt(-e)) }));
    fc.assert(fc.property(text, ({ text, exact }) => {
      const z = rnsZero(set);
      rnsFromDecimalString(z, text);
      expect(valueOf(z)).toEqual(RN(exact));
    }), { numRuns: 200 });
  });
});

describe('RNS exponent limits', () => {
  const set = rnsModuliSet(106);

  it.each([1000, -1000])('squaring 2^%i until the exponent passes ±2^30: INVALID_VALUE naming result, z untouched', (e0) => {
    const x = rnsZero(set), z = rnsZero(set);
    rnsFromNumber(x, 2 ** e0 * 3); // 3·2^e0: X = 3, so the squares round (X² grows past 2^p)
    let exponent = e0, thrown: unknown;
    for (let k = 0; k < 30 && thrown === undefined; k++) {
      rnsFromNumber(z, 7);
      try { rnsMul(z, x, x); } catch (e) { thrown = e; break; }
      rnsConvert(x, z);
      exponent *= 2;
    }
    expect(thrown).toBeInstanceOf(ModprecError);
    expect((thrown as ModprecError).code).toBe('INVALID_VALUE');
    expect((thrown as ModprecError).parameter).toBe('result');
    expect(valueOf(z)).toEqual(exactOf(7));
    expect(Math.abs(exponent)).toBeGreaterThan(MAX_EXPONENT / 4); // thrown near the limit, not far from it
  });
});
