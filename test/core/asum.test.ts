/**
 * ASUM (Σ|xᵢ|) through every storage × arithmetic, strided, reversed, sub-ranged, of lengths 0 and 1, against
 * the exact BigInt sum of the stored magnitudes within asumBound; NaN, ±Inf, ±0 and subnormals.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asum } from '../../kernels/asum/asum.js';
import { asumBound } from '../../kernels/asum/asum-bound.js';
import { ARITHMETICS, buildVector, describeSpec, lengthArbitrary, vectorSpec } from './support/vector-cases.js';
import { storedVector } from './support/storage-oracle.js';
import { errorOf, withinBound } from './support/exact-check.js';
import { newStats } from './support/kernel-stats.js';
import { runs } from './support/runs.js';
import { absRational, addRational, ZERO } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { gamma } from '../../kernels/shared/accumulation.js';
import { expectBoundToBe } from './support/bound-formula.js';

describe.each(ARITHMETICS)('asum in %s arithmetic', (arithmetic) => {
  it('is within asumBound of Σ|x̂ᵢ| (the stored values)', () => {
    const stats = newStats();
    fc.assert(fc.property(lengthArbitrary(60).chain((n) => vectorSpec(n)), (sx) => {
      const x = buildVector(sx, arithmetic);
      const exact = storedVector(x.range).reduce((s, v) => addRational(s, absRational(v)), ZERO);
      const bound = asumBound(x.range, { arithmetic });
      const result = asum(x.range, { arithmetic });
      x.checkOutsideUnchanged();
      const error = Number.isFinite(result) ? errorOf(result, exact) : Infinity;
      expect(withinBound(result, exact, bound), `x ${describeSpec(sx)}: error ${error} > bound ${bound}`).toBe(true);
      stats.checked++;
      if (error > 0 && bound < Infinity) stats.inexact++;
      if (bound > 0 && bound < Infinity) stats.worstRatio = Math.max(stats.worstRatio, error / bound);
      if (arithmetic === 'f32' && !withinBound(result, exact, asumBound(x.range, { arithmetic: 'f64' }))) stats.wrongBoundViolations++;
    }), { numRuns: runs(400) });
    expect(stats.inexact).toBeGreaterThan(0);
    if (arithmetic === 'f32') expect(stats.wrongBoundViolations).toBeGreaterThan(0);
    if (process.env.MODPREC_TEST_STATS) console.log(arithmetic, stats);
  });
});

describe('asum edge cases', () => {
  const f64 = (values: number[]) => buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values }, 'f64').range;

  it('gives NaN for any NaN, +Inf for infinities without NaN, and an infinite bound for both', () => {
    expect(asum(f64([1, NaN, 2]))).toBeNaN();
    expect(asum(f64([Infinity, NaN]))).toBeNaN();
    expect(asum(f64([1, -Infinity, 2]))).toBe(Infinity);
    expect(asumBound(f64([1, NaN]))).toBe(Infinity);
    expect(asumBound(f64([-Infinity]))).toBe(Infinity);
  });

  it('gives +0 for zeros of either sign and for the empty vector', () => {
    expect(Object.is(asum(f64([-0, -0])), 0)).toBe(true);
    expect(Object.is(asum(f64([])), 0)).toBe(true);
    expect(asumBound(f64([]))).toBe(0);
  });

  it('sums subnormals exactly (subnormal additions do not round)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), { maxLength: 30 }), (ks) => {
      const values = ks.map((k) => k * 2 ** -1074);
      const exact = values.reduce((s, v) => addRational(s, absRational(exactOf(v))), ZERO);
      expect(errorOf(asum(f64(values)), exact)).toBe(0);
    }), { numRuns: runs(100) });
  });
});

describe('asumBound', () => {
  it('is γ_{n−1}Σ|x̂ᵢ| for exact reads (recursive summation: the first addition is exact)', () => {
    const values = [0.5, -0.25, 3, 1e-3, -7];
    const x = buildVector({ storage: 'f32', layout: { kind: 'packed' }, scalePerElement: false, values }, 'f64');
    const sum = values.reduce((s, _v, i) => s + Math.abs(x.range.get(i)), 0);
    const bound = asumBound(x.range);
    expect(bound).toBeGreaterThanOrEqual(gamma(4, 2 ** -53) * sum);
    expect(bound).toBeLessThanOrEqual(gamma(4, 2 ** -53) * sum * (1 + 1e-9));
    // fp64-stored values read into fp32 arithmetic: one read rounding more, γ_{n−1} + γ₁(1 + γ_{n−1}).
    const y = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values }, 'f32');
    const g = gamma(4, 2 ** -24);
    const exactSum = values.reduce((s, v) => s + Math.abs(v), 0);
    expect(asumBound(y.range, { arithmetic: 'f32' })).toBeGreaterThanOrEqual((g + gamma(1, 2 ** -24) * (1 + g)) * exactSum);
  });
});
