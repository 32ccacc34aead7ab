/**
 * Outputs that overlap inputs in memory are refused (INVALID_STORAGE, before anything is written), exactly: views of
 * one buffer that share no element run, element-wise kernels may write over an input with the same elements.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  axpy, dot, ellSpmv, formats, gemv, range, rowMajor, colMajor, scal, trsv, vector, waxpby,
} from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { Accessor } from '../../accessors/accessor.js';
import { overlaps, sameElements } from '../../kernels/shared/aliasing.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

/** Every byte interval [start, end) the elements of a 1-D or 2-D view occupy (the brute-force oracle). */
function byteIntervals(a: Accessor<any, any>): [number, number][] {
  const data = a.data as Float64Array | Float32Array;
  const w = data.BYTES_PER_ELEMENT * (a.storage.wordsPerElement ?? 1);
  const size = a.size as readonly number[], strides = a.strides as readonly number[];
  const out: [number, number][] = [];
  const rows = size.length === 1 ? 1 : size[0]!, cols = size.length === 1 ? size[0]! : size[1]!;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const p = size.length === 1 ? a.offset + j * strides[0]! : a.offset + i * strides[0]! + j * strides[1]!;
      out.push([data.byteOffset + p * w, data.byteOffset + (p + 1) * w]);
    }
  }
  return out;
}
const bruteOverlap = (a: Accessor<any, any>, b: Accessor<any, any>): boolean =>
  byteIntervals(a).some(([s, e]) => byteIntervals(b).some(([t, f]) => s < f && t < e));

const BUFFER_DOUBLES = 128;

/** A 1-D view (any offset, any non-zero stride) of a buffer, as f64 or as f32 words of the same bytes. */
function vectorView(buffer: ArrayBuffer, length?: number): fc.Arbitrary<Range<1, any>> {
  return fc.record({
    n: length === undefined ? fc.integer({ min: 0, max: 8 }) : fc.constant(length), stride: fc.integer({ min: -5, max: 5 }).filter((s) => s !== 0),
    start: fc.integer({ min: 0, max: 40 }), f32: fc.boolean(),
  }).map(({ n, stride, start, f32 }) => {
    const data = f32 ? new Float32Array(buffer, 8, 2 * BUFFER_DOUBLES - 2) : new Float64Array(buffer);
    const first = stride > 0 ? start : start + -stride * Math.max(0, n - 1);
    return range(rowMajor<1>({ size: [n], data, stride, offset: first, storage: f32 ? formats.f32 : formats.f64 }));
  });
}

/** A 2-D view (row- or column-major, any leading dimension and offset) of the same buffer as f64. */
function matrixView(buffer: ArrayBuffer): fc.Arbitrary<Range<2, any>> {
  return fc.record({
    m: fc.integer({ min: 0, max: 4 }), n: fc.integer({ min: 0, max: 4 }), extra: fc.integer({ min: 0, max: 3 }),
    offset: fc.integer({ min: 0, max: 20 }), rowMajorLayout: fc.boolean(),
  }).map(({ m, n, extra, offset, rowMajorLayout }) => {
    const data = new Float64Array(buffer);
    const ld = (rowMajorLayout ? Math.max(1, n) : Math.max(1, m)) + extra;
    return range((rowMajorLayout ? rowMajor : colMajor)<2>({ size: [m, n], data, stride: ld, offset }));
  });
}

describe('the overlap test is exact', () => {
  it('any two 1-D views of one buffer (strides of either sign, f64 and f32 words): the brute-force answer', () => {
    const buffer = new ArrayBuffer(8 * BUFFER_DOUBLES);
    fc.assert(fc.property(vectorView(buffer), vectorView(buffer), (a, b) => {
      expect(overlaps(a.accessor, b.accessor)).toBe(bruteOverlap(a.accessor, b.accessor));
    }), { numRuns: 2000 });
  });

  it('a 2-D view and a 1-D view of one buffer: the brute-force answer', () => {
    const buffer = new ArrayBuffer(8 * BUFFER_DOUBLES);
    fc.assert(fc.property(matrixView(buffer), vectorView(buffer), (A, x) => {
      expect(overlaps(A.accessor, x.accessor)).toBe(bruteOverlap(A.accessor, x.accessor));
    }), { numRuns: 2000 });
  });

  it('different buffers never overlap; a view has the same elements as itself', () => {
    const x = vector([1, 2, 3]), y = vector([1, 2, 3]);
    expect(overlaps(x.accessor, y.accessor)).toBe(false);
    expect(sameElements(x.accessor, x.accessor)).toBe(true);
    expect(sameElements(x.accessor, x.accessor.toConst())).toBe(true);
  });
});

/** Copies of the buffer's values, to check that a refused call wrote nothing. */
const snapshot = (buffer: ArrayBuffer): number[] => Array.from(new Float64Array(buffer));

describe('kernels refuse an output that overlaps an input, before writing', () => {
  it('GEMV with y === x (the issue: [6, 11, 20] instead of [6, 6, 6]), and y inside A', () => {
    const A = range(colMajor<2>({ size: [3, 3] }));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) A.set(i, j, 1);
    const x = vector([1, 2, 3]);
    expectModprec(() => gemv({ alpha: 1, A, x, beta: 0, y: x }, { loop: 'dot' }), 'INVALID_STORAGE', 'y');
    expect([x.get(0), x.get(1), x.get(2)]).toEqual([1, 2, 3]);
    const column = range(rowMajor<1>({ size: [3], data: A.accessor.data as Float64Array, offset: 3 }));
    expectModprec(() => gemv({ alpha: 1, A, x, beta: 0, y: column }), 'INVALID_STORAGE', 'y');
    expectModprec(() => gemv({ alpha: 1, A, x, beta: 0, y: column, trans: 'T' }), 'INVALID_STORAGE', 'y');
  });

  it('GEMV: any y over the buffer of A and x runs iff it shares no element with them, and matches the reference then', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 3 }), (start, stride) => {
      const buffer = new ArrayBuffer(8 * BUFFER_DOUBLES);
      const all = new Float64Array(buffer);
      all.forEach((_, k) => { all[k] = (k % 7) - 3; });
      const A = range(colMajor<2>({ size: [3, 2], data: all, stride: 5, offset: 10 })); // columns at 10..12, 15..17
      const x = range(rowMajor<1>({ size: [2], data: all, stride: 2, offset: 30 })); // 30, 32
      const y = range(rowMajor<1>({ size: [3], data: all, stride, offset: start }));
      const clash = bruteOverlap(y.accessor, A.accessor) || bruteOverlap(y.accessor, x.accessor);
      const before = snapshot(buffer);
      const expected = [0, 1, 2].map((i) => A.get(i, 0) * x.get(0) + A.get(i, 1) * x.get(1) + 0.5 * y.get(i));
      const call = (): void => gemv({ alpha: 1, A, x, beta: 0.5, y });
      if (clash) {
        expectModprec(call, 'INVALID_STORAGE', 'y');
        expect(snapshot(buffer)).toEqual(before);
      } else {
        call();
        expect([0, 1, 2].map((i) => y.get(i))).toEqual(expected);
      }
    }), { numRuns: 200 });
  });

  it('ELL SpMV with y === x (the issue: [1, 3, 6] instead of [1, 3, 5]) and y over the values', () => {
    const E = laplacianEll([3]);
    const x = vector([1, 2, 3]);
    expectModprec(() => ellSpmv({ alpha: 1, A: E, x, beta: 0, y: x }), 'INVALID_STORAGE', 'y');
    expect([x.get(0), x.get(1), x.get(2)]).toEqual([1, 2, 3]);
    const overValues = range(rowMajor<1>({ size: [3], data: E.values }));
    expectModprec(() => ellSpmv({ alpha: 1, A: E, x, beta: 0, y: overValues }), 'INVALID_STORAGE', 'y');
  });

  it('TRSV with x inside A, and DOT with into inside x', () => {
    const A = range(colMajor<2>({ size: [3, 3] }));
    for (let i = 0; i < 3; i++) A.set(i, i, 2);
    const diagonalAsX = range(rowMajor<1>({ size: [3], data: A.accessor.data as Float64Array, stride: 4 }));
    expectModprec(() => trsv({ A, x: diagonalAsX }), 'INVALID_STORAGE', 'x');
    expect([A.get(0, 0), A.get(1, 1), A.get(2, 2)]).toEqual([2, 2, 2]);
    const x = vector([1, 2, 3]);
    const into = range(rowMajor<1>({ size: [1], data: x.accessor.data as Float64Array, offset: 2 }));
    expectModprec(() => dot(x, x, { into }), 'INVALID_STORAGE', 'options.into');
  });

  it('AXPY and WAXPBY: any two 1-D views of one buffer run iff disjoint or the same elements, with BLAS results', () => {
    const buffer = new ArrayBuffer(8 * BUFFER_DOUBLES);
    const f64only = (v: fc.Arbitrary<Range<1, any>>) => v.filter((r) => r.accessor.storage === formats.f64.storage);
    const pair = fc.integer({ min: 0, max: 8 }).chain((n) => fc.tuple(f64only(vectorView(buffer, n)), f64only(vectorView(buffer, n))));
    fc.assert(fc.property(pair, ([x, y]) => {
      const all = new Float64Array(buffer);
      all.forEach((_, k) => { all[k] = k; });
      const n = x.length();
      const xs = Array.from({ length: n }, (_, i) => x.get(i)), ys = Array.from({ length: n }, (_, i) => y.get(i));
      const allowed = !bruteOverlap(x.accessor, y.accessor) || sameElements(x.accessor, y.accessor);
      const before = snapshot(buffer);
      if (!allowed) {
        expectModprec(() => axpy(2, x, y), 'INVALID_STORAGE', 'y');
        expectModprec(() => waxpby(2, x, 1, vector(n), y), 'INVALID_STORAGE', 'w');
        expect(snapshot(buffer)).toEqual(before);
        return;
      }
      axpy(2, x, y);
      expect(Array.from({ length: n }, (_, i) => y.get(i))).toEqual(xs.map((v, i) => 2 * v + ys[i]!));
    }), { numRuns: 1000 });
  });
});

describe('aliasing that stays allowed', () => {
  it('AXPY y := a·y + y, WAXPBY w = x or w = y, SCAL in place, DOT of x with itself', () => {
    const y = vector([1, 2, 3]);
    axpy(2, y, y);
    expect([y.get(0), y.get(1), y.get(2)]).toEqual([3, 6, 9]);
    const x = vector([1, 2]), z = vector([10, 20]);
    waxpby(1, x, 1, z, x);
    expect([x.get(0), x.get(1)]).toEqual([11, 22]);
    waxpby(1, x, 2, z, z);
    expect([z.get(0), z.get(1)]).toEqual([31, 62]);
    scal(2, z);
    expect([z.get(0), z.get(1)]).toEqual([62, 124]);
    expect(dot(z, z)).toBe(62 * 62 + 124 * 124);
  });

  it('interleaved views (even and odd elements) and disjoint halves of one buffer', () => {
    const v = new Float64Array([1, 10, 2, 20, 3, 30]);
    const even = range(rowMajor<1>({ size: [3], data: v, stride: 2 }));
    const odd = range(rowMajor<1>({ size: [3], data: v, stride: 2, offset: 1 }));
    axpy(1, even, odd);
    expect(Array.from(v)).toEqual([1, 11, 2, 22, 3, 33]);
    const A = range(colMajor<2>({ size: [2, 2], data: new Float64Array([1, 0, 0, 1, 5, 6]) }));
    const rest = range(rowMajor<1>({ size: [2], data: A.accessor.data as Float64Array, offset: 4 }));
    gemv({ alpha: 1, A, x: vector([7, 8]), beta: 0, y: rest });
    expect([rest.get(0), rest.get(1)]).toEqual([7, 8]);
  });
});
