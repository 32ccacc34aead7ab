/**
 * The scaled-integer conversions against an exact BigInt oracle: nearestIntegerOfQuotient (the helper), the inline
 * code nearestIntegerSource generates for kernels, and roundToInt8/16/32 — on values built to sit next to ties of
 * the quotient, at the ends of the double range, subnormal, and as double-double pairs that are not normalised.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestIntegerOfQuotient, nearestIntegerSource } from '../../src/formats/convert/scaled-integer.js';
import { roundToInt8, roundToInt16, roundToInt32 } from '../../src/formats/convert/integer.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, divRational, type Rational } from '../../src/testing/rational.js';
import { roundRationalToInteger } from '../../src/testing/round-rational.js';

const SAFE = 2n ** 53n;
/** What a storage of at most 2^31 must hold for the exact quotient q: its nearest integer, or a saturating value. */
function checkAgainst(q: Rational, got: number, label: string): void {
  const n = roundRationalToInteger(q);
  if (n > -SAFE && n < SAFE && (n >= -(2n ** 31n) && n <= 2n ** 31n)) {
    expect(Object.is(got, Number(n)) || (n === 0n && got === 0), `${label}: got ${got}, exact nearest ${n}`).toBe(true);
  } else {
    // beyond every integer storage: any value that saturates to the same side
    expect(n > 0n ? got >= 2 ** 31 : got <= -(2 ** 31), `${label}: got ${got}, exact nearest ${n}`).toBe(true);
  }
}

const anyDouble = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 5e-324, -5e-324, 2 ** -1022, Number.MAX_VALUE, -Number.MAX_VALUE, 0.5, 1.5, -2.5, 2 ** 31 - 0.5),
);
const scale = fc.oneof(
  fc.tuple(fc.double({ min: 1, max: 2, maxExcluded: true, noNaN: true }), fc.integer({ min: -1074, max: 1023 }), fc.boolean())
    .map(([m, e, neg]) => (neg ? -1 : 1) * m * 2 ** e).filter((s) => Number.isFinite(s) && s !== 0),
  fc.constantFrom(1, -1, 0.1, 3, 5e-324, Number.MAX_VALUE, 2 ** -1000),
);
/** (k + ½)·s rounded, plus a few ulps: values whose quotient lies next to a tie. */
const nearTie = fc.tuple(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), scale, fc.integer({ min: -3, max: 3 }))
  .map(([k, s, d]) => {
    let v = (k + 0.5) * s;
    for (let i = 0; i < Math.abs(d); i++) v = d > 0 ? v + Math.abs(v) * 2 ** -53 : v - Math.abs(v) * 2 ** -53;
    return { v, s };
  }).filter(({ v }) => Number.isFinite(v));
/** A second part that may or may not be a normalised low word (|lo| ≤ ulp(hi)/2), or anything. */
const lowPart = (hi: number) => fc.oneof(fc.constant(0), fc.integer({ min: -60, max: -53 }).map((e) => hi * 2 ** e), anyDouble);

const inline = (() => {
  const dd = new Function('nearestIntegerOfQuotient', 'hi', 'lo', 's', `${nearestIntegerSource('q', 'hi', 'lo', 's')}\nreturn q;`);
  const one = new Function('nearestIntegerOfQuotient', 'hi', 's', `${nearestIntegerSource('q', 'hi', '0', 's')}\nreturn q;`);
  return {
    dd: (hi: number, lo: number, s: number) => dd(nearestIntegerOfQuotient, hi, lo, s) as number,
    one: (hi: number, s: number) => one(nearestIntegerOfQuotient, hi, s) as number,
  };
})();

describe('scaled-integer quotients against the exact oracle', () => {
  it('a double v: nearestIntegerOfQuotient(v, 0, s) and the inline kernel code are the exact v/s rounded, ties to even', () => {
    fc.assert(fc.property(fc.oneof(nearTie, fc.record({ v: anyDouble, s: scale })), ({ v, s }) => {
      const q = divRational(exactOf(v), exactOf(s));
      checkAgainst(q, nearestIntegerOfQuotient(v, 0, s), `v ${v}, s ${s}`);
      checkAgainst(q, inline.one(v, s), `inline: v ${v}, s ${s}`);
    }), { numRuns: 4000 });
  });

  it('a pair hi + lo (normalised or not): the exact (hi + lo)/s, rounded once', () => {
    const pair = fc.oneof(nearTie.map(({ v, s }) => ({ hi: v, s })), fc.record({ hi: anyDouble, s: scale }))
      .chain(({ hi, s }) => lowPart(hi).map((lo) => ({ hi, lo, s })));
    fc.assert(fc.property(pair, ({ hi, lo, s }) => {
      const q = divRational(addRational(exactOf(hi), exactOf(lo)), exactOf(s));
      checkAgainst(q, nearestIntegerOfQuotient(hi, lo, s), `hi ${hi}, lo ${lo}, s ${s}`);
      checkAgainst(q, inline.dd(hi, lo, s), `inline: hi ${hi}, lo ${lo}, s ${s}`);
    }), { numRuns: 4000 });
  });

  it('roundToInt8/16/32: the nearest integer (ties to even), saturated; NaN and −0 give 0', () => {
    const cases = [[roundToInt8, 127], [roundToInt16, 32767], [roundToInt32, 2 ** 31 - 1]] as const;
    const x = fc.oneof(anyDouble, fc.integer({ min: -(2 ** 32), max: 2 ** 32 }).map((k) => k + 0.5), fc.integer({ min: -(2 ** 32), max: 2 ** 32 }),
      fc.constantFrom(NaN, Infinity, -Infinity, 127.5, -128.5, 32767.5, -32768.5, 2147483647.5, -2147483648.5));
    fc.assert(fc.property(x, (v) => {
      for (const [round, max] of cases) {
        const got = round(v);
        let want: number;
        if (Number.isNaN(v)) want = 0;
        else if (!Number.isFinite(v)) want = v > 0 ? max : -max - 1;
        else want = Math.max(-max - 1, Math.min(max, Number(roundRationalToInteger(exactOf(v)))));
        expect(Object.is(got, want + 0), `${round.name}(${v}) = ${got}, want ${want}`).toBe(true);
      }
    }), { numRuns: 3000 });
  });
});

describe('scaled-integer writes of values beyond the double range', () => {
  // Regression: the quotient was formed from the value as a double first; a multiple-precision value beyond the
  // doubles (RNS 2^1030) read as ∞ there, and a dd pair whose double sum overflows too, so both saturated although
  // the exact quotient by a large scale fits: range.set stored int32's extreme instead of 2^30 (resp. −1).
  it('an RNS value 2^e (e up to 1053, beyond the doubles) under the scale 2^(e − k) stores 2^k exactly', async () => {
    const { range, formats, scaledReducedRowMajor, rnsFromString, rnsModuliSet } = await import('../../src/index.js');
    const set = rnsModuliSet(212);
    fc.assert(fc.property(fc.integer({ min: 1000, max: 1053 }), fc.integer({ min: 0, max: 30 }), fc.boolean(), (e, k, negative) => {
      fc.pre(e - k <= 1023);   // the scale is a double
      const B = range(scaledReducedRowMajor<1, any>({ size: [1], storage: formats.i32, arithmetic: formats.rns212, scaleMask: [false], scale: Float64Array.of(2 ** (e - k)) }));
      B.set(0, rnsFromString(set, (negative ? '-' : '') + (2n ** BigInt(e)).toString()));
      expect((B.accessor.data as Int32Array)[0]).toBe((negative ? -1 : 1) * 2 ** k);
    }), { numRuns: 30 });
  });

  it('a double-double pair whose double sum overflows, written through a dd-arithmetic scaled range', async () => {
    const { range, formats, scaledReducedRowMajor } = await import('../../src/index.js');
    const C = range(scaledReducedRowMajor<1, any>({ size: [1], storage: formats.i32, arithmetic: formats.dd, scaleMask: [false], scale: Float64Array.of(Number.MAX_VALUE) }));
    C.set(0, { hi: -Number.MAX_VALUE, lo: -Number.MAX_VALUE * 2 ** -53 });
    expect((C.accessor.data as Int32Array)[0]).toBe(-1);
  });
});
