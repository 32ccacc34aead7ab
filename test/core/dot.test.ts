/**
 * DOT through every storage (f64, f32, f16, bf16, scaled int16) × arithmetic (f64, f32), with strides,
 * negative increments, sub-ranges and lengths 0 and 1, against the exact BigInt dot product of the stored
 * values, within dotBound.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot } from '../../kernels/dot/dot.js';
import { dotBound } from '../../kernels/dot/dot-bound.js';
import { ARITHMETICS, buildVector, describeSpec, lengthArbitrary, vectorSpec } from './support/vector-cases.js';
import { storedVector } from './support/storage-oracle.js';
import { errorOf, exactDotOf, withinBound } from './support/exact-check.js';
import { newStats } from './support/kernel-stats.js';
import { runs } from './support/runs.js';

describe.each(ARITHMETICS)('dot in %s arithmetic', (arithmetic) => {
  it('is within dotBound of the exact dot product of the stored values', () => {
    const stats = newStats();
    const cases = lengthArbitrary().chain((n) => fc.tuple(vectorSpec(n), vectorSpec(n)));
    fc.assert(fc.property(cases, ([sx, sy]) => {
      const x = buildVector(sx, arithmetic);
      const y = buildVector(sy, arithmetic);
      const exact = exactDotOf(storedVector(x.range), storedVector(y.range));
      const bound = dotBound(x.range, y.range, { arithmetic });
      const result = dot(x.range, y.range, { arithmetic });
      x.checkOutsideUnchanged();
      y.checkOutsideUnchanged();
      const error = Number.isFinite(result) ? errorOf(result, exact) : Infinity;
      expect(withinBound(result, exact, bound), `x ${describeSpec(sx)}, y ${describeSpec(sy)}: error ${error} > bound ${bound}`).toBe(true);
      if (sx.values.length === 0) expect(Object.is(result, 0)).toBe(true);
      stats.checked++;
      if (error > 0 && bound < Infinity) stats.inexact++;
      if (bound > 0 && bound < Infinity) stats.worstRatio = Math.max(stats.worstRatio, error / bound);
      if (arithmetic === 'f32' && !withinBound(result, exact, dotBound(x.range, y.range, { arithmetic: 'f64' }))) {
        stats.wrongBoundViolations++;
      }
    }), { numRuns: runs(300) });
    // Not vacuous: rounding happens, and the bound is tight enough that a smaller u would be violated.
    expect(stats.inexact).toBeGreaterThan(0);
    if (arithmetic === 'f32') expect(stats.wrongBoundViolations).toBeGreaterThan(0);
    if (process.env.MODPREC_TEST_STATS) console.log(arithmetic, stats);
  });
});

describe('dot edge cases', () => {
  it('propagates NaN and infinities from the stored values', () => {
    const spec = (values: number[]) => buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values }, 'f64').range;
    expect(dot(spec([1, NaN]), spec([1, 1]))).toBeNaN();
    expect(dot(spec([Infinity, 1]), spec([1, 1]))).toBe(Infinity);
    expect(dot(spec([Infinity, 1]), spec([0, 1]))).toBeNaN();
  });
});

// Former bugs of dotBound, each found by these properties and fixed: they stay as regressions.
describe('dotBound edge cases', () => {
  it('counts the rounding of a product that underflows (absolute η term)', () => {
    // 2^-1074 · 0.5 = 2^-1075 lies exactly halfway between 0 and 2^-1074: it rounds to the even 0, an
    // absolute error of 2^-1075, while a purely relative bound γ_n·Σ|xᵢyᵢ| is 0 in fp64.
    const x = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values: [2 ** -1074] }, 'f64');
    const y = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values: [0.5] }, 'f64');
    const exact = exactDotOf(storedVector(x.range), storedVector(y.range));
    expect(withinBound(dot(x.range, y.range), exact, dotBound(x.range, y.range))).toBe(true);
  });

  it('is infinite when an fp64-stored value overflows when read into fp32 arithmetic', () => {
    // fl32(1e39) = +Inf (binary32 tops out near 3.4e38), and Inf·0 = NaN; the stored products are all 0, so a bound
    // computed from the stored values alone is 0.
    const x = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values: [1e39, 0] }, 'f32');
    const y = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values: [0, 1e39] }, 'f32');
    const exact = exactDotOf(storedVector(x.range), storedVector(y.range));
    expect(withinBound(dot(x.range, y.range, { arithmetic: 'f32' }), exact, dotBound(x.range, y.range, { arithmetic: 'f32' }))).toBe(true);
  });

  it('counts both roundings of a scaled read in fp32 arithmetic (the fp64 scale is rounded to fp32 first)', () => {
    // x = int16 × scale is read as fl32(int16 · fl32(scale)): two roundings, readRoundings counts one.
    fc.assert(fc.property(vectorSpec(1, ['i16s'], { tiny: false }), vectorSpec(1, ['f32'], { tiny: false }), (sx, sy) => {
      const x = buildVector(sx, 'f32');
      const y = buildVector(sy, 'f32');
      const exact = exactDotOf(storedVector(x.range), storedVector(y.range));
      expect(withinBound(dot(x.range, y.range, { arithmetic: 'f32' }), exact, dotBound(x.range, y.range, { arithmetic: 'f32' }))).toBe(true);
    }), { numRuns: 20000, seed: 2026 });
  });
});

describe('dotBound known bug', () => {
  // A read that underflows (an fp64 value between fp32 subnormals, read into fp32) is off by up to η = 2^-150
  // absolutely, and the product multiplies that by the other factor; the n·η term only covers products that
  // underflow. Fix: add Σᵢ 2η(r_xᵢ|ŷᵢ| + r_yᵢ|x̂ᵢ|)(1 + γ) for the read roundings r (as termBound does for AXPY).
  it('covers a read that underflows, times a large other factor', () => {
    const x = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values: [3 * 2 ** -151] }, 'f32');
    const y = buildVector({ storage: 'f32', layout: { kind: 'packed' }, scalePerElement: false, values: [2 ** 100] }, 'f32');
    const exact = exactDotOf(storedVector(x.range), storedVector(y.range));
    // fl32(3·2^-151) = 2^-149, the nearest fp32 subnormal: off by 2^-151, which the product carries times 2^100.
    expect(withinBound(dot(x.range, y.range, { arithmetic: 'f32' }), exact, dotBound(x.range, y.range, { arithmetic: 'f32' }))).toBe(true);
  });
});

describe('dot into a range', () => {
  it('stores the full-precision result rounded to the receiving range\'s storage', () => {
    const x = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values: [0.1, 0.2, 0.3] }, 'f64');
    const into = buildVector({ storage: 'f32', layout: { kind: 'strided', inc: 2 }, scalePerElement: false, values: [0] }, 'f64');
    const result = dot(x.range, x.range, { into: into.range });
    expect(into.range.get(0)).toBe(Math.fround(result));
    into.checkOutsideUnchanged();
  });
});
