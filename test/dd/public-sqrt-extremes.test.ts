/**
 * √ of a double-double at the ends of the double range, through the public scalar API: ddSqrt and DD.sqrt keep
 * the published bound 25/8·u² (DD_SQRT_BOUND) for every positive finite input, since √ maps the whole range of
 * doubles well inside the normal range. Checked exactly: s = √x(1 + δ) with |δ| ≤ B iff |s² − x| ≤ (2B + B²)·x.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DD, ddSqrt, DD_SQRT_BOUND } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, compareRational, mulRational, subRational, absRational, type Rational } from '../../src/testing/rational.js';

const B = DD_SQRT_BOUND;
const squareBound = exactOf(2 * B + B * B); // exact: both terms are powers of two times small integers

/** Whether s = hi + lo is √x within the bound, decided exactly. */
function withinSqrtBound(hi: number, lo: number, x: Rational): boolean {
  if (!Number.isFinite(hi) || !Number.isFinite(lo)) return false;
  const s = addRational(exactOf(hi), exactOf(lo));
  const residual = absRational(subRational(mulRational(s, s), x));
  return compareRational(residual, mulRational(squareBound, x)) <= 0;
}

function check(ah: number, al: number): void {
  const x = addRational(exactOf(ah), exactOf(al));
  const out = new Float64Array(2);
  ddSqrt(out, ah, al);
  expect(withinSqrtBound(out[0]!, out[1]!, x), `ddSqrt(${ah}, ${al}) = (${out[0]}, ${out[1]})`).toBe(true);
  const d = DD.from({ hi: ah, lo: al }).sqrt();
  expect(withinSqrtBound(d.hi, d.lo, x), `DD.sqrt(${ah}, ${al}) = (${d.hi}, ${d.lo})`).toBe(true);
}

describe('ddSqrt / DD.sqrt at the ends of the range', () => {
  it('the largest doubles (√MAX_VALUE was (−∞, NaN))', () => {
    check(Number.MAX_VALUE, 0);
    check(Number.MAX_VALUE, -(2 ** 969));
    fc.assert(fc.property(fc.double({ min: 2 ** 1000, max: Number.MAX_VALUE, noNaN: true }), fc.integer({ min: -(2 ** 20), max: 2 ** 20 }),
      (ah, k) => {
        const al = ah * 2 ** -74 * (k / 2 ** 20); // |al| ≤ 2^−74·ah: a normalised pair
        check(ah, al);
      }), { numRuns: 300 });
  });

  it('subnormal and tiny inputs (√(7·2^−1074) had lo = 0, an error of 2^−54)', () => {
    check(7 * 2 ** -1074, 0);
    fc.assert(fc.property(fc.double({ min: 2 ** -1074, max: 2 ** -900, noNaN: true }), (ah) => check(ah, 0)), { numRuns: 300 });
  });
});
