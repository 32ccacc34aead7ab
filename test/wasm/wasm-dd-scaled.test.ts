/**
 * The WebAssembly double-double ASUM, NRM2 and DOT (double-double arithmetic with the recursive or dd accumulation,
 * fp64 arithmetic with the dd accumulation) over operands with one scale — i8, i16, i32, f32, f16, bf16, f64, dd and
 * dd-split storage: each element read as the JavaScript kernels read it (fp64: the double fl(v·s); double-double: the
 * pair (v, 0)·(s, 0) of the arithmetic's product, oracle: the library's ddMul), then each kernel's documented lane
 * order bit for bit, within its published bound of the exact value (stored × scale); saturated codes, negative and
 * huge scales (the splitting overflows: the JavaScript's answer), tiny scales (products underflow), NaN/±Inf,
 * strides of either sign, sub-ranges, n = 0 and 1; a scale per element runs too (wasm-per-element-scales.test.ts). GEMV with a scaled A,
 * x or both: the JavaScript's bits where op(A) is read by columns, the DD DOT's lane order per row where by rows,
 * within gemvBound; ELL SpMV with values scaled once or per row and a scaled x: the JavaScript's bits; a scaled y
 * and a GEMV A scaled per row runs too.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  asum, asumBound, colMajor, cpuBackendOf, dot, dotBound, ellOperand, ellSpmv, formats, gemv, gemvBound, laplacianEll, nrm2, nrm2Bound, range, rowMajor,
  scaledReducedColMajor, scaledReducedRowMajor, span, vector, type Range,
} from '../../src/index.js';
import { addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { exactDotOf, exactVector, withinBound } from '../kernels/matrix-kernel-fixtures.js';
import { exactAt, exactValuesOf, laneOrderDdAsum, laneOrderDdDot, laneOrderDdNrm2, termAt, termsOf, type Term } from './dd-lane-orders.js';
import '../../src/formats/dd/register.js';

type StorageName = 'i8' | 'i16' | 'i32' | 'f32' | 'f16' | 'bf16' | 'f64' | 'dd' | 'ddSplit';
const STORAGES: readonly StorageName[] = ['i8', 'i16', 'i32', 'f32', 'f16', 'bf16', 'f64', 'dd', 'ddSplit'];
const OPTIONS = [
  { arithmetic: formats.dd }, { arithmetic: formats.dd, accumulation: 'dd' as const }, { arithmetic: formats.f64, accumulation: 'dd' as const },
] as const;

/** A raw stored value: a code of the storage (integers: in range, saturated ±maxValue included), or a dd pair. */
type Stored = number | { hi: number; lo: number };

/**
 * A vector of `storage` with one scale `scale` holding the raw `stored` values (no division by the scale: the codes
 * themselves), stride and sub-range as given (the rest of the buffer NaN or an out-of-range sentinel code).
 */
function scaledVector(storage: StorageName, stored: readonly Stored[], scale: number, stride: number, sub: boolean): Range<1, any> {
  const n = stored.length, N = sub ? n + 3 : n;
  const parent = scaledReducedRowMajor<1, any>({ size: [N], storage: formats[storage], arithmetic: formats.f64, scaleMask: [false], stride });
  const st = parent.storage;
  parent.scale!.data[0] = scale;
  const put = (a: typeof parent, i: number, v: Stored): void => st.encode(a.data as never, a.linearIndex([i]), (st.kind === 'dd' && typeof v === 'number' ? { hi: v, lo: 0 } : v) as never);
  for (let i = 0; i < N; i++) put(parent, i, st.isInteger ? 0 : NaN);
  const view = sub ? parent.sub(span(1, 1 + n)) : parent;
  stored.forEach((v, i) => put(view, i, v));
  return range(view);
}

/** Stored values of a storage: codes spread over the range with the saturated ones, floats (a few specials), dd pairs. */
function storedOf(storage: StorageName, finite = false): fc.Arbitrary<Stored> {
  const st = scaledReducedRowMajor<1, any>({ size: [1], storage: formats[storage], arithmetic: formats.f64, scaleMask: [false] }).storage;
  if (st.isInteger) {
    const max = st.maxValue;
    return fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -max, max }) }, { weight: 1, arbitrary: fc.constantFrom(max, -max, 0, 1, -1) });
  }
  const big = storage === 'f16' ? 6e4 : 1e6;
  const special = finite ? fc.constantFrom(-0, 0.5) : fc.constantFrom(NaN, Infinity, -Infinity, -0);
  const double = fc.oneof({ weight: 12, arbitrary: fc.double({ min: -big, max: big, noNaN: true }) }, { weight: 1, arbitrary: special });
  if (st.kind !== 'dd') return double;
  return fc.tuple(double, fc.double({ min: -1, max: 1, noNaN: true })).map(([hi, r]) => ({ hi, lo: Number.isFinite(hi) ? hi * r * 2 ** -54 : 0 }));
}

/** Scales: moderate doubles of either sign, powers of two, and (`extremes`) near the top and bottom of the range. */
function scaleOf(extremes: boolean): fc.Arbitrary<number> {
  const moderate = fc.double({ min: 2 ** -30, max: 2 ** 30, noNaN: true }).chain((s) => fc.constantFrom(s, -s));
  const pow2 = fc.integer({ min: -60, max: 60 }).map((k) => 2 ** k);
  const edge = fc.constantFrom(2 ** 1000, -(2 ** 997) * 1.5, 2 ** -1060, -(2 ** -1040) * 3, 0.1, 1);
  return extremes ? fc.oneof({ weight: 5, arbitrary: moderate }, { weight: 2, arbitrary: pow2 }, { weight: 2, arbitrary: edge }) : fc.oneof(moderate, pow2);
}

const lengths = fc.oneof({ weight: 10, arbitrary: fc.integer({ min: 0, max: 40 }) }, { weight: 1, arbitrary: fc.constantFrom(CHUNK + 9) });

/** A scaled vector spec: storage, length, stored values, scale, stride, sub-range. */
function scaledVectorOf(extremes: boolean, n?: number): fc.Arbitrary<{ x: Range<1, any>; storage: StorageName }> {
  const len = n === undefined ? lengths : fc.constant(n);
  return fc.record({ storage: fc.constantFrom(...STORAGES), n: len }).chain(({ storage, n: m }) => fc.record({
    stored: fc.array(storedOf(storage, !extremes), { minLength: m, maxLength: m }), scale: scaleOf(extremes),
    stride: fc.constantFrom(1, 1, 2, -1, -3), sub: fc.boolean(),
  }).map(({ stored, scale, stride, sub }) => ({ x: scaledVector(storage, stored, scale, stride, sub), storage })));
}

/**
 * Whether the WebAssembly kernel hands the call to the JavaScript: a non-finite term, or (double-double arithmetic)
 * a read whose Dekker splitting overflows (|v| or |s| beyond 2^996), which the JavaScript's guard repairs.
 */
function leftToJs(x: Range<1, any>, terms: readonly Term[], dd: boolean): boolean {
  if (!terms.every(([h, l]) => Number.isFinite(h) && Number.isFinite(l ?? 0))) return true;
  if (!dd || !x.accessor.scale) return false;
  const s = x.accessor.scale.data[0]!;
  return Math.abs(s) > 2 ** 996 || terms.some(([h]) => Math.abs(h / s) > 2 ** 995);
}

/** Whether every non-zero term is far from underflow (the bounds assume none; a read that underflows is inexact). */
function noUnderflow(x: Range<1, any>): boolean {
  return exactValuesOf(x).every((r) => r.num === 0n || Math.abs(Number(r.num) / Number(r.den)) >= 2 ** -900);
}

const exactNumber = (v: number): Rational => exactVector(vector([v]))[0]!;

describe('WebAssembly double-double ASUM over one-scale storage', () => {
  it('the documented order on the terms as the JavaScript reads them, bit for bit; within asumBound; extremes as the JavaScript', () => {
    fc.assert(fc.property(scaledVectorOf(true), fc.constantFrom(...OPTIONS), ({ x }, options) => {
      const dd = options.arithmetic === formats.dd;
      expect(cpuBackendOf('asum', { x }, options).backend).toBe('wasm');
      const got = asum(x, { ...options, backend: 'wasm' });
      const terms = termsOf(x, dd);
      if (leftToJs(x, terms, dd)) { expect(Object.is(got, asum(x, { ...options, backend: 'js' }))).toBe(true); return; }
      expect(Object.is(got, laneOrderDdAsum(terms))).toBe(true);
      if (!noUnderflow(x)) return;
      const exact = exactValuesOf(x).reduce<Rational>((a, r) => addRational(a, r.num < 0n ? { ...r, num: -r.num } : r), { num: 0n, den: 1n } as Rational);
      expect(withinBound(exactNumber(got), exact, asumBound(x, options))).toBe(true);
    }), { numRuns: 150 });
  });

  it('the pairs\' low parts count: 1000 × (3·0.1) in double-double is within asumBound of the exact sum (the doubles fl(3·0.1) are not)', () => {
    const x = scaledVector('i8', Array.from({ length: 1000 }, () => 3), 0.1, 1, false);
    const exact = mulRational(exactOf(3000), exactOf(0.1));
    for (const options of OPTIONS.filter((o) => o.arithmetic === formats.dd)) {
      expect(withinBound(exactNumber(asum(x, { ...options, backend: 'wasm' })), exact, asumBound(x, options))).toBe(true);
    }
    // fp64 arithmetic reads fl(3·0.1) = 0.30000000000000004: its sum is 1000 of those, and its bound says so.
    const f64 = { arithmetic: formats.f64, accumulation: 'dd' as const };
    expect(asum(x, { ...f64, backend: 'wasm' })).toBe(asum(vector(Array.from({ length: 1000 }, () => 3 * 0.1)), { ...f64, backend: 'js' }));
  });

  it('n = 0 and 1, saturated codes, a zero code under a negative scale: the JavaScript\'s value', () => {
    for (const options of OPTIONS) {
      expect(asum(scaledVector('i8', [], 0.5, 1, false), { ...options, backend: 'wasm' })).toBe(0);
      for (const [storage, code, s] of [['i8', -127, 0.1], ['i8', 127, -3], ['i16', -32767, 2 ** -20], ['i32', 2 ** 31 - 1, 1 / 3], ['i16', 0, -2]] as const) {
        const x = scaledVector(storage, [code], s, 1, false);
        expect(Object.is(asum(x, { ...options, backend: 'wasm' }), asum(x, { ...options, backend: 'js' }))).toBe(true);
      }
    }
  });
});

/** |got − √S| ≤ b for S = Σ vᵢ² (exact rationals), checked exactly: (got − b)² ≤ S ≤ (got + b)². */
function normWithinBound(values: readonly Rational[], got: number, b: number): boolean {
  const S = values.reduce<Rational>((acc, v) => addRational(acc, mulRational(v, v)), { num: 0n, den: 1n } as Rational);
  const g = exactNumber(got), bb = exactNumber(b);
  const up = addRational(g, bb), down = subRational(g, bb);
  if (compareRational(S, mulRational(up, up)) > 0) return false;
  return down.num <= 0n || compareRational(mulRational(down, down), S) <= 0;
}

describe('WebAssembly double-double NRM2 over one-scale storage', () => {
  it('the documented order on the terms as the JavaScript reads them, bit for bit; within nrm2Bound; extremes as the JavaScript', () => {
    fc.assert(fc.property(scaledVectorOf(true), fc.constantFrom(...OPTIONS), ({ x }, options) => {
      const dd = options.arithmetic === formats.dd;
      expect(cpuBackendOf('nrm2', { x }, options).backend).toBe('wasm');
      const got = nrm2(x, { ...options, backend: 'wasm' });
      const terms = termsOf(x, dd);
      if (leftToJs(x, terms, dd)) { expect(Object.is(got, nrm2(x, { ...options, backend: 'js' }))).toBe(true); return; }
      if (!noUnderflow(x)) return;
      expect(Object.is(got, laneOrderDdNrm2(terms, dd))).toBe(true);
      expect(normWithinBound(exactValuesOf(x), got, nrm2Bound(x, options))).toBe(true);
    }), { numRuns: 120 });
  });

  it('the pairs\' low parts count: n copies of q·0.1 in double-double, within nrm2Bound of the exact √n·|q·0.1|', () => {
    for (let q = 1; q <= 127; q += 2) {
      for (const n of [3, 5, 7]) {
        const x = scaledVector('i8', Array.from({ length: n }, () => q), 0.1, 1, false);
        const v = mulRational(exactOf(q), exactOf(0.1));
        for (const options of OPTIONS.filter((o) => o.arithmetic === formats.dd)) {
          expect(normWithinBound(Array.from({ length: n }, () => v), nrm2(x, { ...options, backend: 'wasm' }), nrm2Bound(x, options))).toBe(true);
        }
      }
    }
  });

  it('n = 1 and saturated codes: |v·s| as the JavaScript gives it', () => {
    for (const options of OPTIONS) {
      for (const [storage, code, s] of [['i8', -127, 0.1], ['i16', 32767, -(2 ** 40) / 3], ['i32', -(2 ** 31) + 1, 1e-300]] as const) {
        const x = scaledVector(storage, [code], s, -1, true);
        expect(Object.is(nrm2(x, { ...options, backend: 'wasm' }), nrm2(x, { ...options, backend: 'js' }))).toBe(true);
      }
    }
  });
});

describe('WebAssembly double-double DOT over one-scale storage', () => {
  it('x, y or both scaled: the documented order (ddMulAccumulate\'s steps where a pair is read) bit for bit, within dotBound', () => {
    const input = lengths.chain((n) => fc.record({
      x: scaledVectorOf(false, n), y: fc.oneof(scaledVectorOf(false, n), fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: n, maxLength: n }).map((v) => ({ x: vector(v), storage: 'f64' as const }))),
      swap: fc.boolean(), options: fc.constantFrom(...OPTIONS),
    }));
    fc.assert(fc.property(input, ({ x: a, y: b, swap, options }) => {
      const [x, y] = swap ? [b.x, a.x] : [a.x, b.x];
      const dd = options.arithmetic === formats.dd;
      expect(cpuBackendOf('dot', { x, y }, options).backend).toBe('wasm');
      const got = dot(x, y, { ...options, backend: 'wasm' });
      const [tx, ty] = [termsOf(x, dd), termsOf(y, dd)];
      if (leftToJs(x, tx, dd) || leftToJs(y, ty, dd)) { expect(Object.is(got, dot(x, y, { ...options, backend: 'js' }))).toBe(true); return; }
      if (!noUnderflow(x) || !noUnderflow(y)) return;
      expect(Object.is(got, laneOrderDdDot(tx, ty))).toBe(true);
      const exact = exactDotOf(exactValuesOf(x), exactValuesOf(y));
      expect(withinBound(exactNumber(got), exact, dotBound(x, y, options))).toBe(true);
    }), { numRuns: 150 });
  });

  it('scales beyond the splitting range and non-finite elements: the JavaScript\'s answer', () => {
    const y = vector([1, -2, 3, 0.5, 7, 1e-3, 2, 1, 9]);
    const cases = [
      scaledVector('i16', [1, 2, -3, 4, 5, 6, 7, 8, 32767], 2 ** 1000, 1, false),
      scaledVector('f32', [1, NaN, 3, 4, 5, 6, 7, 8, 9], 0.1, 2, true),
      scaledVector('f64', [1, Infinity, 3, 4, 5, 6, 7, 8, 9], -3, -1, false),
      scaledVector('i8', [127, -127, 127, -127, 127, -127, 127, -127, 127], -(2 ** 1010), 1, false),
    ];
    for (const x of cases) {
      for (const options of OPTIONS) expect(Object.is(dot(x, y, { ...options, backend: 'wasm' }), dot(x, y, { ...options, backend: 'js' }))).toBe(true);
    }
  });

  it('resolves the cancellation of scaled terms exactly: Σ (qᵢ·s)·yᵢ with s = 0.1', () => {
    // qᵢ·0.1 is not a double; in double-double arithmetic the pairs hold it exactly, so ±(q·s)·1 cancel to 0 but the last term.
    const q = [30000, -30000, 12345, -12345, 7, -7, 1], s = 0.1;
    const x = scaledVector('i16', q, s, 1, false), y = vector([1, 1, 1, 1, 1, 1, 3]);
    const got = dot(x, y, { arithmetic: formats.dd, backend: 'wasm' });
    const exact = mulRational(exactOf(3), exactOf(s));
    expect(withinBound(exactNumber(got), exact, dotBound(x, y, { arithmetic: formats.dd }))).toBe(true);
    expect(got).toBe(3 * s);
  });
});

/** An m×n matrix of `storage` with one scale, raw stored values `stored(i, j)`, row- or column-major, maybe a sub-range. */
function scaledMatrix(storage: StorageName, m: number, n: number, stored: (i: number, j: number) => Stored, scale: number, layout: 'row' | 'col', sub: boolean): Range<2, any> {
  const [M, N] = sub ? [m + 3, n + 2] : [m, n];
  const make = layout === 'row' ? scaledReducedRowMajor : scaledReducedColMajor;
  const parent = make<2, any>({ size: [M, N], storage: formats[storage], arithmetic: formats.f64, scaleMask: [false, false] });
  parent.scale!.data[0] = scale;
  const st = parent.storage;
  const put = (a: typeof parent, i: number, j: number, v: Stored): void => st.encode(a.data as never, a.linearIndex([i, j]), (st.kind === 'dd' && typeof v === 'number' ? { hi: v, lo: 0 } : v) as never);
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) put(parent, i, j, st.isInteger ? 0 : NaN);
  const view = sub ? parent.sub(span(2, 2 + m), span(1, 1 + n)) : parent;
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) put(view, i, j, stored(i, j));
  return range(view);
}

const gemvCase = fc.record({
  m: fc.integer({ min: 0, max: 13 }), n: fc.integer({ min: 0, max: 19 }), trans: fc.constantFrom('N' as const, 'T' as const),
  layout: fc.constantFrom('row' as const, 'col' as const), sub: fc.boolean(), storage: fc.constantFrom(...STORAGES),
  scaleA: fc.option(scaleOf(false), { freq: 4 }), xStorage: fc.constantFrom(...STORAGES), scaleX: fc.option(scaleOf(false), { freq: 3 }),
  xStride: fc.constantFrom(1, 2, -1, -3), alpha: fc.constantFrom(1, -0.5, 3, 0.1), beta: fc.constantFrom(0, 1, 0.25),
  options: fc.constantFrom(...OPTIONS), seed: fc.integer({ min: 1, max: 2 ** 30 }),
}).filter((c) => c.scaleA !== null || c.scaleX !== null);
type GemvCase = typeof gemvCase extends fc.Arbitrary<infer C> ? C : never;

/** A small deterministic generator (the values of a case from its seed). */
function valuesFrom(seed: number): () => number {
  let t = seed >>> 0;
  return () => { t = (Math.imul(t ^ (t >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0; return t / 2 ** 32; };
}

/** The case's operands (A with one scale when scaleA, or unscaled f64 storage; x likewise), y prefilled (NaN for β = 0). */
function buildGemvCase(c: GemvCase): { A: Range<2, any>; x: Range<1, any>; y: Range<1, any> } {
  const r = valuesFrom(c.seed);
  const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
  const code = (storage: StorageName): Stored => {
    const st = scaledReducedRowMajor<1, any>({ size: [1], storage: formats[storage], arithmetic: formats.f64, scaleMask: [false] }).storage;
    if (st.isInteger) return Math.round((2 * r() - 1) * st.maxValue);
    const v = (2 * r() - 1) * 2 ** -Math.floor(r() * 8) * 100;
    return st.kind === 'dd' ? { hi: v, lo: v * (2 * r() - 1) * 2 ** -54 } : v;
  };
  const A = c.scaleA === null
    ? scaledMatrix('f64', rows, cols, () => code('f64'), 1, c.layout, c.sub)
    : scaledMatrix(c.storage, rows, cols, () => code(c.storage), c.scaleA, c.layout, c.sub);
  const unscaledA = c.scaleA === null ? range(colMajorCopy(A)) : A;
  const xs = Array.from({ length: c.n }, () => code(c.scaleX === null ? 'f64' : c.xStorage));
  const x = c.scaleX === null ? vector(xs as number[]) : scaledVector(c.xStorage, xs, c.scaleX, c.xStride, c.sub);
  const y = vector(Array.from({ length: c.m }, () => (c.beta === 0 ? NaN : 2 * r() - 1)));
  return { A: unscaledA, x, y };
}

/** An unscaled fp64 copy of a (one-scale-1) f64 matrix, column-major or row-major as the original. */
function colMajorCopy(A: Range<2, any>): any {
  const [m, n] = A.accessor.size as [number, number];
  const rowMajorLayout = (A.accessor.strides[1] as number) === 1 && n > 1;
  const B = rowMajorLayout ? rowMajor<2>({ size: [m, n], storage: formats.f64, arithmetic: formats.f64 }) : colMajor<2>({ size: [m, n], storage: formats.f64, arithmetic: formats.f64 });
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) B.set(i, j, A.get(i, j) as number);
  return B;
}

describe('WebAssembly double-double GEMV over one-scale A and x', () => {
  it('op(A) by columns: the JavaScript\'s bits; by rows: the DD DOT lane order per row (α = 1, β = 0); within gemvBound', () => {
    fc.assert(fc.property(gemvCase, (c) => {
      const a = buildGemvCase(c), b = buildGemvCase(c);
      const dd = c.options.arithmetic === formats.dd;
      const args = (o: typeof a) => ({ alpha: c.alpha, A: o.A, x: o.x, beta: c.beta, y: o.y, trans: c.trans });
      expect(cpuBackendOf('gemv', { A: a.A, x: a.x, y: a.y }, c.options, ['y']).backend).toBe('wasm');
      gemv(args(a), { ...c.options, backend: 'wasm' });
      gemv(args(b), { ...c.options, backend: 'js' });
      const got = Array.from({ length: c.m }, (_, i) => a.y.get(i) as number), js = Array.from({ length: c.m }, (_, i) => b.y.get(i) as number);
      const A = a.A.accessor, byColumns = (c.trans === 'N' ? A.strides[0] : A.strides[1]) === 1 && c.m > 1;
      const op = (i: number, j: number): number[] => (c.trans === 'N' ? [i, j] : [j, i]);
      // n = 0: BLAS's quick return (y untouched), as the JavaScript.
      if (byColumns || c.n === 0) expect(got.map((v, i) => Object.is(v, js[i]))).toEqual(got.map(() => true));
      else if (c.alpha === 1 && c.beta === 0) {
        const xt = termsOf(a.x, dd);
        for (let i = 0; i < c.m; i++) {
          const row = Array.from({ length: c.n }, (_, j) => termAt(A, op(i, j), dd));
          expect(Object.is(got[i], laneOrderDdDot(row, xt))).toBe(true);
        }
      }
      // Exact: α·Σ aᵢⱼxⱼ + β·yᵢ with every element stored × scale (n = 0: BLAS's quick return leaves y as it was).
      if (c.n === 0) return;
      const fresh = buildGemvCase(c), y0 = fresh.y;
      const bound = gemvBound(args(fresh), c.options);
      const ex = exactValuesOf(a.x);
      for (let i = 0; i < c.m; i++) {
        let e = mulRational(exactOf(c.alpha), exactDotOf(Array.from({ length: c.n }, (_, j) => exactAt(A, op(i, j))), ex));
        if (c.beta !== 0) e = addRational(e, mulRational(exactOf(c.beta), exactOf(y0.get(i) as number)));
        expect(withinBound(exactNumber(got[i]!), e, bound[i]!)).toBe(true);
      }
    }), { numRuns: 150 });
  });

  it('a scaled y in double-double runs in WebAssembly through the JavaScript store: its stored codes (wasm-dd-stored-outputs.test.ts)', () => {
    const A = scaledMatrix('i16', 2, 2, (i, j) => i + j, 0.5, 'col', false), x = vector([1, 2]);
    for (const options of OPTIONS) {
      const run = (backend: 'wasm' | 'js'): number[] => {
        const y = scaledVector('i16', [1, 2], 0.25, 1, false);
        gemv({ alpha: 1, A, x, beta: 1, y }, { ...options, backend });
        return Array.from(y.accessor.data as Int16Array);
      };
      expect(run('wasm')).toEqual(run('js'));
      expect(cpuBackendOf('gemv', { A, x, y: scaledVector('i16', [1, 2], 0.25, 1, false) }, options, ['y'])).toEqual({ backend: 'wasm' });
    }
  });
});

const ellCase = fc.record({
  grid: fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 5 })), storage: fc.constantFrom(...STORAGES),
  perRow: fc.boolean(), scaledValues: fc.boolean(), scaleX: fc.option(scaleOf(false), { freq: 2 }), xStorage: fc.constantFrom(...STORAGES),
  xStride: fc.constantFrom(1, -1, 2), sub: fc.boolean(), alpha: fc.constantFrom(1, -0.5, 3), beta: fc.constantFrom(0, 1, 0.25),
  options: fc.constantFrom(...OPTIONS), seed: fc.integer({ min: 1, max: 2 ** 30 }),
}).filter((c) => c.scaledValues || c.scaleX !== null);
type EllCase = typeof ellCase extends fc.Arbitrary<infer C> ? C : never;

/** The case's ELL operand (values with one scale, one per row, or unscaled f64), x, and y (NaN for β = 0). */
function buildEllCase(c: EllCase): { A: ReturnType<typeof ellOperand>; x: Range<1, any>; y: Range<1, any> } {
  const r = valuesFrom(c.seed);
  const L = laplacianEll([...c.grid]);
  const storage = c.scaledValues ? c.storage : 'f64';
  const V = scaledReducedColMajor<2, any>({ size: [L.stride, L.width], storage: formats[storage], arithmetic: formats.f64, scaleMask: [c.scaledValues && c.perRow, false] });
  const st = V.storage;
  for (let k = 0; k < V.scale!.data.length; k++) V.scale!.data[k] = (r() < 0.5 ? -1 : 1) * 2 ** (Math.floor(r() * 40) - 20) * (1 + r());
  if (!c.scaledValues) V.scale!.data[0] = 1;
  const code = (s: typeof st): Stored => {
    if (s.isInteger) return Math.round((2 * r() - 1) * s.maxValue);
    const v = (2 * r() - 1) * 100;
    return s.kind === 'dd' ? { hi: v, lo: v * (2 * r() - 1) * 2 ** -54 } : v;
  };
  for (let i = 0; i < L.stride; i++) for (let k = 0; k < L.width; k++) st.encode(V.data as never, V.linearIndex([i, k]), code(st) as never);
  const values = c.scaledValues ? range(V) : range(colMajorCopy(range(V)));
  const xs = Array.from({ length: L.cols }, () => code(scaledReducedRowMajor<1, any>({ size: [1], storage: formats[c.scaleX === null ? 'f64' : c.xStorage], arithmetic: formats.f64, scaleMask: [false] }).storage));
  const x = c.scaleX === null ? vector(xs as number[]) : scaledVector(c.xStorage, xs, c.scaleX, c.xStride, c.sub);
  const y = vector(Array.from({ length: L.rows }, () => (c.beta === 0 ? NaN : 2 * r() - 1)));
  return { A: ellOperand(L, values), x, y };
}

describe('WebAssembly double-double ELL SpMV over scaled values and x', () => {
  it('values with one scale or one per row, x with one scale: the JavaScript\'s bits, all three numerics', () => {
    fc.assert(fc.property(ellCase, (c) => {
      const a = buildEllCase(c), b = buildEllCase(c);
      expect(cpuBackendOf('ellSpmv', { x: a.x, y: a.y }, c.options, ['y']).backend).toBe('wasm');
      ellSpmv({ alpha: c.alpha, A: a.A, x: a.x, beta: c.beta, y: a.y }, { ...c.options, backend: 'wasm' });
      ellSpmv({ alpha: c.alpha, A: b.A, x: b.x, beta: c.beta, y: b.y }, { ...c.options, backend: 'js' });
      const n = a.y.length();
      const same = Array.from({ length: n }, (_, i) => Object.is(a.y.get(i), b.y.get(i)));
      expect(same).toEqual(same.map(() => true));
    }), { numRuns: 120 });
  });
});

describe('scales per element and per row in double-double', () => {
  it('a vector scaled per element and a GEMV A scaled per row run in WebAssembly (wasm-per-element-scales.test.ts)', () => {
    const x = range(scaledReducedRowMajor<1, any>({ size: [3], storage: formats.i16, arithmetic: formats.f64, scaleMask: [true] }));
    const A = scaledMatrix('i16', 3, 3, (i, j) => i - j, 0.5, 'col', false);
    const perRow = range(scaledReducedRowMajor<2, any>({ size: [3, 3], storage: formats.i16, arithmetic: formats.f64, scaleMask: [true, false] }));
    for (const options of OPTIONS) {
      // The automatic choice keeps a vector reduction over it in JavaScript (its twin is one more pass), backend 'wasm' runs it.
      expect(cpuBackendOf('nrm2', { x }, options).reason).toMatch(/^x: a scale per element is read through a JavaScript pass/);
      expect(cpuBackendOf('nrm2', { x }, { ...options, backend: 'wasm' })).toEqual({ backend: 'wasm' });
      expect(cpuBackendOf('gemv', { A, x, y: x }, options, ['y'])).toEqual({ backend: 'wasm' });
      expect(cpuBackendOf('gemv', { A: perRow, x, y: vector(3) }, { ...options, backend: 'wasm' }, ['y'])).toEqual({ backend: 'wasm' });
      expect(cpuBackendOf('gemv', { A: perRow, x, y: vector(3) }, options, ['y']).backend).toBe('js');
      expect(asum(x, { ...options, backend: 'wasm' })).toBe(0);
    }
  });
});
