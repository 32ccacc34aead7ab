/**
 * Scaled integer vectors whose scale lies below binary32's normal range (2^-149 … 2^-126), read in float-float
 * arithmetic — which flushes such a scale to ±0 as the GPU's binary32 words do, so every element reads as 0 — and in
 * fp32. The vector kernels' bounds (DOT, ASUM, NRM2, AXPY, WAXPBY, SCAL) counted that conversion's error as 2η·|q|
 * with η = 2^-150 (kernels/shared/bound-terms.ts, scaleUnderflowError), not the read's η, 2^-126: an i8 vector
 * (100, −50) under the scale 2^-127 gave dot(x, 1) = 0 against the exact 2.94e-37 with a bound of 9.4e-38.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asum, asumBound, axpy, axpyBound, dot, dotBound, formats, nrm2, nrm2Bound, range, scal, scalBound, scaledReducedRowMajor, vector, waxpby, waxpbyBound, type Range } from '../../src/index.js';
import { exactDot, exactOf, exactSum } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';

/** (A bound of +∞ — nothing finite promised, e.g. a write under a scale the arithmetic flushes — holds trivially.) */
const within = (computed: number, exact: Rational, bound: number): boolean =>
  bound === Infinity || (Number.isFinite(computed) && compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0);

const storages = { i8: 127, i16: 32767, i32: 2 ** 31 - 1 } as const;
/** A scale below 2^-126 (also not a power of two), or at its edges. */
const tinyScale = fc.oneof(fc.constantFrom(2 ** -127, 1e-40, 2 ** -149, 3e-39, 2 ** -126 * (1 - 2 ** -20)),
  fc.double({ min: 2 ** -149, max: 2 ** -126, noNaN: true }));
const arb = fc.record({
  storage: fc.constantFrom(...(Object.keys(storages) as (keyof typeof storages)[])),
  scale: tinyScale, arithmetic: fc.constantFrom('ff', 'f32'),
  q: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }),
  alpha: fc.constantFrom(1, -2, 0.75), beta: fc.constantFrom(1, 0.5),
});

/** A vector of integers q·max under one scale s: element i is round(qᵢ·max)·s exactly. */
function scaledVector(storage: keyof typeof storages, s: number, q: readonly number[]): Range<1> {
  const x = range(scaledReducedRowMajor<1>({ size: [q.length], storage: formats[storage], arithmetic: formats.f64, scaleMask: [false], scale: new Float64Array([s]) }));
  q.forEach((v, i) => x.set(i, Math.round(v * storages[storage]) * s));
  return x;
}
const exactOfRange = (r: Range<1>): Rational[] => Array.from({ length: r.length() }, (_, i) => exactOf(r.get(i)));

describe('vector kernels over a scale below 2^-126 stay within their bounds', () => {
  it('DOT, ASUM, NRM2, AXPY, WAXPBY and SCAL', () => {
    fc.assert(fc.property(arb, (t) => {
      const o = { arithmetic: t.arithmetic };
      const what = `${t.storage} scale ${t.scale} ${t.arithmetic}`;
      const x = scaledVector(t.storage, t.scale, t.q);
      const xs = Array.from({ length: x.length() }, (_, i) => x.get(i));
      const ones = vector(new Array(xs.length).fill(1));
      expect(within(dot(x, ones, o), exactDot(xs, new Array(xs.length).fill(1)), dotBound(x, ones, o)), `dot ${what}`).toBe(true);
      expect(within(asum(x, o), exactSum(xs.map(Math.abs)), asumBound(x, o)), `asum ${what}`).toBe(true);
      const r = nrm2(x, o), b = nrm2Bound(x, o), S = exactDot(xs, xs);
      const lo = subRational(exactOf(r), exactOf(b)), hi = addRational(exactOf(r), exactOf(b));
      expect((lo.num <= 0n || compareRational(mulRational(lo, lo), S) <= 0) && compareRational(S, mulRational(hi, hi)) <= 0, `nrm2 ${what}: ${r} ± ${b}`).toBe(true);

      const y = vector(xs.map((_, i) => i - 2));
      const ey = exactOfRange(y), ex = exactOfRange(x);
      const ab = axpyBound(t.alpha, x, y, o);
      axpy(t.alpha, x, y, o);
      ey.forEach((e, i) => expect(within(y.get(i), addRational(mulRational(exactOf(t.alpha), ex[i]!), e), ab[i]!), `axpy ${what}`).toBe(true));

      const w = vector(xs.length), z = vector(xs.map((_, i) => 3 - i));
      const ez = exactOfRange(z);
      const wb = waxpbyBound(t.alpha, x, t.beta, z, w, o);
      waxpby(t.alpha, x, t.beta, z, w, o);
      ez.forEach((e, i) => expect(within(w.get(i), addRational(mulRational(exactOf(t.alpha), ex[i]!), mulRational(exactOf(t.beta), e)), wb[i]!), `waxpby ${what}`).toBe(true));

      const sb = scalBound(t.alpha, x, o);
      scal(t.alpha, x, o);
      ex.forEach((e, i) => expect(within(x.get(i), mulRational(exactOf(t.alpha), e), sb[i]!), `scal ${what}: ${x.get(i)} ± ${sb[i]}`).toBe(true));
    }), { numRuns: 150 });
  });
});
