/**
 * NRM2 (‖x‖₂) through every storage × arithmetic, strided, reversed, sub-ranged, of lengths 0 and 1, against the
 * exact norm of the stored values within nrm2Bound, decided exactly by comparing squares with BigInt rationals;
 * no overflow for huge (≈1e300) or underflow for tiny and subnormal values; NaN, ±Inf, ±0.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nrm2 } from '../../kernels/nrm2/nrm2.js';
import { nrm2Bound, nrm2RelativeBound } from '../../kernels/nrm2/nrm2-bound.js';
import { ARITHMETICS, buildVector, describeSpec, lengthArbitrary, vectorSpec, type ArithmeticName, type KernelStorage } from './support/vector-cases.js';
import { storedVector } from './support/storage-oracle.js';
import { exactDotOf } from './support/exact-check.js';
import { newStats } from './support/kernel-stats.js';
import { runs } from './support/runs.js';
import { addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { uniformUnit } from '../../src/testing/data-arbitraries.js';
import { gamma } from '../../kernels/shared/accumulation.js';

/** Whether |computed − √q| ≤ bound, decided exactly: (c − b)² ≤ q ≤ (c + b)² (the left side only when c > b). */
function withinNormBound(computed: number, q: Rational, bound: number): boolean {
  if (bound === Infinity) return true;
  if (!Number.isFinite(computed) || !(bound >= 0)) return false;
  const c = exactOf(computed);
  const b = exactOf(bound);
  const hi = addRational(c, b);
  const lo = subRational(c, b);
  if (compareRational(q, mulRational(hi, hi)) > 0) return false;
  return lo.num <= 0n || compareRational(mulRational(lo, lo), q) <= 0;
}

function checkNorm(storage: KernelStorage | undefined, arithmetic: ArithmeticName, values: fc.Arbitrary<number[]> | undefined) {
  const stats = newStats();
  const specs = values
    ? values.map((v) => ({ storage: storage!, layout: { kind: 'packed' } as const, scalePerElement: false, values: v }))
    : lengthArbitrary().chain((n) => vectorSpec(n));
  fc.assert(fc.property(specs, (sx) => {
    const x = buildVector(sx, arithmetic);
    const xs = storedVector(x.range);
    const squares = exactDotOf(xs, xs);
    const bound = nrm2Bound(x.range, { arithmetic });
    const result = nrm2(x.range, { arithmetic });
    x.checkOutsideUnchanged();
    expect(withinNormBound(result, squares, bound), `x ${describeSpec(sx)}: nrm2 ${result}, bound ${bound}`).toBe(true);
    stats.checked++;
    if (!Number.isFinite(result) || bound === Infinity) return;
    const c = exactOf(result);
    if (compareRational(mulRational(c, c), squares) !== 0) stats.inexact++;
    if (arithmetic === 'f32' && !withinNormBound(result, squares, nrm2Bound(x.range, { arithmetic: 'f64' }))) stats.wrongBoundViolations++;
  }), { numRuns: runs(values ? 150 : 400) });
  return stats;
}

describe.each(ARITHMETICS)('nrm2 in %s arithmetic', (arithmetic) => {
  it('is within nrm2Bound of the exact norm of the stored values', () => {
    const stats = checkNorm(undefined, arithmetic, undefined);
    expect(stats.inexact).toBeGreaterThan(0);
    if (arithmetic === 'f32') expect(stats.wrongBoundViolations).toBeGreaterThan(0);
    if (process.env.MODPREC_TEST_STATS) console.log(arithmetic, stats);
  });
});

/** Vectors of v·2^k, k in [kMin, kMax]: all huge or all tiny. */
function scaledValues(kMin: number, kMax: number): fc.Arbitrary<number[]> {
  return fc.array(fc.tuple(uniformUnit(), fc.integer({ min: kMin, max: kMax })).map(([v, k]) => v * 2 ** k), { minLength: 1, maxLength: 30 });
}

describe('nrm2 does not overflow or underflow', () => {
  it('for huge fp64 values (around 1e300 and up to 2^1020) in fp64 arithmetic', () => {
    const stats = checkNorm('f64', 'f64', scaledValues(990, 1020));
    expect(stats.inexact).toBeGreaterThan(0);
  });

  it('for tiny and subnormal fp64 values (2^-1074 to 1e-300) in fp64 arithmetic', () => {
    checkNorm('f64', 'f64', scaledValues(-1074, -997));
  });

  it('for fp32 values near fp32 overflow and in its subnormal range, in fp32 arithmetic', () => {
    checkNorm('f32', 'f32', scaledValues(100, 127));
    checkNorm('f32', 'f32', scaledValues(-149, -110));
  });

  it('gives a finite result for 1e300 and a non-zero one for 1e-300 (the naive Σx² would not)', () => {
    const f64 = (values: number[]) => buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values }, 'f64').range;
    expect(Number.isFinite(nrm2(f64([1e300, 1e300])))).toBe(true);
    expect(nrm2(f64([1e-300, 1e-300]))).toBeGreaterThan(0);
    expect(1e300 * 1e300).toBe(Infinity); // why scaling is needed
  });
});

describe('nrm2 edge cases', () => {
  const vec = (values: number[], storage: KernelStorage = 'f64', arithmetic: ArithmeticName = 'f64') =>
    buildVector({ storage, layout: { kind: 'packed' }, scalePerElement: false, values }, arithmetic).range;

  it('gives NaN for any NaN (before or after an infinity), else +Inf for any infinity; bounds are infinite', () => {
    expect(nrm2(vec([1, NaN]))).toBeNaN();
    expect(nrm2(vec([NaN, Infinity]))).toBeNaN();
    expect(nrm2(vec([Infinity, NaN]))).toBeNaN();
    expect(nrm2(vec([1, -Infinity, 2]))).toBe(Infinity);
    expect(nrm2Bound(vec([NaN]))).toBe(Infinity);
    expect(nrm2Bound(vec([-Infinity]))).toBe(Infinity);
  });

  it('gives +0 for zeros of either sign and for the empty vector', () => {
    expect(Object.is(nrm2(vec([-0, 0, -0])), 0)).toBe(true);
    expect(Object.is(nrm2(vec([])), 0)).toBe(true);
    expect(nrm2Bound(vec([]))).toBe(0);
  });

  it('gives |x| exactly for one element (√fl(z²) = |z| in binary round-to-nearest)', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
      expect(nrm2(vec([v]))).toBe(Math.abs(v));
      const f = Math.fround(v);
      if (Number.isFinite(f)) expect(nrm2(vec([f], 'f32', 'f32'), { arithmetic: 'f32' })).toBe(Math.abs(f));
    }), { numRuns: runs(300) });
  });

  it('in fp32 arithmetic, reads fp64 values beyond fp32 range as ±Inf or 0, and its bound says so', () => {
    // The kernel converts each element to the arithmetic before scaling: 1e300 cannot be held in fp32.
    const huge = vec([1e300], 'f64', 'f32');
    expect(nrm2Bound(huge, { arithmetic: 'f32' })).toBe(Infinity);
    const tiny = vec([1e-300, -1e-300], 'f64', 'f32');
    const squares = exactDotOf(storedVector(tiny), storedVector(tiny));
    expect(withinNormBound(nrm2(tiny, { arithmetic: 'f32' }), squares, nrm2Bound(tiny, { arithmetic: 'f32' }))).toBe(true);
  });
});

describe('nrm2Bound', () => {
  it('is about (n/2 + 1)·u relative to the norm for exact reads (sum of squares γ_n, halved by the square root, plus √\'s rounding)', () => {
    fc.assert(fc.property(fc.array(uniformUnit(), { minLength: 1, maxLength: 50 }), (values) => {
      fc.pre(values.some((v) => v !== 0));
      const x = buildVector({ storage: 'f64', layout: { kind: 'packed' }, scalePerElement: false, values }, 'f64').range;
      const norm = Math.hypot(...values);
      const n = values.length;
      const relative = nrm2Bound(x) / norm;
      const u = 2 ** -53;
      expect(relative).toBeGreaterThanOrEqual((n / 2 + 1) * u * (1 - 1e-6));
      expect(relative).toBeLessThanOrEqual(gamma(n, u) / (1 + Math.sqrt(1 - gamma(n, u))) + u * 1.01 + 1e-12 * u);
    }), { numRuns: runs(100) });
  });
});

describe('nrm2RelativeBound', () => {
  it('is ρ + u(1 + ρ) with ρ = γ_n/(1 + √(1 − γ_n)), in the chosen arithmetic', () => {
    for (const [arithmetic, u] of [['f64', 2 ** -53], ['f32', 2 ** -24]] as const) {
      for (const n of [1, 10, 1000]) {
        const rho = gamma(n, u) / (1 + Math.sqrt(1 - gamma(n, u)));
        expect(nrm2RelativeBound(n, { arithmetic })).toBe(rho + u * (1 + rho));
      }
    }
    expect(nrm2RelativeBound(2 ** 25, { arithmetic: 'f32' })).toBe(Infinity); // n·u ≥ 1
  });
});
