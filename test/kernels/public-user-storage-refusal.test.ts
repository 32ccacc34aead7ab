/**
 * A user's storage format whose write throws for some values (here: a non-negative fp64 storage that refuses a
 * negative value), as the output of every writing kernel. Regression: the JavaScript kernels wrote the elements before
 * the refused one and let the format's error through mid-write (axpy(1, [1, -9, 3], y = [5, 6, 7]) left y = [6, 6, 7]).
 * Now INVALID_VALUE naming the element (`y[1]`), the format's error as its `cause`, and every word of the output's
 * buffer as it was (sentinels outside the view included). DOT's `into` likewise (named `options.into[0]`; its
 * WebAssembly result is stored by the JavaScript store). The WebAssembly and the GPU refuse a user's format without a
 * WebAssembly reader or GPU part as an output before anything is written.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  axpy, dot, ellMatrix, ellSpmv, formats, gemv, matrix, range, registerFormat, rowMajor, scal, span, trsv, typedArrayStorage, vector, waxpby,
  type Range,
} from '../../src/index.js';
import { outcome } from './option-arbitraries.js';

/** fp64 storage that refuses negative values in its write (a format's own rule). */
const nonNegative = registerFormat({
  name: 'test-non-negative-f64',
  storage: typedArrayStorage<Float64Array>({
    name: 'test-non-negative-f64', array: Float64Array, significandBits: 53, unitRoundoff: 2 ** -53, isInteger: false, maxValue: Number.MAX_VALUE,
    encodeHelper: { name: 'testNonNegativeEncode', fn: (v: number) => { if (v < 0) throw new RangeError(`negative: ${v}`); return v; } },
  }),
});

/** An output of length n in the refusing format: a view one element into a buffer with a sentinel on each side. */
function output(values: readonly number[]): { data: Float64Array; y: Range<1, any> } {
  const n = values.length;
  const data = Float64Array.from([0.75, ...values, 0.75]);
  const parent = range(rowMajor<1>({ size: [n + 2], storage: nonNegative, arithmetic: 'f64', data } as never));
  return { data, y: parent.sub(span(1, n + 1)) };
}

interface Case {
  readonly out: string;
  /** A call whose result for element k (when given) is negative, every other one non-negative. */
  run(y: Range<1, any>, n: number, k: number | undefined, options: object): unknown;
}

const CASES: Readonly<Record<string, Case>> = {
  axpy: { out: 'y', run: (y, n, k, o) => axpy(1, vector(n, (i) => (i === k ? -200 : i)), y, o as never) },
  waxpby: { out: 'w', run: (w, n, k, o) => waxpby(1, vector(n, (i) => (i === k ? -3 : i)), 0.5, vector(n, () => 1), w, o as never) },
  // x holds 2 at k and 0 elsewhere (set before the call): α = -1 makes -2 there and -0 (a value it takes) elsewhere.
  scal: { out: 'x', run: (x, n, k, o) => scal(k === undefined ? 2 : -1, x, o as never) },
  gemv: { out: 'y', run: (y, n, k, o) => gemv({ alpha: 1, A: matrix(n, n, (i, j) => (i === k ? -300 : j)), x: vector(n, () => 1), beta: 1, y }, o as never) },
  ellSpmv: { out: 'y', run: (y, n, k, o) => ellSpmv({ alpha: 1, A: ellMatrix({ rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.from({ length: n }, (_, i) => i), values: Float64Array.from({ length: n }, (_, i) => (i === k ? -300 : 1)) }), x: vector(n, () => 1), beta: 1, y }, o as never) },
  // DOT's `into` (the output's first element): x·y = -200 + … when k is given.
  'dot into': { out: 'options.into', run: (y, n, k, o) => dot(vector(n, (i) => (i === k ? -200 : i)), vector(n, () => 1), { ...o, into: y.sub(span(0, 1)) } as never) },
  // Lower triangular, solved first to last: unknown k divided by a pivot -1 (the others 1, off-diagonal 0).
  trsv: { out: 'x', run: (x, n, k, o) => trsv({ A: matrix(n, n, (i, j) => (i === j ? (i === k ? -1 : 1) : 0)), x, uplo: 'L' }, o as never) },
};

describe('a user storage that throws in its write, as a kernel\'s output', () => {
  it('INVALID_VALUE names the element (the format\'s error as cause), and the buffer keeps every word', () => {
    const values = fc.array(fc.double({ min: 0.5, max: 64, noNaN: true }), { minLength: 1, maxLength: 6 });
    fc.assert(fc.property(values, fc.nat(), fc.constantFrom(...Object.keys(CASES)), fc.constantFrom('f64', 'f32', 'dd', 'rns106'), fc.constantFrom('js', 'cpu', 'wasm', 'gpu'), (ys, k0, name, arithmetic, backend) => {
      // DOT's `into` in a user's format passes the GPU's synchronous checks (the GPU runner writes it: test/gpu/public-gpu-user-storage-refusal.test.ts).
      fc.pre(!(name === 'dot into' && backend === 'gpu'));
      const c = CASES[name]!, n = ys.length, k = k0 % n;
      const { data, y } = output(ys);
      if (name === 'scal') for (let i = 0; i < n; i++) y.set(i, i === k ? 2 : 0);
      const before = Array.from(data);
      let cause: unknown;
      const got = outcome(() => { try { return c.run(y, n, k, { arithmetic: formats[arithmetic as 'f64'], backend }); } catch (e) { cause = (e as { cause?: unknown }).cause; throw e; } });
      const element = `INVALID_VALUE ${c.out}[${c.out === 'options.into' ? 0 : k}]`;
      // The WebAssembly computes in no RNS arithmetic; it reads no user format (DOT's `into` is stored by the JavaScript).
      const expected = backend === 'wasm' ? (arithmetic === 'rns106' ? 'INVALID_OPTION options.arithmetic' : c.out === 'options.into' ? element : `INVALID_FORMAT ${c.out}`)
        : backend === 'gpu' ? (arithmetic === 'f64' ? 'INVALID_OPTION options.arithmetic' : `INVALID_FORMAT ${c.out}`) : element;
      expect({ name, arithmetic, backend, got: got.ok ? 'ok' : got.error }).toEqual({ name, arithmetic, backend, got: expected });
      if (backend === 'js' || backend === 'cpu') expect(cause).toBeInstanceOf(RangeError);
      expect(Array.from(data)).toEqual(before);
    }), { numRuns: 400 });
  });

  it('values the format takes are written as fp64 storage holds them', () => {
    const values = fc.array(fc.double({ min: 0.5, max: 64, noNaN: true }), { minLength: 1, maxLength: 6 });
    fc.assert(fc.property(values, fc.constantFrom(...Object.keys(CASES)), (ys, name) => {
      const c = CASES[name]!, n = ys.length;
      const user = output(ys), plain = vector(ys, { storage: formats.f64 });
      expect(outcome(() => c.run(user.y, n, undefined, { backend: 'js' })).ok).toBe(true);
      c.run(plain, n, undefined, { backend: 'js' });
      expect(Array.from(user.data.subarray(1, n + 1))).toEqual(Array.from(plain.accessor.data as Float64Array));
    }), { numRuns: 60 });
  });

  it('an error that is no store refusal (a bad option) is the kernel\'s own, before anything is written', () => {
    const { data, y } = output([1, 2, 3]);
    expect(outcome(() => axpy(1, vector([1, 2, 3]), y, { accumulation: 'nope' } as never))).toEqual({ ok: false, error: 'INVALID_OPTION options.accumulation' });
    expect(Array.from(data)).toEqual([0.75, 1, 2, 3, 0.75]);
  });
});
