/**
 * Float-float arithmetic (`formats.ff`) with the `dd` accumulation on the CPU, against exact rational results and
 * the library's own bounds for the same call. Float-float is a pair arithmetic (kind `dd`), so the accumulation keeps
 * its two chains in float-float registers. Two regressions:
 * - the chains were joined by the double-double sum, whose hi is a binary64 sum, not a binary32 word: the
 *   arithmetic then took that pair as float-float, and what followed the sum lost everything below binary32 —
 *   nrm2([1.1]) was 1.0999999826604636 (error 1.7e-8, bound 1.6e-13), TRSV's x[0] = 1.3/1.1 erred by 4.3e-8;
 * - the bound took float-float (u = 2^-44) for a number arithmetic summing in double-double (2^-104 a step), so
 *   dotBound of a long chain of float-float sums was exceeded up to 3.4×; it is now γ_{⌈n/2⌉+1}(u) as for dd.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, formats, matrix, nrm2, nrm2Bound, trsv, trsvBound, vector, gemv, gemvBound, toArray } from '../../src/index.js';
import { exactDot, exactOf, exactTriangularSolve } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';

const FF_DD = { arithmetic: formats.ff, accumulation: 'dd' } as const;

const within = (computed: number, exact: Rational, bound: number): boolean =>
  compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0;

/** Doubles of up to 53 bits at moderate exponents (float-float reads round them to its 48 bits). */
const value = fc.tuple(fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), fc.integer({ min: 0, max: 2 ** 22 }), fc.integer({ min: -20, max: 20 }))
  .map(([hi, lo, e]) => (hi + lo * 2 ** -23) * 2 ** e);
const values = (min: number, max: number) => fc.array(value, { minLength: min, maxLength: max });

describe("float-float arithmetic with the 'dd' accumulation", () => {
  it('NRM2 within nrm2Bound of the exact norm', () => {
    expect(within(nrm2(vector([1.1]), FF_DD), exactOf(1.1), nrm2Bound(vector([1.1]), FF_DD))).toBe(true);
    fc.assert(fc.property(values(1, 40), (xs) => {
      const x = vector(xs);
      const r = nrm2(x, FF_DD), b = nrm2Bound(x, FF_DD);
      // (r − b)² ≤ Σxᵢ² ≤ (r + b)², exactly.
      const S = exactDot(xs, xs);
      const lo = subRational(exactOf(r), exactOf(b)), hi = addRational(exactOf(r), exactOf(b));
      expect(lo.num <= 0n || compareRational(mulRational(lo, lo), S) <= 0, `nrm2 ${r} ± ${b}`).toBe(true);
      expect(compareRational(S, mulRational(hi, hi)) <= 0, `nrm2 ${r} ± ${b}`).toBe(true);
    }), { numRuns: 100 });
  });

  it('TRSV and GEMV within trsvBound and gemvBound of the exact result', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }).chain((n) => fc.tuple(values(n * n, n * n), values(n, n), values(n, n))), ([a, b, y0]) => {
      const n = b.length;
      // A lower triangle with a dominant diagonal (no huge growth), any other values.
      const L = matrix(n, n, (i, j) => (j > i ? 0 : i === j ? Math.abs(a[i * n + j]!) + 1 : a[i * n + j]! * 2 ** -30));
      const x = vector(b);
      trsv({ A: L, x, uplo: 'L', trans: 'N', diag: 'N' }, FF_DD);
      const tb = trsvBound({ A: L, x, uplo: 'L', trans: 'N', diag: 'N' }, FF_DD);
      const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => exactOf(L.get(i, j))));
      const exact = exactTriangularSolve(T, b.map(exactOf), true, false);
      exact.forEach((e, i) => expect(within(x.get(i), e, tb[i]!), `trsv x[${i}] = ${x.get(i)} ± ${tb[i]}`).toBe(true));

      const A = matrix(n, n, (i, j) => a[i * n + j]!);
      const xv = vector(b), y = vector(y0);
      const args = { alpha: 1.7, A, x: xv, beta: 0.3, y };
      gemv(args, FF_DD);
      const gb = gemvBound(args, FF_DD);
      toArray(y).forEach((v, i) => {
        let e = mulRational(exactOf(0.3), exactOf(y0[i]!));
        for (let j = 0; j < n; j++) e = addRational(e, mulRational(exactOf(1.7), mulRational(exactOf(a[i * n + j]!), exactOf(b[j]!))));
        expect(within(v, e, gb[i]!), `gemv y[${i}] = ${v} ± ${gb[i]}`).toBe(true);
      });
    }), { numRuns: 60 });
  });

  it('DOT of long chains of float-float sums within dotBound', () => {
    const f = Math.fround;
    // Float-float values (a binary32 head and tail): every chain step rounds its sum in float-float.
    const ffValue = fc.tuple(fc.double({ min: 1, max: 2, noNaN: true }), fc.double({ min: 1, max: 2, noNaN: true }), fc.integer({ min: 24, max: 27 }))
      .map(([h, l, e]) => f(h) + f(l * 2 ** -e));
    fc.assert(fc.property(fc.integer({ min: 1000, max: 4000 }), ffValue, ffValue, fc.boolean(), (n, v, w, same) => {
      const xs = Array.from({ length: n }, (_, i) => (i % 2 && !same ? w : v));
      const ys = new Array<number>(n).fill(1);
      const x = vector(xs), y = vector(ys);
      const r = dot(x, y, FF_DD), b = dotBound(x, y, FF_DD);
      expect(within(r, exactDot(xs, ys), b), `dot ${r} ± ${b}, n = ${n}, v = ${v}, w = ${w}`).toBe(true);
    }), { numRuns: 30 });
    // The chain of 3657 copies of one float-float value that exceeded the old bound 3.4 times.
    const xs = new Array<number>(3657).fill(1.055634631947446), ys = new Array<number>(3657).fill(1);
    const x = vector(xs), y = vector(ys);
    expect(within(dot(x, y, FF_DD), exactDot(xs, ys), dotBound(x, y, FF_DD))).toBe(true);
  });
});
