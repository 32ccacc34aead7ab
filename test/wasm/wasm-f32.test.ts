/**
 * fp32 arithmetic in WebAssembly (issue 20): AXPY, WAXPBY and SCAL bit for bit the generated JavaScript f32
 * kernels (Math.fround after every operation) over every readable storage, strides, sub-ranges, scales, zero
 * coefficients with NaN in the unread vector and special values; DOT, ASUM and NRM2 bit for bit the documented
 * lane order evaluated in binary32 on the values as the f32 arithmetic reads them, and within dotBound, asumBound
 * and nrm2Bound (arithmetic f32) of the exact rational value; the automatic choice reported; typed refusals
 * for what it does not run in f32 (TRSV; double-double storage; other accumulations). fp32 GEMV and ELL SpMV:
 * test/wasm/wasm-gemv-f32.test.ts, test/wasm/wasm-ell-f32.test.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  axpy, waxpby, scal, dot, asum, nrm2, trsv, dotBound, asumBound, nrm2Bound, axpyBound, vector, matrix, formats, cpuBackendOf,
  range, rowMajor, type Range,
} from '../../src/index.js';
import { buildVector, changedOutside, exactDotOf, exactVector, positionsOf, snapshot, vectorSpec, withinBound, errorOf, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { nrm2Scaling, unscaled } from './nrm2-scaling.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { Q } from '../dd/exact-rational.js';
import { roundToOddDd } from '../../src/formats/convert/round-to-odd.js';
import '../../src/formats/dd/register.js';

const f = Math.fround;
const F32 = { arithmetic: formats.f32 } as const;

const outputSpec: fc.Arbitrary<VectorSpec> = fc.record({
  storage: fc.constantFrom('f64' as const, 'f32' as const),
  stride: fc.constantFrom(1, 1, 2, -1, -3),
  sub: fc.boolean(),
});
/**
 * Doubles of ordinary size with more bits than binary32 holds (fc.double alone is mostly tiny magnitudes, which
 * binary32 reads as 0 or subnormals).
 */
const ordinary = (scale: number): fc.Arbitrary<number> => fc.tuple(fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), fc.integer({ min: -12, max: 0 }))
  .map(([k, e]) => k * 2 ** (e - 30) * scale);
/** Ordinary values, binary32 specials (subnormals, overflow on the product, 1e39 overflowing the read of fp64). */
const element = fc.oneof(
  { weight: 8, arbitrary: ordinary(1e3) },
  { weight: 2, arbitrary: fc.double({ min: -1e3, max: 1e3, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, 1e-40, -3e-45, 1e-310, 3e38, -2e38, 1e39, 1 + 2 ** -30) },
);
const coefficient = fc.oneof(ordinary(8), fc.double({ min: -8, max: 8, noNaN: true }), fc.constantFrom(0, -0, 1, NaN, Infinity, 1e-40, 0.1));
const lengths = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 40 }) }, { weight: 1, arbitrary: fc.constantFrom(CHUNK - 3, CHUNK + 9) });

/** Scaled integers hold finite values only (their scale is fitted to them). */
const fit = (spec: VectorSpec, values: number[]): number[] => (spec.storage === 'i16s' ? values.map((v) => (Number.isFinite(v) ? v : 0)) : values);
const raw = (r: Range<1, any>): number[] => Array.from(r.accessor.data as ArrayLike<number>);
function twice<T>(build: () => T): [T, T] {
  return [build(), build()];
}

/** The values the f32 arithmetic reads: each element rounded to binary32, then times the binary32 scale, rounded. */
function readF32(r: Range<1, any>): number[] {
  const a = r.accessor;
  return Array.from({ length: r.length() }, (_, i) => {
    const v = f(a.storage.decode(a.data as never, a.linearIndex([i])) as number);
    return a.scale ? f(v * f(a.scale.data[a.scaleIndex([i])]!)) : v;
  });
}

/** The WebAssembly order in binary32: term i into partial sum i mod 8, then the fixed tree. */
function laneOrderF32(terms: readonly number[]): number {
  const p = new Array<number>(8).fill(0);
  for (let i = 0; i < terms.length; i++) p[i % 8] = f(p[i % 8]! + terms[i]!);
  return f(f(f(p[0]! + p[1]!) + f(p[2]! + p[3]!)) + f(f(p[4]! + p[5]!) + f(p[6]! + p[7]!)));
}

describe('fp32 arithmetic in WebAssembly: the element-wise updates, the same bits as the JavaScript f32 kernels', () => {
  it('AXPY y := αx + y', () => {
    const input = lengths.chain((n) => fc.record({ a: vectorSpec, b: outputSpec, alpha: coefficient, xs: fc.array(element, { minLength: n, maxLength: n }), ys: fc.array(element, { minLength: n, maxLength: n }) }));
    fc.assert(fc.property(input, ({ a, b, alpha, xs, ys }) => {
      const [[x1, y1], [x2, y2]] = twice(() => [buildVector(a, fit(a, xs), 'f32'), buildVector(b, ys, 'f32')] as const);
      expect(cpuBackendOf('axpy', { x: x1, y: y1 }, F32, ['y']).backend).toBe('wasm');
      const before = snapshot(y1);
      axpy(alpha, x1, y1, { ...F32, backend: 'wasm' });
      axpy(alpha, x2, y2, { ...F32, backend: 'js' });
      expect(raw(y1)).toEqual(raw(y2));
      expect(changedOutside(y1, before, positionsOf(y1))).toEqual([]);
    }), { numRuns: 150 });
  });

  it('WAXPBY w := αx + βy with zero coefficients in any position (NaN in the vector a zero coefficient leaves unread)', () => {
    const input = lengths.chain((n) => fc.record({
      a: vectorSpec, b: vectorSpec, c: outputSpec, alpha: fc.oneof(coefficient, fc.constant(0)), beta: fc.oneof(coefficient, fc.constant(0)),
      xs: fc.array(element, { minLength: n, maxLength: n }), ys: fc.array(element, { minLength: n, maxLength: n }), ws: fc.array(element, { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ a, b, c, alpha, beta, xs, ys, ws }) => {
      // The vector behind a zero coefficient holds NaN (where its storage can): it must not be read.
      const xsUsed = alpha === 0 ? xs.map(() => NaN) : xs, ysUsed = beta === 0 ? ys.map(() => NaN) : ys;
      const [[x1, y1, w1], [x2, y2, w2]] = twice(() => [buildVector(a, fit(a, xsUsed), 'f32'), buildVector(b, fit(b, ysUsed), 'f32'), buildVector(c, ws, 'f32')] as const);
      const before = snapshot(w1);
      waxpby(alpha, x1, beta, y1, w1, { ...F32, backend: 'wasm' });
      waxpby(alpha, x2, beta, y2, w2, { ...F32, backend: 'js' });
      expect(raw(w1)).toEqual(raw(w2));
      expect(changedOutside(w1, before, positionsOf(w1))).toEqual([]);
      if (alpha === 0 && beta === 0) expect(readF32(w1).every((v) => Object.is(v, 0))).toBe(true);
    }), { numRuns: 150 });
  });

  it('SCAL x := αx (α = 0 writes +0 over NaN)', () => {
    const input = lengths.chain((n) => fc.record({ a: outputSpec, alpha: fc.oneof(coefficient, fc.constant(0)), xs: fc.array(element, { minLength: n, maxLength: n }) }));
    fc.assert(fc.property(input, ({ a, alpha, xs }) => {
      const [x1, x2] = twice(() => buildVector(a, xs, 'f32'));
      const before = snapshot(x1);
      scal(alpha, x1, { ...F32, backend: 'wasm' });
      scal(alpha, x2, { ...F32, backend: 'js' });
      expect(raw(x1)).toEqual(raw(x2));
      expect(changedOutside(x1, before, positionsOf(x1))).toEqual([]);
    }), { numRuns: 150 });
  });

  it('reads i8 and i32 as the f32 arithmetic does (i32 above 2^24 rounded to nearest even)', () => {
    const ints = fc.array(fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(2 ** 24 + 1, 2 ** 24 + 3, -(2 ** 25 + 2))), { maxLength: 40 });
    fc.assert(fc.property(ints, fc.double({ min: -4, max: 4, noNaN: true }), (xs, alpha) => {
      for (const storage of [formats.i32, formats.i8]) {
        const values = storage === formats.i8 ? xs.map((v) => (v % 128)) : xs;
        const x = vector(values, { storage, arithmetic: formats.f32 });
        const [w1, w2] = twice(() => vector(values.map(() => 0), { storage: formats.f64 }));
        waxpby(alpha, x, 0, x, w1, { ...F32, backend: 'wasm' });
        waxpby(alpha, x, 0, x, w2, { ...F32, backend: 'js' });
        expect(raw(w1)).toEqual(raw(w2));
        expect(Object.is(dot(x, vector(values.map(() => 1)), { ...F32, backend: 'wasm' }), laneOrderF32(values.map((v) => f(v))))).toBe(true);
      }
    }), { numRuns: 100 });
  });

  it('y may be x itself', () => {
    const x = vector([1, 2, 3, 4, 5, 6, 7, 8, 0.1], { storage: formats.f32 });
    axpy(2, x, x, { ...F32, backend: 'wasm' });
    expect(Array.from(x.accessor.data as Float32Array)).toEqual([3, 6, 9, 12, 15, 18, 21, 24, f(3 * f(0.1))]);
  });
});

describe('fp32 arithmetic in WebAssembly: double-double storage read in one rounding (round-to-odd, then binary32)', () => {
  /** Pairs as stored: normalised ones near binary32 ties and halfway points, and arbitrary (unnormalised) ones. */
  const pair = fc.oneof(
    fc.tuple(fc.integer({ min: 1, max: 2 ** 24 }), fc.integer({ min: -40, max: 40 }), fc.constantFrom(-1, 1), fc.integer({ min: 30, max: 80 }))
      .map(([k, e, sign, d]) => { const hi = (k + 0.5) * 2 ** (e - 24) * sign; return { hi, lo: (d % 2 ? 1 : -1) * Math.abs(hi) * 2 ** -d }; }),
    fc.tuple(ordinary(1e3), ordinary(1e3)).map(([a, b]) => ({ hi: a + b, lo: b - ((a + b) - a) })),
    fc.record({ hi: fc.constantFrom(0, -0, 1, 1 + 2 ** -52, -3, 1e39, 3.4028235677973366e38, Infinity, NaN, 2 ** -1074), lo: fc.constantFrom(0, -0, 2 ** -60, -(2 ** -60), 1, -1e-300, NaN, Infinity) }),
  );
  /** A double-double vector (walked with `stride`) holding exactly these pairs, written raw (no encoder checks). */
  function ddVector(pairs: readonly { hi: number; lo: number }[], stride: number): Range<1, any> {
    const v = range(rowMajor<1, any>({ size: [pairs.length], stride, storage: formats.dd, arithmetic: formats.f32 }));
    const data = v.accessor.data as Float64Array;
    for (let i = 0; i < pairs.length; i++) { const k = v.accessor.linearIndex([i]); data[2 * k] = pairs[i]!.hi; data[2 * k + 1] = pairs[i]!.lo; }
    return v;
  }
  it('DOT of a dd vector with ones: each read is fround(roundToOddDd(hi, lo)), summed in the lane order', () => {
    fc.assert(fc.property(fc.array(pair, { maxLength: 40 }), fc.constantFrom(1, -2), (pairs, stride) => {
      const d = ddVector(pairs, stride);
      const ones = vector(pairs.map(() => 1), { storage: formats.f32, arithmetic: formats.f32 });
      const reads = pairs.map(({ hi, lo }) => f(roundToOddDd(hi, lo)));
      expect(Object.is(dot(d, ones, { ...F32, backend: 'wasm' }), laneOrderF32(reads))).toBe(true);
      // Element by element through WAXPBY (w := 1·x + 0): the same bits as the JavaScript kernel.
      const [w1, w2] = twice(() => vector(pairs.length, { storage: formats.f64 }));
      waxpby(1, d, 0, d, w1, { ...F32, backend: 'wasm' });
      waxpby(1, d, 0, d, w2, { ...F32, backend: 'js' });
      expect(raw(w1)).toEqual(raw(w2));
      expect(raw(w1)).toEqual(reads);
    }), { numRuns: 300 });
  });
});

describe('fp32 arithmetic in WebAssembly: DOT, ASUM, NRM2', () => {
  const values = (n: number) => fc.array(fc.oneof({ weight: 9, arbitrary: ordinary(4) }, { weight: 1, arbitrary: fc.double({ min: -4, max: 4, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(-0, 1e-40, 1e-310, 2 ** -126) }), { minLength: n, maxLength: n });

  it('DOT: the lane order in binary32 bit for bit, within dotBound (f32) of the exact value; every storage, stride, sub-range, scale', () => {
    const input = fc.integer({ min: 0, max: 70 }).chain((n) => fc.record({ a: vectorSpec, b: vectorSpec, x: values(n), y: values(n) }));
    fc.assert(fc.property(input, ({ a, b, x: xs, y: ys }) => {
      const x = buildVector(a, xs, 'f32'), y = buildVector(b, ys, 'f32');
      expect(cpuBackendOf('dot', { x, y }, F32)).toEqual({ backend: 'wasm' });
      const got = dot(x, y, { ...F32, backend: 'wasm' });
      const rx = readF32(x), ry = readF32(y);
      expect(Object.is(got, laneOrderF32(rx.map((v, i) => f(v * ry[i]!))))).toBe(true);
      const exact = exactDotOf(exactVector(x), exactVector(y));
      const bound = dotBound(x, y, F32);
      const computed = exactVector(vector([got]))[0]!;
      if (!withinBound(computed, exact, bound)) throw new Error(`error ${errorOf(computed, exact)} > bound ${bound}`);
    }), { numRuns: 300 });
  });

  it('DOT across staging chunks (the partial sums carried between chunks in binary32)', () => {
    for (const n of [CHUNK - 1, CHUNK + 1, 2 * CHUNK + 13, 8 * CHUNK + 5]) {
      const spec: VectorSpec = { storage: 'f16', stride: -3, sub: true };
      const x = buildVector(spec, Array.from({ length: n }, (_, i) => Math.sin(i) * 100), 'f32');
      const y = buildVector({ storage: 'f64', stride: 1, sub: false }, Array.from({ length: n }, (_, i) => Math.cos(i * 0.37)), 'f32');
      const got = dot(x, y, { ...F32, backend: 'wasm' });
      const rx = readF32(x), ry = readF32(y);
      expect(Object.is(got, laneOrderF32(rx.map((v, i) => f(v * ry[i]!))))).toBe(true);
      expect(withinBound(exactVector(vector([got]))[0]!, exactDotOf(exactVector(x), exactVector(y)), dotBound(x, y, F32))).toBe(true);
    }
  });

  it('DOT: NaN, ±Inf, overflow and fp64 values beyond binary32 (read as ±Inf) in the lane order; a NaN read gives NaN', () => {
    const special = fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 1e39, -1e39, 3e38, 1e-310, 1e-45, 2);
    fc.assert(fc.property(fc.array(special, { maxLength: 20 }), fc.constantFrom(formats.f64, formats.f32), (xs, storage) => {
      const x = vector(xs, { storage, arithmetic: formats.f32 }), y = vector(xs.map((_, i) => (i % 2 ? 1 : -0.5)));
      const got = dot(x, y, { ...F32, backend: 'wasm' });
      const rx = readF32(x), ry = readF32(y);
      // Overflow depends on the order (the JavaScript loop may reach ±∞ where the lanes do not): the lane order's.
      expect(Object.is(got, laneOrderF32(rx.map((v, i) => f(v * ry[i]!))))).toBe(true);
      if (xs.some(Number.isNaN)) expect(got).toBeNaN();
    }), { numRuns: 200 });
  });

  it('ASUM: the lane order in binary32 bit for bit, within asumBound (f32); NaN and ±Inf', () => {
    const input = fc.integer({ min: 0, max: 70 }).chain((n) => fc.record({ a: vectorSpec, x: fc.array(fc.oneof({ weight: 9, arbitrary: ordinary(4) }, { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e-40, 1e39) }), { minLength: n, maxLength: n }) }));
    fc.assert(fc.property(input, ({ a, x: xs }) => {
      const x = buildVector(a, fit(a, xs), 'f32');
      const got = asum(x, { ...F32, backend: 'wasm' });
      const v = readF32(x);
      expect(Object.is(got, laneOrderF32(v.map(Math.abs)))).toBe(true);
      const bound = asumBound(x, F32);
      if (Number.isFinite(bound)) {
        const exact = exactDotOf(exactVector(x).map((r) => (r.num < 0n ? { ...r, num: -r.num } : r)), exactVector(vector(v.map(() => 1))));
        expect(withinBound(exactVector(vector([got]))[0]!, exact, bound)).toBe(true);
      }
    }), { numRuns: 200 });
  });

  it('NRM2: 2^e·fl(√(Σ (xᵢ·2^−e)²)) with the sum in the lane order in binary32, bit for bit; within nrm2Bound (f32)', () => {
    const input = fc.integer({ min: 0, max: 70 }).chain((n) => fc.record({ a: vectorSpec, x: fc.array(fc.oneof({ weight: 7, arbitrary: ordinary(1e30) }, { weight: 2, arbitrary: fc.double({ min: -1e30, max: 1e30, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -0, 1e-40, 1e-310, 1e39, 3e38) }), { minLength: n, maxLength: n }) }));
    fc.assert(fc.property(input, ({ a, x: xs }) => {
      const x = buildVector(a, fit(a, xs), 'f32');
      const got = nrm2(x, { ...F32, backend: 'wasm' });
      const js = nrm2(x, { ...F32, backend: 'js' });
      const v = readF32(x);
      const max = v.reduce((m, t) => (Number.isNaN(m) || Number.isNaN(t) ? NaN : Math.max(m, Math.abs(t))), 0);
      if (max === 0 || !Number.isFinite(max)) { expect(Object.is(got, js)).toBe(true); return; }
      const { e, h1, h2 } = nrm2Scaling(max);
      const squares = v.map((t) => { const z = f(f(t * 2 ** h1) * 2 ** h2); return f(z * z); });
      const expected = unscaled(f(Math.sqrt(laneOrderF32(squares))), e);
      expect(Object.is(got, expected)).toBe(true);
      const bound = nrm2Bound(x, F32);
      if (Number.isFinite(bound)) {
        const sq = exactVector(x).reduce((s, r) => { const q = new Q(r.num, r.den); return s.add(q.mul(q)); }, Q.of(0));
        const hi = Q.of(got).add(Q.of(bound)), lo = Q.of(got).sub(Q.of(bound));
        expect(hi.mul(hi).cmp(sq) >= 0 && (lo.cmp(Q.of(0)) <= 0 || lo.mul(lo).cmp(sq) <= 0)).toBe(true);
      }
    }), { numRuns: 200 });
  });
});

describe('a scale below binary32\'s normal range: its conversion underflows, and the bounds count it', () => {
  it('DOT, ASUM, NRM2 and AXPY stay within their bounds on both backends (i16 values scaled by ≈ 3e-45)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -32767, max: 32767 }), { maxLength: 30 }), fc.double({ min: 1e-44, max: 1e-39, noNaN: true }), fc.boolean(), (ints, top, js) => {
      const backend = js ? 'js' as const : 'wasm' as const;
      // Scaled so that the largest |value| is `top`: the scale, top/32767, lies below 2^-126.
      const values = [top, ...ints.map((k) => (k / 32767) * top)];
      const x = buildVector({ storage: 'i16s', stride: 1, sub: false }, values, 'f32');
      expect(Math.abs(x.readScale(0))).toBeLessThan(2 ** -126);
      const ex = exactVector(x);
      const ones = vector(values.map(() => 1), { storage: formats.f32, arithmetic: formats.f32 });
      const asRational = (v: number) => exactVector(vector([v]))[0]!;
      expect(withinBound(asRational(dot(x, ones, { ...F32, backend })), exactDotOf(ex, exactVector(ones)), dotBound(x, ones, F32))).toBe(true);
      const absEx = ex.map((r) => (r.num < 0n ? { ...r, num: -r.num } : r));
      expect(withinBound(asRational(asum(x, { ...F32, backend })), exactDotOf(absEx, exactVector(ones)), asumBound(x, F32))).toBe(true);
      const got = nrm2(x, { ...F32, backend }), bound = nrm2Bound(x, F32);
      const sq = ex.reduce((t, r) => { const q = new Q(r.num, r.den); return t.add(q.mul(q)); }, Q.of(0));
      const hi = Q.of(got).add(Q.of(bound)), lo = Q.of(got).sub(Q.of(bound));
      expect(hi.mul(hi).cmp(sq) >= 0 && (lo.cmp(Q.of(0)) <= 0 || lo.mul(lo).cmp(sq) <= 0)).toBe(true);
      const y = vector(values.map(() => 0), { storage: formats.f64, arithmetic: formats.f32 });
      const b = axpyBound(1, x, y, F32);
      axpy(1, x, y, { ...F32, backend });
      for (let i = 0; i < values.length; i++) expect(withinBound(asRational(y.get(i) as number), ex[i]!, b[i]!)).toBe(true);
    }), { numRuns: 100 });
  });
});

describe('fp32 arithmetic: the automatic choice and the typed refusals', () => {
  const x = vector([1, 2, 3]);

  it("backend 'cpu' runs DOT, ASUM, NRM2, AXPY, WAXPBY, SCAL in f32 on WebAssembly and says so", () => {
    expect(cpuBackendOf('dot', { x, y: x }, { arithmetic: 'f32' })).toEqual({ backend: 'wasm' });
    for (const k of ['asum', 'nrm2'] as const) expect(cpuBackendOf(k, { x }, F32)).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('axpy', { x, y: x }, F32, ['y'])).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('waxpby', { x, y: x, w: x }, F32, ['w'])).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('scal', { x }, F32, ['x'])).toEqual({ backend: 'wasm' });
    expect(dot(x, x, F32)).toBe(14);
  });

  it("TRSV in f32 runs WebAssembly (its properties: wasm-trsv.test.ts): the JavaScript f32 kernel's bits on a small system", () => {
    const A = matrix(2, 2, (i, j) => [[3, 0], [1, 7]][i]![j]!);
    const y = vector([1, 2]), y2 = vector([1, 2]);
    expect(cpuBackendOf('trsv', { A, x: y }, F32, ['x'])).toEqual({ backend: 'wasm' });
    trsv({ uplo: 'L', A, x: y }, { ...F32, backend: 'wasm' });
    trsv({ uplo: 'L', A, x: y2 }, { ...F32, backend: 'js' });
    expect(raw(y)).toEqual(raw(y2));
    expect(raw(y)[0]).toBe(Math.fround(1 / 3));
  });

  it('other accumulations are refused naming options.accumulation; the automatic choice runs JavaScript', () => {
    expectModprec(() => asum(x, { ...F32, backend: 'wasm', accumulation: 'dd' }), 'INVALID_OPTION', 'options.accumulation');
    expect(cpuBackendOf('dot', { x, y: x }, { ...F32, accumulation: 'dd' })).toEqual({ backend: 'js', reason: 'options.accumulation: WebAssembly sums in f32 arithmetic with the recursive, kahan, pairwise or dot2 accumulation only (not dd)' });
  });
});
