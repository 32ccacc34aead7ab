/**
 * An in-place rnsFma sum (z = c) is kept open after 8 steps: its sign bit and interval evaluation are not its value's
 * until it is closed, and docs/rns.md promises that every function closes it before reading it. rnsAbs read the sign
 * bit first (|s| of the open sum s = −2199.25 was −2199.25), rnsDiv and rnsSqrt read sign and evaluation first (s/1
 * was +2199.25; an open sum that was exactly 0 as divisor threw the engine's RangeError "Division by zero" instead of
 * INVALID_VALUE naming y, and 0/1 gave −0; √ of an open sum could refuse a positive value). Every reader is checked
 * here against the exact value, each on a fresh open sum (reading closes it).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ModprecError, RnsArray, rnsAbs, rnsAdd, rnsCompare, rnsDiv, rnsFma, rnsFromNumber, rnsLoad, rnsModuliSet, rnsMul, rnsNeg,
  rnsSet, rnsSign, rnsSqrt, rnsStore, rnsToDoubleDouble, rnsToNumber, rnsToRational, rnsZero, type RnsNumber,
} from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, compareRational, divRational, mulRational, negRational, rational, type Rational } from '../../src/testing/rational.js';
import { roundRationalExact, roundRationalToDouble } from '../../src/testing/round-rational.js';

const p = 106;
const set = rnsModuliSet(p);
const RN = (v: Rational) => roundRationalExact(v, { significandBits: p });

/** Terms t·2^e (small integers, so every sum is exact in 106 bits), at least 9 so that the sum opens. */
const terms = fc.array(fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -4, max: 4 })), { minLength: 9, maxLength: 24 })
  .chain((ts) => fc.oneof(
    fc.constant(ts),
    // the same terms, then their negatives: an open sum that is exactly 0 (and changes sign on the way)
    fc.constant([...ts, ...ts.map(([t, e]) => [-t, e] as [number, number])]),
  ));

function openSum(ts: readonly (readonly [number, number])[]): RnsNumber {
  const s = rnsZero(set), a = rnsZero(set), one = rnsZero(set);
  rnsFromNumber(one, 1);
  for (const [t, e] of ts) { rnsFromNumber(a, t * 2 ** e); rnsFma(s, a, one, s); }
  return s;
}

function valueOf(x: RnsNumber): Rational {
  const r = rnsToRational(x);
  return rational(r.num, r.den);
}

function numberOf(v: number): RnsNumber {
  const z = rnsZero(set);
  rnsFromNumber(z, v);
  return z;
}

const same = (a: Rational, b: Rational) => compareRational(a, b) === 0;

describe('every RNS function reads an open sum at its value', () => {
  it('abs, neg, set, div, sqrt, mul, add, fma, compare, sign, conversions and store', () => {
    fc.assert(fc.property(terms, fc.double({ min: -100, max: 100, noNaN: true }).filter((w) => w !== 0), (ts, w) => {
      const exact = ts.reduce<Rational>((acc, [t, e]) => addRational(acc, exactOf(t * 2 ** e)), rational(0n));
      const ev = roundRationalToDouble(exact); // the sum is exact, so this is its double when it fits 53 bits
      const W = numberOf(w), wv = exactOf(w), z = rnsZero(set);
      const zero = exact.num === 0n;

      rnsAbs(z, openSum(ts));
      expect(same(valueOf(z), exact.num < 0n ? negRational(exact) : exact)).toBe(true);
      if (zero) expect(Object.is(rnsToNumber(z), 0)).toBe(true);
      rnsNeg(z, openSum(ts));
      expect(same(valueOf(z), negRational(exact))).toBe(true);
      if (zero) expect(Object.is(rnsToNumber(z), -0)).toBe(true); // −(+0)
      rnsSet(z, openSum(ts));
      expect(same(valueOf(z), exact)).toBe(true);

      rnsDiv(z, openSum(ts), W);
      expect(same(valueOf(z), RN(divRational(exact, wv)))).toBe(true);
      if (zero) expect(Object.is(rnsToNumber(z), w < 0 ? -0 : 0)).toBe(true); // +0 / w
      if (zero) {
        try { rnsDiv(z, W, openSum(ts)); expect.unreachable(); } catch (e) {
          expect(e).toBeInstanceOf(ModprecError);
          expect((e as ModprecError).code).toBe('INVALID_VALUE');
          expect((e as ModprecError).parameter).toBe('y');
        }
      } else {
        rnsDiv(z, W, openSum(ts));
        expect(same(valueOf(z), RN(divRational(wv, exact)))).toBe(true);
      }
      if (exact.num < 0n) {
        expect(() => rnsSqrt(z, openSum(ts))).toThrow(ModprecError);
      } else {
        rnsSqrt(z, openSum(ts));
        const r = valueOf(z);
        expect(compareRational(mulRational(r, r), exact) === 0 || !zero).toBe(true);
        if (zero) expect(Object.is(rnsToNumber(z), 0)).toBe(true);
        else expect(rnsSign(z)).toBe(1);
      }

      rnsMul(z, openSum(ts), W);
      expect(same(valueOf(z), RN(mulRational(exact, wv)))).toBe(true);
      rnsAdd(z, W, openSum(ts));
      expect(same(valueOf(z), RN(addRational(exact, wv)))).toBe(true);
      rnsFma(z, W, W, openSum(ts)); // the open sum as the addend of another number's multiply-add
      const ww = mulRational(wv, wv);
      expect(same(valueOf(z), RN(addRational(ww, exact))) || same(valueOf(z), RN(addRational(RN(ww), exact)))).toBe(true);

      expect(rnsCompare(openSum(ts), W)).toBe(compareRational(exact, wv));
      expect(rnsCompare(W, openSum(ts))).toBe(compareRational(wv, exact));
      expect(rnsSign(openSum(ts))).toBe(Math.sign(Number(exact.num)));
      expect(Object.is(rnsToNumber(openSum(ts)), ev)).toBe(true);
      expect(Object.is(rnsToDoubleDouble(openSum(ts), { hi: 0, lo: 0 }).hi, ev)).toBe(true);

      const arr = new RnsArray(set, 1);
      rnsStore(arr, 0, openSum(ts));
      rnsLoad(z, arr, 0);
      expect(same(valueOf(z), exact)).toBe(true);
    }), { numRuns: 150 });
  });
});
