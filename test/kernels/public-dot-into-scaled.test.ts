/**
 * DOT's `into` with a scale (a scaled float storage: fp64, fp32, fp16, bf16, dd, dd-split under one scale): the call
 * returns what it returns without `into` (docs/guide.md, "DOT's `into`"), on every CPU backend, and `into` holds the
 * result divided by its scale, within dotBound({ into }) of the exact sum.
 * Regression: the store divided the result register by the scale in place and the kernel then returned that
 * register, so `dot(x, y, { into })` returned result / scale (12 for 1 + 2 + 3 into a range of scale 0.5).
 * Regression: an empty DOT into an fp64 range under a scale of 1e-300 in fp32 arithmetic stores 0 / fl32(1e-300) =
 * NaN, and dotBound returned 0 for every empty call.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, range, scaledReducedRowMajor, vector, formats } from '../../src/index.js';
import { exactDot } from '../../src/testing/exact.js';
import { exactAt, within } from '../wasm/public-operands.js';

const STORAGES = ['f64', 'f32', 'f16', 'bf16', 'dd', 'dd-split'] as const;
const value = fc.double({ min: -1e3, max: 1e3, noNaN: true });

describe('dot into a scaled range', () => {
  it('returns the result as without into; into holds it within dotBound', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(fc.array(value, { minLength: n, maxLength: n }), fc.array(value, { minLength: n, maxLength: n }))),
      fc.constantFrom(...STORAGES), fc.constantFrom(0.5, 3, 1 / 3, 2 ** -20, 1000), fc.constantFrom('f64', 'f32', 'dd'), fc.constantFrom('js', 'wasm', 'cpu'),
      ([xs, ys], storage, scale, arithmetic, backend) => {
        const x = vector(xs), y = vector(ys);
        const into = range(scaledReducedRowMajor<1>({ size: [1], storage, arithmetic, scaleMask: [false], scale: new Float64Array([scale]) }));
        const options = { arithmetic, backend } as const;
        const r = dot(x, y, { ...options, into });
        expect(Object.is(r, dot(x, y, options)), `${storage}×${scale} ${arithmetic} ${backend}: returned ${r}`).toBe(true);
        const bound = dotBound(x, y, { arithmetic, into });
        const stored = exactAt(into, [0]);
        // Overflow on write (fp16 beyond 65504, say) stores ±∞, and the bound is then +∞.
        if (stored === null) { expect(bound).toBe(Infinity); return; }
        const exact = exactDot(xs, ys);
        // |stored − exact| ≤ bound, decided exactly (stored may be a double-double: compared as a rational).
        const diff = { num: stored.num * exact.den - exact.num * stored.den, den: stored.den * exact.den };
        const abs = diff.num < 0n ? -diff.num : diff.num;
        expect(bound === Infinity || within(0, { num: abs, den: diff.den }, bound), `${storage}×${scale} ${arithmetic} ${backend}: stored outside ${bound}`).toBe(true);
      }), { numRuns: 300 });
  });

  it('1 + 2 + 3 into fp64 storage of scale 0.5 returns 6 and stores 12', () => {
    for (const backend of ['js', 'wasm'] as const) {
      const into = range(scaledReducedRowMajor<1>({ size: [1], storage: formats.f64, arithmetic: formats.f64, scaleMask: [false], scale: new Float64Array([0.5]) }));
      expect(dot(vector([1, 2, 3]), vector([1, 1, 1]), { into, backend })).toBe(6);
      expect((into.accessor.data as Float64Array)[0]).toBe(12);
      expect(into.get(0)).toBe(6);
    }
  });

  it('an empty DOT whose store divides by a scale that converts to 0 (1e-300 in fp32) stores NaN: the bound is +∞', () => {
    for (const backend of ['js', 'wasm'] as const) {
      const into = range(scaledReducedRowMajor<1>({ size: [1], storage: 'f64', arithmetic: 'f32', scaleMask: [false], scale: new Float64Array([1e-300]) }));
      const empty = vector([], { arithmetic: formats.f32 });
      expect(dotBound(empty, empty, { backend, into })).toBe(Infinity);
      dot(empty, empty, { backend, into });
      expect(Number.isNaN(into.get(0))).toBe(true);
      // A scale the arithmetic holds: the stored 0 is exact, bound 0.
      const plain = range(scaledReducedRowMajor<1>({ size: [1], storage: 'f64', arithmetic: 'f32', scaleMask: [false], scale: new Float64Array([0.5]) }));
      expect(dotBound(empty, empty, { backend, into: plain })).toBe(0);
      dot(empty, empty, { backend, into: plain });
      expect(plain.get(0)).toBe(0);
    }
  });
});
