/**
 * Reading multiple-precision (RNS) storage into a narrower arithmetic rounds once: into double-double within
 * 2^-106 relative (not through a double, 2^-53), into fp32 correctly rounded (not twice through a double). The
 * kernels' bounds count exactly that one rounding, so DOT, GEMV, ELL SpMV and TRSV stay within them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, gemv, gemvBound, trsv, trsvBound, ellSpmv, ellSpmvBound, ellOperand, formats, vector, range, rowMajor, colMajor } from '../../src/index.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import { ELL_PADDING } from '../../src/sparse/ell-matrix.js';
import type { Range } from '../../src/core/range.js';
import { ddArithmetic } from '../../src/formats/dd/dd-arithmetic.js';
import { f32Arithmetic } from '../../src/formats/f32/f32-arithmetic.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';
import { roundRationalToFormat } from '../../src/testing/round-rational.js';
import { BINARY32 } from '../../src/formats/convert/binary-parameters.js';
import { rnsFromRational, rnsToRational } from '../../src/formats/rns/convert-exact.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';

const PRECISION = 424;
const set = rnsModuliSet(PRECISION);
const rns = formats.rns424;

/** Full-precision values: a 424-bit significand over a power of two, or a ratio of small integers (1/3, …). */
const fullPrecision: fc.Arbitrary<Rational> = fc.oneof(
  fc.tuple(fc.bigInt({ min: 1n, max: (1n << 424n) - 1n }), fc.integer({ min: 300, max: 560 }), fc.boolean())
    .map(([m, e, neg]) => ({ num: neg ? -m : m, den: 1n << BigInt(e) })),
  fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }), fc.boolean())
    .map(([a, b, neg]) => ({ num: BigInt(neg ? -a : a), den: BigInt(b) * 3n })),
);

/** Full 424-bit significands between 2^-37 and 2^44: a triangular solve on them stays far from overflow. */
const moderate: fc.Arbitrary<Rational> = fc.tuple(fc.bigInt({ min: 1n << 423n, max: (1n << 424n) - 1n }), fc.integer({ min: 380, max: 460 }), fc.boolean())
  .map(([m, e, neg]) => ({ num: neg ? -m : m, den: 1n << BigInt(e) }));

function rnsOf(v: Rational): RnsNumber {
  const z = new RnsNumber(set);
  rnsFromRational(z, v.num, v.den);
  return z;
}
const ddValue = (p: { hi: number; lo: number }): Rational => addRational(exactOf(p.hi), exactOf(p.lo));
const le = (a: Rational, b: Rational): boolean => compareRational(a, b) <= 0;
const absErr = (c: Rational, e: Rational): Rational => absRational(subRational(c, e));

function rnsVector(values: Rational[]): Range<1, RnsNumber> {
  const r = range(rowMajor<1, RnsNumber>({ size: [values.length], storage: rns, arithmetic: rns }));
  values.forEach((v, i) => r.set(i, rnsOf(v)));
  return r;
}
/** The exact value element i of an RNS range holds. */
const heldRns = (r: Range<1, RnsNumber>, i: number): Rational => rnsToRational(r.get(i));
const ddInto = (): Range<1, any> => range(rowMajor<1>({ size: [1], storage: formats.dd, arithmetic: formats.dd }));
const heldDd = (r: Range<1, any>, i: number): Rational => ddValue(r.accessor.storage.decode(r.accessor.data as never, r.accessor.linearIndex([i])) as { hi: number; lo: number });

describe('an RNS value read into double-double arithmetic', () => {
  it('is within 2^-106 relative of the value (one rounding, not one to a double)', () => {
    fc.assert(fc.property(fullPrecision, (v) => {
      const x = rnsOf(v);
      const exact = rnsToRational(x);
      const read = ddArithmetic.fromKind('mp', x);
      expect(le(mulRational(absErr(ddValue(read), exact), { num: 1n << 106n, den: 1n }), absRational(exact))).toBe(true);
    }), { numRuns: 200 });
  });

  it('x = 1/3 at 424 bits: dot(x, [1], { arithmetic: dd, into }) is within dotBound', () => {
    const x = rnsVector([{ num: 1n, den: 3n }]), y = vector([1]);
    const into = ddInto();
    dot(x, y, { arithmetic: formats.dd, into });
    const bound = dotBound(x, y, { arithmetic: formats.dd, into });
    expect(le(absErr(heldDd(into, 0), heldRns(x, 0)), exactOf(bound))).toBe(true);
  });

  it('DOT of any RNS vectors in dd arithmetic stays within dotBound', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fullPrecision, fullPrecision), { minLength: 1, maxLength: 6 }), (pairs) => {
      const x = rnsVector(pairs.map((p) => p[0])), y = rnsVector(pairs.map((p) => p[1]));
      const into = ddInto();
      dot(x, y, { arithmetic: formats.dd, into });
      let exact: Rational = { num: 0n, den: 1n };
      for (let i = 0; i < pairs.length; i++) exact = addRational(exact, mulRational(heldRns(x, i), heldRns(y, i)));
      expect(le(absErr(heldDd(into, 0), exact), exactOf(dotBound(x, y, { arithmetic: formats.dd, into })))).toBe(true);
    }), { numRuns: 40 });
  });

  it('GEMV with an RNS matrix and vector in dd arithmetic stays within gemvBound', () => {
    fc.assert(fc.property(fc.array(fullPrecision, { minLength: 4, maxLength: 4 }), fc.array(fullPrecision, { minLength: 2, maxLength: 2 }), (as, xs) => {
      const A = range(colMajor<2, RnsNumber>({ size: [2, 2], storage: rns, arithmetic: rns }));
      as.forEach((v, k) => A.set(k % 2, k >> 1, rnsOf(v)));
      const x = rnsVector(xs);
      const y = range(rowMajor<1>({ size: [2], storage: formats.dd, arithmetic: formats.dd }));
      const args = { alpha: 1, A, x, beta: 0, y };
      const bound = gemvBound(args, { arithmetic: formats.dd });
      gemv(args, { arithmetic: formats.dd });
      for (let i = 0; i < 2; i++) {
        let exact: Rational = { num: 0n, den: 1n };
        for (let j = 0; j < 2; j++) exact = addRational(exact, mulRational(rnsToRational(A.get(i, j)), heldRns(x, j)));
        expect(le(absErr(heldDd(y, i), exact), exactOf(bound[i]!))).toBe(true);
      }
    }), { numRuns: 30 });
  });

  it('ELL SpMV with RNS values and x in dd arithmetic stays within ellSpmvBound', () => {
    const E = laplacianEll([4]);
    fc.assert(fc.property(fc.array(fullPrecision, { minLength: E.stride * E.width, maxLength: E.stride * E.width }), fc.array(fullPrecision, { minLength: 4, maxLength: 4 }), (vs, xs) => {
      const values = range(colMajor<2, RnsNumber>({ size: [E.stride, E.width], storage: rns, arithmetic: rns }));
      vs.forEach((v, k) => values.set(k % E.stride, Math.floor(k / E.stride), rnsOf(v)));
      const A = ellOperand(E, values);
      const x = rnsVector(xs);
      const y = range(rowMajor<1>({ size: [4], storage: formats.dd, arithmetic: formats.dd }));
      const args = { alpha: 1, A, x, beta: 0, y };
      const bound = ellSpmvBound(args, { arithmetic: formats.dd });
      ellSpmv(args, { arithmetic: formats.dd });
      for (let i = 0; i < 4; i++) {
        let exact: Rational = { num: 0n, den: 1n };
        for (let k = 0; k < E.width; k++) {
          const col = E.colIndex[i + k * E.stride]!;
          if (col === ELL_PADDING) break;
          exact = addRational(exact, mulRational(rnsToRational(values.get(i, k)), heldRns(x, col)));
        }
        expect(le(absErr(heldDd(y, i), exact), exactOf(bound[i]!))).toBe(true);
      }
    }), { numRuns: 20 });
  });

  it('TRSV with an RNS matrix and a dd right-hand side in dd arithmetic stays within trsvBound', () => {
    fc.assert(fc.property(fc.array(moderate, { minLength: 3, maxLength: 3 }), fc.array(moderate, { minLength: 2, maxLength: 2 }), (ts, bs) => {
      // U = [[t0, t1], [0, t2]]; solve U·x = b exactly: x1 = b1/t2, x0 = (b0 − t1·x1)/t0.
      const U = range(colMajor<2, RnsNumber>({ size: [2, 2], storage: rns, arithmetic: rns }));
      U.set(0, 0, rnsOf(ts[0]!)); U.set(0, 1, rnsOf(ts[1]!)); U.set(1, 1, rnsOf(ts[2]!));
      const x = range(rowMajor<1>({ size: [2], storage: formats.dd, arithmetic: formats.dd }));
      bs.forEach((b, i) => { const d = ddArithmetic.fromKind('mp', rnsOf(b)); x.set(i, d); });
      const b0 = heldDd(x, 0), b1 = heldDd(x, 1);
      const t0 = rnsToRational(U.get(0, 0)), t1 = rnsToRational(U.get(0, 1)), t2 = rnsToRational(U.get(1, 1));
      // Quotients with the sign moved to the numerator: the testing rationals keep den > 0.
      const norm = (q: Rational): Rational => (q.den < 0n ? { num: -q.num, den: -q.den } : q);
      const x1 = norm({ num: b1.num * t2.den, den: b1.den * t2.num });
      const r0 = subRational(b0, mulRational(t1, x1));
      const x0 = norm({ num: r0.num * t0.den, den: r0.den * t0.num });
      trsv({ A: U, x, uplo: 'U' }, { arithmetic: formats.dd });
      const bound = trsvBound({ A: U, x, uplo: 'U' }, { arithmetic: formats.dd });
      expect(le(absErr(heldDd(x, 0), norm(x0)), exactOf(bound[0]!))).toBe(true);
      expect(le(absErr(heldDd(x, 1), norm(x1)), exactOf(bound[1]!))).toBe(true);
    }), { numRuns: 30 });
  });
});

describe('an RNS value read into fp32 arithmetic', () => {
  it('is correctly rounded to binary32 (not rounded twice through a double)', () => {
    fc.assert(fc.property(fullPrecision, (v) => {
      const x = rnsOf(v);
      expect(f32Arithmetic.fromKind('mp', x)).toBe(roundRationalToFormat(rnsToRational(x), BINARY32));
    }), { numRuns: 200 });
  });

  it('near a binary32 midpoint: 1 + 2^-24 + 2^-80 rounds up (through a double it would tie to 1)', () => {
    const x = rnsOf({ num: (1n << 80n) + (1n << 56n) + 1n, den: 1n << 80n });
    expect(f32Arithmetic.fromKind('mp', x)).toBe(1 + 2 ** -23);
    // The kernels' read (generated code) too.
    expect(dot(rnsVector([rnsToRational(x)]), vector([1]), { arithmetic: formats.f32 })).toBe(1 + 2 ** -23);
  });
});
