/**
 * Double-double on the GPU through the public API, the kernels and layouts the dd shape test leaves out (a few fixed
 * cases: every dd program takes long to compile on llvmpipe): GEMV N with a dd-split matrix and an f32 x (products of
 * mixed kinds: dd's fused multiply-adds) into a dd-split y view, ELL SpMV with dd values over 300 rows with empty rows,
 * AXPY on strided dd views across the vector form, ASUM and NRM2 over dd pairs. Exact oracle of the pairs, the
 * library's bounds (default arithmetic: dd, the most precise of the operands').
 */
import { describe, expect, it } from 'vitest';
import {
  asum, asumBound, axpy, axpyBound, colMajor, ELL_PADDING, ellOperand, ellSpmv, ellSpmvBound, ellStructure, formats, gemv, gemvBound, nrm2, nrm2Bound, range,
} from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { addRational, compareRational, exactOf, mulRational, subRational } from '../../src/testing/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import {
  expectSpanKept, expectWithin, exactSumOfProducts, makeMatrix, makeVector, seededPairs, seededValues, storedFactors, storedMatrixFactors, type Factor,
} from './public-shapes-oracle.js';

const dd = formats.dd;

describe('double-double on the GPU: mixed kinds, dd-split, ELL, updates, ASUM, NRM2', () => {
  it('GEMV N: dd-split A, f32 x, dd-split y view', async () => {
    await requireRuntime();
    // N only: each mixed-kind dd program takes most of a minute to compile on llvmpipe.
    for (const trans of ['N'] as const) {
      const [m, n] = [300, 19];
      const [rows, inner] = trans === 'N' ? [m, n] : [n, m];
      const a = seededPairs(m * n, 41);
      const A = makeMatrix(m, n, (i, j) => a[i + j * m]!, formats.ddSplit, dd, 'sub-col');
      const x = makeVector(seededValues(inner, 42), formats.f32, formats.f32, -2, 1);
      const y = makeVector(seededPairs(rows, 43), formats.ddSplit, dd, 3, 1);
      const args = { alpha: -0.75, A, x: x.r, beta: 0.5, y: y.r, trans };
      const bound = gemvBound(args);
      const [hA, hx, hy] = [storedMatrixFactors(A), storedFactors(x.r), storedFactors(y.r)];
      expect((await gemv(args, { backend: 'gpu', strict: true })).backend).toBe('gpu');
      const got = storedFactors(y.r);
      expectSpanKept(`gemv ${trans}`, y);
      for (let i = 0; i < rows; i++) {
        const terms: Factor[][] = [[0.5, hy[i]!]];
        for (let k = 0; k < inner; k++) terms.push([-0.75, trans === 'N' ? hA[i + k * m]! : hA[k + i * m]!, hx[k]!]);
        expectWithin(`gemv ${trans} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
      }
    }
  });

  it('ELL SpMV: dd values, 300 rows, empty rows, stride > rows, y in f64', async () => {
    await requireRuntime();
    const [rows, cols, width, stride] = [300, 77, 4, 303];
    const colIndex = new Int32Array(stride * width).fill(ELL_PADDING);
    for (let i = 0; i < rows; i++) for (let k = 0; k < i % (width + 1); k++) colIndex[i + k * stride] = (i * 11 + k * 29) % cols;
    const S = ellStructure({ rows, cols, width, stride, colIndex });
    const v = seededPairs(stride * width, 51);
    const values = range(colMajor<2>({ size: [stride, width], stride, storage: dd, arithmetic: dd } as never)) as Range<2, any>;
    for (let k = 0; k < width; k++) for (let i = 0; i < stride; i++) values.set(i, k, (colIndex[i + k * stride] === ELL_PADDING ? { hi: 0, lo: 0 } : v[i + k * stride]!) as never);
    const x = makeVector(seededPairs(cols, 52), dd, dd, 1, 0);
    const y = makeVector(seededValues(rows, 53), formats.f64, dd, -1, 1);
    const args = { alpha: 1.5, A: ellOperand(S, values), x: x.r, beta: -1, y: y.r };
    const bound = ellSpmvBound(args);
    const [hx, hy] = [storedFactors(x.r), storedFactors(y.r)];
    expect((await ellSpmv(args, { backend: 'gpu', strict: true })).backend).toBe('gpu');
    const got = storedFactors(y.r);
    expectSpanKept('ell', y);
    for (let i = 0; i < rows; i++) {
      const terms: Factor[][] = [[-1, hy[i]!]];
      for (let k = 0; k < width; k++) {
        const col = colIndex[i + k * stride]!;
        if (col !== ELL_PADDING) terms.push([1.5, v[i + k * stride]!, hx[col]!]);
      }
      expectWithin(`ell y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
    }
  });

  it('AXPY on strided dd views; ASUM and NRM2 over dd pairs', async () => {
    await requireRuntime();
    for (const n of [7, 1027]) {
      const x = makeVector(seededPairs(n, 61), dd, dd, -2, 1);
      const y = makeVector(seededPairs(n, 62), dd, dd, 3, 1);
      const [hx, hy] = [storedFactors(x.r), storedFactors(y.r)];
      const b = axpyBound(0.1, x.r, y.r);
      expect((await axpy(0.1, x.r, y.r, { backend: 'gpu', strict: true })).backend).toBe('gpu');
      const got = storedFactors(y.r);
      expectSpanKept(`axpy ${n}`, y);
      for (let i = 0; i < n; i++) expectWithin(`axpy ${n} [${i}]`, got[i]!, exactSumOfProducts([[0.1, hx[i]!], [hy[i]!]]), b[i]!);
      const sb = asumBound(x.r);
      const s = await asum(x.r, { backend: 'gpu', strict: true });
      const abs = hx.map((f) => (typeof f === 'number' ? Math.abs(f) : f.hi < 0 ? { hi: -f.hi, lo: -f.lo } : f));
      expectWithin(`asum ${n}`, s.value, exactSumOfProducts(abs.map((f) => [f])), sb);
      const nb = nrm2Bound(x.r);
      const r = await nrm2(x.r, { backend: 'gpu', strict: true });
      const S = exactSumOfProducts(hx.map((f) => [f, f]));
      const lo = subRational(exactOf(r.value), exactOf(nb));
      const hi = addRational(exactOf(r.value), exactOf(nb));
      expect((lo.num <= 0n || compareRational(mulRational(lo, lo), S) <= 0) && compareRational(S, mulRational(hi, hi)) <= 0, `nrm2 ${n}: ${r.value} ± ${nb}`).toBe(true);
    }
  });
});
