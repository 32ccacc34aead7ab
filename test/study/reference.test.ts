/**
 * The study's references — the library's own kernels run in double-double arithmetic — against the
 * exact BigInt oracle (every double is a dyadic
 * rational): each reference entry hi + lo must lie within the double-double bound of the exact value,
 * far below what the study resolves (fp64's 2^-53).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { dotReference, gemvReference, trsvReference, waxpbyReference, ellSpmvReference } from '../../app/study/reference.js';
import { relativeErrorDd, type DdVector } from '../../app/study/relative-error.js';
import { exactDot, exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, divRational, mulRational, subRational, compareRational, ZERO, type Rational } from '../../src/testing/rational.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';

/** |hi + lo − exact| as a double (rounded up a little, harmless at these magnitudes). */
function ddError(r: DdVector, i: number, exact: Rational): number {
  return roundRationalToDouble(absRational(subRational(addRational(exactOf(r.hi[i]!), exactOf(r.lo[i]!)), exact))) * (1 + 2 ** -50);
}
/** Per-operation relative error allowance of double-double accumulation, γ_k(2^-104). */
const ddGamma = (k: number): number => (k * 2 ** -104) / (1 - k * 2 ** -104);
/**
 * Absolute allowance for underflow: below 2^-1022 every double-double operation may lose up to a few units
 * of 2^-1074 (the subnormal spacing), whatever the relative bound says; 4 units per operation.
 */
const underflow = (ops: number): number => 4 * ops * Number.MIN_VALUE;
const absSum = (xs: ArrayLike<number>): number => Array.from(xs).reduce((s, v) => s + Math.abs(v), 0) * (1 + 2 ** -40);
const values = (n: number) => fc.float64Array({ minLength: n, maxLength: n, noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
const sizes = fc.integer({ min: 1, max: 12 });


/** Row i of an ELL matrix: its stored values and the x entries they multiply (padding excluded). */
function ellRow(A: ReturnType<typeof laplacianEll>, i: number, x: ArrayLike<number>): [number[], number[]] {
  const row: number[] = [];
  const xs: number[] = [];
  for (let k = 0; k < A.width; k++) {
    const c = A.colIndex[i + k * A.stride]!;
    if (c < 0) break;
    row.push(A.values[i + k * A.stride]!);
    xs.push(x[c]!);
  }
  return [row, xs];
}

describe('double-double references vs the exact rational oracle', () => {
  it('dotReference is within γ_{n+1}(2^-104) Σ|xᵢyᵢ| of the exact dot product', () => {
    fc.assert(fc.property(sizes.chain((n) => fc.tuple(values(n), values(n))), ([x, y]) => {
      const r = dotReference(x, y);
      const products = Array.from(x, (v, i) => v * y[i]!);
      expect(ddError(r, 0, exactDot(x, y))).toBeLessThanOrEqual(ddGamma(x.length + 1) * absSum(products) + underflow(2 * x.length));
    }), { numRuns: 200 });
  });

  it('gemvReference rows are within γ_{n+1}(2^-104) (|A||x|)ᵢ of the exact products', () => {
    fc.assert(fc.property(sizes.chain((n) => fc.tuple(fc.constant(n), values(n * n), values(n))), ([n, a, x]) => {
      const r = gemvReference(n, n, a, x);
      for (let i = 0; i < n; i++) {
        const row = Array.from({ length: n }, (_, j) => a[i + j * n]!);
        const abs = absSum(row.map((v, j) => v * x[j]!));
        expect(ddError(r, i, exactDot(row, x))).toBeLessThanOrEqual(ddGamma(n + 1) * abs + underflow(2 * n));
      }
    }), { numRuns: 60 });
  });

  it('waxpbyReference is exact to double-double rounding', () => {
    fc.assert(fc.property(sizes.chain((n) => fc.tuple(values(n), values(n))), fc.double({ min: -4, max: 4, noNaN: true }), ([x, y], alpha) => {
      const r = waxpbyReference(alpha, x, -1.5, y);
      for (let i = 0; i < x.length; i++) {
        const exact = addRational(mulRational(exactOf(alpha), exactOf(x[i]!)), mulRational(exactOf(-1.5), exactOf(y[i]!)));
        expect(ddError(r, i, exact)).toBeLessThanOrEqual(ddGamma(3) * (Math.abs(alpha * x[i]!) + Math.abs(1.5 * y[i]!)) + underflow(3));
      }
    }), { numRuns: 100 });
  });

  it('trsvReference solves upper and unit-lower systems: the exact residual of hi+lo is at double-double level', () => {
    // Well-conditioned triangles (dominant diagonal) so a small residual means a small error.
    const tri = (n: number) => fc.float64Array({ minLength: n * n, maxLength: n * n, noNaN: true, noDefaultInfinity: true, min: -1, max: 1 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }).chain((n) => fc.tuple(fc.constant(n), tri(n), values(n))), fc.boolean(), ([n, t, b], upper) => {
      const m = Float64Array.from(t);
      for (let i = 0; i < n; i++) m[i + i * n] = upper ? 4 + Math.abs(m[i + i * n]!) : 1;
      const r = trsvReference(n, m, b, upper ? 'upper' : 'lower', !upper);
      const x = Array.from({ length: n }, (_, i) => addRational(exactOf(r.hi[i]!), exactOf(r.lo[i]!)));
      for (let i = 0; i < n; i++) {
        let s: Rational = ZERO;
        for (let j = 0; j < n; j++) {
          const inTriangle = upper ? j >= i : j <= i;
          if (inTriangle) s = addRational(s, mulRational(exactOf(j === i && !upper ? 1 : m[i + j * n]!), x[j]!));
        }
        const residual = roundRationalToDouble(absRational(subRational(s, exactOf(b[i]!))));
        const scale = absSum(b) + x.reduce((acc, v) => acc + Math.abs(roundRationalToDouble(v)), 0) * 5;
        expect(residual).toBeLessThanOrEqual(ddGamma(4 * n + 4) * scale * 8 + underflow(4 * n * n + 4));
      }
    }), { numRuns: 60 });
  });

  it('ellSpmvReference matches the exact product of a Laplacian with a random vector', () => {
    const A = laplacianEll([4, 3]);
    fc.assert(fc.property(values(A.cols), (x) => {
      const r = ellSpmvReference(A, A.values, x);
      for (let i = 0; i < A.rows; i++) {
        const [row, xs] = ellRow(A, i, x);
        expect(ddError(r, i, exactDot(row, xs))).toBeLessThanOrEqual(ddGamma(row.length + 1) * absSum(row.map((v, j) => v * xs[j]!)) + underflow(2 * row.length));
      }
    }), { numRuns: 50 });
  });
});

describe('wide references (212-bit RNS, for configurations computing in double-double)', () => {
  // Rounded once to double-double at the end: |hi + lo − exact| ≤ 2^-105·|exact| (+ the RNS sum's own
  // n·2^-211 relative to Σ|terms|) — far tighter than a double-double computation, so a dd/dd result is
  // never judged against itself.
  const wide = (exactAbs: number, sumAbs: number, terms: number): number => 2 ** -105 * exactAbs * (1 + 2 ** -40) + terms * 2 ** -200 * sumAbs + underflow(1);
  it('DOT, GEMV, WAXPBY and ELL SpMV are the exact results rounded to double-double', () => {
    fc.assert(fc.property(sizes.chain((n) => fc.tuple(fc.constant(n), values(n * n), values(n), values(n))), ([n, a, x, y]) => {
      const d = dotReference(x, y, 'wide');
      const exactD = exactDot(x, y);
      expect(ddError(d, 0, exactD)).toBeLessThanOrEqual(wide(Math.abs(roundRationalToDouble(exactD)), absSum(Array.from(x, (v, i) => v * y[i]!)), n));
      const g = gemvReference(n, n, a, x, 'wide');
      for (let i = 0; i < n; i++) {
        const row = Array.from({ length: n }, (_, j) => a[i + j * n]!);
        const e = exactDot(row, x);
        expect(ddError(g, i, e)).toBeLessThanOrEqual(wide(Math.abs(roundRationalToDouble(e)), absSum(row.map((v, j) => v * x[j]!)), n));
      }
      const w = waxpbyReference(0.75, x, -1.5, y, 'wide');
      for (let i = 0; i < n; i++) {
        const e = addRational(mulRational(exactOf(0.75), exactOf(x[i]!)), mulRational(exactOf(-1.5), exactOf(y[i]!)));
        expect(ddError(w, i, e)).toBeLessThanOrEqual(wide(Math.abs(roundRationalToDouble(e)), Math.abs(0.75 * x[i]!) + Math.abs(1.5 * y[i]!), 2));
      }
    }), { numRuns: 25 });
    const A = laplacianEll([3, 3]);
    fc.assert(fc.property(values(A.cols), (x) => {
      const r = ellSpmvReference(A, A.values, x, 'wide');
      for (let i = 0; i < A.rows; i++) {
        const [row, xs] = ellRow(A, i, x);
        const e = exactDot(row, xs);
        expect(ddError(r, i, e)).toBeLessThanOrEqual(wide(Math.abs(roundRationalToDouble(e)), absSum(row.map((v, j) => v * xs[j]!)), row.length));
      }
    }), { numRuns: 20 });
  });

  it('the double-double configuration is measured against the wide reference: its error is not 0 by construction', async () => {
    const { dotCase } = await import('../../app/study/cases/dot-case.js');
    const { measureAccuracy } = await import('../../app/study/experiments.js');
    const { resolveConfiguration } = await import('../../app/study/operands.js');
    const c = dotCase(2000, 'uniform', 3);
    const m = measureAccuracy(c, resolveConfiguration({ storage: 'dd', arithmetic: 'dd', backend: 'cpu' }), { adapter: 'test' });
    expect(m.relativeError!).toBeGreaterThan(0);
    expect(m.relativeError!).toBeLessThanOrEqual(m.bound!);
  });

  it('TRSV in RNS solves to double-double accuracy (residual of hi + lo at 2^-104 level)', () => {
    const n = 6;
    const m = Float64Array.from({ length: n * n }, (_, k) => ((k * 7919) % 13) / 13 - 0.5);
    for (let i = 0; i < n; i++) m[i + i * n] = 4;
    const b = Float64Array.from({ length: n }, (_, i) => i - 2.5);
    const r = trsvReference(n, m, b, 'upper', false, 'wide');
    const x = Array.from({ length: n }, (_, i) => addRational(exactOf(r.hi[i]!), exactOf(r.lo[i]!)));
    for (let i = 0; i < n; i++) {
      let s: Rational = ZERO;
      for (let j = i; j < n; j++) s = addRational(s, mulRational(exactOf(m[i + j * n]!), x[j]!));
      expect(roundRationalToDouble(absRational(subRational(s, exactOf(b[i]!))))).toBeLessThanOrEqual(2 ** -100 * 40);
    }
  });
});

describe('relativeErrorDd', () => {
  it('resolves errors far below fp64 rounding: a result off by lo alone has error |lo|/|hi+lo|', () => {
    const ref = { hi: Float64Array.of(1, -2), lo: Float64Array.of(2 ** -60, 0) };
    const e = relativeErrorDd(Float64Array.of(1, -2), ref);
    expect(e).toBeGreaterThan(0);
    expect(Math.abs(e - 2 ** -60 / Math.sqrt(5)) / e).toBeLessThan(1e-12);
  });

  it('is exactly 0 for an exact result, Infinity-free for a zero reference, NaN for NaN', () => {
    expect(relativeErrorDd(Float64Array.of(3), { hi: Float64Array.of(3), lo: Float64Array.of(0) })).toBe(0);
    expect(relativeErrorDd(Float64Array.of(2 ** -30), { hi: Float64Array.of(0), lo: Float64Array.of(0) })).toBe(2 ** -30);
    expect(relativeErrorDd(Float64Array.of(NaN), { hi: Float64Array.of(1), lo: Float64Array.of(0) })).toBeNaN();
  });

  it('agrees with the exact norm-wise error computed with rationals', () => {
    // References away from zero: the error ratio must stay a finite double for the comparison.
    const away = values(5).map((v) => Float64Array.from(v, (h) => (h < 0 ? h - 1 : h + 1)));
    fc.assert(fc.property(away, values(5), (hi, noise) => {
      const lo = Float64Array.from(hi, (h) => h * 2 ** -60);
      const computed = Float64Array.from(hi, (h, i) => h + noise[i]! * 1e-12);
      const e = relativeErrorDd(computed, { hi, lo });
      let errSq: Rational = ZERO;
      let normSq: Rational = ZERO;
      for (let i = 0; i < 5; i++) {
        const ref = addRational(exactOf(hi[i]!), exactOf(lo[i]!));
        const d = subRational(exactOf(computed[i]!), ref);
        errSq = addRational(errSq, mulRational(d, d));
        normSq = addRational(normSq, mulRational(ref, ref));
      }
      if (compareRational(normSq, ZERO) === 0) return;
      const exact = Math.sqrt(roundRationalToDouble(divRational(errSq, normSq)));
      expect(Math.abs(e - exact)).toBeLessThanOrEqual(1e-12 * exact + Number.MIN_VALUE);
    }), { numRuns: 100 });
  });
});
