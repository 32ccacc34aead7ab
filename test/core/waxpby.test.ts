/**
 * WAXPBY (w := αx + βy) through every storage × arithmetic, strided, reversed, sub-ranged, of lengths 0 and 1,
 * with w separate or the same range as x or y, against the exact BigInt result within waxpbyBound per component.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { waxpbyBound } from '../../kernels/waxpby/waxpby-bound.js';
import { ARITHMETICS, buildVector, describeSpec, lengthArbitrary, vectorSpec } from './support/vector-cases.js';
import { storedVector } from './support/storage-oracle.js';
import { exactAxpy, exactScale } from './support/exact-check.js';
import { expectComponentsWithin } from './support/elementwise-check.js';
import { coefficient } from './support/coefficients.js';
import { newStats } from './support/kernel-stats.js';
import { runs } from './support/runs.js';
import { ZERO } from '../../src/testing/rational.js';

describe.each(ARITHMETICS)('waxpby in %s arithmetic', (arithmetic) => {
  it('is within waxpbyBound of α·x̂ + β·ŷ in every component, w separate or aliasing x or y', () => {
    const stats = newStats();
    const cases = lengthArbitrary().chain((n) => fc.tuple(vectorSpec(n), vectorSpec(n), vectorSpec(n)));
    const output = fc.constantFrom('separate', 'x', 'y');
    fc.assert(fc.property(cases, coefficient(), coefficient(), output, ([sx, sy, sw], alpha, beta, into) => {
      const x = buildVector(sx, arithmetic);
      const y = buildVector(sy, arithmetic);
      const w = into === 'x' ? x : into === 'y' ? y : buildVector(sw, arithmetic);
      const xs = storedVector(x.range);
      const ys = storedVector(y.range);
      const bound = waxpbyBound(alpha, x.range, beta, y.range, w.range, { arithmetic });
      const wrong = arithmetic === 'f32' ? waxpbyBound(alpha, x.range, beta, y.range, w.range, { arithmetic: 'f64' }) : undefined;
      waxpby(alpha, x.range, beta, y.range, w.range, { arithmetic });
      for (const v of [x, y, w]) v.checkOutsideUnchanged();
      const exact = xs.map((xi, i) => {
        // A zero coefficient drops its term (BLAS: that vector is not read).
        const ax = alpha === 0 ? ZERO : exactScale(alpha, xi);
        return beta === 0 ? ax : exactAxpy(beta, ys[i]!, ax);
      });
      expectComponentsWithin(w.range, exact, bound, stats, wrong,
        () => `α ${alpha}, β ${beta}, w = ${into}, x ${describeSpec(sx)}, y ${describeSpec(sy)}, w ${describeSpec(sw)}`);
    }), { numRuns: runs(300) });
    expect(stats.inexact).toBeGreaterThan(0);
    if (arithmetic === 'f32') expect(stats.wrongBoundViolations).toBeGreaterThan(0);
    if (process.env.MODPREC_TEST_STATS) console.log(arithmetic, stats);
  });
});

describe('waxpby edge cases', () => {
  const f64 = (values: number[]) => buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values }, 'f64').range;

  it('with β = 0 does not read y: NaN and ±Inf there do not leak into w', () => {
    const w = f64([7, 7, 7]);
    waxpby(2, f64([1, 2, 3]), 0, f64([NaN, Infinity, -Infinity]), w);
    expect([w.get(0), w.get(1), w.get(2)]).toEqual([2, 4, 6]);
  });

  it('with α = 0 does not read x', () => {
    const w = f64([7, 7]);
    waxpby(0, f64([NaN, Infinity]), -1, f64([1, 2]), w);
    expect([w.get(0), w.get(1)]).toEqual([-1, -2]);
  });

  it('with α = β = 0 sets w to zero whatever x and y hold, with a zero bound', () => {
    const x = f64([NaN, 1]);
    const y = f64([Infinity, 1]);
    const w = f64([7, NaN]);
    expect(Array.from(waxpbyBound(0, x, 0, y, w))).toEqual([0, 0]);
    waxpby(0, x, 0, y, w);
    expect([w.get(0), w.get(1)]).toEqual([0, 0]);
  });

  it('propagates NaN from a vector whose coefficient is non-zero, with an infinite bound', () => {
    const x = f64([NaN]);
    const w = f64([0]);
    expect(waxpbyBound(1, x, 1, f64([1]), w)[0]).toBe(Infinity);
    waxpby(1, x, 1, f64([1]), w);
    expect(w.get(0)).toBeNaN();
  });
});
