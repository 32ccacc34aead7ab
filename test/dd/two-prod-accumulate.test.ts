import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ddTwoProdAccumulate } from '../../src/formats/dd/two-prod-accumulate.js';
import { twoProd, twoSum } from '../../src/formats/dd/eft.js';
import { isNormalizedDd } from '../../src/formats/dd/normalize.js';
import { DD_TWO_PROD_ACCUMULATE_BOUND } from '../../src/formats/dd/bounds.js';
import { Q } from './exact-rational.js';
import { fullDouble, normalizedDd } from './arbitraries.js';

const out = new Float64Array(2);
const RUNS = { numRuns: 2000 };
type Pair = [number, number];

/** A normalised DD whose high part is −p scaled by m ∈ (1/2, 2): the opposite-signs, within-a-factor-2 case. */
const nearNegative = (p: number, m: number, f: number, gap: number): Pair => {
  const hi = -p * m;
  const lo = f * Math.abs(hi) * 2 ** -gap;
  const s = hi + lo;
  return [s, lo - (s - hi)];
};

/** Runs ddTwoProdAccumulate and checks normalisation, the proved bound against the exact value, and exactness of its last step. */
function check(a: number, b: number, c: Pair): void {
  ddTwoProdAccumulate(out, a, b, c[0], c[1]);
  const ab = Q.of(a).mul(Q.of(b));
  const cq = Q.dd(c[0], c[1]);
  const got = Q.dd(out[0]!, out[1]!);
  expect(isNormalizedDd(out[0]!, out[1]!)).toBe(true);
  const bound = Q.of(DD_TWO_PROD_ACCUMULATE_BOUND).mul(ab.abs().add(cq.abs()));
  expect(got.sub(ab.add(cq)).abs().cmp(bound)).toBeLessThanOrEqual(0);
  // The proof's intermediate values: (h, t) = TwoSum(ch, p), w = RN(t + RN(cl + e)); FastTwoSum(h, w) must be exact.
  const pe = new Float64Array(2), ht = new Float64Array(2);
  twoProd(pe, a, b);
  twoSum(ht, c[0], pe[0]!);
  const w = ht[1]! + (c[1] + pe[1]!);
  expect(got.cmp(Q.of(ht[0]!).add(Q.of(w)))).toBe(0);
}

describe('ddTwoProdAccumulate: a·b + c for doubles a, b (proof in src/formats/dd/two-prod-accumulate.ts)', () => {
  it('error ≤ (3 + 8u)u²(|ab| + |c|) against exact rationals, normalised, FastTwoSum exact: random operands', () => {
    fc.assert(fc.property(fullDouble(-200, 200), fullDouble(-200, 200), normalizedDd(-400, 400), (a, b, c) => check(a, b, c)), RUNS);
  });

  it('same, c of the magnitude of ab (all three cases of the proof: same signs, opposite signs far apart and within a factor 2)', () => {
    fc.assert(fc.property(
      fullDouble(-200, 200), fullDouble(-200, 200), fc.double({ min: 0.25, max: 4, noNaN: true }), fc.boolean(),
      fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: 53, max: 110 }),
      (a, b, m, flip, f, gap) => {
        const c = nearNegative(a * b, m, f, gap);
        check(a, b, flip ? [-c[0], -c[1]] : c);
      }), RUNS);
  });

  it('exact cancellation c = −ab (as a DD) gives 0; c = 0 gives TwoProd(a, b) exactly', () => {
    fc.assert(fc.property(fullDouble(-200, 200), fullDouble(-200, 200), (a, b) => {
      const pe = new Float64Array(2);
      twoProd(pe, a, b);
      check(a, b, [-pe[0]!, -pe[1]!]);
      expect(out[0]! + out[1]!).toBe(0);
      check(a, b, [0, 0]);
      expect([out[0], out[1]]).toEqual([pe[0], pe[1]]);
    }), RUNS);
  });

  it('operands beyond the splitting limit stay exact; NaN and overflow give a non-finite result', () => {
    check(2 ** 1000 + 2 ** 960, 2 ** -30 + 2 ** -80, [1, 2 ** -60]);
    ddTwoProdAccumulate(out, NaN, 1, 0, 0); expect(out[0]).toBeNaN();
    ddTwoProdAccumulate(out, 1, 1, Infinity, 0); expect(Number.isFinite(out[0])).toBe(false);
    ddTwoProdAccumulate(out, 2 ** 1000, 2 ** 30, 0, 0); expect(Number.isFinite(out[0])).toBe(false);
  });
});
