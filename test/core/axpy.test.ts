/**
 * AXPY (y := αx + y) through every storage × arithmetic, with strides, negative increments, sub-ranges and
 * lengths 0 and 1, against the exact BigInt result of the stored values, within axpyBound per component.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy } from '../../kernels/axpy/axpy.js';
import { axpyBound } from '../../kernels/axpy/axpy-bound.js';
import { ARITHMETICS, buildVector, describeSpec, lengthArbitrary, vectorSpec } from './support/vector-cases.js';
import { storedVector } from './support/storage-oracle.js';
import { exactAxpy } from './support/exact-check.js';
import { expectComponentsWithin } from './support/elementwise-check.js';
import { coefficient } from './support/coefficients.js';
import { newStats } from './support/kernel-stats.js';
import { runs } from './support/runs.js';
import { gamma } from '../../kernels/shared/accumulation.js';
import { expectBoundToBe } from './support/bound-formula.js';

describe.each(ARITHMETICS)('axpy in %s arithmetic', (arithmetic) => {
  it('is within axpyBound of α·x̂ + ŷ (the stored values) in every component', () => {
    const stats = newStats();
    const cases = lengthArbitrary().chain((n) => fc.tuple(vectorSpec(n), vectorSpec(n)));
    fc.assert(fc.property(cases, coefficient(), ([sx, sy], alpha) => {
      const x = buildVector(sx, arithmetic);
      const y = buildVector(sy, arithmetic);
      const xs = storedVector(x.range);
      const ys = storedVector(y.range);
      const bound = axpyBound(alpha, x.range, y.range, { arithmetic });
      const wrong = arithmetic === 'f32' ? axpyBound(alpha, x.range, y.range, { arithmetic: 'f64' }) : undefined;
      axpy(alpha, x.range, y.range, { arithmetic });
      x.checkOutsideUnchanged();
      y.checkOutsideUnchanged();
      const exact = xs.map((xi, i) => exactAxpy(alpha, xi, ys[i]!));
      expectComponentsWithin(y.range, exact, bound, stats, wrong, () => `α ${alpha}, x ${describeSpec(sx)}, y ${describeSpec(sy)}`);
    }), { numRuns: runs(300) });
    expect(stats.inexact).toBeGreaterThan(0);
    if (arithmetic === 'f32') expect(stats.wrongBoundViolations).toBeGreaterThan(0);
    if (process.env.MODPREC_TEST_STATS) console.log(arithmetic, stats);
  });
});

describe('axpy edge cases', () => {
  const f64 = (values: number[]) => buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values }, 'f64');

  it('with α = 0 leaves y exactly as it was, NaN and infinities in x included', () => {
    const x = f64([NaN, Infinity, 1]);
    const y = f64([1, NaN, -0]);
    axpy(0, x.range, y.range);
    expect([y.range.get(0), y.range.get(1), Object.is(y.range.get(2), -0)]).toEqual([1, NaN, true]);
    expect(Array.from(axpyBound(0, x.range, y.range))).toEqual([0, 0, 0]);
  });

  it('propagates NaN and infinities of x and y when α ≠ 0 (and gives an infinite bound there)', () => {
    const x = f64([NaN, Infinity, 1, Infinity]);
    const y = f64([1, 1, NaN, -Infinity]);
    const bound = axpyBound(2, x.range, y.range);
    axpy(2, x.range, y.range);
    expect(y.range.get(0)).toBeNaN();
    expect(y.range.get(1)).toBe(Infinity);
    expect(y.range.get(2)).toBeNaN();
    expect(y.range.get(3)).toBeNaN();
    expect(Array.from(bound)).toEqual([Infinity, Infinity, Infinity, Infinity]);
  });

  it('gives an infinite bound when x holds a value its arithmetic cannot read (fp64 1e45 in fp32), however small α is', () => {
    const x = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values: [1e45] }, 'f32');
    const y = buildVector({ storage: 'f32', layout: { kind: 'packed' }, scalePerElement: false, values: [1] }, 'f32');
    const bound = axpyBound(2 ** -140, x.range, y.range, { arithmetic: 'f32' });
    axpy(2 ** -140, x.range, y.range, { arithmetic: 'f32' });
    expect(y.range.get(0)).toBe(Infinity); // 1e45 becomes +Inf on the way into fp32, although 2^-140·1e45 ≈ 715
    expect(bound[0]).toBe(Infinity);
  });

  it('returns at once for empty vectors', () => {
    const x = f64([]);
    const y = f64([]);
    axpy(3, x.range, y.range);
    expect(axpyBound(3, x.range, y.range).length).toBe(0);
  });
});

describe('axpyBound', () => {
  it('is Higham\'s γ₂|αx̂ᵢ| + γ₁|ŷᵢ| for exact reads, an exact α and an output storage that holds the arithmetic', () => {
    const u = 2 ** -53;
    const x = buildVector({ storage: 'f32', layout: { kind: 'packed' }, scalePerElement: false, values: [0.3, -7] }, 'f64');
    const y = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values: [0.1, 1e10] }, 'f64');
    const bound = axpyBound(0.5, x.range, y.range);
    for (let i = 0; i < 2; i++) {
      expectBoundToBe(bound[i]!, gamma(2, u) * Math.abs(0.5 * x.range.get(i)) + gamma(1, u) * Math.abs(y.range.get(i)), `component ${i}`);
    }
  });

  it('adds a rounding for an α the arithmetic cannot hold and the output storage\'s unit roundoff', () => {
    const u = 2 ** -24;
    const x = buildVector({ storage: 'f32', layout: { kind: 'packed' }, scalePerElement: false, values: [0.75] }, 'f32');
    const y = buildVector({ storage: 'f16', layout: { kind: 'packed' }, scalePerElement: false, values: [0.5] }, 'f32');
    const exactPart = gamma(3, u) * 0.1 * 0.75 + gamma(1, u) * 0.5; // 0.1 is rounded to fp32: one more rounding
    const bound = axpyBound(0.1, x.range, y.range, { arithmetic: 'f32' })[0]!;
    const us = 2 ** -11; // fp16 storage of the result
    // plus fp16's underflow allowance, half its smallest subnormal (2^-25), and fp32's (tiny) ones
    const underflow = 2 ** -25 + 4 * 2 ** -150 * (0.75 + 3 + 2);
    expectBoundToBe(bound, exactPart + us * (0.1 * 0.75 + 0.5 + exactPart) + underflow, 'fp16 output');
  });
});
