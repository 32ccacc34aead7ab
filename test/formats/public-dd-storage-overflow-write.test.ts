/**
 * A user pair whose finite parts sum beyond the doubles, written through a range into dd or dd-split storage, is the
 * overflow every write rounds to ±∞: stored (±∞, 0), as a kernel stores an overflowing result. It was stored as
 * (∞, NaN) — TwoSum of (MAX, 2^970) — and read back as NaN.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axpy, formats, range, reducedRowMajor, toArray, vector } from '../../src/index.js';
import { addRational, exactOf, roundRationalToDouble } from '../../src/testing/index.js';

const MAX = Number.MAX_VALUE;
describe('dd storage: a written pair that overflows', () => {
  it('is stored (±∞, 0) when the exact hi + lo rounds beyond the doubles, and exactly otherwise', () => {
    const near = fc.tuple(fc.boolean(), fc.double({ min: 2 ** 1022, max: MAX, noNaN: true }), fc.double({ min: 0, max: 2 ** 972, noNaN: true }))
      .map(([neg, hi, lo]) => (neg ? { hi: -hi, lo: -lo } : { hi, lo }));
    fc.assert(fc.property(near, fc.constantFrom(formats.dd, formats.ddSplit), ({ hi, lo }, storage) => {
      const x = range(reducedRowMajor<1>({ size: [1], storage, arithmetic: formats.dd }));
      x.set(0, { hi, lo });
      const got = x.get(0) as { hi: number; lo: number };
      const rounded = roundRationalToDouble(addRational(exactOf(hi), exactOf(lo)));
      if (Number.isFinite(rounded)) expect(got.hi + got.lo).toBe(rounded);
      else expect(got).toEqual({ hi: rounded, lo: 0 });
    }), { numRuns: 500 });
  });
  it('the documented case reads as a kernel\'s overflow does: (MAX, 2^970) is +∞, as MAX + MAX through AXPY', () => {
    const x = range(reducedRowMajor<1>({ size: [1], storage: formats.dd, arithmetic: formats.dd }));
    x.set(0, { hi: MAX, lo: 2 ** 970 });
    const y = range(reducedRowMajor<1>({ size: [1], storage: formats.dd, arithmetic: formats.dd }));
    y.set(0, MAX);
    axpy(1, vector([MAX]), y);
    expect(Array.from(x.accessor.data as Float64Array)).toEqual(Array.from(y.accessor.data as Float64Array));
    expect(toArray(x)[0]).toBe(Infinity);
  });
});
