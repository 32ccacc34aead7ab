/**
 * SCAL (x := αx) through every storage × arithmetic, strided, reversed, sub-ranged, of lengths 0 and 1, against
 * the exact BigInt result within scalBound per component.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scal } from '../../kernels/scal/scal.js';
import { scalBound } from '../../kernels/scal/scal-bound.js';
import { ARITHMETICS, buildVector, describeSpec, lengthArbitrary, vectorSpec } from './support/vector-cases.js';
import { storedVector } from './support/storage-oracle.js';
import { exactScale } from './support/exact-check.js';
import { expectComponentsWithin } from './support/elementwise-check.js';
import { coefficient } from './support/coefficients.js';
import { newStats } from './support/kernel-stats.js';
import { runs } from './support/runs.js';
import { gamma } from '../../kernels/shared/accumulation.js';
import { expectBoundToBe } from './support/bound-formula.js';

describe.each(ARITHMETICS)('scal in %s arithmetic', (arithmetic) => {
  it('is within scalBound of α·x̂ in every component', () => {
    const stats = newStats();
    fc.assert(fc.property(lengthArbitrary().chain((n) => vectorSpec(n)), coefficient(), (sx, alpha) => {
      const x = buildVector(sx, arithmetic);
      const xs = storedVector(x.range);
      const bound = scalBound(alpha, x.range, { arithmetic });
      const wrong = arithmetic === 'f32' ? scalBound(alpha, x.range, { arithmetic: 'f64' }) : undefined;
      scal(alpha, x.range, { arithmetic });
      x.checkOutsideUnchanged();
      expectComponentsWithin(x.range, xs.map((xi) => exactScale(alpha, xi)), bound, stats, wrong, () => `α ${alpha}, x ${describeSpec(sx)}`);
    }), { numRuns: runs(400) });
    expect(stats.inexact).toBeGreaterThan(0);
    if (arithmetic === 'f32') expect(stats.wrongBoundViolations).toBeGreaterThan(0);
    if (process.env.MODPREC_TEST_STATS) console.log(arithmetic, stats);
  });
});

describe('scal edge cases', () => {
  const f64 = (values: number[]) => buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values }, 'f64').range;

  it('with α = 0 stores zeros without reading x (NaN and ±Inf do not survive), bound 0', () => {
    const x = f64([NaN, Infinity, -3]);
    expect(Array.from(scalBound(0, x))).toEqual([0, 0, 0]);
    scal(0, x);
    expect([x.get(0), x.get(1), x.get(2)]).toEqual([0, 0, 0]);
  });

  it('with α = 1 leaves x untouched (−0 and NaN included)', () => {
    const x = f64([-0, NaN]);
    scal(1, x);
    expect(Object.is(x.get(0), -0)).toBe(true);
    expect(x.get(1)).toBeNaN();
  });

  it('keeps infinities and NaN for α ≠ 0, 1 (infinite bounds there)', () => {
    const x = f64([Infinity, NaN, 2]);
    const bound = scalBound(-2, x);
    scal(-2, x);
    expect([x.get(0), x.get(2)]).toEqual([-Infinity, -4]);
    expect(x.get(1)).toBeNaN();
    expect([bound[0], bound[1]]).toEqual([Infinity, Infinity]);
    // A-priori, u·|αx̂| = 2^-53·4 for the finite element (that this product happens to be exact is not known a priori).
    expect(bound[2]).toBeGreaterThanOrEqual(4 * 2 ** -53);
    expect(bound[2]).toBeLessThan(4 * 2 ** -53 * (1 + 1e-9));
  });
});

describe('scalBound', () => {
  it('is u|αx̂ᵢ| for exact reads and an exact α (one multiplication), plus the storage rounding of the result', () => {
    const x = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values: [3, -0.1] }, 'f64');
    const bound = scalBound(1.5, x.range);
    expectBoundToBe(bound[0]!, gamma(1, 2 ** -53) * 4.5, 'component 0');
    expectBoundToBe(bound[1]!, gamma(1, 2 ** -53) * 1.5 * 0.1, 'component 1');
    const y = buildVector({ storage: 'bf16', layout: { kind: 'packed' }, scalePerElement: false, values: [2] }, 'f64');
    expectBoundToBe(scalBound(1.5, y.range)[0]!, gamma(1, 2 ** -53) * 3 + 2 ** -8 * 3 * (1 + gamma(1, 2 ** -53)), 'bf16 output');
  });
});
