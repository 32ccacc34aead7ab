import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import '../../src/formats/rns/register.js';
import { rnsFormat } from '../../src/formats/rns/register.js';
import { range, rowMajor, colMajor } from '../../src/index.js';
import { dot, gemv, axpy, waxpby, scal, asum, nrm2, trsv, ellSpmv, ellFromMatrix } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { rnsModuliSet, type RnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsFromRational } from '../../src/formats/rns/convert-exact.js';
import { abs, add, anyDouble, le, mul, ofNumber, ofRns, q, sub, type Q } from './oracle.js';

/** A rigorous rational upper bound of u = 4/√M: the double unitRoundoff, or 2^(1−p) below the double range. */
function uBound(set: RnsModuliSet): Q {
  return set.unitRoundoff > 2 ** -1000 ? ofNumber(set.unitRoundoff) : q(1n, 1n << BigInt(set.precision - 1));
}
/** γ_k = k·u/(1 − k·u) as a rational, for u = num/den. */
function gamma(k: number, u: Q): Q {
  const K = BigInt(k);
  return q(K * u.num, u.den - K * u.num);
}
const sum = (xs: Q[]): Q => xs.reduce(add, q(0n));
const within = (c: Q, e: Q, bound: Q) => le(abs(sub(c, e)), bound);

/** Element values: doubles of moderate range, or full-precision rationals. */
function element(set: RnsModuliSet): fc.Arbitrary<Q> {
  const p = BigInt(set.precision);
  return fc.oneof(
    fc.double({ min: -1e6, max: 1e6, noNaN: true }).map(ofNumber),
    fc.tuple(fc.bigInt({ min: -(1n << p), max: 1n << p }), fc.integer({ min: -40, max: 40 }))
      .map(([s, e]) => q(s, 1n << (p + BigInt(e + 40)))),
  );
}

function rnsVector(set: RnsModuliSet, values: Q[]): Range<1, RnsNumber> {
  const f = rnsFormat(set.precision);
  const r = range(rowMajor<1, RnsNumber>({ size: [values.length], storage: f, arithmetic: f }));
  values.forEach((v, i) => { const z = new RnsNumber(set); rnsFromRational(z, v.num, v.den); r.set(i, z); });
  return r;
}
const read = (r: Range<1, RnsNumber>): Q[] => Array.from({ length: r.length(0) }, (_, i) => ofRns(r.get(i)));

describe.each([106, 424, 1696])('CPU kernels in RNS arithmetic at %i bits', (precision) => {
  const set = rnsModuliSet(precision);
  const f = rnsFormat(precision);
  const u = uBound(set);
  const el = element(set);
  const runs = precision >= 1696 ? 8 : 40;
  const vec = (n: number) => fc.array(el, { minLength: n, maxLength: n });

  it('DOT (mp_array storage): |ŝ − s| ≤ γ_n Σ|xᵢyᵢ|', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }).chain((n) => fc.tuple(vec(n), vec(n))), ([xs, ys]) => {
      const x = rnsVector(set, xs), y = rnsVector(set, ys);
      // x, y hold the values rounded to the set; the exact reference uses what they hold
      const ex = read(x), ey = read(y);
      const out = rnsVector(set, [q(0n)]);
      dot(x, y, { into: out });
      const exact = sum(ex.map((v, i) => mul(v, ey[i]!)));
      const absSum = sum(ex.map((v, i) => abs(mul(v, ey[i]!))));
      expect(within(ofRns(out.get(0)), exact, mul(gamma(Math.max(xs.length, 1), u), absSum))).toBe(true);
    }), { numRuns: runs });
  });

  it('DOT of fp64 vectors computed in RNS (storage and arithmetic decoupled)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(anyDouble, anyDouble).filter(([a, b]) => Math.abs(a) < 1e150 && Math.abs(b) < 1e150), { maxLength: 40 }), (pairs) => {
      const x = range(rowMajor<1, RnsNumber>({ size: [pairs.length], storage: 'f64', arithmetic: f }));
      const y = range(rowMajor<1, number>({ size: [pairs.length], storage: 'f64' }));
      pairs.forEach(([a, b], i) => { x.set(i, a); y.set(i, b); });
      const out = rnsVector(set, [q(0n)]);
      dot(x, y, { into: out, arithmetic: f });
      const prods = pairs.map(([a, b]) => mul(ofNumber(a), ofNumber(b)));
      expect(within(ofRns(out.get(0)), sum(prods), mul(gamma(Math.max(pairs.length, 1), u), sum(prods.map(abs))))).toBe(true);
    }), { numRuns: runs });
  });

  it.each(['N', 'T'] as const)('GEMV %s: |ŷᵢ − yᵢ| ≤ γ_{N+2}(|βyᵢ| + Σⱼ|α aᵢⱼ xⱼ|) (seed 000 eq. 16–18, per row)', (trans) => {
    const dims = fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }));
    fc.assert(fc.property(dims.chain(([m, n]) => fc.tuple(fc.constant([m, n] as const), vec(m * n), vec(trans === 'N' ? n : m), vec(trans === 'N' ? m : n),
      fc.double({ min: -4, max: 4, noNaN: true }), fc.double({ min: -4, max: 4, noNaN: true }))), ([[m, n], as, xs, ys, alpha, beta]) => {
      const A = range(colMajor<2, RnsNumber>({ size: [m, n], storage: f, arithmetic: f, stride: m + 1 }));
      for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) {
        const z = new RnsNumber(set); const v = as[i + j * m]!; rnsFromRational(z, v.num, v.den); A.set(i, j, z);
      }
      const x = rnsVector(set, xs), y = rnsVector(set, ys);
      const eA = (i: number, j: number) => ofRns(A.get(i, j));
      const ex = read(x), ey = read(y);
      gemv({ alpha, A, x, beta, y, trans });
      const got = read(y);
      const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
      const a = ofNumber(alpha), b = ofNumber(beta);
      for (let i = 0; i < rows; i++) {
        const terms = Array.from({ length: cols }, (_, j) => mul(a, mul(trans === 'N' ? eA(i, j) : eA(j, i), ex[j]!)));
        const exact = beta === 0 ? sum(terms) : add(sum(terms), mul(b, ey[i]!));
        const mag = add(sum(terms.map(abs)), beta === 0 ? q(0n) : abs(mul(b, ey[i]!)));
        expect(within(got[i]!, exact, mul(gamma(cols + 2, u), mag))).toBe(true);
      }
    }), { numRuns: runs });
  });

  it('AXPY, WAXPBY, SCAL: each element within γ_2 (γ_1 for SCAL) of the exact value', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 12 }).chain((n) => fc.tuple(vec(n), vec(n))), fc.double({ min: -8, max: 8, noNaN: true }), fc.double({ min: -8, max: 8, noNaN: true }), ([xs, ys], alpha, beta) => {
      const x = rnsVector(set, xs), y = rnsVector(set, ys), w = rnsVector(set, xs.map(() => q(0n)));
      const ex = read(x), ey = read(y);
      const a = ofNumber(alpha), b = ofNumber(beta);
      waxpby(alpha, x, beta, y, w);
      read(w).forEach((v, i) => {
        const t1 = mul(a, ex[i]!), t2 = mul(b, ey[i]!);
        expect(within(v, add(t1, t2), mul(gamma(2, u), add(abs(t1), abs(t2))))).toBe(true);
      });
      axpy(alpha, x, y);
      read(y).forEach((v, i) => {
        const t1 = mul(a, ex[i]!);
        expect(within(v, add(t1, ey[i]!), mul(gamma(2, u), add(abs(t1), abs(ey[i]!))))).toBe(true);
      });
      scal(alpha, x);
      read(x).forEach((v, i) => expect(within(v, mul(a, ex[i]!), mul(gamma(1, u), abs(mul(a, ex[i]!))))).toBe(true));
    }), { numRuns: runs });
  });

  // Results come back as doubles: magnitudes far from the subnormals keep their rounding relative.
  it('ASUM within 2^-53 + γ_{n−1} of Σ|xᵢ|; NRM2² within 2^-51 + γ_{n+2} of ‖x‖² (results returned as doubles)', () => {
    const doubles = (n: number) => fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((v) => ofNumber(Math.abs(v) < 1e-100 ? 0 : v)), { minLength: n, maxLength: n });
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }).chain(doubles), (xs) => {
      const x = rnsVector(set, xs);
      const s = sum(xs.map(abs));
      expect(within(ofNumber(asum(x)), s, mul(add(q(1n, 1n << 53n), gamma(Math.max(xs.length - 1, 1), u)), s))).toBe(true);
      const r = nrm2(x);
      const ss = sum(xs.map((v) => mul(v, v)));
      const rr = mul(ofNumber(r), ofNumber(r));
      expect(within(rr, ss, mul(add(q(1n, 1n << 50n), gamma(xs.length + 2, u)), ss))).toBe(true);
    }), { numRuns: runs });
  });

  it('TRSV: the residual |b − L·x̂| ≤ γ_{n+1}|L||x̂| (componentwise backward stability of substitution)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }).chain((n) => fc.tuple(fc.constant(n), vec(n * n), vec(n))), fc.constantFrom('L', 'U'), ([n, as, bs], uplo) => {
      const A = range(colMajor<2, RnsNumber>({ size: [n, n], storage: f, arithmetic: f }));
      for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
        let v = as[i + j * n]!;
        if (i === j && v.num === 0n) v = q(1n);
        const z = new RnsNumber(set); rnsFromRational(z, v.num, v.den); A.set(i, j, z);
      }
      const x = rnsVector(set, bs);
      const eb = read(x);
      trsv({ A, x, uplo, trans: 'N', diag: 'N' });
      const ex = read(x);
      for (let i = 0; i < n; i++) {
        const js = Array.from({ length: n }, (_, j) => j).filter((j) => (uplo === 'L' ? j <= i : j >= i));
        const lx = sum(js.map((j) => mul(ofRns(A.get(i, j)), ex[j]!)));
        const mag = sum(js.map((j) => abs(mul(ofRns(A.get(i, j)), ex[j]!))));
        expect(within(lx, eb[i]!, mul(gamma(n + 1, u), mag))).toBe(true);
      }
    }), { numRuns: runs });
  });

  it('ELL SpMV (fp64 values, RNS arithmetic, RNS vectors): per row within γ_{w+2}', () => {
    const rows = 6, cols = 5, width = 3;
    const colIndex = new Int32Array([0, 1, 2, 3, 4, -1, 2, 3, 4, 0, -1, -1, 4, 0, 1, 2, -1, -1]);
    fc.assert(fc.property(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 18, maxLength: 18 }), vec(cols), vec(rows), fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), (vals, xs, ys, alpha, beta) => {
      const values = Float64Array.from(vals, (v, k) => (colIndex[k] === -1 ? 0 : v));
      const Aop = ellFromMatrix({ rows, cols, width, stride: rows, colIndex, values }, f);
      const x = rnsVector(set, xs), y = rnsVector(set, ys);
      const ex = read(x), ey = read(y);
      ellSpmv({ alpha, A: Aop, x, beta, y });
      const got = read(y);
      const a = ofNumber(alpha), b = ofNumber(beta);
      for (let i = 0; i < rows; i++) {
        const terms: Q[] = [];
        for (let k = 0; k < width; k++) { const c = colIndex[i + k * rows]!; if (c >= 0) terms.push(mul(a, mul(ofNumber(values[i + k * rows]!), ex[c]!))); }
        const by = beta === 0 ? q(0n) : mul(b, ey[i]!);
        expect(within(got[i]!, add(sum(terms), by), mul(gamma(width + 2, u), add(sum(terms.map(abs)), abs(by))))).toBe(true);
      }
    }), { numRuns: runs });
  });
});

describe('RNS GEMV loop orders', () => {
  it('dot-blocked (16 open sums at once) gives the values of dot (one at a time), column-major A', () => {
    const set = rnsModuliSet(424);
    const f = rnsFormat(424);
    // Long rows of doubles, so every row's sum opens (after 8 terms) and the sums of a block (gemvRowBlock: 16
    // rows for RNS) stay open together; up to two blocks and leftover rows.
    const dims = fc.tuple(fc.integer({ min: 1, max: 35 }), fc.integer({ min: 8, max: 20 }));
    fc.assert(fc.property(dims.chain(([m, n]) => fc.tuple(fc.constant([m, n] as const),
      fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: m * n, maxLength: m * n }),
      fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: n, maxLength: n }))), ([[m, n], as, xs]) => {
      const A = range(colMajor<2, RnsNumber>({ size: [m, n], storage: f, arithmetic: f }));
      for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) A.set(i, j, as[i + j * m]!);
      const x = rnsVector(set, xs.map(ofNumber));
      const [a, b] = (['dot', 'dot-blocked'] as const).map((loop) => {
        const y = rnsVector(set, Array.from({ length: m }, (_, i) => ofNumber(i - 2.5)));
        gemv({ alpha: 0.75, A, x, beta: -0.5, y }, { loop });
        return read(y);
      });
      expect(b).toEqual(a);
    }), { numRuns: 20 });
  });
});
