/**
 * A write to integer storage under a scale s keeps the exact value / s rounded to the nearest integer (ties to
 * even), in one rounding, for every arithmetic and on both write paths (range.set and the kernels' generated
 * stores). Near-ties are where dividing in the arithmetic first, then rounding the quotient, went wrong.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, dot, formats, range, scaledReducedRowMajor, vector } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { exactOf } from '../../src/testing/exact.js';
import { roundRationalToInteger } from '../../src/testing/round-rational.js';
import { divRational, type Rational } from '../../src/testing/rational.js';
import { nearestIntegerOfQuotient } from '../../src/formats/convert/scaled-integer.js';

const I16_MAX = 32767n, I16_MIN = -32768n;

/** The oracle: the exact v/s rounded to nearest (ties to even), saturated to int16. */
function expectedStored(v: Rational, s: number): number {
  const n = roundRationalToInteger(divRational(v, exactOf(s)));
  return Number(n > I16_MAX ? I16_MAX : n < I16_MIN ? I16_MIN : n);
}

function scaledI16(n: number, scale: number, arithmetic: FormatLike = formats.f64): Range<1, any> {
  return range(scaledReducedRowMajor<1>({ size: [n], storage: formats.i16, arithmetic, scaleMask: [true], scale: new Float64Array(n).fill(scale) }));
}
const storedAt = (r: Range<1, any>, i: number): number => (r.accessor.data as Int16Array)[r.accessor.linearIndex([i])]!;

/** The double just above (k > 0) or below (k < 0) x, |k| steps away. */
function neighbour(x: number, k: number): number {
  const f = new Float64Array([x]);
  const b = new BigInt64Array(f.buffer);
  b[0] = b[0]! + BigInt(x >= 0 ? k : -k);
  return f[0]!;
}

/** A scale (any double between 2^-40 and 2^10) and a value within a few ulps of a half-integer multiple of it. */
const nearTie = fc.record({
  scale: fc.double({ min: 2 ** -40, max: 2 ** 10, noNaN: true }),
  n: fc.integer({ min: -33000, max: 33000 }),
  ulps: fc.integer({ min: -3, max: 3 }),
}).map(({ scale, n, ulps }) => ({ scale, value: neighbour((n + 0.5) * scale, ulps) }))
  .filter(({ value }) => Number.isFinite(value));

describe('scaled integer writes round once', () => {
  it('range.set: any near-tie value gets the nearest integer of the exact quotient', () => {
    fc.assert(fc.property(nearTie, ({ scale, value }) => {
      const r = scaledI16(1, scale);
      r.set(0, value);
      expect(storedAt(r, 0)).toBe(expectedStored(exactOf(value), scale));
    }), { numRuns: 500 });
  });

  it.each([['f64', formats.f64], ['f32', formats.f32], ['dd', formats.dd], ['rns212', formats.rns212]] as const)(
    'a kernel store in %s arithmetic (AXPY y := 1·x + y, y = 0): any near-tie value', (_name, arithmetic) => {
      fc.assert(fc.property(nearTie, ({ scale, value }) => {
        // In fp32 arithmetic the value must be a binary32 to reach the store unchanged.
        const v = arithmetic === formats.f32 ? Math.fround(value) : value;
        const x = vector([v]);
        const y = scaledI16(1, scale, arithmetic);
        axpy(1, x, y, { arithmetic });
        expect(storedAt(y, 0)).toBe(expectedStored(exactOf(v), scale));
      }), { numRuns: 200 });
    });

  it('fp32 arithmetic keeps every written value within half a quantum of the scale', () => {
    fc.assert(fc.property(fc.double({ min: 2 ** -20, max: 2 ** -8, noNaN: true }), fc.float({ min: -1, max: 1, noNaN: true }), (scale, t) => {
      const value = Math.fround(t * 32000 * scale);
      const y = scaledI16(1, scale, formats.f32);
      axpy(1, vector([value]), y, { arithmetic: formats.f32 });
      const stored = storedAt(y, 0);
      expect(Math.abs(stored * scale - value)).toBeLessThanOrEqual(scale / 2);
    }), { numRuns: 1000 });
  });

  it('a dd result 1 + 2^-60 under scale 2: the quotient 0.5 + 2^-61 goes up to 1 (a double quotient would tie to 0)', () => {
    const into = scaledI16(1, 2, formats.dd);
    dot(vector([1, 2 ** -60]), vector([1, 1]), { arithmetic: formats.dd, into });
    expect(storedAt(into, 0)).toBe(1);
  });

  it('range.set with a dd or an RNS value: the exact value, not its nearest double, decides a near-tie', () => {
    const d = scaledI16(1, 2, formats.dd);
    d.set(0, { hi: 1, lo: 2 ** -60 }); // 0.5 + 2^-61 → 1
    expect(storedAt(d, 0)).toBe(1);
    d.set(0, { hi: 1, lo: -(2 ** -60) }); // 0.5 − 2^-61 → 0
    expect(storedAt(d, 0)).toBe(0);
    const r = scaledI16(1, 2, formats.rns212);
    r.set(0, formats.rns212.arithmetic!.fromKind('dd', { hi: 3, lo: 2 ** -70 })); // 1.5 + 2^-71 → 2
    expect(storedAt(r, 0)).toBe(2);
    r.set(0, formats.rns212.arithmetic!.fromKind('dd', { hi: 5, lo: -(2 ** -70) })); // 2.5 − 2^-71 → 2
    expect(storedAt(r, 0)).toBe(2);
  });

  it('exact ties go to the even integer, and −0 is stored as +0', () => {
    expect(nearestIntegerOfQuotient(2.5, 0, 1)).toBe(2);
    expect(nearestIntegerOfQuotient(-3.5, 0, 1)).toBe(-4);
    expect(Object.is(nearestIntegerOfQuotient(-0.25, 0, 1), 0)).toBe(true);
    expect(nearestIntegerOfQuotient(0.75, -0.25, 1)).toBe(0);
  });

  it('NaN and infinite values still go to the storage\'s own rule (NaN → 0, ±∞ saturate)', () => {
    const r = scaledI16(3, 0.5);
    r.set(0, NaN); r.set(1, Infinity); r.set(2, -Infinity);
    expect([storedAt(r, 0), storedAt(r, 1), storedAt(r, 2)]).toEqual([0, 32767, -32768]);
  });
});
