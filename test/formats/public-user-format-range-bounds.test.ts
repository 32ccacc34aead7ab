/**
 * A user's storage with more significand bits than the arithmetic but a narrower exponent range — 30 bits up to
 * (2 − 2^-29)·2^9 ≈ 1024, under fp32 arithmetic — writes every arithmetic value exactly below its largest value, so
 * its write has no relative error, and overflows to ±∞ above it. The updates' bounds checked the storage's largest
 * value only for a write with a relative error: axpy(2, [300], [900]) stored +∞ for 1500 under axpyBound 2.1e-4, and
 * scal(3, [600]) likewise. Now they are +∞ there, as GEMV's already were. At the bottom the same storage's subnormals
 * (2^-37 apart) are coarser than fp32's, and no bound counted them: waxpby(0.75, [−2^-37], 1, [0], w) stored
 * −2^-37 for −1.5·2^-38 under a bound of 0. Now the write's absolute term is the storage's where it is the larger.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  axpy, axpyBound, createBinaryRounder, dot, dotBound, gemv, gemvBound, matrix, registerFormat, scal, scalBound, toArray,
  trsv, trsvBound, typedArrayStorage, vector, waxpby, waxpbyBound,
} from '../../src/index.js';
import {
  absRational, addRational, compareRational, exactDot, exactOf, exactTriangularSolve, mulRational, subRational, type Rational,
} from '../../src/testing/index.js';

const P = { significandBits: 30, minExponent: -8, maxExponent: 9 };
const p30 = registerFormat({
  name: 'user-p30-e9',
  storage: typedArrayStorage<Float64Array>({
    name: 'user-p30-e9', array: Float64Array, significandBits: 30, unitRoundoff: 2 ** -30, isInteger: false,
    maxValue: (2 - 2 ** -29) * 2 ** 9, encodeHelper: { name: 'userP30E9Round', fn: createBinaryRounder(P) },
  }),
});
const o = { storage: p30, arithmetic: 'f32' } as const;

/** |computed − exact| ≤ bound, exactly; a bound of +∞ admits anything (±∞ included). */
function within(computed: number, exact: Rational, bound: number): boolean {
  if (bound === Infinity) return true;
  return Number.isFinite(computed) && compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0;
}

describe('bounds of writes into a storage of narrower range than the arithmetic', () => {
  it('the examples: an overflow on write has the bound +∞', () => {
    const x = vector([300], o), y = vector([900], o);
    const b = axpyBound(2, x, y)[0]!;
    axpy(2, x, y);
    expect(y.get(0)).toBe(Infinity);
    expect(b).toBe(Infinity);
    const z = vector([600], o), sb = scalBound(3, z)[0]!;
    scal(3, z);
    expect(z.get(0)).toBe(Infinity);
    expect(sb).toBe(Infinity);
  });

  it('AXPY, WAXPBY, SCAL and DOT into such a storage stay within their bounds around its largest value', () => {
    const entry = fc.double({ min: -700, max: 700, noNaN: true });
    fc.assert(fc.property(fc.array(fc.tuple(entry, entry), { minLength: 1, maxLength: 6 }), fc.constantFrom(1, 2, -3, 0.75), (pairs, a) => {
      const x = vector(pairs.map((p) => p[0]), o), y = vector(pairs.map((p) => p[1]), o), w = vector(pairs.length, o);
      const xs = [...toArray(x)], ys = [...toArray(y)];
      const wb = waxpbyBound(a, x, 1, y, w);
      waxpby(a, x, 1, y, w);
      [...toArray(w)].forEach((v, i) => expect(within(v, addRational(mulRational(exactOf(a), exactOf(xs[i]!)), exactOf(ys[i]!)), wb[i]!), `waxpby ${i}`).toBe(true));
      const into = vector(1, o), db = dotBound(x, y, { into });
      dot(x, y, { into });
      expect(within(into.get(0), exactDot(xs, ys), db), 'dot into').toBe(true);
      const ab = axpyBound(a, x, y);
      axpy(a, x, y);
      [...toArray(y)].forEach((v, i) => expect(within(v, addRational(mulRational(exactOf(a), exactOf(xs[i]!)), exactOf(ys[i]!)), ab[i]!), `axpy ${i}`).toBe(true));
      const sb = scalBound(a, x);
      scal(a, x);
      [...toArray(x)].forEach((v, i) => expect(within(v, mulRational(exactOf(a), exactOf(xs[i]!)), sb[i]!), `scal ${i}`).toBe(true));
    }), { numRuns: 60 });
  });

  it("GEMV's and TRSV's bounds count its coarser subnormals (2^-37 apart), which fp32 arithmetic does not have", () => {
    const tiny = fc.integer({ min: -(2 ** 20), max: 2 ** 20 }).map((k) => k * 2 ** -50);
    fc.assert(fc.property(fc.array(tiny, { minLength: 4, maxLength: 4 }), fc.array(tiny, { minLength: 2, maxLength: 2 }), (a, xv) => {
      const A = matrix(2, 2, (i, j) => (i === j ? 1 : a[2 * i + j]! * 2 ** 30), { storage: 'f32', arithmetic: 'f32' });
      const x = vector(xv, { storage: 'f32', arithmetic: 'f32' }), y = vector(2, o);
      const gb = gemvBound({ alpha: 1, A, x, beta: 0, y });
      gemv({ alpha: 1, A, x, beta: 0, y });
      [0, 1].forEach((i) => expect(within(y.get(i), exactDot([A.get(i, 0), A.get(i, 1)], xv), gb[i]!), `gemv ${i}`).toBe(true));
      const b = vector(xv, o), bs = [...toArray(b)];
      trsv({ A, x: b, uplo: 'L', trans: 'N', diag: 'U' });
      const tb = trsvBound({ A, x: b, uplo: 'L', trans: 'N', diag: 'U' });
      const exact = exactTriangularSolve([[exactOf(1), exactOf(0)], [exactOf(A.get(1, 0)), exactOf(1)]], bs.map(exactOf), true, true);
      [0, 1].forEach((i) => expect(within(b.get(i), exact[i]!, tb[i]!), `trsv ${i}`).toBe(true));
    }), { numRuns: 60 });
  });
});
