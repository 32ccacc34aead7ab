/**
 * new Accessor(init) with a scale checks the scale values the view reaches, as the scaled factories and writeScale do:
 * INVALID_VALUE naming `scale.data[k]` for a zero, −0, NaN or ±∞ scale. Regression: a raw accessor over
 * scale.data = [2, 0] was accepted, read 0 at row 1 and wrote x / 0 = ±∞ (or NaN) into the storage.
 * Sub-ranges share their parent's checked scales: sub() does not read a scale again (it stays O(1)).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Accessor, f64Arithmetic, f64Storage, range, scaledReducedRowMajor } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const bad = [0, -0, NaN, Infinity, -Infinity];

/** A row-major m×n f64 accessor with one scale per row (mask [true, false]), its scales at `offset` of `data`. */
const perRow = (m: number, n: number, data: Float64Array, offset = 0) => new Accessor<2>({
  size: [m, n], strides: [n, 1], offset: 0, storage: f64Storage, arithmetic: f64Arithmetic,
  data: new Float64Array(m * n), layout: 'row-major', scale: { data, offset, strides: [1, 0], mask: [true, false] },
});

describe('new Accessor: scale values', () => {
  it('a bad scale the view reaches is INVALID_VALUE naming scale.data[k], as the factories refuse it', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.nat(), fc.constantFrom(...bad),
      (m, n, offset, at, v) => {
        const row = at % m;
        const data = new Float64Array(offset + m).fill(0.5);
        data[offset + row] = v;
        expectModprec(() => perRow(m, n, data, offset), 'INVALID_VALUE', `scale.data[${offset + row}]`);
        // The factory refuses the same scale with the same code (naming its `scale` option).
        const packed = data.slice(offset);
        expectModprec(() => scaledReducedRowMajor({ size: [m, n], storage: f64Storage, arithmetic: f64Arithmetic, scaleMask: [true, false], scale: packed }), 'INVALID_VALUE', `scale[${row}]`);
      }));
  });

  it('3-D views with negative and zero scale strides: only the scales reached are checked', () => {
    // Scale strides [-1, 0, 3] from offset 1 reach data[1 - i + 3k] for i < 2, k < 2: {0, 1, 3, 4}.
    const make = (data: Float64Array) => new Accessor<3>({
      size: [2, 5, 2], strides: [10, 2, 1], offset: 0, storage: f64Storage, arithmetic: f64Arithmetic,
      data: new Float64Array(20), layout: 'strided', scale: { data, offset: 1, strides: [-1, 0, 3], mask: [true, false, true] },
    });
    for (const k of [0, 1, 3, 4]) {
      for (const v of bad) {
        const data = Float64Array.of(1, 2, 0.25, 4, 8);
        data[k] = v;
        expectModprec(() => make(data), 'INVALID_VALUE', `scale.data[${k}]`);
      }
    }
    // data[2] is outside the view: another view's scale (or unused) may be anything.
    for (const v of bad) {
      const A = range(make(Float64Array.of(1, 2, v, 4, 8)));
      A.set(1, 4, 1, 3);
      expect(A.get(1, 4, 1)).toBe(3);
      expect(A.readScale(1, 4, 1)).toBe(4);
    }
  });

  it('an empty view reaches no scale', () => {
    expect(perRow(0, 3, Float64Array.of(0)).length).toBe(0);
    expect(perRow(2, 0, Float64Array.of(NaN, 0)).length).toBe(0);
  });

  it('sub, toConst and withArithmetic share the checked scales without reading them again', () => {
    const m = 64, n = 3;
    let reads = 0;
    // Counts indexed reads of the scale array (instanceof Float64Array still holds through the proxy).
    const data = new Proxy(new Float64Array(m).fill(2), {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        const v = Reflect.get(target, key, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const A = perRow(m, n, data);
    expect(reads).toBeGreaterThanOrEqual(m);
    reads = 0;
    let view = A;
    for (let i = 0; i < m - 1; i++) view = view.sub({ begin: 1, end: view.size[0] }, { begin: 0, end: n }).toConst().withArithmetic(f64Arithmetic);
    expect(reads).toBe(0);
    expect(view.size).toEqual([1, n]);
    expect(view.readScale(0, 0)).toBe(2);
  });
});
