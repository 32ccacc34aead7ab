import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ddCompare, ddAbs, ddNeg } from '../../src/formats/dd/compare.js';
import { Q } from './exact-rational.js';
import { normalizedDd } from './arbitraries.js';

const out = new Float64Array(2);

describe('comparison, abs, neg', () => {
  it('ddCompare agrees with the exact comparison, also for equal high parts', () => {
    const close = normalizedDd().chain((a) => fc.tuple(fc.constant(a), fc.oneof(normalizedDd(), fc.constant(a),
      fc.double({ min: -1, max: 1, noNaN: true }).map((f): [number, number] => [a[0], a[1] === 0 ? 0 : a[1] * (1 + f * 2 ** -20)]))));
    fc.assert(fc.property(close, ([a, b]) => {
      expect(ddCompare(...a, ...b)).toBe(Q.dd(...a).cmp(Q.dd(...b)));
    }), { numRuns: 2000 });
  });

  it('ddCompare: ±0 equal, NaN unordered', () => {
    expect(ddCompare(0, 0, -0, 0)).toBe(0);
    expect(ddCompare(NaN, 0, 1, 0)).toBeNaN();
    expect(ddCompare(1, NaN, 1, 0)).toBeNaN();
  });

  it('ddAbs and ddNeg are exact', () => {
    fc.assert(fc.property(normalizedDd(), (a) => {
      ddAbs(out, ...a);
      expect(Q.dd(out[0]!, out[1]!).cmp(Q.dd(...a).abs())).toBe(0);
      ddNeg(out, ...a);
      expect(Q.dd(out[0]!, out[1]!).cmp(Q.dd(...a).neg())).toBe(0);
    }), { numRuns: 1000 });
  });
});
