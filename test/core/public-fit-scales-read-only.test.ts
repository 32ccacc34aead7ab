/**
 * fitScales through a read-only view (toConst) is INVALID_STORAGE naming `accessor`, raised before anything is
 * written: it used to fit and store every scale of the view's groups, then fail on the first element's store, so the
 * parent's values changed (row 0 of [[100, 50], …] under scale 1 read back as 100·(100/127)).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitScales, formats, range, scaledReducedColMajor, scaledReducedRowMajor, span } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

describe('fitScales through a const range', () => {
  it('refuses before writing a scale or an element, for every mask, storage, layout and sub-range', () => {
    fc.assert(fc.property(
      fc.tuple(fc.boolean(), fc.boolean()), fc.constantFrom(formats.i8, formats.i16, formats.i32, formats.f16), fc.boolean(),
      fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.array(fc.integer({ min: -100, max: 100 }), { minLength: 16, maxLength: 16 }),
      (scaleMask, storage, col, m, n, vals) => {
        const make = col ? scaledReducedColMajor : scaledReducedRowMajor;
        const A = range(make<2>({ size: [m, n], storage, arithmetic: formats.f64, scaleMask }));
        for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, vals[i * 4 + j]!);
        const scales = Float64Array.from(A.accessor.scale!.data);
        const raw = Array.from(A.accessor.data as ArrayLike<number>);
        for (const view of [A.toConst(), A.toConst().sub(span(0, m), span(n - 1, n))]) {
          expectModprec(() => fitScales(view.accessor, () => 1000), 'INVALID_STORAGE', 'accessor');
        }
        expect(A.accessor.scale!.data).toEqual(scales);
        expect(Array.from(A.accessor.data as ArrayLike<number>)).toEqual(raw);
        // The writable range still fits.
        fitScales(A.accessor, () => 1000);
        expect(A.get(m - 1, n - 1)).toBeCloseTo(1000, -1);
      }), { numRuns: 100 });
  });
});
