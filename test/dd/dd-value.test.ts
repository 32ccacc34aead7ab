import { describe, it, expect } from 'vitest';
import { ddFromDecimal } from '../../src/formats/dd/decimal.js';
import fc from 'fast-check';
import { DD } from '../../src/formats/dd/dd-value.js';
import { ddArithmetic } from '../../src/formats/dd/dd-arithmetic.js';
import { vector, toArray, formats } from '../../src/index.js';
import { DD_DIV_BOUND, DD_SQRT_BOUND } from '../../src/formats/dd/bounds.js';
import { Q, withinRelative } from './exact-rational.js';
import { normalizedDd } from './arbitraries.js';

describe('DD value type', () => {
  it('from() accepts numbers, strings, bigints, rationals and pairs', () => {
    expect(DD.from(2.5).hi).toBe(2.5);
    expect(DD.from('0.1').lo).toBe(-5.551115123125783e-18);
    expect(DD.from((1n << 80n) + 1n).lo).toBe(1);
    expect(DD.from({ num: 1n, den: 3n }).toNumber()).toBe(1 / 3);
    const unnormalised = DD.from({ hi: 1, lo: 1 });
    expect([unnormalised.hi, unnormalised.lo]).toEqual([2, 0]);
    const same = DD.from(3);
    expect(DD.from(same)).toBe(same);
  });

  it('keeps the sign of zero: number → DD → number and decimal → DD → number give −0 for −0', () => {
    // Regression: DD.from(-0) was (−0, +0) and ddFromDecimal('-0') / ('-1e-400') too; hi + lo read them back as +0.
    expect(Object.is(DD.from(-0).toNumber(), -0)).toBe(true);
    expect(Object.is(DD.from(0).toNumber(), 0)).toBe(true);
    for (const text of ['-0', '-0.0e5', '-1e-400', '-1e-99999999999']) {
      expect(Object.is(DD.from(text).toNumber(), -0), text).toBe(true);
      const out = new Float64Array(2);
      ddFromDecimal(out, text);
      expect(Object.is(out[0]! + out[1]!, -0), text).toBe(true);
    }
    expect(Object.is(DD.from('0').toNumber(), 0)).toBe(true);
    // and through an accessor reading narrower storage into DD arithmetic (toArray was +0)
    for (const storage of [formats.f64, formats.f32, formats.f16, formats.bf16]) {
      const x = vector([-0, 0], { storage, arithmetic: formats.dd });
      expect([...toArray(x)], storage.name).toEqual([-0, 0]);
      expect(Object.is(ddArithmetic.toNumber(ddArithmetic.fromNumber(-0)), -0)).toBe(true);
    }
  });

  it('operations match the allocation-free ones and their bounds', () => {
    fc.assert(fc.property(normalizedDd(-200, 200), normalizedDd(-200, 200), (a, b) => {
      const x = DD.from({ hi: a[0], lo: a[1] });
      const y = DD.from({ hi: b[0], lo: b[1] });
      const q = x.div(y);
      expect(withinRelative(Q.dd(q.hi, q.lo), Q.dd(...a).div(Q.dd(...b)), DD_DIV_BOUND)).toBe(true);
      expect(x.add(y).sub(y).sub(x).abs().compare(Math.abs(a[0]) * 2 ** -100 + Math.abs(b[0]) * 2 ** -100)).toBeLessThanOrEqual(0);
      expect(x.neg().add(x).equals(0)).toBe(true);
      expect(x.abs().compare(0)).toBeGreaterThanOrEqual(0);
    }), { numRuns: 300 });
  });

  it('1/3 and √2 to 32 digits', () => {
    expect(DD.from(1).div(3).toString(32)).toBe('3.3333333333333333333333333333333e-1');
    const r = DD.from(2).sqrt();
    expect(withinRelative(Q.dd(r.hi, r.lo).mul(Q.dd(r.hi, r.lo)), new Q(2n), 2 * DD_SQRT_BOUND + 2 ** -200)).toBe(true);
    expect(r.toString(30)).toBe('1.41421356237309504880168872421e+0');
    expect(DD.from('3.14159265358979323846264338327950288').toString(32)).toBe('3.1415926535897932384626433832795e+0');
  });

  it('exact conversions to rationals', () => {
    const r = DD.from(0.75).toRational();
    expect(Number(r.num) / Number(r.den)).toBe(0.75);
  });

  it('rejects bad input with typed errors naming the parameter', () => {
    expect(() => DD.from(NaN, 'alpha')).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'alpha' }));
    expect(() => DD.from('1,5', 'alpha')).toThrow(expect.objectContaining({ code: 'PARSE_ERROR', parameter: 'alpha' }));
    expect(() => DD.from({ hi: 1, lo: Infinity })).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'value.lo' }));
    expect(() => DD.from(1).add('x')).toThrow(expect.objectContaining({ code: 'PARSE_ERROR', parameter: 'b' }));
    expect(() => DD.from(null as unknown as number)).toThrow(expect.objectContaining({ code: 'INVALID_VALUE' }));
  });
});
