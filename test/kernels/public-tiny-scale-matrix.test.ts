/**
 * ELL SpMV and TRSV over scaled integer operands whose scale lies below binary32's normal range, in float-float
 * arithmetic (which flushes such a scale to ±0, so the element reads as 0) and in fp32: each result within the
 * library's bound for the same call, against exact rationals. Regressions:
 * - ellSpmvBound counted no error for a scale's conversion: an i32 value 10^9·2^-127 (5.9e-30) in A's values or in x
 *   read as 0 in ff, y = 0 against a bound of 2.4e-38;
 * - trsvBound likewise for T's scales (x₁ = −10^9·2^-127 came out 0, bound 4.7e-38), and took x's integer storage
 *   under a scale ff flushes for reliable (b read as 0: x = 0 for the exact 2.9e-30, bound 1.5e-38; now +∞, as for a
 *   floating-point storage under such a scale).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellOperand, ellSpmv, ellSpmvBound, formats, range, scaledReducedRowMajor, trsv, trsvBound, vector, type Range } from '../../src/index.js';
import { exactOf, exactTriangularSolve } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';

const within = (computed: number, exact: Rational, bound: number): boolean =>
  bound === Infinity || (Number.isFinite(computed) && compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0);

const tinyScale = fc.oneof(fc.constantFrom(2 ** -127, 1e-40, 3e-39), fc.double({ min: 2 ** -149, max: 2 ** -126, noNaN: true }));
const scaleOrOne = fc.oneof(tinyScale, fc.constant(1));
const ints = (n: number) => fc.array(fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), { minLength: n, maxLength: n });

/** An n×m i32 matrix, one scale per row (row i: scales[i]), element (i, j) = q[i·m + j]·scales[i]. */
function scaledMatrix(n: number, m: number, scales: readonly number[], q: readonly number[]): Range<2> {
  const A = range(scaledReducedRowMajor({ size: [n, m], storage: formats.i32, arithmetic: formats.f64, scaleMask: [true, false], scale: Float64Array.from(scales) }));
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) A.set(i, j, q[i * m + j]! * scales[i]!);
  return A;
}
function scaledVector(s: number, q: readonly number[]): Range<1> {
  const x = range(scaledReducedRowMajor<1>({ size: [q.length], storage: formats.i32, arithmetic: formats.f64, scaleMask: [false], scale: Float64Array.of(s) }));
  q.forEach((v, i) => x.set(i, v * s));
  return x;
}

describe('matrix kernels over a scale below 2^-126 stay within their bounds', () => {
  it('ELL SpMV: scaled values and scaled x', () => {
    const arb = fc.integer({ min: 1, max: 5 }).chain((n) => fc.record({
      n: fc.constant(n), scales: fc.array(scaleOrOne, { minLength: n, maxLength: n }), q: ints(n * 2), xs: scaleOrOne, qx: ints(n),
      arithmetic: fc.constantFrom('ff', 'f32'),
    }));
    fc.assert(fc.property(arb, (t) => {
      const { n } = t;
      const V = scaledMatrix(n, 2, t.scales, t.q);
      // Row i: columns i and (i + 1) mod n.
      const colIndex = new Int32Array(2 * n);
      for (let i = 0; i < n; i++) { colIndex[i] = i; colIndex[n + i] = (i + 1) % n; }
      const A = ellOperand({ rows: n, cols: n, width: n > 1 ? 2 : 1, stride: n, colIndex: n > 1 ? colIndex : Int32Array.of(0) }, n > 1 ? V : scaledMatrix(1, 1, t.scales, t.q));
      const x = scaledVector(t.xs, t.qx);
      const y = vector(n);
      const args = { alpha: 1, A, x, beta: 0, y };
      const b = ellSpmvBound(args, { arithmetic: t.arithmetic });
      ellSpmv(args, { arithmetic: t.arithmetic });
      for (let i = 0; i < n; i++) {
        let e: Rational = exactOf(0);
        for (let k = 0; k < (n > 1 ? 2 : 1); k++) e = addRational(e, mulRational(exactOf(A.values.get(i, k)), exactOf(x.get(colIndex[k * n + i]! % n))));
        expect(within(y.get(i), e, b[i]!), `ell ${t.arithmetic} y[${i}] = ${y.get(i)} ± ${b[i]}`).toBe(true);
      }
    }), { numRuns: 120 });
  });

  it('TRSV: scaled rows of A and a scaled x', () => {
    const arb = fc.integer({ min: 1, max: 5 }).chain((n) => fc.record({
      n: fc.constant(n), scales: fc.array(scaleOrOne, { minLength: n, maxLength: n }), q: ints(n * n), xs: scaleOrOne, qx: ints(n),
      arithmetic: fc.constantFrom('ff', 'f32'), unit: fc.boolean(),
    }));
    fc.assert(fc.property(arb, (t) => {
      const { n } = t;
      // Lower triangular; a unit diagonal keeps the solve well posed whatever the scales (else: non-zero pivots).
      const q = t.q.map((v, k) => (Math.floor(k / n) === k % n && v === 0 ? 1 : v));
      const A = scaledMatrix(n, n, t.scales, q);
      const x = scaledVector(t.xs, t.qx);
      const b = Array.from({ length: n }, (_, i) => exactOf(x.get(i)));
      const call = { A, x, uplo: 'L' as const, trans: 'N' as const, diag: t.unit ? 'U' as const : 'N' as const };
      trsv(call, { arithmetic: t.arithmetic });
      const bound = trsvBound(call, { arithmetic: t.arithmetic });
      const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i ? exactOf(A.get(i, j)) : exactOf(0))));
      const exact = exactTriangularSolve(T, b, true, t.unit);
      exact.forEach((e, i) => expect(within(x.get(i), e, bound[i]!), `trsv ${t.arithmetic} x[${i}] = ${x.get(i)} ± ${bound[i]}`).toBe(true));
    }), { numRuns: 120 });
  });
});
