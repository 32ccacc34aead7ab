/**
 * y := β·y through GEMV with α = 0 and through ELL SpMV with no entries (width 0) — both bounded by scaleBound
 * (kernels/gemv/update-bound.ts) — in float-float arithmetic, which reads a value below 2^-126 as ±0 (it flushes as
 * the GPU does). The bound counted that read's underflow with η (2^-150) instead of the read's η, 2^-126, as the
 * general update bound (updateBound: yReadUnderflow) and SCAL's bound do: for y = −1.5·2^-149 and β = −1 the kernel
 * stores 0, an error of 1.5·2^-149 = 2.1019476964874714e-45, and the bound was 2.101947696487471e-45 — one ulp short.
 * The same η stood for the conversion of a coefficient below 2^-126 (conversionUnderflow: β = −2.1e-45 flushed, y = 0
 * for the exact −2.1e-45·y, bound one ulp short), and no term at all for scales below 2^-126 in GEMV's A, x and y or
 * ELL SpMV's y (an i32 10^9·2^-127 read as 0: gemv gave 0 for 5.9e-30 with a bound of 2.4e-38).
 * (Fix, for the lead, in kernels/gemv/update-bound.ts and gemv-bound.ts: readEta in scaleBound's y read and in
 * conversionUnderflow; scaleUnderflowErrorAt (kernels/shared/bound-terms.ts) on GEMV's reads of A and x, and on y's read
 * through a new yScaleError argument of updateBound and scaleBound, which ellSpmvBound passes too.)
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellOperand, ellSpmv, ellSpmvBound, formats, gemv, gemvBound, matrix, range, rowMajor, scaledReducedRowMajor, vector, type Range } from '../../src/index.js';
import { addRational, type Rational } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, mulRational, subRational } from '../../src/testing/rational.js';

const withinR = (computed: number, exact: Rational, bound: number): boolean =>
  bound === Infinity || (Number.isFinite(computed) && compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0);

const within = (computed: number, beta: number, y: number, bound: number): boolean =>
  compareRational(absRational(subRational(exactOf(computed), mulRational(exactOf(beta), exactOf(y)))), exactOf(bound)) <= 0;

/** Doubles below binary32's normal range (down to its subnormals and below), either sign. */
const tiny = fc.tuple(fc.integer({ min: 1, max: 2 ** 20 }), fc.integer({ min: -175, max: -127 }), fc.boolean())
  .map(([m, e, s]) => (s ? -1 : 1) * m * 2 ** (e - 20));
const beta = fc.constantFrom(-1, 0.5, 3, -0.75);

describe('y := β·y bounds cover a read that flushes below 2^-126 (float-float)', () => {
  it('GEMV with α = 0 and ELL SpMV of width 0', () => {
    const cases: [number, number][] = [[-2.1019476964874714e-45, -1]];
    fc.assert(fc.property(fc.array(fc.tuple(tiny, beta), { minLength: 1, maxLength: 20 }), (more) => {
      for (const [v, b] of [...cases, ...more]) {
        for (const arithmetic of ['ff', 'f32'] as const) {
          const y = vector([v]);
          const g = { alpha: 0, A: matrix(1, 1, () => 3), x: vector([1]), beta: b, y };
          const gb = gemvBound(g, { arithmetic });
          gemv(g, { arithmetic });
          expect(within(y.get(0), b, v, gb[0]!), `gemv α = 0, β = ${b}, y = ${v}, ${arithmetic}: ${y.get(0)} ± ${gb[0]}`).toBe(true);

          const z = vector([v]);
          const A = ellOperand({ rows: 1, cols: 1, width: 0, stride: 1, colIndex: new Int32Array(0) }, range(rowMajor({ size: [1, 0], arithmetic: formats.f64 })));
          const e = { alpha: 0.5, A, x: vector([1]), beta: b, y: z };
          const eb = ellSpmvBound(e, { arithmetic });
          ellSpmv(e, { arithmetic });
          expect(within(z.get(0), b, v, eb[0]!), `ell width 0, β = ${b}, y = ${v}, ${arithmetic}: ${z.get(0)} ± ${eb[0]}`).toBe(true);
        }
      }
    }), { numRuns: 50 });
  });
});

/** An i32 vector under one scale s, element i = q[i]·s. */
function scaledVector(s: number, q: readonly number[]): Range<1> {
  const x = range(scaledReducedRowMajor<1>({ size: [q.length], storage: formats.i32, arithmetic: formats.f64, scaleMask: [false], scale: Float64Array.of(s) }));
  q.forEach((v, i) => x.set(i, v * s));
  return x;
}

describe('GEMV and ELL SpMV bounds cover scales and coefficients below 2^-126 (float-float flushes them)', () => {
  it('tiny β; scaled A, x and y', () => {
    const tiny = fc.oneof(fc.constantFrom(2 ** -127, 1e-40, 3e-39), fc.double({ min: 2 ** -149, max: 2 ** -126, noNaN: true }));
    const arb = fc.record({
      sa: fc.oneof(tiny, fc.constant(1)), sx: fc.oneof(tiny, fc.constant(1)), sy: fc.oneof(tiny, fc.constant(1)),
      q: fc.array(fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), { minLength: 6, maxLength: 6 }),
      alpha: fc.constantFrom(0, 1, -0.5), beta: fc.oneof(fc.constantFrom(0, 1, 2), tiny), arithmetic: fc.constantFrom('ff', 'f32'),
    });
    fc.assert(fc.property(arb, (t) => {
      const o = { arithmetic: t.arithmetic };
      const A = range(scaledReducedRowMajor({ size: [2, 2], storage: formats.i32, arithmetic: formats.f64, scaleMask: [false, false], scale: Float64Array.of(t.sa) }));
      for (let k = 0; k < 4; k++) A.set(k >> 1, k & 1, t.q[k]! * t.sa);
      const x = scaledVector(t.sx, t.q.slice(4, 6)), y = scaledVector(t.sy, t.q.slice(1, 3));
      const exact = [0, 1].map((i): Rational => {
        let e = mulRational(exactOf(t.beta), exactOf(y.get(i)));
        for (let j = 0; j < 2; j++) e = addRational(e, mulRational(exactOf(t.alpha), mulRational(exactOf(A.get(i, j)), exactOf(x.get(j)))));
        return e;
      });
      const args = { alpha: t.alpha, A, x, beta: t.beta, y };
      const b = gemvBound(args, o);
      gemv(args, o);
      exact.forEach((e, i) => expect(withinR(y.get(i), e, b[i]!), `gemv ${JSON.stringify(t)} y[${i}] = ${y.get(i)} ± ${b[i]}`).toBe(true));

      const z = scaledVector(t.sy, t.q.slice(1, 3));
      const E = ellOperand({ rows: 2, cols: 2, width: 2, stride: 2, colIndex: Int32Array.of(0, 0, 1, 1) }, A);
      const eArgs = { alpha: t.alpha, A: E, x, beta: t.beta, y: z };
      const eb = ellSpmvBound(eArgs, o);
      ellSpmv(eArgs, o);
      exact.forEach((e, i) => expect(withinR(z.get(i), e, eb[i]!), `ell ${JSON.stringify(t)} y[${i}] = ${z.get(i)} ± ${eb[i]}`).toBe(true));
    }), { numRuns: 150 });
  });
});
