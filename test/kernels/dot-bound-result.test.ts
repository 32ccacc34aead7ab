/**
 * dotBound bounds what the caller receives: the returned double (with the final rounding of a dd or RNS result to
 * a double) or, with `into`, the value stored there (with the write to its storage); asumBound and nrm2Bound the
 * double they return. Checked against exact rationals.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asum, asumBound, dot, dotBound, formats, nrm2, nrm2Bound, vector, range, rowMajor, scaledReducedRowMajor } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { exactDot, exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, subRational, type Rational } from '../../src/testing/rational.js';
import { rnsToRational } from '../../src/formats/rns/convert-exact.js';
import type { RnsNumber } from '../../src/formats/rns/rns-number.js';
import type { FormatLike } from '../../src/formats/common/registry.js';

/** |computed − exact| ≤ bound, exactly (the bound as the rational of its double). */
function within(computed: Rational, exact: Rational, bound: number): boolean {
  if (bound === Infinity) return true;
  return compareRational(absRational(subRational(computed, exact)), exactOf(bound)) <= 0;
}

/** The exact value element 0 of `r` holds (stored × scale). */
function held(r: Range<1, any>): Rational {
  const a = r.accessor;
  const raw = a.storage.decode(a.data as never, a.linearIndex([0])) as number | { hi: number; lo: number } | RnsNumber;
  let v: Rational;
  if (typeof raw === 'number') v = exactOf(raw);
  else if ('hi' in raw) v = addRational(exactOf(raw.hi), exactOf(raw.lo));
  else v = rnsToRational(raw);
  if (!a.scale) return v;
  const s = exactOf(r.readScale(0));
  return { num: v.num * s.num, den: v.den * s.den };
}

const arithmetics: [string, FormatLike][] = [['dd', formats.dd], ['rns212', formats.rns212], ['rns424', formats.rns424]];

/** Doubles over a wide exponent range, so that sums carry bits far below the leading one. */
const spread = fc.tuple(fc.double({ min: 0.5, max: 1, noNaN: true }), fc.integer({ min: -80, max: 80 }), fc.boolean())
  .map(([m, e, neg]) => (neg ? -1 : 1) * m * 2 ** e);

describe.each(arithmetics)('dotBound covers the result of dot in %s arithmetic', (_name, arithmetic) => {
  it('the returned double: x = [1, 2^-60], y = [1, 1] (the result cannot hold 1 + 2^-60)', () => {
    const x = vector([1, 2 ** -60]), y = vector([1, 1]);
    const r = dot(x, y, { arithmetic });
    const bound = dotBound(x, y, { arithmetic });
    expect(within(exactOf(r), exactDot([1, 2 ** -60], [1, 1]), bound)).toBe(true);
    expect(bound).toBeGreaterThanOrEqual(2 ** -60);
    expect(bound).toBeLessThan(2 ** -52);
  });

  it('the returned double, any vectors of doubles', () => {
    fc.assert(fc.property(fc.array(fc.tuple(spread, spread), { minLength: 1, maxLength: 12 }), (pairs) => {
      const xs = pairs.map((p) => p[0]), ys = pairs.map((p) => p[1]);
      const x = vector(xs), y = vector(ys);
      const r = dot(x, y, { arithmetic });
      expect(within(exactOf(r), exactDot(xs, ys), dotBound(x, y, { arithmetic }))).toBe(true);
    }), { numRuns: 60 });
  });

  it.each([
    ['f32', () => vector(1, { storage: formats.f32 })],
    ['dd', () => vector(1, { storage: formats.dd, arithmetic: formats.dd })],
    ['i16 scaled by 2^-10', () => range(scaledReducedRowMajor<1>({ size: [1], storage: formats.i16, arithmetic: formats.f64, scaleMask: [true], scale: new Float64Array([2 ** -10]) }))],
  ])('the value stored into `into` (%s storage)', (_storage, makeInto) => {
    fc.assert(fc.property(fc.array(fc.tuple(spread, spread), { minLength: 1, maxLength: 12 }), (pairs) => {
      const xs = pairs.map((p) => p[0] / 2 ** 70), ys = pairs.map((p) => p[1] / 2 ** 70);
      const x = vector(xs), y = vector(ys);
      const into = makeInto();
      dot(x, y, { arithmetic, into });
      expect(within(held(into), exactDot(xs, ys), dotBound(x, y, { arithmetic, into }))).toBe(true);
    }), { numRuns: 40 });
  });
});

describe.each(arithmetics)('asumBound and nrm2Bound cover the returned double in %s arithmetic', (_name, arithmetic) => {
  it('ASUM of [1, 2^-60] and of any vector of doubles', () => {
    const check = (xs: number[]): void => {
      const x = vector(xs);
      const exact = xs.reduce((s, v) => addRational(s, absRational(exactOf(v))), { num: 0n, den: 1n } as Rational);
      expect(within(exactOf(asum(x, { arithmetic })), exact, asumBound(x, { arithmetic }))).toBe(true);
    };
    check([1, 2 ** -60]);
    fc.assert(fc.property(fc.array(spread, { minLength: 1, maxLength: 12 }), check), { numRuns: 40 });
  });

  it('NRM2 of [1, 2^-30] (the norm 1 + 2^-61 + … is returned as 1) and of any vector of doubles', () => {
    // |r − ‖x‖| ≤ b ⇔ (r − b)² ≤ ‖x‖² ≤ (r + b)² with r − b ≥ 0: exact in rationals, no square root.
    const check = (xs: number[]): void => {
      const x = vector(xs);
      const r = nrm2(x, { arithmetic }), b = nrm2Bound(x, { arithmetic });
      if (b === Infinity) return;
      const square = (q: Rational): Rational => ({ num: q.num * q.num, den: q.den * q.den });
      const normSquared = xs.reduce((s, v) => addRational(s, square(exactOf(v))), { num: 0n, den: 1n } as Rational);
      const lo = subRational(exactOf(r), exactOf(b)), hi = addRational(exactOf(r), exactOf(b));
      expect(compareRational(normSquared, square(hi)) <= 0).toBe(true);
      if (lo.num > 0n) expect(compareRational(square(lo), normSquared) <= 0).toBe(true);
    };
    check([1, 2 ** -30]);
    fc.assert(fc.property(fc.array(spread, { minLength: 1, maxLength: 12 }), check), { numRuns: 40 });
  });
});

describe('dotBound with into of the arithmetic\'s own storage stays at the arithmetic\'s precision', () => {
  it('dd into dd: x = [1, 2^-60] is kept whole, and the bound is far below a double\'s rounding', () => {
    const x = vector([1, 2 ** -60]), y = vector([1, 1]);
    const into = range(rowMajor<1>({ size: [1], storage: formats.dd, arithmetic: formats.dd }));
    dot(x, y, { arithmetic: formats.dd, into });
    const bound = dotBound(x, y, { arithmetic: formats.dd, into });
    expect(within(held(into), exactDot([1, 2 ** -60], [1, 1]), bound)).toBe(true);
    expect(bound).toBeLessThan(2 ** -90);
  });
});
