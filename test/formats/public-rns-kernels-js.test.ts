/**
 * DOT, AXPY, ASUM and NRM2 in RNS arithmetic on the 'js' backend, against exact BigInt values: each result within the
 * kernel's a-priori bound for the same options (dotBound, axpyBound: γ_n with the set's u), at several precisions,
 * over fp64 data that spans many binades (so the sums round before they open) and over RNS storage; ASUM and NRM2
 * within asumBound and nrm2Bound (whose 2^-1074 covers a subnormal norm's last rounding).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  asum, asumBound, axpy, axpyBound, dot, dotBound, nrm2, nrm2Bound, rnsFormat, toArray, vector,
} from '../../src/index.js';
import { exactDot, exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';

const doubles = (n: number) => fc.array(fc.oneof(
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.tuple(fc.double({ min: -2, max: 2, noNaN: true }), fc.integer({ min: -200, max: 200 })).map(([m, e]) => m * 2 ** e),
  fc.constantFrom(0, -0, 1, -1, 2 ** -1074, 2 ** -1022, 2 ** 500),
), { minLength: n, maxLength: n });

const within = (computed: number, exact: Rational, bound: number) =>
  Number.isFinite(computed) && compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0;

describe.each([53, 60, 106, 200, 424])('RNS kernels at %i bits on the js backend', (p) => {
  const ar = rnsFormat(p);

  it('dot is within dotBound of the exact dot product (fp64 and RNS storage)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }).chain((n) => fc.tuple(doubles(n), doubles(n))), fc.boolean(), ([xs, ys], rnsStorage) => {
      const storage = rnsStorage ? ar : undefined;
      const x = vector(xs, storage ? { storage, arithmetic: ar } : { arithmetic: ar });
      const y = vector(ys, storage ? { storage, arithmetic: ar } : { arithmetic: ar });
      const options = { arithmetic: ar, backend: 'js' as const };
      const r = dot(x, y, options);
      const exact = exactDot(xs, ys);
      expect(within(r, exact, dotBound(x, y, options))).toBe(true);
      if (xs.length === 0) expect(Object.is(r, 0)).toBe(true);
    }), { numRuns: p >= 424 ? 40 : 100 });
  });

  it('axpy is within axpyBound per element', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }).chain((n) => fc.tuple(doubles(n), doubles(n))), fc.double({ min: -1e3, max: 1e3, noNaN: true }), ([xs, ys], alpha) => {
      const x = vector(xs), y = vector(ys);
      const options = { arithmetic: ar, backend: 'js' as const };
      const bound = axpyBound(alpha, x, y, options);
      axpy(alpha, x, y, options);
      const out = toArray(y);
      for (let i = 0; i < xs.length; i++) {
        const exact = addRational(mulRational(exactOf(alpha), exactOf(xs[i]!)), exactOf(ys[i]!));
        expect(within(out[i]!, exact, bound[i]!)).toBe(true);
      }
    }), { numRuns: p >= 424 ? 40 : 100 });
  });

  it('asum and nrm2 are within asumBound and nrm2Bound of the exact values', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 30 }).chain((n) => doubles(n)), (xs) => {
      const x = vector(xs), options = { arithmetic: ar, backend: 'js' as const };
      const s = asum(x, options);
      const exact = xs.reduce<Rational>((acc, v) => addRational(acc, absRational(exactOf(v))), exactOf(0));
      expect(within(s, exact, asumBound(x, options))).toBe(true);
      const r = nrm2(x, options), b = nrm2Bound(x, options);
      const sq = exactDot(xs, xs);
      // |r − √S| ≤ b ⇔ (r − b)² ≤ S ≤ (r + b)² (the lower side vacuous when r ≤ b)
      const below = exactOf(Math.max(r - b, 0)), above = exactOf(r + b);
      expect(Number.isFinite(b) && compareRational(mulRational(below, below), sq) <= 0 && compareRational(sq, mulRational(above, above)) <= 0).toBe(true);
    }), { numRuns: p >= 424 ? 30 : 80 });
  });
});
