import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ddFromDecimal, ddToDecimal } from '../../src/formats/dd/decimal.js';
import { ddFromRational, ddToRational, roundRationalToNumber, numberToRational } from '../../src/formats/dd/rational.js';
import { ddFromNumber, ddToNumber } from '../../src/formats/dd/number.js';
import { ddNormalize, isNormalizedDd } from '../../src/formats/dd/normalize.js';
import { DD_ROUNDING_BOUND } from '../../src/formats/dd/bounds.js';
import { ModprecError } from '../../src/core/errors.js';
import { Q, withinRelative, isNearestDouble } from './exact-rational.js';
import { fullDouble, normalizedDd } from './arbitraries.js';

const out = new Float64Array(2);

/** Test-side decimal parser to an exact rational (independent of src/formats/dd/decimal.ts). */
function decimalToQ(s: string): Q {
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) throw new Error(`unexpected format ${s}`);
  const digits = BigInt(m[2]! + (m[3] ?? ''));
  const e = Number(m[4]) - (m[3] ?? '').length;
  const v = e >= 0 ? new Q(digits * 10n ** BigInt(e)) : new Q(digits, 10n ** BigInt(-e));
  return m[1] ? v.neg() : v;
}

/**
 * A decimal string with `n` significant digits (first non-zero, from `lead`) and exponent in [−280, 300]:
 * below ~1e-291 (2^-969) the low part is subnormal and DD precision degrades (tested separately).
 */
function decimalString(n: number, lead = '123456789'): fc.Arbitrary<string> {
  return fc
    .tuple(fc.boolean(), fc.constantFrom(...lead.split('')), fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: n - 1, maxLength: n - 1 }), fc.integer({ min: -280, max: 300 }))
    .map(([neg, d0, rest, e]) => `${neg ? '-' : ''}${d0}.${rest}e${e >= 0 ? '+' : '-'}${Math.abs(e)}`);
}

const digitsOf = (x: Q, s: string): Q => {
  // half a unit in the last place of s
  const m = /e([+-]\d+)$/.exec(s)!;
  const digits = s.replace(/^-/, '').split('e')[0]!.replace('.', '').length;
  void x;
  const e = Number(m[1]) - (digits - 1);
  return e >= 0 ? new Q(5n * 10n ** BigInt(e), 10n) : new Q(5n, 10n ** BigInt(1 - e));
};

describe('conversions', () => {
  it('number → DD → number is the identity (also for subnormals and ±0)', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      ddFromNumber(out, x);
      expect(Object.is(ddToNumber(out[0]!, out[1]!), x)).toBe(true);
    }), { numRuns: 3000 });
  });

  it('ddFromNumber rejects non-finite input, naming the parameter', () => {
    for (const x of [NaN, Infinity, -Infinity]) {
      expect(() => ddFromNumber(out, x, 'alpha')).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'alpha' }));
    }
  });

  it('DD → number is the correctly rounded value of hi + lo', () => {
    fc.assert(fc.property(normalizedDd(), (a) => {
      expect(isNearestDouble(ddToNumber(...a), Q.dd(...a))).toBe(true);
    }), { numRuns: 1000 });
  });

  it('roundRationalToNumber agrees with the exact nearest double, including subnormals', () => {
    const big = fc.bigInt({ min: -(1n << 400n), max: 1n << 400n });
    const den = fc.bigInt({ min: 1n, max: 1n << 400n });
    fc.assert(fc.property(big, den, fc.integer({ min: -1300, max: 700 }), (n, d, k) => {
      const [num, dd] = k >= 0 ? [n << BigInt(k), d] : [n, d << BigInt(-k)];
      const x = roundRationalToNumber(num, dd);
      if (Number.isFinite(x)) expect(isNearestDouble(x, new Q(num, dd))).toBe(true);
      else expect(new Q(num, dd).abs().cmp(Q.of(Number.MAX_VALUE))).toBe(1);
    }), { numRuns: 1500 });
  });

  it('rational → DD is correctly rounded: hi = RN(x), lo = RN(x − hi), error ≤ u²·|x|', () => {
    const big = fc.bigInt({ min: -(1n << 300n), max: 1n << 300n });
    const den = fc.bigInt({ min: 1n, max: 1n << 300n });
    fc.assert(fc.property(big, den, (num, den) => {
      ddFromRational(out, num, den);
      const x = new Q(num, den);
      expect(isNormalizedDd(out[0]!, out[1]!)).toBe(true);
      expect(isNearestDouble(out[0]!, x)).toBe(true);
      expect(isNearestDouble(out[1]!, x.sub(Q.of(out[0]!)))).toBe(true);
      expect(withinRelative(Q.dd(out[0]!, out[1]!), x, DD_ROUNDING_BOUND)).toBe(true);
    }), { numRuns: 1500 });
  });

  it('DD → rational is exact, and rational → DD gives the pair back', () => {
    fc.assert(fc.property(normalizedDd(-900, 900), (a) => {
      const r = ddToRational(...a);
      expect(new Q(r.num, r.den).cmp(Q.dd(...a))).toBe(0);
      ddFromRational(out, r.num, r.den);
      expect([out[0], out[1]]).toEqual(a);
    }), { numRuns: 1500 });
    const r = numberToRational(-0.75);
    expect(new Q(r.num, r.den).cmp(Q.of(-0.75))).toBe(0);
  });

  it('decimal → DD is correctly rounded (error ≤ u² relative, hi the nearest double)', () => {
    fc.assert(fc.property(decimalString(40), (s) => {
      ddFromDecimal(out, s);
      const x = decimalToQ(s);
      expect(isNearestDouble(out[0]!, x)).toBe(true);
      expect(withinRelative(Q.dd(out[0]!, out[1]!), x, DD_ROUNDING_BOUND)).toBe(true);
      expect(out[0]).toBe(Number(s)); // JavaScript's own correctly rounded parse agrees on hi
    }), { numRuns: 1000 });
  });

  it('DD → decimal is correctly rounded to the requested digits', () => {
    fc.assert(fc.property(normalizedDd(-300, 300), fc.integer({ min: 1, max: 45 }), (a, digits) => {
      const s = ddToDecimal(a[0], a[1], digits);
      const x = Q.dd(...a);
      expect(s.replace(/^-/, '').split('e')[0]!.replace('.', '')).toHaveLength(digits);
      expect(decimalToQ(s).sub(x).abs().cmp(digitsOf(x, s))).toBeLessThanOrEqual(0);
    }), { numRuns: 1000 });
  });

  it('decimal → DD → decimal round trip: always at 31 digits', () => {
    fc.assert(fc.property(decimalString(31), (s) => {
      ddFromDecimal(out, s);
      expect(ddToDecimal(out[0]!, out[1]!, 31)).toBe(s);
    }), { numRuns: 1000 });
  });

  it('round trip at 32 digits: always for leading digits 1–3; for any string whenever the DD is within half a unit', () => {
    // Error analysis: the parse error is ≤ 2^(k−106) for hi in [2^k, 2^(k+1)); half a unit of the 32nd digit of
    // x = d·10^E is 0.5·10^(E−31); the first is smaller whenever d/m < 4.06 (m = x/2^k ∈ [1, 2)), e.g. d < 4.
    fc.assert(fc.property(decimalString(32, '123'), (s) => {
      ddFromDecimal(out, s);
      expect(ddToDecimal(out[0]!, out[1]!, 32)).toBe(s);
    }), { numRuns: 1000 });
    let exact = 0;
    fc.assert(fc.property(decimalString(32), (s) => {
      ddFromDecimal(out, s);
      const x = decimalToQ(s);
      const close = Q.dd(out[0]!, out[1]!).sub(x).abs().cmp(digitsOf(x, s)) < 0;
      const back = ddToDecimal(out[0]!, out[1]!, 32);
      if (close) expect(back).toBe(s);
      if (back === s) exact++;
    }), { numRuns: 1000 });
    expect(exact).toBeGreaterThan(900); // failures need d/m > 4.06 AND an unlucky low part
  });

  it('near the underflow threshold the low part is subnormal: absolute error ≤ 2^-1075 instead', () => {
    fc.assert(fc.property(decimalString(40).map((s) => s.replace(/e[+-]\d+$/, 'e-300')), (s) => {
      ddFromDecimal(out, s);
      expect(isNearestDouble(out[0]!, decimalToQ(s))).toBe(true);
      expect(Q.dd(out[0]!, out[1]!).sub(decimalToQ(s)).abs().cmp(Q.of(2 ** -1074).div(new Q(2n)))).toBeLessThanOrEqual(0);
    }), { numRuns: 300 });
  });

  it('decimal parsing: accepted forms, signed zeros, underflow to zero', () => {
    const v = (s: string): [number, number] => { ddFromDecimal(out, s); return [out[0]!, out[1]!]; };
    expect(v(' 1.5 ')).toEqual([1.5, 0]);
    expect(v('.25')).toEqual([0.25, 0]);
    expect(v('+3.')).toEqual([3, 0]);
    expect(v('1E+2')).toEqual([100, 0]);
    expect(Object.is(v('-0')[0], -0)).toBe(true);
    expect(v('1e-400')).toEqual([0, 0]);
    expect(v('1e-99999999999999999999999')).toEqual([0, 0]);
    expect(v('0.' + '0'.repeat(500) + '1e400')[0]).toBe(1e-101);
    expect(v('1' + '0'.repeat(400) + 'e-300')[0]).toBe(1e100);
    expect(v('0.1')).toEqual([0.1, -5.551115123125783e-18]);
  });

  it('decimal parsing rejects non-numbers (PARSE_ERROR) and overflow (INVALID_VALUE), naming the parameter', () => {
    for (const s of ['', ' ', 'abc', '1.2.3', 'NaN', 'Infinity', '0x10', '1e', 'e5', '--1', '1 2', '.']) {
      expect(() => ddFromDecimal(out, s, 'b')).toThrow(expect.objectContaining({ code: 'PARSE_ERROR', parameter: 'b' }));
    }
    expect(() => ddFromDecimal(out, 12 as unknown as string, 'b')).toThrow(ModprecError);
    for (const s of ['1e309', '-2e308', '1e99999999999999999999']) {
      expect(() => ddFromDecimal(out, s, 'b')).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'b' }));
    }
    // the largest double's neighbourhood: still finite
    ddFromDecimal(out, '1.7976931348623157e308');
    expect(out[0]).toBe(Number.MAX_VALUE);
  });

  it('decimal formatting: zeros, non-finite parts, digit limits', () => {
    expect(ddToDecimal(0, 0, 3)).toBe('0.00e+0');
    expect(ddToDecimal(-0, 0, 1)).toBe('-0e+0');
    expect(ddToDecimal(NaN, 0)).toBe('NaN');
    expect(ddToDecimal(-Infinity, 0)).toBe('-Infinity');
    expect(ddToDecimal(9.96, 0, 2)).toBe('1.0e+1');
    expect(ddToDecimal(1, 2 ** -60, 20)).toBe('1.0000000000000000009e+0');
    for (const d of [0, 1.5, 1001, NaN]) {
      expect(() => ddToDecimal(1, 0, d)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'digits' }));
    }
  });

  it('user pairs are normalised with the value unchanged; non-finite parts are rejected', () => {
    fc.assert(fc.property(fullDouble(-500, 500), fullDouble(-500, 500), (hi, lo) => {
      ddNormalize(out, hi, lo);
      expect(isNormalizedDd(out[0]!, out[1]!)).toBe(true);
      expect(Q.dd(out[0]!, out[1]!).cmp(Q.dd(hi, lo))).toBe(0);
    }), { numRuns: 1000 });
    expect(isNormalizedDd(1, 1)).toBe(false);
    // Signed zeros: the pair's hi + lo is the IEEE sum of the parts (regression: (−0, −0) became (−0, +0), read as +0)
    for (const [hi, lo] of [[-0, -0], [-0, 0], [0, -0], [0, 0], [1, -1], [-1, 1]] as const) {
      ddNormalize(out, hi, lo);
      expect(Object.is(out[0]! + out[1]!, hi + lo), `(${Object.is(hi, -0) ? '-0' : hi}, ${Object.is(lo, -0) ? '-0' : lo})`).toBe(true);
    }
    expect(() => ddNormalize(out, 1, NaN, 'x')).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'x.lo' }));
    expect(() => ddNormalize(out, Infinity, 0, 'x')).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'x.hi' }));
    expect(() => ddNormalize(out, Number.MAX_VALUE, Number.MAX_VALUE, 'x')).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'x' }));
  });

  it('rational conversion errors', () => {
    expect(() => ddFromRational(out, 1n, 0n, 'r')).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'r.den' }));
    expect(() => ddFromRational(out, 1n << 1024n, 1n, 'r')).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'r' }));
    expect(() => ddToRational(NaN, 0)).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'hi' }));
    ddFromRational(out, 1n, -3n);
    expect(out[0]).toBe(-1 / 3);
  });
});
