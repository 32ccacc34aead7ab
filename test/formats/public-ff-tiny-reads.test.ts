/**
 * Float-float reads below binary32's normal range follow one rule (docs/double-double.md, "Special values"): a value
 * from a storage wider than binary32 (f64, dd, dd-split) below 2^-126 is ±0, a binary32 subnormal held in f32, f16 or
 * bf16 storage is read as it is — by `range.get` and by the kernels alike. Before, dd storage's (2^-130, 0) read as
 * 2^-130 (2^-130·∞ = ∞, 2^-130·2^20 = 2^-110, where f64 storage's 2^-130 gives NaN and 0), and `get` of f32 storage's
 * 1e-40 gave 0 where every kernel read 1e-40.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dot, formats, range, reducedRowMajor, roundToBf16, roundToF16, vector } from '../../src/index.js';

const show = (v: number): string => (Object.is(v, -0) ? '-0' : String(v));
const valueOf = (p: { hi: number; lo: number }) => p.hi - (0 - p.lo);
/** Doubles around binary32's normal range and below it, both signs. */
const tiny = fc.tuple(fc.double({ min: 2 ** -160, max: 2 ** -120, noNaN: true }), fc.boolean()).map(([x, s]) => (s ? -x : x));

describe('float-float reads of tiny values: one rule for get and the kernels', () => {
  it('dd and dd-split storage read like f64 storage holding hi + lo: ±0 below 2^-126 (get, and DOT against ∞ and 2^20)', () => {
    fc.assert(fc.property(tiny, fc.double({ min: -1, max: 1, noNaN: true }), fc.constantFrom(formats.dd, formats.ddSplit), (hi, f, storage) => {
      const lo = hi * f * 2 ** -60;
      const pair = range(reducedRowMajor<1>({ size: [1], storage, arithmetic: formats.ff }));
      pair.set(0, { hi, lo });
      const stored = pair.accessor.storage.decode(pair.accessor.data as never, 0) as { hi: number; lo: number };
      const double = vector([stored.hi + stored.lo], { storage: formats.f64, arithmetic: formats.ff });
      expect(show(valueOf(pair.get(0)))).toBe(show(valueOf(double.get(0))));
      for (const other of [Infinity, 2 ** 20]) {
        const y = vector([other], { storage: formats.f64, arithmetic: formats.ff });
        expect(show(dot(pair, y))).toBe(show(dot(double, y)));
      }
    }), { numRuns: 300 });
  });

  it('the documented case: dd storage (2^-130, 0) in ff gives NaN against ∞ and 0 against 2^20', () => {
    const x = vector([2 ** -130, -(2 ** -130)], { storage: formats.dd, arithmetic: formats.ff });
    expect([show(dot(x, vector([Infinity, 0], { arithmetic: formats.ff }))), show(dot(x, vector([2 ** 20, 0], { arithmetic: formats.ff })))]).toEqual(['NaN', '0']);
    expect(show(valueOf(x.get(1)))).toBe('-0');
  });

  it('a binary32 subnormal in f32, f16 or bf16 storage: get reads it as DOT does', () => {
    fc.assert(fc.property(tiny, fc.constantFrom(['f32', Math.fround], ['f16', roundToF16], ['bf16', roundToBf16]) as fc.Arbitrary<[string, (x: number) => number]>, (v, [name, round]) => {
      const stored = round(v);
      const x = vector([v], { storage: formats[name as 'f32'], arithmetic: formats.ff });
      expect(show(valueOf(x.get(0)))).toBe(show(stored));
      // (a sum that starts at +0: a −0 product gives +0)
      expect(dot(x, vector([2 ** 20], { arithmetic: formats.ff })) === stored * 2 ** 20).toBe(true);
    }), { numRuns: 300 });
  });
});
