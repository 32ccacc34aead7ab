/**
 * The kernels' double-double division (dd-templates.ts's ddDivSource: `DD.div`, `ddArithmetic.div`, TRSV's division in
 * dd arithmetic) over the whole double range, against exact BigInt rationals. Regression: with a subnormal operand it
 * kept the published algorithm unscaled and lost the product's error term although the quotient is normal —
 * `DD.from(3e-310).div(7e-311)` was (4.285714285714195, 0), 2.57e-17 (2^-55 relative) from 30/7. Operands outside
 * [2^-900, 2^900] now divide scaled by powers of two (div-window.ts), as the checked `ddDiv` does, with its bits.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DD, DD_DIV_BOUND, ddArithmetic, ddDiv } from '../../src/index.js';
import { ddGuardedDiv } from '../../src/formats/dd/guarded.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, divRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';

const MAX = Number.MAX_VALUE;

/** Doubles biased to the ends of the range: subnormals, full significands near 2^±1000, MAX, MIN_VALUE. */
const edgeDouble = fc.tuple(fc.oneof(
  fc.integer({ min: 1, max: 2 ** 52 - 1 }).map((k) => k * 2 ** -1074),
  fc.integer({ min: 1, max: 64 }).map((k) => k * 2 ** -1074),
  fc.tuple(fc.bigInt({ min: 1n << 52n, max: (1n << 53n) - 1n }), fc.oneof(fc.integer({ min: -1074, max: -1000 }), fc.integer({ min: 940, max: 971 }), fc.integer({ min: -60, max: 60 })))
    .map(([m, e]) => Number(m) * 2 ** e),
  fc.double({ min: 2 ** -1074, max: MAX, noNaN: true }),
  fc.constantFrom(MAX, 2 ** -1074, 2 ** -1022, 2 ** -900, 2 ** 900, 2 ** 1023, 3e-310, 7e-311),
), fc.boolean()).map(([x, negative]) => (negative ? -x : x));

/** A normalised pair (hi, lo): lo 53 … 110 binades below hi, or 0 (and 0 wherever it would underflow). */
const pair = fc.tuple(edgeDouble, fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.integer({ min: 53, max: 110 }), fc.nat(3))
  .map(([hi, f, gap, zero]) => {
    const lo = zero === 0 ? 0 : f * Math.abs(hi) * 2 ** -gap;
    const s = hi + lo;
    return Number.isFinite(s) ? [s, (hi - s) + lo] as const : [hi, 0] as const;
  });

const value = (hi: number, lo: number): Rational => addRational(exactOf(hi), exactOf(lo));
const atMost = (a: Rational, b: Rational): boolean => compareRational(a, b) <= 0;
/** |computed − q| ≤ bound·|q| + absolute. */
const within = (hi: number, lo: number, q: Rational, absolute: number): boolean => Number.isFinite(hi) && Number.isFinite(lo) &&
  atMost(absRational(subRational(value(hi, lo), q)), addRational(mulRational(absRational(q), exactOf(DD_DIV_BOUND)), exactOf(absolute)));

describe("the kernels' double-double division over the whole range", () => {
  const out = new Float64Array(2);

  it('keeps the low part of a normal quotient of subnormal operands: DD.from(3e-310).div(7e-311)', () => {
    const q = DD.from(3e-310).div(7e-311);
    const exact = divRational(exactOf(3e-310), exactOf(7e-311));
    expect(within(q.hi, q.lo, exact, 0)).toBe(true);
    expect(q.lo).not.toBe(0);
    const v = ddArithmetic.div({ hi: 3e-310, lo: 0 }, { hi: 7e-311, lo: 0 });
    expect([v.hi, v.lo]).toEqual([q.hi, q.lo]);
  });

  it('is within 15u² + 56u³ of every quotient in [2^-916, MAX] (its low part normal), and within that plus 2^-1074 below', () => {
    fc.assert(fc.property(pair, pair, ([ah, al], [bh, bl]) => {
      const q = divRational(value(ah, al), value(bh, bl));
      if (!atMost(absRational(q), exactOf(MAX))) return;
      ddGuardedDiv(out, ah, al, bh, bl);
      const [hi, lo] = [out[0]!, out[1]!];
      if (atMost(exactOf(2 ** -916), absRational(q))) {
        expect(within(hi, lo, q, 0), `(${ah}, ${al}) / (${bh}, ${bl}) = (${hi}, ${lo})`).toBe(true);
        expect(hi).toBe(hi + lo); // normalised
      } else {
        expect(within(hi, lo, q, 2 ** -1074), `(${ah}, ${al}) / (${bh}, ${bl}) = (${hi}, ${lo})`).toBe(true);
      }
    }), { numRuns: 4000 });
  });

  it("gives ddDiv's bits wherever ddDiv's quotient is finite and non-zero, and fp64's zero where both are zeros", () => {
    const bare = new Float64Array(2);
    fc.assert(fc.property(pair, pair, ([ah, al], [bh, bl]) => {
      ddDiv(bare, ah, al, bh, bl);
      ddGuardedDiv(out, ah, al, bh, bl);
      if (Number.isFinite(bare[0]!) && bare[0] !== 0) expect([out[0], out[1]], `(${ah}, ${al}) / (${bh}, ${bl})`).toEqual([bare[0], bare[1]]);
      if (bare[0] === 0 && ah / bh === 0) expect(Object.is(out[0], ah / bh)).toBe(true);
    }), { numRuns: 3000 });
  });
});
