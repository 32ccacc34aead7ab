/**
 * new Accessor(init) (exported, "prefer the layout factories") checks its shape as its TSDoc promises and the factories
 * do: INVALID_SIZE for sizes that are not 1 to 3 non-negative integers or an offset that is not an integer,
 * INVALID_STRIDE for strides that are not one integer per dimension. Regression: a NaN size gave a NaN
 * length, size 1.5 or '2' a view of 1 or 2 elements, strides NaN or 1.5 and offsets 1.5 or NaN views that read NaN, a
 * 4-D size or a stride list of the wrong length an accessor that read NaN everywhere, and a null init a TypeError.
 */
import { describe, expect, it } from 'vitest';
import { Accessor, f64Arithmetic, f64Storage, range, toArray } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const base = { size: [2], strides: [1], offset: 0, storage: f64Storage, arithmetic: f64Arithmetic, data: Float64Array.of(1, 2, 3, 4), layout: 'strided' as const };
const make = (over: Record<string, unknown>) => new Accessor({ ...base, ...over } as never);

describe('new Accessor: the shape', () => {
  it('bad sizes, strides and offsets are typed errors naming them', () => {
    for (const size of [[NaN], [1.5], ['2'], [-1], [Infinity]]) expectModprec(() => make({ size }), 'INVALID_SIZE', 'size[0]');
    for (const size of [[], [1, 1, 1, 1], 2, null]) expectModprec(() => make({ size }), 'INVALID_SIZE', 'size');
    for (const strides of [[NaN], [1.5], ['1'], [Infinity]]) expectModprec(() => make({ strides }), 'INVALID_STRIDE', 'strides[0]');
    for (const strides of [[1, 1], [], 1]) expectModprec(() => make({ strides }), 'INVALID_STRIDE', 'strides');
    for (const offset of [1.5, NaN, '0', undefined, Infinity]) expectModprec(() => make({ offset }), 'INVALID_SIZE', 'offset');
    // A negative offset is an empty sub-range's business; a non-empty view there reaches outside its data.
    expectModprec(() => make({ offset: -1 }), 'INVALID_STORAGE', 'data');
    expectModprec(() => new Accessor(null as never), 'INVALID_OPTION', 'init');
  });

  it('valid shapes read their elements', () => {
    expect([...toArray(range(make({})))]).toEqual([1, 2]);
    expect([...toArray(range(make({ size: [2], strides: [-2], offset: 3 })))]).toEqual([4, 2]);
    expect([...toArray(range(make({ size: [2, 2], strides: [1, 2] })))]).toEqual([1, 3, 2, 4]);
    expect([...toArray(range(make({ size: [0], offset: 9 })))]).toEqual([]);
    expect([...toArray(range(make({ size: [0], strides: [-2], offset: -2 })))]).toEqual([]);
    // A zero stride reads one element repeatedly (read-only broadcasts are the caller's business, as for strided views).
    expect([...toArray(range(make({ size: [3], strides: [0], offset: 1 })))]).toEqual([2, 2, 2]);
  });
});
