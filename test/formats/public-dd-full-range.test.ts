/**
 * The double-double primitives over the whole double range, against exact BigInt values (docs/double-double.md:
 * "all bounds assume no underflow (results and low parts ≥ 2^-969) and no overflow"; twoSum's TSDoc: exact "for any
 * finite a, b whose sum does not overflow"; twoProd: exact when fl(ab) is finite and |ab| ≥ 2^-969).
 * Two were wrong at the ends of the range: twoSum(−1.4557850111658402e307, MAX_VALUE) had a NaN error term (s − a
 * overflowed), and ddDiv's intermediates left the range for ordinary quotients — ddDiv(MAX, 0, 1e141, 0) was NaN
 * (7·(MAX/7) overflows), ddDiv(4.4e-323, 0, 1e-322, 0) was (0.45, 0), 2.5e-17 from 9/20 (a subnormal dividend's
 * product error underflowed).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DD_DIV_BOUND, DD_MUL_BOUND, DD_SQRT_BOUND, ddDiv, ddMul, ddSqrt, split, twoProd, twoSum } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import {
  absRational, addRational, compareRational, divRational, mulRational, subRational, type Rational,
} from '../../src/testing/rational.js';

const MAX = Number.MAX_VALUE;

/** Doubles over the whole range: full significands at any exponent, subnormals, and the values next to MAX. */
const anyDouble = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.tuple(fc.bigInt({ min: 1n << 52n, max: (1n << 53n) - 1n }), fc.integer({ min: -1074, max: 971 }), fc.boolean())
    .map(([m, e, s]) => (s ? -1 : 1) * Number(m) * 2 ** e),
  fc.integer({ min: 1, max: 2 ** 40 }).map((k) => k * 2 ** -1074),
  fc.tuple(fc.integer({ min: 0, max: 2 ** 20 }), fc.boolean()).map(([k, s]) => (s ? -1 : 1) * (MAX - k * 2 ** 971)),
  fc.constantFrom(MAX, -MAX, 2 ** 996, 2 ** 1023, 2 ** -969, 2 ** -1022, 2 ** -1074),
);

/** A normalised pair (hi, lo) with hi anywhere in the range and lo 53…110 binades below (or 0). */
const anyPair = fc.tuple(anyDouble, fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.integer({ min: 53, max: 110 }), fc.nat(4))
  .map(([hi, f, gap, zero]) => {
    const lo = zero === 0 || hi === 0 ? 0 : f * Math.abs(hi) * 2 ** -gap;
    const s = hi + lo;
    return Number.isFinite(s) ? [s, (hi - s) + lo] as const : [hi, 0] as const;
  });

const value = (hi: number, lo: number): Rational => addRational(exactOf(hi), exactOf(lo));
const atMost = (a: Rational, b: Rational) => compareRational(a, b) <= 0;
/** |computed − exact| ≤ bound·|exact|. */
const relWithin = (hi: number, lo: number, exact: Rational, bound: number) =>
  Number.isFinite(hi) && Number.isFinite(lo) && atMost(absRational(subRational(value(hi, lo), exact)), mulRational(absRational(exact), exactOf(bound)));
/** 2^-860 ≤ |q| ≤ 2^1023: the parts of the result are normal (a low part below 2^-969 errs by less than the bound). */
const inRange = (q: Rational) => atMost(exactOf(2 ** -860), absRational(q)) && atMost(absRational(q), exactOf(2 ** 1023));

describe('double-double primitives over the whole range', () => {
  const r = new Float64Array(2);

  it('twoSum is exact whenever the sum does not overflow', () => {
    twoSum(r, -1.4557850111658402e307, MAX);
    expect(value(r[0]!, r[1]!)).toEqual(addRational(exactOf(-1.4557850111658402e307), exactOf(MAX)));
    fc.assert(fc.property(anyDouble, anyDouble, (a, b) => {
      twoSum(r, a, b);
      if (!Number.isFinite(a + b)) return;
      expect(r[0]).toBe(a + b);
      expect(value(r[0]!, r[1]!)).toEqual(addRational(exactOf(a), exactOf(b)));
    }), { numRuns: 3000 });
  });

  it('twoProd is exact when fl(ab) is finite and |ab| ≥ 2^-969; split is exact below the top binade', () => {
    fc.assert(fc.property(anyDouble, anyDouble, (a, b) => {
      const exact = mulRational(exactOf(a), exactOf(b));
      if (Number.isFinite(a * b) && atMost(exactOf(2 ** -969), absRational(exact))) {
        twoProd(r, a, b);
        expect(value(r[0]!, r[1]!)).toEqual(exact);
      }
      if (Math.abs(a) <= 2 ** 1023 + (2 ** 1023 - 2 ** 997)) {
        split(r, a);
        expect(value(r[0]!, r[1]!)).toEqual(exactOf(a));
      }
    }), { numRuns: 3000 });
  });

  it('ddDiv is within 15u² + 56u³ wherever the quotient is in range, whatever the operands', () => {
    ddDiv(r, MAX, 0, 1e141, 0);
    expect(relWithin(r[0]!, r[1]!, divRational(exactOf(MAX), exactOf(1e141)), DD_DIV_BOUND)).toBe(true);
    ddDiv(r, 4.4e-323, 0, 1e-322, 0);
    expect(relWithin(r[0]!, r[1]!, divRational(exactOf(4.4e-323), exactOf(1e-322)), DD_DIV_BOUND)).toBe(true);
    fc.assert(fc.property(anyPair, anyPair, ([ah, al], [bh, bl]) => {
      if (bh === 0) return;
      const q = divRational(value(ah, al), value(bh, bl));
      if (!inRange(q)) return;
      ddDiv(r, ah, al, bh, bl);
      expect(relWithin(r[0]!, r[1]!, q, DD_DIV_BOUND)).toBe(true);
      expect(r[0]).toBe(r[0]! + r[1]!); // normalised
    }), { numRuns: 3000 });
  });

  it('ddDiv of zeros, infinities and an overflowing quotient', () => {
    ddDiv(r, 0, 0, 3, 0); expect([Object.is(r[0], 0), r[1]]).toEqual([true, 0]);
    ddDiv(r, 1, 0, 0, 0); expect(Number.isFinite(r[0]!)).toBe(false);
    ddDiv(r, MAX, 0, 2 ** -10, 0); expect([r[0], r[1]]).toEqual([Infinity, 0]);
    ddDiv(r, -(2 ** 1000), 0, 2 ** -1000, 0); expect([r[0], r[1]]).toEqual([-Infinity, 0]);
  });

  it('ddMul and ddSqrt keep their bounds over the whole range', () => {
    fc.assert(fc.property(anyPair, anyPair, ([ah, al], [bh, bl]) => {
      const p = mulRational(value(ah, al), value(bh, bl));
      if (inRange(p) && Math.abs(ah * bh) < 2 ** 1023) {
        ddMul(r, ah, al, bh, bl);
        expect(relWithin(r[0]!, r[1]!, p, DD_MUL_BOUND)).toBe(true);
      }
      const x = value(Math.abs(ah), Math.sign(ah) * al);
      if (ah !== 0 && atMost(exactOf(2 ** -900), x)) {
        ddSqrt(r, Math.abs(ah), Math.sign(ah) * al);
        // |s² − x| ≤ (2δ + δ²)·x for s = √x(1 + δ), |δ| ≤ 25/8·u²
        const s2 = mulRational(value(r[0]!, r[1]!), value(r[0]!, r[1]!));
        expect(atMost(absRational(subRational(s2, x)), mulRational(x, exactOf(2.0001 * DD_SQRT_BOUND)))).toBe(true);
      }
    }), { numRuns: 2000 });
  });
});
