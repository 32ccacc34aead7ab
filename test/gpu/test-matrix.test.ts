/**
 * One test matrix over storage × arithmetic × layout × backend (issue 14, item 4; dd storage and arithmetic: issue
 * 18, dd-split included): DOT, ASUM, GEMV (N and T),
 * ELL SpMV, AXPY, WAXPBY, SCAL and TRSV, on the CPU and on the GPU (llvmpipe in CI — required, not skipped), each result checked against the
 * exact rational value of the operation on the stored inputs and the CPU's a-priori bound for the same call
 * (computed before the kernel, with the same arithmetic).
 */
import { describe, expect, it } from 'vitest';
import {
  dot, gemv, ellSpmv, axpy, asum, nrm2, waxpby, scal, trsv, nrm2Bound, dotBound, gemvBound, ellSpmvBound, axpyBound, asumBound, waxpbyBound, scalBound, trsvBound, range, colMajor, rowMajor, span, formats,
  ellWithStorage, csrToEll, laplacianCsr, type Range,
} from '../../src/index.js';
import { Q } from '../dd/exact-rational.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const STORAGES = [formats.f64, formats.f32, formats.f16, formats.bf16, formats.dd, formats.ddSplit] as const;
const ARITHMETICS = [formats.f32, formats.ff, formats.dd] as const;
const BACKENDS = ['cpu', 'gpu'] as const;
type Fmt = (typeof STORAGES)[number];
type Ar = (typeof ARITHMETICS)[number];

/** A vector of `values` in one of two layouts: packed, or every other element walked backwards. */
function vectorIn(layout: 'packed' | 'strided', values: ArrayLike<number>, storage: Fmt, arithmetic: Ar): Range<1, any> {
  const n = values.length;
  const r = layout === 'packed'
    ? range(rowMajor<1>({ size: [n], storage, arithmetic }))
    : range(colMajor<1>({ size: [n], stride: -2, storage, arithmetic }));
  for (let i = 0; i < n; i++) r.set(i, values[i]!);
  return r;
}

/** An m×n matrix: column-major, or a row-major sub-range of a larger matrix (offset, leading dimension). */
function matrixIn(layout: 'packed' | 'strided', m: number, n: number, f: (i: number, j: number) => number, storage: Fmt, arithmetic: Ar): Range<2, any> {
  const A = layout === 'packed'
    ? range(colMajor<2>({ size: [m, n], storage, arithmetic }))
    : range(rowMajor<2>({ size: [m + 3, n + 2], storage, arithmetic })).sub(span(2, m + 2), span(1, n + 1));
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, f(i, j));
  return A;
}

/** The exact value of a decoded element: a number, or a double-double pair hi + lo. */
const exactOf = (v: unknown): Q => (typeof v === 'number' ? Q.of(v) : Q.of((v as { hi: number }).hi).add(Q.of((v as { lo: number }).lo)));

/** The exact stored values of a vector (decoded by its storage; `get` would convert them to the arithmetic). */
function storedNumbers(r: Range<1, any>): Q[] {
  const a = r.accessor;
  return Array.from({ length: r.length() }, (_, i) => exactOf(a.storage.decode(a.data as never, a.linearIndex([i]))));
}
const stored = storedNumbers;
const within = (got: number | Q, exact: Q, bound: number): boolean => (typeof got === 'number' ? Q.of(got) : got).sub(exact).abs().cmp(Q.of(bound)) <= 0;

/** The one layout the dd arithmetic's rows take for each storage other than dd. */
const DD_LAYOUT: Readonly<Record<string, 'packed' | 'strided'>> = { f64: 'strided', f32: 'packed', f16: 'strided', bf16: 'packed' };

/** Every combination, with the backend last so each CPU case is followed by its GPU twin. */
function* cases(): Generator<{ storage: Fmt; arithmetic: Ar; layout: 'packed' | 'strided'; backend: 'cpu' | 'gpu'; label: string }> {
  for (const storage of STORAGES) for (const arithmetic of ARITHMETICS) for (const layout of ['packed', 'strided'] as const) {
    // dd storage is read by the dd arithmetic only (f32 or ff would drop lo: the GPU refuses them). The dd
    // arithmetic's shaders take llvmpipe seconds each to compile, so its rows cover every storage in one layout
    // (alternating) and dd storage in both.
    // dd-split (hi and lo arrays; on the device the bytes of each) has dd's rows.
    const ddStored = storage === formats.dd || storage === formats.ddSplit;
    if (ddStored && arithmetic !== formats.dd) continue;
    if (arithmetic === formats.dd && !ddStored && layout !== DD_LAYOUT[storage.name]) continue;
    for (const backend of BACKENDS) yield { storage, arithmetic, layout, backend, label: `${storage.name}/${arithmetic.name}/${layout}/${backend}` };
  }
}

describe('storage × arithmetic × layout × backend against the exact value and the a-priori bound', () => {
  it('DOT, ASUM and NRM2', async () => {
    await requireRuntime();
    const n = 157;
    for (const c of cases()) {
      const x = vectorIn(c.layout, randomValues(n, 1), c.storage, c.arithmetic);
      const y = vectorIn(c.layout, randomValues(n, 2, 3), c.storage, c.arithmetic);
      const bound = dotBound(x, y, { arithmetic: c.arithmetic });
      const exact = stored(x).reduce((s, v, i) => s.add(v.mul(stored(y)[i]!)), Q.of(0));
      const got = c.backend === 'gpu' ? (await dot(x, y, { backend: 'gpu', arithmetic: c.arithmetic })).value : dot(x, y, { arithmetic: c.arithmetic });
      // dot() returns a double: its rounding (≤ 2^-53 of the result) comes on top of the bound.
      expect(within(got, exact, bound + 2 ** -53 * Math.abs(got)), c.label).toBe(true);
      const aBound = asumBound(y, { arithmetic: c.arithmetic });
      const aExact = stored(y).reduce((s, v) => s.add(v.abs()), Q.of(0));
      const aGot = c.backend === 'gpu' ? (await asum(y, { backend: 'gpu', arithmetic: c.arithmetic })).value : asum(y, { arithmetic: c.arithmetic });
      expect(within(aGot, aExact, aBound + 2 ** -53 * aGot), `ASUM ${c.label}`).toBe(true);
      // NRM2: |got − ‖y‖| ≤ bound, decided exactly by squaring (got ± bound against the exact Σ y²).
      const nBound = nrm2Bound(y, { arithmetic: c.arithmetic });
      const nGot = c.backend === 'gpu' ? (await nrm2(y, { backend: 'gpu', arithmetic: c.arithmetic })).value : nrm2(y, { arithmetic: c.arithmetic });
      const sq = stored(y).reduce((s, v) => s.add(v.mul(v)), Q.of(0));
      const hiQ = Q.of(nGot).add(Q.of(nBound)), loQ = Q.of(nGot).sub(Q.of(nBound));
      expect(hiQ.mul(hiQ).cmp(sq) >= 0 && (loQ.cmp(Q.of(0)) <= 0 || loQ.mul(loQ).cmp(sq) <= 0), `NRM2 ${c.label}`).toBe(true);
    }
  });

  it('GEMV N and T', async () => {
    await requireRuntime();
    const m = 19, n = 23;
    for (const c of cases()) {
      for (const trans of ['N', 'T'] as const) {
        const A = matrixIn(c.layout, m, n, (i, j) => Math.sin(3 * i + 7 * j + 1), c.storage, c.arithmetic);
        const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
        const x = vectorIn(c.layout, randomValues(cols, 5), c.storage, c.arithmetic);
        const y = vectorIn(c.layout, randomValues(rows, 6), c.storage, c.arithmetic);
        const args = { alpha: 0.75, A, x, beta: -1.25, y, trans };
        const bound = gemvBound(args, { arithmetic: c.arithmetic });
        const xs = stored(x), ys = stored(y);
        const exact = Array.from({ length: rows }, (_, i) => {
          let s = Q.of(0);
          for (let j = 0; j < cols; j++) s = s.add((trans === 'N' ? storedValue(A, i, j) : storedValue(A, j, i)).mul(xs[j]!));
          return Q.of(0.75).mul(s).add(Q.of(-1.25).mul(ys[i]!));
        });
        if (c.backend === 'gpu') await gemv(args, { backend: 'gpu', arithmetic: c.arithmetic });
        else gemv(args, { arithmetic: c.arithmetic });
        const got = storedNumbers(y);
        for (let i = 0; i < rows; i++) expect(within(got[i]!, exact[i]!, bound[i]!), `${c.label} ${trans} row ${i}`).toBe(true);
      }
    }
  });

  it('ELL SpMV and AXPY', async () => {
    await requireRuntime();
    const grid = [4, 5] as const, rows = 20;
    for (const c of cases()) {
      const A = ellWithStorage(csrToEll(laplacianCsr([...grid])), { storage: c.storage, arithmetic: c.arithmetic });
      const x = vectorIn(c.layout, randomValues(rows, 8), c.storage, c.arithmetic);
      const y = vectorIn(c.layout, randomValues(rows, 9), c.storage, c.arithmetic);
      const args = { alpha: 1.5, A, x, beta: 0.5, y };
      const bound = ellSpmvBound(args, { arithmetic: c.arithmetic });
      const xs = stored(x), ys = stored(y);
      const { width, stride, colIndex } = A.structure;
      const exact = Array.from({ length: rows }, (_, i) => {
        let s = Q.of(0);
        for (let k = 0; k < width; k++) {
          const col = colIndex[i + k * stride]!;
          if (col >= 0) s = s.add((storedValue(A.values, i, k)).mul(xs[col]!));
        }
        return Q.of(1.5).mul(s).add(Q.of(0.5).mul(ys[i]!));
      });
      if (c.backend === 'gpu') await ellSpmv(args, { backend: 'gpu', arithmetic: c.arithmetic });
      else ellSpmv(args, { arithmetic: c.arithmetic });
      const got = storedNumbers(y);
      for (let i = 0; i < rows; i++) expect(within(got[i]!, exact[i]!, bound[i]!), `ELL ${c.label} row ${i}`).toBe(true);

      const z = vectorIn(c.layout, randomValues(rows, 10), c.storage, c.arithmetic);
      const zs = stored(z), xs2 = stored(x);
      const zb = axpyBound(-0.375, x, z, { arithmetic: c.arithmetic });
      if (c.backend === 'gpu') await axpy(-0.375, x, z, { backend: 'gpu', arithmetic: c.arithmetic });
      else axpy(-0.375, x, z, { arithmetic: c.arithmetic });
      const zg = storedNumbers(z);
      for (let i = 0; i < rows; i++) expect(within(zg[i]!, Q.of(-0.375).mul(xs2[i]!).add(zs[i]!), zb[i]!), `AXPY ${c.label} ${i}`).toBe(true);
    }
  });
});

describe('the same matrix for WAXPBY, SCAL and TRSV', () => {
  it('WAXPBY and SCAL within their a-priori bounds; TRSV of a diagonally dominant triangle within trsvBound on both backends', async () => {
    await requireRuntime();
    const n = 21;
    for (const c of cases()) {
      const x = vectorIn(c.layout, randomValues(n, 12), c.storage, c.arithmetic);
      const y = vectorIn(c.layout, randomValues(n, 13), c.storage, c.arithmetic);
      const w = vectorIn(c.layout, new Float64Array(n), c.storage, c.arithmetic);
      const xs = stored(x), ys = stored(y);
      const wb = waxpbyBound(0.625, x, -1.5, y, w, { arithmetic: c.arithmetic });
      if (c.backend === 'gpu') await waxpby(0.625, x, -1.5, y, w, { backend: 'gpu', arithmetic: c.arithmetic });
      else waxpby(0.625, x, -1.5, y, w, { arithmetic: c.arithmetic });
      const wg = storedNumbers(w);
      for (let i = 0; i < n; i++) expect(within(wg[i]!, Q.of(0.625).mul(xs[i]!).add(Q.of(-1.5).mul(ys[i]!)), wb[i]!), `WAXPBY ${c.label} ${i}`).toBe(true);
      const sb = scalBound(-0.3, y, { arithmetic: c.arithmetic });
      if (c.backend === 'gpu') await scal(-0.3, y, { backend: 'gpu', arithmetic: c.arithmetic });
      else scal(-0.3, y, { arithmetic: c.arithmetic });
      const sg = storedNumbers(y);
      for (let i = 0; i < n; i++) expect(within(sg[i]!, Q.of(-0.3).mul(ys[i]!), sb[i]!), `SCAL ${c.label} ${i}`).toBe(true);

      // TRSV within its bound for the backend that ran it (the GPU's models its explicitly inverted diagonal
      // blocks; test/gpu/trsv-gpu-bound.test.ts checks it on ill-conditioned ones).
      const U = matrixIn(c.layout, n, n, (i, j) => (i === j ? 4 + (i % 3) : i < j ? Math.sin(i + 2 * j) / n : 0), c.storage, c.arithmetic);
      const b = vectorIn(c.layout, randomValues(n, 14), c.storage, c.arithmetic);
      const bs = stored(b);
      if (c.backend === 'gpu') await trsv({ A: U, x: b }, { backend: 'gpu', arithmetic: c.arithmetic });
      else trsv({ A: U, x: b }, { arithmetic: c.arithmetic });
      const tb = trsvBound({ A: U, x: b }, c.backend === 'gpu' ? { backend: 'gpu', arithmetic: c.arithmetic } : { arithmetic: c.arithmetic });
      // The exact solution of the stored system, by back substitution in rationals.
      const xe: Q[] = new Array(n);
      for (let i = n - 1; i >= 0; i--) {
        let s = bs[i]!;
        for (let j = i + 1; j < n; j++) s = s.sub((storedValue(U, i, j)).mul(xe[j]!));
        xe[i] = s.div((storedValue(U, i, i)));
      }
      const xg = storedNumbers(b);
      for (let i = 0; i < n; i++) expect(within(xg[i]!, xe[i]!, tb[i]!), `TRSV ${c.label} ${i}`).toBe(true);
    }
  });
});

/** The exact stored value of element (i, k) of a range (decoded by its storage, not converted to its arithmetic). */
function storedValue(r: Range<2, any>, i: number, k: number): Q {
  const a = r.accessor;
  return exactOf(a.storage.decode(a.data as never, a.linearIndex([i, k])));
}
