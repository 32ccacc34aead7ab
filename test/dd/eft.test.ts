import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { twoSum, fastTwoSum, split, twoProd, SPLIT_LIMIT } from '../../src/formats/dd/eft.js';
import { Q } from './exact-rational.js';
import { fullDouble } from './arbitraries.js';

const out = new Float64Array(2);

describe('error-free transformations', () => {
  it('twoSum: s = fl(a + b) and s + e = a + b exactly', () => {
    fc.assert(fc.property(fullDouble(-500, 500), fullDouble(-500, 500), (a, b) => {
      twoSum(out, a, b);
      expect(out[0]).toBe(a + b);
      expect(Q.of(out[0]!).add(Q.of(out[1]!)).cmp(Q.of(a).add(Q.of(b)))).toBe(0);
    }), { numRuns: 2000 });
  });

  it('fastTwoSum is exact when |a| ≥ |b|', () => {
    fc.assert(fc.property(fullDouble(-500, 500), fullDouble(-500, 500), (x, y) => {
      const [a, b] = Math.abs(x) >= Math.abs(y) ? [x, y] : [y, x];
      fastTwoSum(out, a, b);
      expect(out[0]).toBe(a + b);
      expect(Q.of(out[0]!).add(Q.of(out[1]!)).cmp(Q.of(a).add(Q.of(b)))).toBe(0);
    }), { numRuns: 2000 });
  });

  it('split: a = hi + lo with hi, lo of at most 26 significant bits, also beyond 2^996', () => {
    const bits = (x: number): number => {
      if (x === 0) return 0;
      let m = Math.abs(x);
      while (m >= 2 ** 53) m /= 2;
      while (!Number.isInteger(m)) m *= 2;
      let k = 0;
      while (m > 0) { if (m % 2 === 1) break; m /= 2; }
      while (m > 0) { m = Math.floor(m / 2); k++; }
      return k;
    };
    fc.assert(fc.property(fullDouble(-1000, 1022), (a) => {
      split(out, a);
      expect(out[0]! + out[1]!).toBe(a);
      expect(Q.of(out[0]!).add(Q.of(out[1]!)).cmp(Q.of(a))).toBe(0);
      expect(bits(out[0]!)).toBeLessThanOrEqual(26);
      expect(bits(out[1]!)).toBeLessThanOrEqual(26);
    }), { numRuns: 2000 });
  });

  it('twoProd: p = fl(a·b) and p + e = a·b exactly, including operands beyond the splitting limit', () => {
    const operands = fc.oneof(
      fc.tuple(fullDouble(-450, 450), fullDouble(-450, 450)),
      // one huge operand, the product still finite and its error above the underflow threshold
      fc.tuple(fullDouble(997, 1023), fullDouble(-40, -5)),
    );
    fc.assert(fc.property(operands, ([a, b]) => {
      twoProd(out, a, b);
      expect(out[0]).toBe(a * b);
      expect(Q.of(out[0]!).add(Q.of(out[1]!)).cmp(Q.of(a).mul(Q.of(b)))).toBe(0);
    }), { numRuns: 2000 });
  });

  it('twoProd beyond the splitting limit: a naive split would overflow, ours stays exact', () => {
    const a = 1.5 * 2 ** 1000 + 2 ** 960;
    const b = 1 / 3;
    expect(Math.abs(a)).toBeGreaterThan(SPLIT_LIMIT);
    expect(Number.isFinite(134217729 * a)).toBe(false);
    twoProd(out, a, b);
    expect(Q.of(out[0]!).add(Q.of(out[1]!)).cmp(Q.of(a).mul(Q.of(b)))).toBe(0);
  });

  it('twoProd of a non-finite product carries the IEEE result in the high part', () => {
    twoProd(out, 2 ** 1000, 2 ** 100);
    expect(out[0]).toBe(Infinity);
    twoProd(out, NaN, 1);
    expect(out[0]).toBeNaN();
  });
});
