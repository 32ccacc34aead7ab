/**
 * The RNS multiply-adds against exact BigInt values, at several precisions (docs/rns.md, "Operations and their
 * error"): rnsFma is one rounding of a·b + c or two (the product's, then the sum's), so its result is RN(ab + c) or
 * RN(RN(ab) + c); rnsMulAdd2 is RN(ax + by) or RN(ax) added by rnsFma; an in-place sum (z = c) that stays open is exact
 * and rounded once when read, whoever reads it (rnsAdd, rnsFma into another number, rnsCompare, rnsToNumber), and
 * signed zeros follow IEEE (an exact zero sum is +0). rnsCompare and rnsSign are exact.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  rnsAdd, rnsCompare, rnsFma, rnsFromNumber, rnsFromRational, rnsModuliSet, rnsMul, rnsMulAdd2, rnsSign, rnsSub,
  rnsToNumber, rnsToRational, rnsZero, type RnsModuliSet, type RnsNumber,
} from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import {
  absRational, addRational, compareRational, mulRational, rational, signRational, subRational, type Rational,
} from '../../src/testing/rational.js';
import { numberOf, valueOf } from './rns-rationals.js';
import { roundRationalExact } from '../../src/testing/round-rational.js';

/** A p-bit value or a double (the short terms that open a kernel's sum), both signs, exponents near each other. */
function operand(p: number): fc.Arbitrary<Rational> {
  const bits = fc.oneof(
    fc.bigInt({ min: 1n, max: (1n << BigInt(p)) - 1n }),
    fc.integer({ min: 0, max: p - 1 }).map((k) => 1n << BigInt(k)),
    fc.integer({ min: 1, max: p }).map((k) => (1n << BigInt(k)) - 1n),
  );
  return fc.oneof(
    fc.tuple(fc.boolean(), bits, fc.integer({ min: -2 * p, max: p })).map(([s, m, e]) => {
      const n = s ? -m : m;
      return e >= 0 ? rational(n << BigInt(e)) : rational(n, 1n << BigInt(-e));
    }),
    fc.double({ min: -1e20, max: 1e20, noNaN: true }).map(exactOf),
  );
}

const same = (a: Rational, b: Rational) => compareRational(a, b) === 0;

describe.each([53, 106, 200, 1000])('RNS multiply-adds at %i bits', (p) => {
  const set = rnsModuliSet(p);
  const RN = (v: Rational) => roundRationalExact(v, { significandBits: p });
  const runs = p >= 1000 ? 60 : 200;

  it('rnsFma(z, a, b, c) is RN(ab + c) or RN(RN(ab) + c)', () => {
    fc.assert(fc.property(operand(p), operand(p), operand(p), (a, b, c) => {
      const z = rnsZero(set);
      rnsFma(z, numberOf(set, a), numberOf(set, b), numberOf(set, c));
      const got = valueOf(z), ab = mulRational(a, b);
      const once = RN(addRational(ab, c)), twice = RN(addRational(RN(ab), c));
      expect(same(got, once) || same(got, twice)).toBe(true);
    }), { numRuns: runs });
  });

  it('rnsMulAdd2(z, a, x, b, y) is RN(ax + by) or RN(ax) added by rnsFma', () => {
    fc.assert(fc.property(operand(p), operand(p), operand(p), operand(p), (a, x, b, y) => {
      const z = rnsZero(set);
      rnsMulAdd2(z, numberOf(set, a), numberOf(set, x), numberOf(set, b), numberOf(set, y));
      const got = valueOf(z), ax = mulRational(a, x), by = mulRational(b, y);
      const t = RN(ax);
      const allowed = [RN(addRational(ax, by)), RN(addRational(by, t)), RN(addRational(RN(by), t))];
      expect(allowed.some((v) => same(got, v))).toBe(true);
    }), { numRuns: runs });
  });

  it('an in-place sum of products of doubles is the exact sum within the recursive-summation bound, read by any function', () => {
    const doubles = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 9, maxLength: 40 });
    fc.assert(fc.property(doubles, doubles, fc.double({ min: -1e6, max: 1e6, noNaN: true }), (xs, ys, w) => {
      const n = Math.min(xs.length, ys.length);
      const s = rnsZero(set), a = rnsZero(set), b = rnsZero(set);
      let exact: Rational = rational(0n), magnitude: Rational = rational(0n);
      for (let i = 0; i < n; i++) {
        rnsFromNumber(a, xs[i]!);
        rnsFromNumber(b, ys[i]!);
        rnsFma(s, a, b, s);
        const t = mulRational(exactOf(xs[i]!), exactOf(ys[i]!));
        exact = addRational(exact, t);
        magnitude = addRational(magnitude, absRational(t));
      }
      // γ_2n with u = 2^-p, generously: the steps before the sum opens round once each (terms of far-apart sizes).
      const bound = mulRational(magnitude, rational(BigInt(2 * n), 1n << BigInt(p - 1)));
      const within = (v: Rational) => compareRational(absRational(subRational(v, exact)), bound) <= 0;
      const wv = exactOf(w), W = numberOf(set, wv), z = rnsZero(set);
      // Readers of the (possibly open) sum: compare, add, fma into another number, then the sum itself.
      const cmp = rnsCompare(s, W);
      rnsAdd(z, s, W);
      const added = valueOf(z);
      rnsFma(z, W, W, s);
      const fused = valueOf(z);
      const value = valueOf(s);
      expect(within(value)).toBe(true);
      expect(cmp).toBe(compareRational(value, wv));
      expect(same(added, RN(addRational(value, wv)))).toBe(true);
      const ww = mulRational(wv, wv);
      expect(same(fused, RN(addRational(ww, value))) || same(fused, RN(addRational(RN(ww), value)))).toBe(true);
      expect(rnsSign(s)).toBe(signRational(value));
      if (value.num === 0n) expect(Object.is(rnsToNumber(s), 0)).toBe(true); // an exact zero sum is +0
    }), { numRuns: p >= 1000 ? 20 : 60 });
  });

  it('a sum that cancels to zero after it opened is +0; products of zeros carry the sign', () => {
    const s = rnsZero(set), a = rnsZero(set), b = rnsZero(set);
    const terms = [3, 5, -7, 11, 0.5, -0.25, 1e10, 2, 2, 2]; // 10 terms, then their negatives
    for (const t of [...terms, ...terms.map((v) => -v)]) {
      rnsFromNumber(a, t);
      rnsFromNumber(b, 1.5);
      rnsFma(s, a, b, s);
    }
    expect(Object.is(rnsToNumber(s), 0)).toBe(true);
    rnsFromNumber(a, -0); rnsFromNumber(b, 2);
    rnsMul(s, a, b);
    expect(Object.is(rnsToNumber(s), -0)).toBe(true);
    rnsSub(s, s, s);
    expect(Object.is(rnsToNumber(s), 0)).toBe(true);
  });

  it('rnsCompare and rnsSign are exact, near-equal operands included', () => {
    fc.assert(fc.property(operand(p), fc.integer({ min: -3, max: 3 }), fc.integer({ min: 0, max: p + 4 }), (a, k, shift) => {
      const d = rational(BigInt(k), 1n << BigInt(shift)), b = addRational(a, mulRational(a, d));
      const x = numberOf(set, a), y = numberOf(set, b);
      const bv = valueOf(y); // b rounded to p bits
      expect(rnsCompare(x, y)).toBe(compareRational(a, bv));
      expect(rnsCompare(y, x)).toBe(compareRational(bv, a));
      expect(rnsSign(x)).toBe(signRational(a));
    }), { numRuns: runs });
  });
});
