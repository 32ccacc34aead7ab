/**
 * vector(n, fill, options) through the public API: the values are fill(i) rounded to the storage, as matrix(m, n,
 * fill) fills from (row, column); misuse is a typed error. Regression: vector(3, (i) => i + 1) took the function for
 * its options (a function spreads to no keys) and returned zeros; a `size` option resized the vector.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, matrix, toArray, vector } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const STORAGES = ['f64', 'f32', 'f16', 'bf16'] as const;
const rounders: Record<(typeof STORAGES)[number], (v: number) => number> = {
  f64: (v) => v,
  f32: Math.fround,
  f16: (v) => toArray(vector([v], { storage: formats.f16 }))[0]!,
  bf16: (v) => toArray(vector([v], { storage: formats.bf16 }))[0]!,
};

describe('vector(n, fill)', () => {
  it('holds fill(i) rounded to the storage, the same as vector(values) of the same values', () => {
    fc.assert(fc.property(fc.array(fc.double({ noNaN: false }), { maxLength: 20 }), fc.constantFrom(...STORAGES), (values, storage) => {
      const f = formats[storage];
      const filled = toArray(vector(values.length, (i) => values[i]!, { storage: f }));
      expect(filled).toEqual(toArray(vector(values, { storage: f })));
      // And each element is the storage's rounding of the value (a column of matrix(n, 1, fill) rounds the same).
      expect([...filled].map((v) => Object.is(v, -0) ? 0 : v)).toEqual(values.map((v) => rounders[storage](v)).map((v) => Object.is(v, -0) ? 0 : v));
      expect(filled).toEqual(toArray(matrix(values.length, 1, (i) => values[i]!, { storage: f })));
    }));
  });

  it('takes options as the third argument, or the second after an undefined fill', () => {
    const x = vector(3, undefined, { storage: formats.f32 });
    expect(x.accessor.storage.name).toBe('f32');
    expect(toArray(x)).toEqual(new Float64Array(3));
    expect(vector(2, (i) => 0.1 * (i + 1), { storage: formats.f32 }).get(1)).toBe(Math.fround(0.2));
  });

  it('is a typed error for a fill that returns a non-number, a fill with values, options that are not an object', () => {
    expectModprec(() => vector(3, (i) => (i === 1 ? ('x' as unknown as number) : i)), 'INVALID_VALUE', 'fill(1)');
    expectModprec(() => vector([1, 2], ((i: number) => i) as never), 'INVALID_OPTION', 'fill');
    expectModprec(() => vector(2, { storage: formats.f32 } as never, {}), 'INVALID_OPTION', 'fill');
    expectModprec(() => vector(2, 'f32' as never), 'INVALID_OPTION', 'options');
    expectModprec(() => vector([1], null as never), 'INVALID_OPTION', 'options');
    expectModprec(() => matrix(2, 2, undefined, 5 as never), 'INVALID_OPTION', 'options');
  });

  it('takes its length from the values, whatever the options say', () => {
    const x = vector([1, 2, 3], { size: [7] } as never);
    expect(x.length()).toBe(3);
    expect(toArray(x)).toEqual(new Float64Array([1, 2, 3]));
  });
});
