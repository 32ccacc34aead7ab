/**
 * Calls split over worker threads (options.threads, modprec/threads): what docs/guide.md ("Threads") promises.
 * - The parts: k = max(1, min(p, ⌊n·c / w⌋, ⌈n / 16⌉)) parts of ⌈n / k / 16⌉·16 elements (the last one shorter),
 *   for p threads, n elements of the cut dimension, c reads per element and w = minWorkPerThread; computed here
 *   from that rule, not from the pool's code.
 * - DOT and ASUM return the one-thread values of the parts added left to right in the arithmetic: bit for bit, on
 *   every call, and within the one-thread a-priori bound against the exact (rational) result.
 * - GEMV (N and T), ELL SpMV, AXPY, WAXPBY and SCAL write the same bits as one thread (each element is computed as there).
 * - Typed errors before anything is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  asum, asumBound, axpy, colMajor, scaledReducedColMajor, dot, dotBound, ellOperand, ellSpmv, formats, gemv, gemvBound, laplacianEll, matrix, ModprecError, nrm2,
  range, registerFormat, rowMajor, scal, span, toArray, trsv, typedArrayStorage, vector, waxpby, type Range,
} from '../../src/index.js';
import { absRational, addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';
import { exactDot, exactOf } from '../../src/testing/exact.js';
import type { ThreadPool } from '../../src/threads/index.js';
import { poolFromSources } from './thread-test-helpers.js';

const MIN_WORK = 16;
let two: ThreadPool, three: ThreadPool;
beforeAll(async () => {
  [two, three] = await Promise.all([poolFromSources(2, { minWorkPerThread: MIN_WORK }), poolFromSources(3, { minWorkPerThread: MIN_WORK })]);
});
afterAll(async () => {
  await Promise.all([two?.terminate(), three?.terminate()]);
});

/** The documented parts of n elements with c reads each. */
function documentedParts(n: number, c: number, threads: number): [number, number][] {
  const k = Math.max(1, Math.min(threads, Math.floor((n * c) / MIN_WORK), Math.ceil(n / 16)));
  const len = Math.ceil(n / k / 16) * 16;
  const parts: [number, number][] = [];
  for (let lo = 0; lo < n || parts.length === 0; lo += len) parts.push([lo, Math.min(n, lo + len)]);
  return parts;
}

/** A shared vector of `values` with increment `inc` (negative: walks backwards), in `storage`. */
function sharedVector(values: readonly number[], inc: number, storage: 'f64' | 'f32' = 'f64'): Range<1> {
  const r = range(rowMajor<1>({ size: [values.length], stride: inc, storage, arithmetic: 'f64', shared: true }));
  values.forEach((v, i) => r.set(i, v));
  return r;
}

const within = (computed: number, exact: Rational, bound: number): boolean =>
  compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0;

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });
const any = fc.oneof({ weight: 6, arbitrary: finite }, { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0, 2 ** -1074) });
const inc = fc.constantFrom(1, 2, -1, -3);
const values = (v: fc.Arbitrary<number>) => fc.integer({ min: 0, max: 300 }).chain((n) => fc.tuple(fc.array(v, { minLength: n, maxLength: n }), fc.array(v, { minLength: n, maxLength: n })));

describe('DOT and ASUM split over threads', () => {
  it('DOT returns the parts\' one-thread values added in part order, the same bits on every call', () => {
    fc.assert(fc.property(values(any), inc, inc, fc.constantFrom('f64', 'f32') as fc.Arbitrary<'f64' | 'f32'>, fc.boolean(), ([xs, ys], ix, iy, st, three_) => {
      const pool = three_ ? three : two;
      const x = sharedVector(xs, ix), y = sharedVector(ys, iy, st);
      const f32 = st === 'f32' && xs.length % 2 === 0; // fp32 arithmetic on half the cases
      const options = f32 ? { arithmetic: formats.f32 } : {};
      let expected = NaN;
      documentedParts(xs.length, 1, pool.threads).forEach(([lo, hi], k) => {
        const v = dot(x.sub(span(lo, hi)), y.sub(span(lo, hi)), options);
        expected = k === 0 ? v : f32 ? Math.fround(expected + v) : expected + v;
      });
      const r1 = dot(x, y, { ...options, threads: pool }), r2 = dot(x, y, { ...options, threads: pool });
      expect(Object.is(r1, expected)).toBe(true);
      expect(Object.is(r1, r2)).toBe(true);
    }), { numRuns: 150 });
  });

  it('DOT stays within dotBound of the exact dot product (f64 and f32 arithmetic)', () => {
    fc.assert(fc.property(values(finite), inc, fc.constantFrom('f64', 'f32') as fc.Arbitrary<'f64' | 'f32'>, ([xs, ys], ix, ar) => {
      const x = sharedVector(xs, ix), y = sharedVector(ys, 1, 'f32');
      const options = { arithmetic: formats[ar] };
      const r = dot(x, y, { ...options, threads: three });
      const bound = dotBound(x, y, options);
      expect(within(r, exactDot(toArray(x), toArray(y)), bound)).toBe(true);
    }), { numRuns: 150 });
  });

  it('ASUM: the parts\' values in part order, within asumBound of the exact sum of magnitudes', () => {
    fc.assert(fc.property(values(finite), inc, ([xs], ix) => {
      const x = sharedVector(xs, ix);
      let expected = 0;
      documentedParts(xs.length, 1, two.threads).forEach(([lo, hi], k) => {
        const v = asum(x.sub(span(lo, hi)));
        expected = k === 0 ? v : expected + v;
      });
      const r = asum(x, { threads: two });
      expect(Object.is(r, xs.length === 0 ? 0 : expected)).toBe(true);
      const exact = exactDot(toArray(x).map(Math.abs), toArray(x).map(() => 1));
      expect(within(r, exact, asumBound(x))).toBe(true);
    }), { numRuns: 100 });
  });

  it('one thread (no worker) is the one-thread call', async () => {
    const one = await poolFromSources(1, { minWorkPerThread: 1 });
    const x = sharedVector([0.1, 0.2, 0.3, 1e16, -1e16], 1);
    expect(one.threads).toBe(1);
    expect(dot(x, x, { threads: one })).toBe(dot(x, x));
    await one.terminate();
  });
});

describe('GEMV, ELL SpMV, AXPY, WAXPBY, SCAL split over threads write the one-thread bits', () => {
  const gemvCase = fc.record({
    m: fc.integer({ min: 0, max: 90 }), n: fc.integer({ min: 0, max: 40 }), layout: fc.constantFrom('col-major', 'row-major') as fc.Arbitrary<'col-major' | 'row-major'>,
    trans: fc.constantFrom('N', 'T') as fc.Arbitrary<'N' | 'T'>, alpha: fc.constantFrom(1, -0.5, 0, 3), beta: fc.constantFrom(0, 1, 0.25),
    storage: fc.constantFrom('f64', 'f32') as fc.Arbitrary<'f64' | 'f32'>, seed: fc.integer(), backend: fc.constantFrom('cpu', 'js') as fc.Arbitrary<'cpu' | 'js'>,
  });
  it('GEMV N and T: bit-identical to one thread, within gemvBound of the exact result; β = 0 ignores NaN in y', () => {
    fc.assert(fc.property(gemvCase, ({ m, n, layout, trans, alpha, beta, storage, seed, backend }) => {
      const value = (i: number, j: number) => Math.sin(seed + 7 * i + 13 * j) * 2 ** ((i + j + seed) % 9 - 4);
      const A = matrix(m, n, value, { layout, storage, shared: true });
      const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
      const x = sharedVector(Array.from({ length: cols }, (_, j) => Math.cos(j + seed)), 1);
      const y0 = Array.from({ length: rows }, (_, i) => (beta === 0 && i % 3 === 0 ? NaN : i - 2.5));
      const y1 = sharedVector(y0, 1), y2 = sharedVector(y0, 1);
      gemv({ alpha, A, x, beta, y: y1, trans }, { backend });
      gemv({ alpha, A, x, beta, y: y2, trans }, { backend, threads: three });
      expect([...toArray(y2)].map(String)).toEqual([...toArray(y1)].map(String));
      const bound = gemvBound({ alpha, A, x, beta, y: sharedVector(y0, 1), trans });
      const out = toArray(y2), xa = toArray(x);
      for (let i = 0; i < rows; i++) {
        const row = Array.from({ length: cols }, (_, j) => (trans === 'N' ? A.get(i, j) : A.get(j, i)));
        let exact = mulRational(exactOf(alpha), exactDot(row, xa));
        if (beta !== 0) exact = addRational(exact, mulRational(exactOf(beta), exactOf(y0[i]!)));
        if (rows > 0 && cols > 0) expect(within(out[i]!, exact, bound[i]!)).toBe(true);
      }
    }), { numRuns: 120 });
  });

  it('AXPY, WAXPBY and SCAL: bit-identical to one thread, strided and backwards', () => {
    fc.assert(fc.property(values(any), inc, inc, fc.constantFrom(2, -0.5, 0, 1e-300), fc.constantFrom(1, 0, -3), ([xs, ys], ix, iy, alpha, beta) => {
      const run = (threads?: ThreadPool): string[] => {
        const x = sharedVector(xs, ix), y = sharedVector(ys, iy, 'f32'), w = sharedVector(xs.map(() => 7), 1);
        axpy(alpha, x, y, { threads });
        waxpby(alpha, x, beta, y, w, { threads });
        scal(alpha, x, { threads });
        return [...toArray(x), ...toArray(y), ...toArray(w)].map(String);
      };
      expect(run(three)).toEqual(run());
    }), { numRuns: 100 });
  });

  it('ELL SpMV (3-D Laplacian, fp64 and fp32 values): bit-identical to one thread; its column indices must be shared', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 6 }), fc.constantFrom('f64', 'f32') as fc.Arbitrary<'f64' | 'f32'>, fc.constantFrom(0, 0.5), (a, b, storage, beta) => {
      const E = laplacianEll([a, b, 5]);
      const colIndex = new Int32Array(new SharedArrayBuffer(4 * E.colIndex.length));
      colIndex.set(E.colIndex);
      const values = range(colMajor<2>({ size: [E.stride, E.width], storage, arithmetic: 'f64', shared: true }));
      for (let k = 0; k < E.width; k++) for (let i = 0; i < E.stride; i++) values.set(i, k, E.values[i + k * E.stride]!);
      const A = ellOperand({ ...E, colIndex }, values);
      const x = sharedVector(Array.from({ length: E.cols }, (_, j) => Math.sin(j + a)), 1);
      const y1 = sharedVector(Array.from({ length: E.rows }, (_, i) => i), 1), y2 = sharedVector(Array.from({ length: E.rows }, (_, i) => i), 1);
      ellSpmv({ alpha: -1.5, A, x, beta, y: y1 });
      ellSpmv({ alpha: -1.5, A, x, beta, y: y2 }, { threads: three });
      expect([...toArray(y2)]).toEqual([...toArray(y1)]);
    }), { numRuns: 40 });
    const E = laplacianEll([4, 4, 4]);
    const A = ellOperand(E, range(colMajor<2>({ size: [E.stride, E.width], storage: 'f64', shared: true })));
    const y = sharedVector(new Array<number>(E.rows).fill(1), 1);
    let error: unknown;
    try { ellSpmv({ alpha: 1, A, x: sharedVector(new Array<number>(E.cols).fill(1), 1), beta: 0, y }, { threads: two }); } catch (e) { error = e; }
    expect([(error as ModprecError).code, (error as ModprecError).parameter]).toEqual(['INVALID_STORAGE', 'A.colIndex']);
    expect(toArray(y).every((v) => v === 1)).toBe(true);
  });

  it('a large split DOT and GEMV (the default minimum work per thread)', async () => {
    const pool = await poolFromSources(2);
    const n = 1 << 18;
    const x = vector(n, { shared: true }), y = vector(n, { shared: true, storage: formats.f32 });
    for (let i = 0; i < n; i++) { x.set(i, Math.sin(i)); y.set(i, Math.cos(i)); }
    const half = n / 2;
    expect(dot(x, y, { threads: pool })).toBe(dot(x.sub(span(0, half)), y.sub(span(0, half))) + dot(x.sub(span(half, n)), y.sub(span(half, n))));
    const A = matrix(512, 512, (i, j) => Math.sin(i - 2 * j), { shared: true });
    const v = x.sub(span(0, 512)), y1 = vector(512, { shared: true }), y2 = vector(512, { shared: true });
    for (const trans of ['N', 'T'] as const) {
      gemv({ alpha: 1, A, x: v, beta: 0, y: y1, trans });
      gemv({ alpha: 1, A, x: v, beta: 0, y: y2, trans }, { threads: pool });
      expect(toArray(y2)).toEqual(toArray(y1));
    }
    await pool.terminate();
  });
});

describe('typed errors, before anything is written', () => {
  const codeOf = (f: () => unknown): [string, string | undefined] => {
    try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
    return ['none', undefined];
  };

  it('an operand outside shared memory, named', () => {
    const s = sharedVector([1, 2, 3], 1), plain = vector([1, 2, 3]);
    expect(codeOf(() => dot(s, plain, { threads: two }))).toEqual(['INVALID_STORAGE', 'y']);
    expect(codeOf(() => asum(plain, { threads: two }))).toEqual(['INVALID_STORAGE', 'x']);
    const A = matrix(3, 3, (i, j) => i + j), y = sharedVector([5, 5, 5], 1);
    expect(codeOf(() => gemv({ alpha: 1, A, x: s, beta: 1, y }, { threads: two }))).toEqual(['INVALID_STORAGE', 'A']);
    expect(toArray(y)).toEqual(new Float64Array([5, 5, 5]));
    const w = vector(3);
    expect(codeOf(() => waxpby(1, s, 1, s, w, { threads: two }))).toEqual(['INVALID_STORAGE', 'w']);
    expect(toArray(w)).toEqual(new Float64Array(3));
    // Scales the caller gave stay theirs (not copied into shared memory): named as such.
    const given = range(scaledReducedColMajor<2>({ size: [2, 2], storage: 'i8', arithmetic: 'f64', scaleMask: [true, false], scale: new Float64Array([0.5, 2]), shared: true }));
    expect(codeOf(() => gemv({ alpha: 1, A: given, x: sharedVector([1, 1], 1), beta: 0, y: sharedVector([0, 0], 1) }, { threads: two }))).toEqual(['INVALID_STORAGE', 'A.scale']);
    const made = range(scaledReducedColMajor<2>({ size: [2, 2], storage: 'i8', arithmetic: 'f64', scaleMask: [true, false], shared: true }));
    made.set(1, 1, 3);
    const y2 = sharedVector([0, 0], 1);
    gemv({ alpha: 1, A: made, x: sharedVector([1, 1], 1), beta: 0, y: y2 }, { threads: two });
    expect(toArray(y2)).toEqual(new Float64Array([0, 3]));
  });

  it('a storage format the workers do not know, named', () => {
    const mine = registerFormat({ name: 'threads-test-u8', storage: typedArrayStorage<Uint8Array>({
      name: 'threads-test-u8', array: Uint8Array, significandBits: 8, unitRoundoff: 2 ** -9, isInteger: true, maxValue: 255,
      encodeHelper: { name: 'threadsTestEncode', fn: (v: number) => Math.max(0, Math.min(255, Math.round(v))) }, decodeHelper: { name: 'threadsTestDecode', fn: (b: number) => b },
    }) });
    const u = range(rowMajor<1>({ size: [4], storage: mine, arithmetic: 'f64', shared: true }));
    expect(codeOf(() => dot(sharedVector([1, 2, 3, 4], 1), u, { threads: two }))).toEqual(['INVALID_FORMAT', 'y']);
  });

  it('reductions the pool cannot combine, options that do not split, a GPU call, a terminated pool', async () => {
    const x = sharedVector([1, 2, 3], 1);
    expect(codeOf(() => dot(x, x, { threads: two, arithmetic: formats.dd }))).toEqual(['INVALID_OPTION', 'options.arithmetic']);
    expect(codeOf(() => dot(x, x, { threads: two, accumulation: 'kahan' }))).toEqual(['INVALID_OPTION', 'options.accumulation']);
    expect(codeOf(() => dot(x, x, { threads: two, into: sharedVector([0], 1) }))).toEqual(['INVALID_OPTION', 'options.into']);
    expect(codeOf(() => dot(x, x, { threads: {} as ThreadPool }))).toEqual(['INVALID_OPTION', 'options.threads']);
    expect(codeOf(() => nrm2(x, { threads: two } as object))).toEqual(['INVALID_OPTION', 'options.threads']);
    const L = matrix(3, 3, (i, j) => (i >= j ? 1 : 0), { shared: true });
    expect(codeOf(() => trsv({ A: L, x, uplo: 'L' }, { threads: two } as object))).toEqual(['INVALID_OPTION', 'options.threads']);
    let gpu: unknown;
    try { await dot(x, x, { backend: 'gpu', threads: two } as never); } catch (e) { gpu = e; }
    expect([(gpu as ModprecError).code, (gpu as ModprecError).parameter]).toEqual(['INVALID_OPTION', 'options.threads']);
    const gone = await poolFromSources(2);
    await gone.terminate();
    expect(codeOf(() => dot(x, x, { threads: gone }))).toEqual(['INVALID_OPTION', 'options.threads']);
  });

  it('the shared option allocates in a SharedArrayBuffer; createThreadPool checks its arguments', async () => {
    expect(vector([1, 2], { shared: true }).accessor.data).toSatisfy((d: Float64Array) => d.buffer instanceof SharedArrayBuffer);
    expect(matrix(2, 2, undefined, { shared: true, storage: formats.bf16 }).accessor.data).toSatisfy((d: Uint16Array) => d.buffer instanceof SharedArrayBuffer);
    expect(vector([1, 2]).accessor.data).toSatisfy((d: Float64Array) => !(d.buffer instanceof SharedArrayBuffer));
    expect(() => vector([1, 2], { shared: 'yes' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'shared' }));
    await expect(poolFromSources(0)).rejects.toMatchObject({ code: 'INVALID_SIZE', parameter: 'threads' });
    await expect(poolFromSources(2, { minWorkPerThread: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.minWorkPerThread' });
  });
});
