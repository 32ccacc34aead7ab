/**
 * The CPU's cross-backend matrix (issue 20): input storage (f64, f32, f16, bf16, dd) × layout (packed; strided: a
 * row-major sub-range and vectors walked backwards with stride −2) × backend ('wasm', 'js') for all nine kernels
 * in fp64 arithmetic, and DOT, GEMV and ELL SpMV in double-double, each result checked against the exact rational value of the
 * operation on the stored inputs and the kernel's a-priori bound for the same call. Outputs are fp64, or fp32 for
 * fp32 storage (WebAssembly writes those two). TRSV takes op(A) with contiguous columns (WebAssembly's loop
 * order): A column-major, or the transpose of a row-major lower triangle.
 */
import { describe, expect, it } from 'vitest';
import {
  dot, gemv, ellSpmv, axpy, asum, nrm2, waxpby, scal, trsv, nrm2Bound, dotBound, gemvBound, ellSpmvBound, axpyBound, asumBound, waxpbyBound, scalBound, trsvBound,
  range, colMajor, rowMajor, span, formats, ellOperand, laplacianEll, type Range,
} from '../../src/index.js';
import { Q } from '../dd/exact-rational.js';
import { randomValues } from '../gpu/gpu-test-helpers.js';
import '../../src/formats/dd/register.js';

const STORAGES = [formats.f64, formats.f32, formats.f16, formats.bf16, formats.dd] as const;
type Fmt = (typeof STORAGES)[number];
type Layout = 'packed' | 'strided';
const f64 = formats.f64;

/** Writes v (dd storage: the pair (v, v·2^-60), so the low part counts) through the storage. */
function put(r: Range<any, any>, index: number[], v: number): void {
  const a = r.accessor;
  a.storage.encode(a.data as never, a.linearIndex(index), a.storage.name === 'dd' ? { hi: v, lo: v * 2 ** -60 } : v);
}
/** The exact value an element holds (dd: hi + lo). */
function held(r: Range<any, any>, index: number[]): Q {
  const a = r.accessor;
  const v = a.storage.decode(a.data as never, a.linearIndex(index)) as number | { hi: number; lo: number };
  return typeof v === 'number' ? Q.of(v) : Q.of(v.hi).add(Q.of(v.lo));
}
const heldVector = (r: Range<1, any>): Q[] => Array.from({ length: r.length() }, (_, i) => held(r, [i]));
const numbers = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i) as number);
const within = (got: number, exact: Q, bound: number): boolean => Q.of(got).sub(exact).abs().cmp(Q.of(bound)) <= 0;

function vectorIn(layout: Layout, values: ArrayLike<number>, storage: Fmt): Range<1, any> {
  const n = values.length;
  const r = layout === 'packed'
    ? range(rowMajor<1, any>({ size: [n], storage, arithmetic: f64 }))
    : range(colMajor<1, any>({ size: [n], stride: -2, storage, arithmetic: f64 }));
  for (let i = 0; i < n; i++) put(r, [i], values[i]!);
  return r;
}
function matrixIn(layout: Layout, m: number, n: number, f: (i: number, j: number) => number, storage: Fmt): Range<2, any> {
  const A = layout === 'packed'
    ? range(colMajor<2, any>({ size: [m, n], storage, arithmetic: f64 }))
    : range(rowMajor<2, any>({ size: [m + 3, n + 2], storage, arithmetic: f64 })).sub(span(2, m + 2), span(1, n + 1));
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) put(A, [i, j], f(i, j));
  return A;
}
/** An output vector: the storage itself where WebAssembly writes it (f64, f32), else f64. */
const outputStorage = (s: Fmt): Fmt => (s === formats.f32 ? formats.f32 : f64);

function* cases(): Generator<{ storage: Fmt; layout: Layout; backend: 'wasm' | 'js'; label: string }> {
  for (const storage of STORAGES) for (const layout of ['packed', 'strided'] as const) {
    for (const backend of ['wasm', 'js'] as const) yield { storage, layout, backend, label: `${storage.name}/${layout}/${backend}` };
  }
}

describe("storage × layout × backend ('wasm', 'js') against the exact value and the a-priori bound", () => {
  it('DOT (fp64 and double-double arithmetic), ASUM and NRM2', () => {
    const n = 157;
    for (const c of cases()) {
      const x = vectorIn(c.layout, randomValues(n, 1), c.storage), y = vectorIn(c.layout, randomValues(n, 2, 3), c.storage);
      const ys = heldVector(y);
      const exact = heldVector(x).reduce((s, v, i) => s.add(v.mul(ys[i]!)), Q.of(0));
      for (const options of [{}, { arithmetic: formats.dd }, { accumulation: 'dd' }]) {
        const got = dot(x, y, { ...options, backend: c.backend });
        expect(within(got, exact, dotBound(x, y, options) + 2 ** -53 * Math.abs(got)), `DOT ${c.label} ${JSON.stringify(options)}`).toBe(true);
      }
      const aGot = asum(y, { backend: c.backend });
      expect(within(aGot, ys.reduce((s, v) => s.add(v.abs()), Q.of(0)), asumBound(y) + 2 ** -53 * aGot), `ASUM ${c.label}`).toBe(true);
      const nGot = nrm2(y, { backend: c.backend }), nBound = nrm2Bound(y);
      const sq = ys.reduce((s, v) => s.add(v.mul(v)), Q.of(0));
      const hi = Q.of(nGot).add(Q.of(nBound)), lo = Q.of(nGot).sub(Q.of(nBound));
      expect(hi.mul(hi).cmp(sq) >= 0 && (lo.cmp(Q.of(0)) <= 0 || lo.mul(lo).cmp(sq) <= 0), `NRM2 ${c.label}`).toBe(true);
    }
  });

  it('GEMV N and T, ELL SpMV (fp64 and double-double arithmetic, the dd accumulation)', () => {
    const m = 19, n = 23;
    for (const c of cases()) for (const options of [{}, { arithmetic: formats.dd }, { accumulation: 'dd' }]) {
      for (const trans of ['N', 'T'] as const) {
        const A = matrixIn(c.layout, m, n, (i, j) => Math.sin(3 * i + 7 * j + 1), c.storage);
        const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
        const x = vectorIn(c.layout, randomValues(cols, 5), c.storage), y = vectorIn(c.layout, randomValues(rows, 6), outputStorage(c.storage));
        const args = { alpha: 0.75, A, x, beta: -1.25, y, trans };
        const bound = gemvBound(args, options);
        const xs = heldVector(x), ys = heldVector(y);
        const exact = Array.from({ length: rows }, (_, i) => {
          let s = Q.of(0);
          for (let j = 0; j < cols; j++) s = s.add((trans === 'N' ? held(A, [i, j]) : held(A, [j, i])).mul(xs[j]!));
          return Q.of(0.75).mul(s).add(Q.of(-1.25).mul(ys[i]!));
        });
        gemv(args, { ...options, backend: c.backend });
        numbers(y).forEach((v, i) => expect(within(v, exact[i]!, bound[i]!), `GEMV ${c.label} ${trans} row ${i} ${JSON.stringify(options)}`).toBe(true));
      }
      const L = laplacianEll([4, 5]);
      const V = matrixIn(c.layout, L.stride, L.width, (i, k) => L.values[i + k * L.stride]! * (1 + i / 64), c.storage);
      const A = ellOperand(L, V);
      const x = vectorIn(c.layout, randomValues(L.cols, 8), c.storage), y = vectorIn(c.layout, randomValues(L.rows, 9), outputStorage(c.storage));
      const args = { alpha: 1.5, A, x, beta: 0.5, y };
      const bound = ellSpmvBound(args, options);
      const xs = heldVector(x), ys = heldVector(y);
      const exact = Array.from({ length: L.rows }, (_, i) => {
        let s = Q.of(0);
        for (let k = 0; k < L.width && L.colIndex[i + k * L.stride]! >= 0; k++) s = s.add(held(V, [i, k]).mul(xs[L.colIndex[i + k * L.stride]!]!));
        return Q.of(1.5).mul(s).add(Q.of(0.5).mul(ys[i]!));
      });
      ellSpmv(args, { ...options, backend: c.backend });
      numbers(y).forEach((v, i) => expect(within(v, exact[i]!, bound[i]!), `ELL ${c.label} row ${i} ${JSON.stringify(options)}`).toBe(true));
    }
  });

  it('AXPY, WAXPBY, SCAL and TRSV', () => {
    const n = 21;
    for (const c of cases()) {
      const out = outputStorage(c.storage);
      const x = vectorIn(c.layout, randomValues(n, 12), c.storage), y = vectorIn(c.layout, randomValues(n, 13), c.storage);
      const xs = heldVector(x), ys = heldVector(y);
      const z = vectorIn(c.layout, randomValues(n, 10), out), zs = heldVector(z);
      const zb = axpyBound(-0.375, x, z);
      axpy(-0.375, x, z, { backend: c.backend });
      numbers(z).forEach((v, i) => expect(within(v, Q.of(-0.375).mul(xs[i]!).add(zs[i]!), zb[i]!), `AXPY ${c.label} ${i}`).toBe(true));
      const w = vectorIn(c.layout, new Float64Array(n), out);
      const wb = waxpbyBound(0.625, x, -1.5, y, w);
      waxpby(0.625, x, -1.5, y, w, { backend: c.backend });
      numbers(w).forEach((v, i) => expect(within(v, Q.of(0.625).mul(xs[i]!).add(Q.of(-1.5).mul(ys[i]!)), wb[i]!), `WAXPBY ${c.label} ${i}`).toBe(true));
      const ws = heldVector(w), sb = scalBound(-0.3, w);
      scal(-0.3, w, { backend: c.backend });
      numbers(w).forEach((v, i) => expect(within(v, Q.of(-0.3).mul(ws[i]!), sb[i]!), `SCAL ${c.label} ${i}`).toBe(true));

      // op(A) = U upper triangular with contiguous columns: U column-major, or Lᵀ with L = Uᵀ row-major.
      const u = (i: number, j: number): number => (i === j ? 4 + (i % 3) : i < j ? Math.sin(i + 2 * j) / n : 0);
      const strided = c.layout === 'strided';
      const A = matrixIn(c.layout, n, n, strided ? (i, j) => u(j, i) : u, c.storage);
      const b = vectorIn(c.layout, randomValues(n, 14), out), bs = heldVector(b);
      const call = { A, x: b, uplo: strided ? 'L' as const : 'U' as const, trans: strided ? 'T' as const : 'N' as const };
      const tb = trsvBound(call);
      trsv(call, { backend: c.backend });
      const U = (i: number, j: number): Q => (strided ? held(A, [j, i]) : held(A, [i, j]));
      const xe: Q[] = new Array(n);
      for (let i = n - 1; i >= 0; i--) {
        let s = bs[i]!;
        for (let j = i + 1; j < n; j++) s = s.sub(U(i, j).mul(xe[j]!));
        xe[i] = s.div(U(i, i));
      }
      numbers(b).forEach((v, i) => expect(within(v, xe[i]!, tb[i]!), `TRSV ${c.label} ${i}`).toBe(true));
    }
  });
});
