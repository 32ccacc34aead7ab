/**
 * GEMV and TRSV on row-major matrix views through `backend: 'gpu'` (issue 14): a view whose rows are its compact
 * direction runs as the other trans (and, for TRSV, uplo) on its column-major transpose, whatever the binding limit,
 * so a row-major matrix over one storage binding is split in windows of its rows. Row-major matrices and sub-ranges of
 * them (column step 1 or 2, either stride negative, the view anywhere in a sentinel-filled array), f32/f16/bf16/f64
 * storage, f32 and ff arithmetic: the run under a lowered binding limit (the matrix over it) gives the unsplit run's
 * bits, both are within the CPU-side bound (gemvBound; trsvBound with `backend: 'gpu'`) of the exact rational result
 * on the stored values, and the output's array outside its (strided) view keeps its bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, gemv, gemvBound, range, strided, trsv, trsvBound, type Range } from '../../src/index.js';
import { absoluteError, addRational, compareRational, exactDot, exactOf, exactTriangularSolve, mulRational, type Rational } from '../../src/testing/index.js';
import { setBindingLimitForTests } from '../../src/backends/webgpu/device-array.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';

const STORAGES = { f32: formats.f32, f16: formats.f16, bf16: formats.bf16, f64: formats.f64 } as const;
type StorageName = keyof typeof STORAGES;
const ARITHMETICS = { f32: formats.f32, ff: formats.ff } as const;
type ArName = keyof typeof ARITHMETICS;

/** Bytes per stored element. */
const BYTES: Record<StorageName, number> = { f32: 4, f16: 2, bf16: 2, f64: 8 };

interface Layout {
  /** Column step of the view (1: a row-major matrix or a sub-range of one; 2: every other column). */
  readonly colStep: 1 | 2;
  /** Extra elements per row of the parent array beyond the view's columns (its leading dimension's slack). */
  readonly extra: number;
  readonly negRows: boolean;
  readonly negCols: boolean;
  /** Sentinel elements before the view's extent. */
  readonly pad: number;
}

interface View {
  readonly A: Range<2, any>;
  /** The row stride (the parent's leading dimension, signed) and the column stride. */
  readonly strides: readonly [number, number];
  /** Bytes of the view's extent in its array: what goes to the device. */
  readonly extentBytes: number;
}

/** A sentinel of element k: large, so a misplaced read shows in the result. */
const sentinel = (k: number): number => 512 + (k % 97);

/** An m×n view of a sentinel-filled array in `layout`, element (i, j) = f(i, j) (rounded to the storage). */
function viewOf(m: number, n: number, layout: Layout, storage: StorageName, ar: ArName, f: (i: number, j: number) => number, minLd = 0): View {
  const cs = layout.colStep * (layout.negCols ? -1 : 1);
  const ld = Math.max(minLd, layout.colStep * Math.max(1, n) + layout.extra);
  const rs = layout.negRows ? -ld : ld;
  const extent = (m - 1) * ld + (n - 1) * layout.colStep + 1;
  const st = STORAGES[storage].storage!;
  const data = st.allocate(layout.pad + extent + 7) as never;
  for (let k = 0; k < layout.pad + extent + 7; k++) st.encode(data, k, sentinel(k) as never);
  const offset = layout.pad + (layout.negRows ? (m - 1) * ld : 0) + (layout.negCols ? (n - 1) * layout.colStep : 0);
  const A = range(strided<2>({ size: [m, n], strides: [rs, cs], offset, data, storage: st, arithmetic: ARITHMETICS[ar] }));
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, f(i, j));
  return { A, strides: [rs, cs], extentBytes: extent * BYTES[storage] };
}

/** A vector of `values` at stride −2 in a sentinel-filled array (the sentinels must survive the kernel's write). */
function stridedVector(values: ArrayLike<number>, storage: StorageName, ar: ArName): Range<1, any> {
  const n = values.length;
  const st = STORAGES[storage].storage!;
  const data = st.allocate(2 * n + 3) as never;
  for (let k = 0; k < 2 * n + 3; k++) st.encode(data, k, sentinel(k) as never);
  const v = range(strided<1>({ size: [n], strides: [-2], offset: 2 * (n - 1) + 1, data, storage: st, arithmetic: ARITHMETICS[ar] }));
  for (let i = 0; i < n; i++) v.set(i, values[i]!);
  return v;
}

const storedAt = (r: Range<any, any>, ...index: number[]): number => r.accessor.storage.decode(r.accessor.data as never, r.accessor.linearIndex(index)) as number;
const bytesOf = (r: Range<any, any>): number[] => {
  const d = r.accessor.data as ArrayLike<number> & { buffer: ArrayBuffer; byteOffset: number; byteLength: number };
  return [...new Uint8Array(d.buffer, d.byteOffset, d.byteLength)];
};
/** A copy of a range over a copy of its array (same layout, same bytes). */
function copyOf<D extends 1 | 2>(r: Range<D, any>): Range<D, any> {
  const a = r.accessor;
  const data = (a.data as unknown as { slice(): unknown }).slice();
  return range(strided<D>({ size: a.size, strides: a.strides, offset: a.offset, data, storage: a.storage, arithmetic: a.arithmetic }));
}
/** |got − exact| ≤ bound, exactly. */
const within = (got: number, exact: Rational, bound: number): boolean => compareRational(absoluteError(got, exact), exactOf(bound)) <= 0;

/**
 * A limit (a multiple of 256 bytes) that holds `per` rows of the view and one binding's alignment slack, well below its
 * extent: the transposed matrix is split in windows of about `per` of its columns.
 */
function limitFor(view: View, n: number, storage: StorageName, per: number): number {
  const rowSpan = (n - 1) * Math.abs(view.strides[1]) + 1;
  const bytes = (256 + rowSpan + per * Math.abs(view.strides[0])) * BYTES[storage];
  return Math.ceil(Math.max(bytes, 1024) / 256) * 256;
}

const layouts = fc.record({
  colStep: fc.constantFrom<1 | 2>(1, 1, 2),
  extra: fc.integer({ min: 5, max: 9 }),
  negRows: fc.boolean(),
  negCols: fc.boolean(),
  pad: fc.integer({ min: 0, max: 40 }),
});

describe('row-major matrix views over one storage binding (GEMV, TRSV with backend gpu)', () => {
  it('GEMV N and T: split equals unsplit bit for bit, within gemvBound of the exact result, the output array outside y untouched', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.record({
        storage: fc.constantFrom<StorageName>('f32', 'f16', 'bf16', 'f64'),
        ar: fc.constantFrom<ArName>('f32', 'ff'),
        layout: layouts,
        m: fc.integer({ min: 240, max: 320 }),
        n: fc.integer({ min: 1, max: 12 }),
        trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
        alpha: fc.constantFrom(1, -0.75, 2.5),
        beta: fc.constantFrom(0, 1, -0.5),
        seed: fc.nat(10000),
      }),
      async (c) => {
        const label = JSON.stringify(c);
        const { m, n, trans, alpha, beta } = c;
        const r = randomValues(m * n, c.seed + 1);
        const view = viewOf(m, n, c.layout, c.storage, c.ar, (i, j) => r[i * n + j]!);
        const { A } = view;
        const [inner, outer] = trans === 'N' ? [n, m] : [m, n];
        const x = range(strided<1>({ size: [inner], strides: [1], storage: STORAGES[c.storage], arithmetic: ARITHMETICS[c.ar] }));
        const xv = randomValues(inner, c.seed + 2);
        for (let j = 0; j < inner; j++) x.set(j, xv[j]!);
        // y in f32 at least (f16/bf16 outputs would round the results to a few bits).
        const yStorage: StorageName = c.storage === 'f16' || c.storage === 'bf16' ? 'f32' : c.storage;
        const y = stridedVector(randomValues(outer, c.seed + 3), yStorage, c.ar);
        const before = bytesOf(y);
        const args = (yr: Range<1, any>) => ({ alpha, A, x, beta, y: yr, trans });
        const options = { arithmetic: ARITHMETICS[c.ar] };
        const bound = gemvBound(args(y), options);
        const y0 = Array.from({ length: outer }, (_, i) => storedAt(y, i));
        const ySplit = copyOf(y);
        await gemv(args(y), { backend: 'gpu', strict: true, ...options });
        // The limit must still hold y's extent (a stride −2 view, written in place; one binding's alignment slack): an
        // output over a binding is BACKEND_LIMIT, as documented — m = 289, n = 1 in bf16 once drew a limit below it.
        const yExtent = (2 * (outer - 1) + 1) * BYTES[yStorage] + 256;
        const limit = Math.max(limitFor(view, n, c.storage, 130), Math.ceil(yExtent / 256) * 256);
        expect(view.extentBytes, label).toBeGreaterThan(limit);
        setBindingLimitForTests(limit);
        try {
          await gemv(args(ySplit), { backend: 'gpu', strict: true, ...options });
        } finally {
          setBindingLimitForTests(undefined);
        }
        expect(bytesOf(ySplit), label).toEqual(bytesOf(y));
        // Outside y's view (stride −2) the array keeps its bytes.
        const after = bytesOf(y);
        const per = BYTES[yStorage];
        for (let k = 0; k < before.length; k++) {
          const element = Math.floor(k / per);
          if (element % 2 === 0 || element > 2 * (outer - 1) + 1) expect(after[k], `${label} byte ${k}`).toBe(before[k]);
        }
        for (let i = 0; i < outer; i++) {
          const row = Array.from({ length: inner }, (_, j) => (trans === 'N' ? storedAt(A, i, j) : storedAt(A, j, i)));
          let exact = mulRational(exactOf(alpha), exactDot(row, Array.from({ length: inner }, (_, j) => storedAt(x, j))));
          if (beta !== 0) exact = addRational(exact, mulRational(exactOf(beta), exactOf(y0[i]!)));
          expect(within(storedAt(y, i), exact, bound[i]!), `${label} y[${i}] = ${storedAt(y, i)}, bound ${bound[i]}`).toBe(true);
        }
      },
    ), { numRuns: 16 });
  });

  it('TRSV, all 8 variants: split equals unsplit bit for bit, within trsvBound (backend gpu) of the exact solution', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.record({
        storage: fc.constantFrom<StorageName>('f32', 'f16', 'bf16', 'f64'),
        ar: fc.constantFrom<ArName>('f32', 'ff'),
        layout: layouts,
        n: fc.integer({ min: 75, max: 110 }),
        seed: fc.nat(10000),
      }),
      async (c) => {
        const { n } = c;
        const r = randomValues(n * n, c.seed + 1);
        // Diagonal ±1 or ±2 (powers of two keep the exact solution dyadic: the rational oracle stays fast), the triangle's
        // other entries below 1/16 in magnitude, the other triangle's large (read, they would show in the solution).
        const entry = (uplo: 'L' | 'U') => (i: number, j: number): number => {
          const v = r[i * n + j]!;
          if (i === j) return Math.sign(v || 1) * (Math.abs(v) < 0.5 ? 1 : 2);
          return (uplo === 'L') === (j < i) ? v / 16 : 300 + v;
        };
        for (const uplo of ['L', 'U'] as const) {
          // TRSV binds its block inverses whole (64 × n rounded up to 64, in pairs for ff): the limit holds them, and 66 of
          // the view's rows (its leading dimension raised to make them that large; a window needs 64), under its n rows.
          const inverses = 256 * 64 * Math.ceil(n / 64) * 2;
          const view = viewOf(n, n, { ...c.layout, colStep: 1 }, c.storage, c.ar, entry(uplo), Math.ceil(inverses / (60 * BYTES[c.storage])));
          const { A } = view;
          const limit = limitFor(view, n, c.storage, 66);
          expect(view.extentBytes, JSON.stringify(c)).toBeGreaterThan(limit);
          for (const trans of ['N', 'T'] as const) {
            for (const diag of ['N', 'U'] as const) {
              const label = `${JSON.stringify(c)} ${uplo}${trans}${diag}`;
              const x = stridedVector(randomValues(n, c.seed + 2), c.storage === 'f64' ? 'f64' : 'f32', c.ar);
              const b = Array.from({ length: n }, (_, i) => storedAt(x, i));
              const xSplit = copyOf(x);
              const options = { backend: 'gpu' as const, strict: true, arithmetic: ARITHMETICS[c.ar] };
              // The blocked solve in both runs (the one-dispatch solve needs A in one binding).
              process.env.MODPREC_TRSV_ONE_DISPATCH = '0';
              rereadTuningKnobs();
              try {
                await trsv({ A, x, uplo, trans, diag }, options);
                setBindingLimitForTests(limit);
                try {
                  await trsv({ A, x: xSplit, uplo, trans, diag }, options);
                } finally {
                  setBindingLimitForTests(undefined);
                }
              } finally {
                delete process.env.MODPREC_TRSV_ONE_DISPATCH;
                rereadTuningKnobs();
              }
              expect(bytesOf(xSplit), label).toEqual(bytesOf(x));
              // The GPU bound is computed from the solution (b is gone), after the call.
              const bound = trsvBound({ A, x, uplo, trans, diag }, options);
              const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => exactOf(trans === 'N' ? storedAt(A, i, j) : storedAt(A, j, i))));
              const exact = exactTriangularSolve(T, b.map(exactOf), (uplo === 'L') === (trans === 'N'), diag === 'U');
              for (let i = 0; i < n; i++) {
                expect(Number.isFinite(bound[i]), `${label} bound[${i}]`).toBe(true);
                expect(within(storedAt(x, i), exact[i]!, bound[i]!), `${label} x[${i}]`).toBe(true);
              }
            }
          }
        }
      },
    ), { numRuns: 3 });
  });
});
