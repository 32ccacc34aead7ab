/**
 * Every CPU kernel runs in double-double arithmetic through the same generated code paths, with no kernel code
 * of its own: each result is compared with the exact value (BigInt rationals) on data where an fp64 computation
 * would visibly round (thirds, tenths).
 */
import { describe, it, expect } from 'vitest';
import '../../src/formats/dd/register.js';
import { range, rowMajor, colMajor, vector, dot, axpy, waxpby, scal, nrm2, asum } from '../../src/index.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { trsv } from '../../kernels/trsv/trsv.js';
import { ellSpmv } from '../../kernels/ell-spmv/ell-spmv.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import type { DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { Q } from './exact-rational.js';

const ddVec = (values: readonly number[]) => {
  const r = range(rowMajor<1, DdValue>({ size: values.length, storage: 'dd' }));
  values.forEach((v, i) => r.set(i, { hi: v, lo: 0 }));
  return r;
};
const q = (v: DdValue): Q => Q.dd(v.hi, v.lo);
/** |got − exact| ≤ 2^-98·scale: far inside DD accuracy, far outside fp64's. */
const close = (got: DdValue, exact: Q, scale: Q): boolean => q(got).sub(exact).abs().cmp(scale.abs().mul(Q.of(2 ** -98))) <= 0;
const xs = [1 / 3, 0.1, -2 / 7, 5, 1e-3];
const ys = [0.7, -1 / 9, 3, 0.25, 1 / 11];

describe('every CPU kernel in DD arithmetic', () => {
  it('AXPY, WAXPBY, SCAL on DD storage', () => {
    const y = ddVec(ys);
    axpy(0.1, ddVec(xs), y);
    xs.forEach((x, i) => expect(close(y.get(i), Q.of(0.1).mul(Q.of(x)).add(Q.of(ys[i]!)), Q.of(1))).toBe(true));
    const w = ddVec(xs.map(() => 0));
    waxpby(1 / 3, ddVec(xs), -0.3, ddVec(ys), w);
    xs.forEach((x, i) => expect(close(w.get(i), Q.of(1 / 3).mul(Q.of(x)).add(Q.of(-0.3).mul(Q.of(ys[i]!))), Q.of(1))).toBe(true));
    const s = ddVec(xs);
    scal(1 / 3, s);
    xs.forEach((x, i) => expect(close(s.get(i), Q.of(1 / 3).mul(Q.of(x)), Q.of(x))).toBe(true));
  });

  it('DOT, NRM2, ASUM (results rounded to double are the correctly rounded exact values here)', () => {
    const exactDot = xs.reduce((acc, x, i) => acc.add(Q.of(x).mul(Q.of(ys[i]!))), new Q(0n));
    const out = range(rowMajor<1, DdValue>({ size: 1, storage: 'dd' }));
    dot(ddVec(xs), ddVec(ys), { into: out });
    expect(close(out.get(0), exactDot, Q.of(10))).toBe(true);
    const sumSq = xs.reduce((acc, x) => acc.add(Q.of(x).mul(Q.of(x))), new Q(0n));
    const r = nrm2(ddVec(xs));
    // r = RN(√Σx²) up to DD error: r² brackets Σx² within one fp64 ulp
    expect(Math.abs(r * r - sumSq.toNumber()) / sumSq.toNumber()).toBeLessThanOrEqual(2 ** -51);
    expect(asum(ddVec(xs))).toBe(xs.reduce((acc, x) => acc.add(Q.of(Math.abs(x))), new Q(0n)).toNumber());
  });

  it('GEMV (row- and column-major, N and T) on DD storage', () => {
    const m = 3, n = 5;
    const a = (i: number, j: number) => 1 / (i + j + 1);
    for (const layout of [rowMajor, colMajor]) {
      const A = range(layout<2, DdValue>({ size: [m, n], storage: 'dd' }));
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, { hi: a(i, j), lo: 0 });
      const y = ddVec([1, 2, 3]);
      gemv({ alpha: 0.1, A, x: ddVec(xs), beta: -1 / 3, y, trans: 'N' });
      for (let i = 0; i < m; i++) {
        let e = new Q(0n);
        for (let j = 0; j < n; j++) e = e.add(Q.of(a(i, j)).mul(Q.of(xs[j]!)));
        expect(close(y.get(i), e.mul(Q.of(0.1)).add(Q.of(-1 / 3).mul(Q.of(i + 1))), Q.of(10))).toBe(true);
      }
      const z = ddVec(xs);
      gemv({ alpha: 1, A, x: ddVec([1, 2, 3]), beta: 0, y: z, trans: 'T' });
      for (let j = 0; j < n; j++) {
        let e = new Q(0n);
        for (let i = 0; i < m; i++) e = e.add(Q.of(a(i, j)).mul(Q.of(i + 1)));
        expect(close(z.get(j), e, Q.of(10))).toBe(true);
      }
    }
  });

  it('TRSV: solves an upper-triangular system in DD (residual at DD level)', () => {
    const n = 6;
    const U = range(rowMajor<2, DdValue>({ size: [n, n], storage: 'dd' }));
    for (let i = 0; i < n; i++) for (let j = i; j < n; j++) U.set(i, j, { hi: i === j ? 1 + 1 / (i + 3) : 1 / (i + j + 2), lo: 0 });
    const b = xs.concat([7]);
    const x = ddVec(b);
    trsv({ A: U, x, uplo: 'U', trans: 'N', diag: 'N' });
    for (let i = 0; i < n; i++) {
      let r = new Q(0n);
      for (let j = i; j < n; j++) { const u = U.get(i, j); r = r.add(Q.dd(u.hi, u.lo).mul(q(x.get(j)))); }
      // residual (U·x − b)_i, exactly, at the DD level (fp64 would leave ~1e-16)
      expect(r.sub(Q.of(b[i]!)).abs().cmp(Q.of(1e3 * 2 ** -98))).toBeLessThanOrEqual(0);
    }
  });

  it('ELL SpMV with fp64 matrix values and DD vectors', () => {
    const A = laplacianEll([4, 3]);
    const n = A.rows;
    const xv = Array.from({ length: n }, (_, i) => 1 / (i + 3));
    const y = ddVec(new Array(n).fill(0));
    ellSpmv({ alpha: 1 / 3, A, x: ddVec(xv), beta: 0, y });
    for (let i = 0; i < n; i++) {
      let e = new Q(0n);
      for (let k = 0; k < A.width; k++) {
        const c = A.colIndex[i + k * A.stride]!;
        if (c >= 0) e = e.add(Q.of(A.values[i + k * A.stride]!).mul(Q.of(xv[c]!)));
      }
      expect(close(y.get(i), e.mul(Q.of(1 / 3)), Q.of(10))).toBe(true);
    }
  });

  it('vector() with DD arithmetic over fp64 storage works as a convenience', () => {
    const v = vector([1, 2], { arithmetic: 'dd' });
    expect(dot(v, v)).toBe(5);
  });
});
