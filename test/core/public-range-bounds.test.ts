/**
 * Bounds of sub-ranges and of the factories' offsets, as typed errors naming what was wrong. Regressions:
 * `sub(3)` of a length-3 range said "spans[0].end must be ≤ 3, got 4" (an end the caller never gave); an offset
 * below the reach of negative strides (`rowMajor({ size: [3], stride: -1, offset: 0 })`) was reported against
 * `data` (the buffer the factory had just allocated itself, "got Float64Array(1)"); an offset past 2^31 on an empty
 * view was blamed on `size`; and `matrix(…, { layout: 'rowMajor' })` (any unknown layout) silently built a
 * column-major matrix; the exported `new Range(x)` took anything (`toArray(new Range({}))` was a TypeError); and a span
 * object was read again after it was checked, so a getter or Proxy span viewed other elements than those validated;
 * `new Accessor` took a view of 2^40 elements (zero strides over one element), which toArray met with a native
 * RangeError and asum looped over for ever.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Accessor, ModprecError, Range, colMajor, f64Arithmetic, f64Storage, matrix, range, rowMajor, span, strided, toArray, vector } from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

const dims = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 3 });

describe('sub-range bounds', () => {
  it('a point index at or past the extent names spans[d] with the index given; span(n, n) is an empty view', () => {
    fc.assert(fc.property(dims, fc.nat({ max: 2 }), fc.nat({ max: 3 }), (size, dRaw, past) => {
      const d = dRaw % size.length;
      const A = range(rowMajor({ size: size as never }));
      const data = Float64Array.from(A.accessor.data as Float64Array, (_, k) => k + 0.5);
      (A.accessor.data as Float64Array).set(data);
      const full = size.map((n) => span(0, n));
      const point = full.map((s, e) => (e === d ? size[d]! + past : s));
      expect(errorOf(() => A.sub(...point))).toEqual(['INDEX_OUT_OF_RANGE', `spans[${d}]`]);
      const longer = full.map((s, e) => (e === d ? span(0, size[d]! + 1 + past) : s));
      expect(errorOf(() => A.sub(...longer))).toEqual(['INDEX_OUT_OF_RANGE', `spans[${d}].end`]);
      const empty = A.sub(...full.map((s, e) => (e === d ? span(size[d]!, size[d]!) : s)));
      expect(empty.length(d)).toBe(0);
      expect(toArray(empty).length).toBe(0);
      // Nothing was written by the refused calls.
      expect(A.accessor.data).toEqual(data);
    }), { numRuns: 60 });
  });

  it('a span object is read once: the view is the span that was checked, whatever its getters return later', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: -3, max: 9 }), { minLength: 4, maxLength: 8 }), (n, later) => {
      const x = vector(Array.from({ length: n }, (_, i) => i + 0.5));
      // Each bound's first read is the valid span [0, n); every later read returns another number.
      let k = 0;
      const bound = (first: number) => { let read = false; return () => { if (!read) { read = true; return first; } return later[k++ % later.length]!; }; };
      const begin = bound(0), end = bound(n);
      const hostile = { get begin() { return begin(); }, get end() { return end(); } };
      const view = x.sub(hostile);
      expect(view.length()).toBe(n);
      expect([...toArray(view)]).toEqual([...toArray(x)]);
    }), { numRuns: 30 });
  });
});

describe('new Range', () => {
  it('refuses what is not an accessor, as range() does', () => {
    for (const bad of [undefined, null, {}, 3, 'a', vector([1])]) {
      expect(errorOf(() => new Range(bad as never))).toEqual(['INVALID_OPTION', 'accessor']);
      expect(errorOf(() => range(bad as never))).toEqual(['INVALID_OPTION', 'accessor']);
    }
    expect([...toArray(new Range(rowMajor({ size: [2] })))]).toEqual([0, 0]);
  });
});

describe('factory offsets', () => {
  it('an offset below the reach of negative strides names offset, with or without data; at the reach it views the oracle', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 3 }), fc.boolean(), fc.constantFrom('row', 'col', 'strided'),
      (n, step, withData, kind) => {
        const reach = step * (n - 1);
        const data = Float64Array.from({ length: reach + 1 }, (_, k) => k + 0.5);
        const make = (offset: number) => {
          const opts = { size: [n] as [number], offset, ...(withData ? { data } : {}) };
          return kind === 'strided' ? strided({ ...opts, strides: [-step] as [number] })
            : (kind === 'row' ? rowMajor : colMajor)<1>({ ...opts, stride: -step });
        };
        for (const offset of [0, reach - 1]) expect(errorOf(() => make(offset))).toEqual(['INVALID_SIZE', 'offset']);
        const view = range(make(reach));
        // Element i sits at reach − i·step.
        expect([...toArray(view)]).toEqual(Array.from({ length: n }, (_, i) => (withData ? reach - i * step + 0.5 : 0)));
      }), { numRuns: 40 });
  });

  it('an offset past 2^31 − 1 with allocated storage names offset, even for an empty view', () => {
    for (const size of [[0], [1], [0, 3]]) {
      for (const offset of [2 ** 31 - 1, 2 ** 31, 2 ** 40]) expect(errorOf(() => rowMajor({ size: size as never, offset }))).toEqual(['INVALID_SIZE', 'offset']);
    }
  });

  it('an empty view allocates no storage, whatever its offset below 2^31 − 1 (an offset of 1e9 allocated 8 GB)', () => {
    fc.assert(fc.property(fc.constantFrom([0], [0, 5], [5, 0], [0, 0]), fc.integer({ min: 0, max: 2 ** 31 - 2 }), (size, offset) => {
      const a = (size.length === 1 ? rowMajor : colMajor)({ size: size as never, offset });
      expect((a.data as Float64Array).length).toBe(0);
      expect(toArray(range(a)).length).toBe(0);
    }), { numRuns: 50 });
  });
});

describe('matrix layout', () => {
  it('anything but row-major or col-major is INVALID_OPTION naming layout', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.constantFrom<unknown>('rowMajor', 'colMajor', 'row', 'block-col-major', null, 1, {})), (layout) => {
      fc.pre(layout !== 'row-major' && layout !== 'col-major');
      expect(errorOf(() => matrix(2, 3, () => 1, { layout: layout as never }))).toEqual(['INVALID_OPTION', 'layout']);
    }), { numRuns: 40 });
    expect(matrix(2, 3, undefined, { layout: 'row-major' }).accessor.strides).toEqual([3, 1]);
    expect(matrix(2, 3, undefined, { layout: 'col-major' }).accessor.strides).toEqual([1, 2]);
    expect(matrix(2, 3).accessor.strides).toEqual([1, 2]);
  });

  it('a fill that is not a function is refused before the storage is allocated (not blamed on the size)', () => {
    // 2^16 × 2^16 needs more than 2^31 − 1 elements: the fill is reported, not the allocation.
    for (const fill of [5, 'x', {}]) expect(errorOf(() => matrix(2 ** 16, 2 ** 16, fill as never))).toEqual(['INVALID_OPTION', 'fill']);
  });
});

describe('vector of an array-like', () => {
  it('a length that is not a non-negative integer is INVALID_SIZE naming values.length', () => {
    for (const length of [1.5, -1, NaN, Infinity, 2 ** 53]) expect(errorOf(() => vector({ length } as never))).toEqual(['INVALID_SIZE', 'values.length']);
    expect([...toArray(vector({ length: 2, 0: 3, 1: 4 } as never))]).toEqual([3, 4]);
  });
});

describe('new Accessor: element count', () => {
  it('more than 2^31 − 1 elements in all is INVALID_SIZE naming size, as for the factories; up to it is a view', () => {
    const make = (size: number[]) => new Accessor({
      size, strides: size.map(() => 0), offset: 0, storage: f64Storage, arithmetic: f64Arithmetic, data: Float64Array.of(7), layout: 'strided',
    } as never);
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 3 }), (size) => {
      const count = size.reduce((p, v) => p * v, 1);
      if (count > 2 ** 31 - 1) expect(errorOf(() => make(size))).toEqual(['INVALID_SIZE', 'size']);
      else expect(range(make(size)).get(...size.map((n) => n - 1))).toBe(7);
    }), { numRuns: 100 });
    expect(errorOf(() => make([2 ** 40]))).toEqual(['INVALID_SIZE', 'size']);
    expect(range(make([2 ** 31 - 1])).length()).toBe(2 ** 31 - 1);
  });
});
