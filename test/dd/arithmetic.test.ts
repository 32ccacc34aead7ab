import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ddAdd, ddSub, ddAddSloppy, ddAddNumber } from '../../src/formats/dd/add.js';
import { ddMul, ddMulNumber, ddMulAdd, ddMulAccumulate } from '../../src/formats/dd/mul.js';
import { ddDiv } from '../../src/formats/dd/div.js';
import { ddSqrt } from '../../src/formats/dd/sqrt.js';
import { isNormalizedDd } from '../../src/formats/dd/normalize.js';
import {
  DD_ADD_BOUND, DD_ADD_NUMBER_BOUND, DD_SLOPPY_ADD_SAME_SIGN_BOUND, DD_MUL_BOUND, DD_MUL_NUMBER_BOUND,
  DD_DIV_BOUND, DD_SQRT_BOUND, ddMulAddErrorBound, ddMulAccumulateErrorBound,
} from '../../src/formats/dd/bounds.js';
import { Q, withinRelative, relativeError } from './exact-rational.js';
import { fullDouble, normalizedDd } from './arbitraries.js';

const out = new Float64Array(2);
const RUNS = { numRuns: 1500 };
const result = (): Q => Q.dd(out[0]!, out[1]!);

/** Asserts the result is normalised and within `bound` (relative) of `exact`. */
function expectWithin(exact: Q, bound: number, what: string): void {
  expect(isNormalizedDd(out[0]!, out[1]!), `${what}: normalised`).toBe(true);
  expect(withinRelative(result(), exact, bound), `${what}: rel. error ${relativeError(result(), exact)} > ${bound}`).toBe(true);
}

/** Pairs where b is often close to −a, so additions cancel. */
const cancellingPair = fc.oneof(
  fc.tuple(normalizedDd(), normalizedDd()),
  fc.tuple(normalizedDd(), fc.integer({ min: -60, max: 60 }), fc.double({ min: -1, max: 1, noNaN: true }))
    .map(([a, k, f]): [[number, number], [number, number]] => {
      // b = −a + a tiny perturbation at relative level 2^(k−106)
      const p = f * Math.abs(a[0]) * 2 ** (k - 106);
      return [a, [-a[0], -a[1] + p]];
    }),
);

describe('double-double arithmetic against exact rationals (JMP 2017 bounds)', () => {
  it('ddAdd (Algorithm 6) ≤ 3u² + 13u³, also under cancellation', () => {
    fc.assert(fc.property(cancellingPair, ([a, b]) => {
      const bl = b[1];
      // the perturbed pair may be unnormalised; renormalise it first
      const s = b[0] + bl, z = s - b[0], e = (b[0] - (s - z)) + (bl - z);
      ddAdd(out, a[0], a[1], s, e);
      expectWithin(Q.dd(...a).add(Q.dd(s, e)), DD_ADD_BOUND, 'add');
    }), RUNS);
  });

  it('ddSub ≤ 3u² + 13u³', () => {
    fc.assert(fc.property(normalizedDd(), normalizedDd(), (a, b) => {
      ddSub(out, a[0], a[1], b[0], b[1]);
      expectWithin(Q.dd(...a).sub(Q.dd(...b)), DD_ADD_BOUND, 'sub');
    }), RUNS);
  });

  it('ddAddSloppy (Algorithm 5) ≤ 3u² for operands of the same sign', () => {
    fc.assert(fc.property(normalizedDd(), normalizedDd(), (a, b) => {
      // flip b (exactly) to the sign of a
      const flip = Math.sign(a[0]) !== Math.sign(b[0]) ? -1 : 1;
      const bh = flip * b[0], bl = flip * b[1];
      ddAddSloppy(out, a[0], a[1], bh, bl);
      expectWithin(Q.dd(...a).add(Q.dd(bh, bl)), DD_SLOPPY_ADD_SAME_SIGN_BOUND, 'sloppy add');
    }), RUNS);
  });

  it('ddAddSloppy is NOT accurate under cancellation (why ddAdd is the default)', () => {
    // a = 1 + 2^-60, b = −(1 + 2^-53 ulp pattern): the sloppy algorithm loses the low parts' error.
    const a: [number, number] = [1, 2 ** -53 - 2 ** -106];
    const b: [number, number] = [-(1 - 2 ** -53), 2 ** -107];
    ddAddSloppy(out, ...a, ...b);
    const sloppy = relativeError(result(), Q.dd(...a).add(Q.dd(...b)));
    ddAdd(out, ...a, ...b);
    const accurate = relativeError(result(), Q.dd(...a).add(Q.dd(...b)));
    expect(accurate).toBeLessThanOrEqual(DD_ADD_BOUND);
    expect(sloppy).toBeGreaterThan(DD_ADD_BOUND);
  });

  it('ddAddNumber (Algorithm 4) ≤ 2u²', () => {
    fc.assert(fc.property(normalizedDd(), fullDouble(), (a, b) => {
      ddAddNumber(out, a[0], a[1], b);
      expectWithin(Q.dd(...a).add(Q.of(b)), DD_ADD_NUMBER_BOUND, 'add number');
    }), RUNS);
  });

  it('ddMul (Algorithm 10) ≤ 7u²', () => {
    fc.assert(fc.property(normalizedDd(-400, 400), normalizedDd(-400, 400), (a, b) => {
      ddMul(out, a[0], a[1], b[0], b[1]);
      expectWithin(Q.dd(...a).mul(Q.dd(...b)), DD_MUL_BOUND, 'mul');
    }), RUNS);
  });

  it('ddMul with a factor beyond the splitting limit (2^996) stays within 7u²', () => {
    fc.assert(fc.property(normalizedDd(997, 1020), normalizedDd(-60, -5), (a, b) => {
      ddMul(out, a[0], a[1], b[0], b[1]);
      expectWithin(Q.dd(...a).mul(Q.dd(...b)), DD_MUL_BOUND, 'mul large');
    }), { numRuns: 300 });
  });

  it('ddMulNumber (Algorithm 7) ≤ 1.5u² + 4u³', () => {
    fc.assert(fc.property(normalizedDd(-400, 400), fullDouble(-400, 400), (a, b) => {
      ddMulNumber(out, a[0], a[1], b);
      expectWithin(Q.dd(...a).mul(Q.of(b)), DD_MUL_NUMBER_BOUND, 'mul number');
    }), RUNS);
  });

  it('ddDiv (Algorithm 17) ≤ 15u² + 56u³', () => {
    fc.assert(fc.property(normalizedDd(-400, 400), normalizedDd(-400, 400), (a, b) => {
      ddDiv(out, a[0], a[1], b[0], b[1]);
      expectWithin(Q.dd(...a).div(Q.dd(...b)), DD_DIV_BOUND, 'div');
    }), RUNS);
  });

  it('ddSqrt ≤ 25/8·u²', () => {
    fc.assert(fc.property(normalizedDd(-600, 600), (a) => {
      const [h, l] = a[0] < 0 ? [-a[0], -a[1]] : a;
      ddSqrt(out, h, l);
      expect(isNormalizedDd(out[0]!, out[1]!)).toBe(true);
      // |r − √x| ≤ β√x  ⇔  r ∈ [(1−β)√x, (1+β)√x]  ⇔  r² ∈ [(1−β)²x, (1+β)²x] (r > 0).
      const r2 = result().mul(result());
      const x = Q.dd(h, l);
      const lo = Q.of(1).sub(Q.of(DD_SQRT_BOUND)), hi = Q.of(1).add(Q.of(DD_SQRT_BOUND));
      expect(r2.cmp(x.mul(lo).mul(lo))).toBeGreaterThanOrEqual(0);
      expect(r2.cmp(x.mul(hi).mul(hi))).toBeLessThanOrEqual(0);
    }), RUNS);
  });

  it('ddSqrt special values', () => {
    ddSqrt(out, 0, 0); expect([out[0], out[1]]).toEqual([0, 0]);
    ddSqrt(out, -0, 0); expect(Object.is(out[0], -0)).toBe(true);
    ddSqrt(out, Infinity, 0); expect(out[0]).toBe(Infinity);
    ddSqrt(out, -1, 0); expect(out[0]).toBeNaN();
    ddSqrt(out, 4, 0); expect([out[0], out[1]]).toEqual([2, 0]);
  });

  it('ddMulAdd: |error| ≤ (3u² + 13u³)|ab + c| + 7u²(1 + 3u² + 13u³)|ab|', () => {
    fc.assert(fc.property(normalizedDd(-200, 200), normalizedDd(-200, 200), normalizedDd(-200, 200), (a, b, c) => {
      ddMulAdd(out, ...a, ...b, ...c);
      const ab = Q.dd(...a).mul(Q.dd(...b));
      const exact = ab.add(Q.dd(...c));
      expect(isNormalizedDd(out[0]!, out[1]!)).toBe(true);
      // the bound itself is evaluated in doubles; inflate it by (1 + 2^-50) to absorb that rounding
      const bound = ddMulAddErrorBound(Math.abs(ab.toNumber()), Math.abs(exact.toNumber())) * (1 + 2 ** -50);
      expect(result().sub(exact).abs().cmp(Q.of(bound))).toBeLessThanOrEqual(0);
    }), RUNS);
  });

  it('ddMulAccumulate: |error| ≤ 15u²|ab| + 4u²|c|, normalised result; on fp64 factors ≤ 3.01u²(|ab| + |c|)', () => {
    fc.assert(fc.property(normalizedDd(-200, 200), normalizedDd(-200, 200), normalizedDd(-200, 200), fc.boolean(), (a, b, c, plain) => {
      if (plain) { a = [a[0], 0]; b = [b[0], 0]; }
      ddMulAccumulate(out, ...a, ...b, ...c);
      const ab = Q.dd(...a).mul(Q.dd(...b));
      const exact = ab.add(Q.dd(...c));
      expect(isNormalizedDd(out[0]!, out[1]!)).toBe(true);
      const absAb = Math.abs(ab.toNumber()), absC = Math.abs(Q.dd(...c).toNumber());
      const bound = (plain ? 3.01 * 2 ** -106 * (absAb + absC) : ddMulAccumulateErrorBound(absAb, absC)) * (1 + 2 ** -50);
      expect(result().sub(exact).abs().cmp(Q.of(bound))).toBeLessThanOrEqual(0);
    }), RUNS);
  });

  it('ddMulAccumulate: cancellation (c = −ab rounded) keeps the absolute bound; specials propagate', () => {
    fc.assert(fc.property(normalizedDd(-200, 200), normalizedDd(-200, 200), (a, b) => {
      ddMul(out, ...a, ...b);
      const c: [number, number] = [-out[0]!, -out[1]!];
      ddMulAccumulate(out, ...a, ...b, ...c);
      const ab = Q.dd(...a).mul(Q.dd(...b));
      const exact = ab.add(Q.dd(...c));
      const absAb = Math.abs(ab.toNumber());
      expect(result().sub(exact).abs().cmp(Q.of(ddMulAccumulateErrorBound(absAb, absAb) * (1 + 2 ** -50)))).toBeLessThanOrEqual(0);
    }), RUNS);
    ddMulAccumulate(out, NaN, 0, 1, 0, 0, 0); expect(out[0]).toBeNaN();
    ddMulAccumulate(out, 2 ** 1000, 0, 2 ** 30, 0, 0, 0); expect(Number.isFinite(out[0])).toBe(false);
    ddMulAccumulate(out, 2 ** 1000, 0, 2 ** -20, 0, 1, 0); expect(out[0]).toBe(2 ** 980); expect(out[1]).toBe(1);
  });

  it('ops on exact small integers are exact', () => {
    ddMul(out, 3, 0, 7, 0); expect([out[0], out[1]]).toEqual([21, 0]);
    ddDiv(out, 21, 0, 7, 0); expect([out[0], out[1]]).toEqual([3, 0]);
    ddAdd(out, 2 ** 60, 1, -(2 ** 60), 0); expect([out[0], out[1]]).toEqual([1, 0]);
  });
});
