/**
 * |x| of a double-double through the public scalar API: the exact absolute value, and +0 for a zero of either sign,
 * as Math.abs and IEEE 754's abs give. Regression: ddAbs(out, −0, −0) and DD.from(−0).abs() returned −0
 * (`DD.from(-0).abs().toString(3)` was "-0.00e+0").
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DD, ddAbs } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational } from '../../src/testing/rational.js';

describe('double-double |x|', () => {
  it('a zero of either sign gives +0 in both parts', () => {
    const out = new Float64Array(2);
    for (const [hi, lo] of [[-0, -0], [-0, 0], [0, -0], [0, 0]] as const) {
      ddAbs(out, hi, lo);
      expect([Object.is(out[0], 0), Object.is(out[1], 0)]).toEqual([true, true]);
      const a = DD.from({ hi, lo }).abs();
      expect([Object.is(a.hi, 0), Object.is(a.toNumber(), 0)]).toEqual([true, true]);
    }
    expect(DD.from(-0).abs().toString(3)).toBe('0.00e+0');
  });

  it('any normalised pair: the exact |hi + lo|, hi non-negative', () => {
    const out = new Float64Array(2);
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ min: -1, max: 1, noNaN: true }), (h, t) => {
      const x = DD.from({ hi: h, lo: h === 0 ? 0 : t * Math.abs(h) * 2 ** -54 });
      ddAbs(out, x.hi, x.lo);
      expect(addRational(exactOf(out[0]!), exactOf(out[1]!))).toEqual(absRational(addRational(exactOf(x.hi), exactOf(x.lo))));
      expect(out[0]! > 0 || Object.is(out[0], 0)).toBe(true);
      const a = x.abs();
      expect([a.hi, a.lo]).toEqual([out[0], out[1]]);
    }), { numRuns: 500 });
  });
});
