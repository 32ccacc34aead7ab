/**
 * SCAL, AXPY and WAXPBY with a coefficient below binary32's normal range, in float-float arithmetic (which flushes
 * it to ±0 as the GPU's binary32 words do) and fp32, against exact rationals and each kernel's own bound. The bounds
 * (kernels/shared/bound-terms.ts, termBound) counted the coefficient's conversion as η·|v̂| with η = 2^-150, not the
 * read's η, 2^-126: scal(1e-40, [1e10]) in ff stored 0 for the exact 1e-30 with a bound of 2.8e-35.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, axpyBound, scal, scalBound, vector, waxpby, waxpbyBound } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';

const within = (computed: number, exact: Rational, bound: number): boolean =>
  bound === Infinity || (Number.isFinite(computed) && compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0);

const tiny = fc.tuple(fc.oneof(fc.constantFrom(2 ** -127, 1e-40, -8.407790785957987e-45), fc.double({ min: 2 ** -149, max: 2 ** -126, noNaN: true })), fc.boolean())
  .map(([c, s]) => (s ? -c : c));
const values = fc.array(fc.double({ min: -1e12, max: 1e12, noNaN: true }), { minLength: 1, maxLength: 8 });

describe('element-wise kernels with a coefficient below 2^-126 stay within their bounds', () => {
  it('SCAL, AXPY and WAXPBY', () => {
    fc.assert(fc.property(tiny, values, fc.constantFrom('ff', 'f32'), (c, xs, arithmetic) => {
      const o = { arithmetic };
      const ex = xs.map(exactOf);
      const x = vector(xs);
      const sb = scalBound(c, x, o);
      scal(c, x, o);
      ex.forEach((e, i) => expect(within(x.get(i), mulRational(exactOf(c), e), sb[i]!), `scal ${c} ${arithmetic}: ${x.get(i)} ± ${sb[i]}`).toBe(true));

      const y = vector(xs.map((_, i) => i));
      const ab = axpyBound(c, vector(xs), y, o);
      axpy(c, vector(xs), y, o);
      ex.forEach((e, i) => expect(within(y.get(i), addRational(mulRational(exactOf(c), e), exactOf(i)), ab[i]!), `axpy ${c} ${arithmetic}`).toBe(true));

      const w = vector(xs.length);
      const wb = waxpbyBound(1, vector(xs.map(() => 0.5)), c, vector(xs), w, o);
      waxpby(1, vector(xs.map(() => 0.5)), c, vector(xs), w, o);
      ex.forEach((e, i) => expect(within(w.get(i), addRational(exactOf(0.5), mulRational(exactOf(c), e)), wb[i]!), `waxpby ${c} ${arithmetic}`).toBe(true));
    }), { numRuns: 150 });
  });
});
