import { describe, expect, it } from 'vitest';
import { ModprecError } from '../../src/core/errors.js';
import { rnsFormat } from '../../src/formats/rns/register.js';
import { range, colMajor, rowMajor, toArray, dot, axpy } from '../../src/index.js';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsArray } from '../../src/formats/rns/rns-array.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsFromNumber } from '../../src/formats/rns/convert-number.js';
import { eq, ofRns, q } from './oracle.js';

describe('mp_array storage (seed 000 Table 2 layout)', () => {
  const set = rnsModuliSet(212);
  const f = rnsFormat(212);
  const n = set.size;

  it('column-major matrix: digit r of (i, j) at r + (i + j·LDA)·n; sign, exp, eval lo/up at k and L + k', () => {
    const lda = 4, rows = 3, cols = 4;
    const data = new RnsArray(set, lda * cols);
    const A = range(colMajor<2, RnsNumber>({ size: [rows, cols], storage: f, arithmetic: f, stride: lda, data }));
    const v = (i: number, j: number) => (i + 1) * 10 + (j + 1) * (j % 2 ? -1 : 1) / 8;
    for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) A.set(i, j, v(i, j));
    const expected = new RnsNumber(set);
    for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) {
      rnsFromNumber(expected, v(i, j));
      const k = i + j * lda;
      for (let r = 0; r < n; r++) expect(data.digits[r + k * n]).toBe(expected.digits[r]);
      expect(data.sign[k]).toBe(expected.sign);
      expect(data.exp[k]).toBe(expected.exp);
      expect([data.evalFrac[k], data.evalExp[k], data.evalFrac[data.length + k], data.evalExp[data.length + k]])
        .toEqual([expected.lf, expected.le, expected.uf, expected.ue]);
    }
    // the padding row (i = 3) is untouched
    for (let j = 0; j < cols; j++) {
      const k = 3 + j * lda;
      for (let r = 0; r < n; r++) expect(data.digits[r + k * n]).toBe(0);
      expect(data.evalFrac[k]).toBe(0);
    }
    expect(Array.from(toArray(A))).toEqual(Array.from({ length: rows * cols }, (_, t) => v(Math.floor(t / cols), t % cols)));
  });

  it('decode is exact and encode of another set rounds correctly', () => {
    const x = range(rowMajor<1, RnsNumber>({ size: [2], storage: f, arithmetic: f }));
    const hi = new RnsNumber(rnsModuliSet(424));
    rnsFromNumber(hi, 1 / 3);
    x.set(0, hi); // 53-bit value: exact in 212 bits
    expect(eq(ofRns(x.get(0)), ofRns(hi))).toBe(true);
    expect((f.storage!.decode(x.accessor.data as RnsArray, 1) as RnsNumber).isZero()).toBe(true);
    expect(eq(ofRns(x.get(1)), q(0n))).toBe(true);
  });

  it('an array of another moduli set is refused by the accessor (INVALID_STORAGE)', () => {
    const other = new RnsArray(rnsModuliSet(106), 4);
    try { range(rowMajor<1, RnsNumber>({ size: [4], storage: f, arithmetic: f, data: other })); expect.unreachable(); } catch (e) {
      expect(e).toBeInstanceOf(ModprecError);
      expect((e as ModprecError).code).toBe('INVALID_STORAGE');
    }
    expect(() => new RnsArray(set, -1)).toThrow(ModprecError);
  });

  it('fp64 arithmetic reads and writes mp_array storage through the lazy storage temporaries', () => {
    const xs = [0.1, -2.5, 3, 1e-3, 7], ys = [1 / 3, 0.25, -1, 1e5, 2];
    // filled through RNS-arithmetic views (the core's scalar fp64 path does not encode into kind mp) …
    const xd = new RnsArray(set, 5), yd = new RnsArray(set, 5);
    const xr = range(rowMajor<1, RnsNumber>({ size: [5], storage: f, arithmetic: f, data: xd }));
    const yr = range(rowMajor<1, RnsNumber>({ size: [5], storage: f, arithmetic: f, data: yd }));
    xs.forEach((v, i) => { xr.set(i, v); yr.set(i, ys[i]!); });
    // … then read and written by fp64 arithmetic in generated kernels
    const x = range(rowMajor<1, number>({ size: [5], storage: f, arithmetic: 'f64', data: xd }));
    const y = range(rowMajor<1, number>({ size: [5], storage: f, arithmetic: 'f64', data: yd }));
    let s = 0;
    for (let i = 0; i < 5; i++) s = xs[i]! * ys[i]! + s;
    expect(dot(x, y)).toBe(s);
    axpy(0.5, x, y);
    expect(Array.from(toArray(y))).toEqual(ys.map((v, i) => 0.5 * xs[i]! + v));
    expect(eq(ofRns(yr.get(2)), q(1n, 2n))).toBe(true); // 0.5·3 − 1, written back exactly
  });
});
