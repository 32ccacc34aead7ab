/** Exact accuracy in bits: logarithms of rationals beyond the double range, errors in bits, bounds in bits. */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { accuracyBits, boundBits, log2Rational } from '../../app/study/exact-accuracy.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, mulRational, rational } from '../../src/testing/rational.js';
import { gamma } from '../../kernels/shared/accumulation.js';

describe('log2Rational', () => {
  it('agrees with Math.log2 on every finite non-zero double', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => x !== 0), (x) => {
      expect(Math.abs(log2Rational(exactOf(x)) - Math.log2(Math.abs(x)))).toBeLessThan(1e-9);
    }), { numRuns: 300 });
  });

  it('reaches far beyond the double range: log2(3·2^-3000) = -3000 + log2 3, log2(2^5000/7) = 5000 - log2 7', () => {
    expect(log2Rational(rational(3n, 1n << 3000n))).toBeCloseTo(-3000 + Math.log2(3), 9);
    expect(log2Rational(rational(1n << 5000n, 7n))).toBeCloseTo(5000 - Math.log2(7), 9);
    expect(log2Rational(rational(0n))).toBe(-Infinity);
  });
});

describe('accuracyBits', () => {
  it('a result off by a relative 2^-k in every entry has k correct bits', () => {
    for (const k of [10, 60, 300, 1800]) {
      const exact = [exactOf(1.5), exactOf(-0.75), exactOf(3)];
      const computed = exact.map((q) => addRational(q, mulRational(q, rational(1n, 1n << BigInt(k)))));
      expect(accuracyBits(computed, exact)).toBeCloseTo(k, 9);
    }
    expect(accuracyBits([exactOf(2)], [exactOf(2)])).toBe(Infinity);
  });
});

describe('boundBits', () => {
  it('is −log2(γ_k(u)·cond + u) with u = 2^(1−p), where doubles can still say so', () => {
    for (const [p, k, log2Ratio] of [[53, 64, 0], [53, 4096, 3.5], [106, 2, 0.25], [212, 300, 1]] as const) {
      const u = 2 ** (1 - p);
      expect(boundBits(p, k, log2Ratio)).toBeCloseTo(-Math.log2(gamma(k, u) * 2 ** log2Ratio + u), 6);
    }
  });

  it('stays finite beyond the double range and loses about log2 k + log2 cond + 1 bits', () => {
    const b = boundBits(1696, 64, 2);
    expect(Number.isFinite(b)).toBe(true);
    expect(1696 - b).toBeGreaterThan(Math.log2(64) + 2);
    expect(1696 - b).toBeLessThan(Math.log2(64) + 2 + 2);
  });
});
