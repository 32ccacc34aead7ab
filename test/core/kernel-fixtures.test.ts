/**
 * The kernel tests' operand fixtures themselves: every layout holds the values written (storage-rounded), and the
 * sentinel guard does catch a write outside the view — so a kernel that wrote there would fail its test.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildVector, lengthArbitrary, vectorSpec, KERNEL_STORAGES } from './support/vector-cases.js';
import { storageRound, storedElement } from './support/storage-oracle.js';
import { runs } from './support/runs.js';

describe('kernel operand fixtures', () => {
  it('hold the written values, rounded to the storage (scaled int16 within half a quantum)', () => {
    fc.assert(fc.property(lengthArbitrary(12).chain((n) => vectorSpec(n)), (spec) => {
      const { range } = buildVector(spec, 'f64');
      expect(range.length()).toBe(spec.values.length);
      spec.values.forEach((v, i) => {
        if (spec.storage === 'i16s') {
          expect(Math.abs(range.get(i) - v)).toBeLessThanOrEqual(range.readScale(i) / 2 + 2 ** -50 * Math.abs(v));
        } else {
          expect(storedElement(range, [i])).toBe(storageRound(spec.storage, v));
        }
      });
    }), { numRuns: runs(200) });
  });

  it.each(KERNEL_STORAGES)('%s: the sentinel guard catches a write just outside the view', (storage) => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).chain((n) => vectorSpec(n, [storage])), (spec) => {
      const operand = buildVector(spec, 'f64');
      const a = operand.range.accessor;
      const data = a.data as Float64Array;
      const inside = new Set(Array.from({ length: spec.values.length }, (_, i) => a.linearIndex([i])));
      const outside = [...data.keys()].find((k) => !inside.has(k))!;
      operand.checkOutsideUnchanged();
      data[outside] = 1;
      expect(() => operand.checkOutsideUnchanged()).toThrow(/outside the view changed/);
    }), { numRuns: runs(30) });
  });
});
