/**
 * Scaled reduced accessors (value = stored × scale, integer or floating storage): write-then-read against the
 * conversion functions, the quantisation error of fitScales, the scale masks, readScale/writeScale, sub-ranges.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scaledReducedRowMajor, scaledReducedColMajor, fitScales } from '../../accessors/scaled-reduced.js';
import { rowMajor } from '../../accessors/row-major.js';
import { range } from '../../src/core/range.js';
import '../../src/formats/index.js'; // registers the storage-only formats (f16, bf16, integers) by name
import { span } from '../../src/core/span.js';
import { INTEGER_STORAGES, storageRound, storedElement, storedExact } from './support/storage-oracle.js';
import { allIndices } from './support/layout-mapping.js';
import { shapeOf } from './support/shape-arbitraries.js';
import { runs } from './support/runs.js';
import { uniformUnit } from '../../src/testing/data-arbitraries.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, divRational, subRational } from '../../src/testing/rational.js';
import { roundRationalToInteger } from '../../src/testing/round-rational.js';

const ARITHMETIC = { f64: { round: (x: number) => x }, f32: { round: Math.fround } } as const;
const positiveScale = fc.tuple(fc.double({ min: 1, max: 2, maxExcluded: true, noNaN: true }), fc.integer({ min: -20, max: 20 }))
  .map(([m, e]) => m * 2 ** e);

describe.each(INTEGER_STORAGES)('%s storage with a scale', (storage) => {
  describe.each(['f64', 'f32'] as const)('in %s arithmetic', (arithmetic) => {
    const ar = ARITHMETIC[arithmetic];

    it('write then read: stored = the exact v / scale rounded once to an integer, saturated; read = stored × scale rounded as the arithmetic does', () => {
      fc.assert(fc.property(positiveScale, fc.double({ min: -1e12, max: 1e12, noNaN: true }), fc.boolean(), (scale, v, perRow) => {
        const A = range(scaledReducedRowMajor({ size: [2, 3], storage, arithmetic, scaleMask: [perRow, !perRow] }));
        A.writeScale(1, 2, scale);
        const data = A.accessor.data as Int32Array;
        data.fill(-77); // sentinels in every other element
        const scales = A.accessor.scale!.data.slice();
        A.set(1, 2, v);
        // One rounding of the exact quotient (roundRationalToInteger: nearest, ties to even), then saturation.
        const stored = storageRound(storage, Number(roundRationalToInteger(divRational(exactOf(v), exactOf(scale)))));
        expect(storedElement(A, [1, 2])).toBe(stored);
        // The read converts the stored integer to the arithmetic (int32 has more bits than fp32), then scales.
        expect(A.get(1, 2)).toBe(ar.round(ar.round(stored) * ar.round(scale)));
        const target = A.accessor.linearIndex([1, 2]);
        data.forEach((d, k) => { if (k !== target) expect(d).toBe(-77); });
        expect(A.accessor.scale!.data).toEqual(scales);
      }), { numRuns: runs(300) });
    });

    it('fitScales keeps every value within half a quantum: |stored × scale − v| ≤ scale/2', () => {
      fc.assert(fc.property(shapeOf(2), fc.boolean(), fc.integer({ min: -30, max: 30 }), fc.infiniteStream(uniformUnit()),
        ([m, n], perRow, e, stream) => {
          const values = Array.from({ length: m! * n! }, () => stream.next().value * 2 ** e);
          const A = scaledReducedColMajor({ size: [m!, n!], storage, arithmetic, scaleMask: [perRow, !perRow] });
          fitScales(A, (i, j) => values[i! * n! + j!]!);
          for (const [i, j] of allIndices([m!, n!])) {
            const v = values[i! * n! + j!]!;
            const s = A.readScale(i!, j!);
            const error = absRational(subRational(storedExact(range(A), [i!, j!]), exactOf(v)));
            // v/s rounded once to an integer: half a unit. The largest magnitude of a group maps onto the largest
            // integer, so nothing saturates.
            const allowed = s / 2;
            expect(compareRational(error, exactOf(allowed)) <= 0, `(${i}, ${j}): v ${v}, scale ${s}`).toBe(true);
          }
        }), { numRuns: runs(100) });
    });

    it('fitScales on tiny (subnormal) groups: the scale never underflows and nothing saturates', () => {
      fc.assert(fc.property(fc.array(fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), { minLength: 1, maxLength: 8 }), (ks) => {
        const values = ks.map((k) => k * Number.MIN_VALUE); // subnormal multiples of the smallest double
        const A = scaledReducedRowMajor<1>({ size: values.length, storage, arithmetic: 'f64', scaleMask: [false] });
        fitScales(A, (i) => values[i!]!);
        const s = A.readScale(0);
        expect(s > 0 && Number.isFinite(s)).toBe(true);
        values.forEach((v, i) => {
          const error = absRational(subRational(storedExact(range(A), [i]), exactOf(v)));
          expect(compareRational(error, exactOf(s / 2 + 2 ** -53 * Math.abs(v))) <= 0, `v ${v}, scale ${s}`).toBe(true);
        });
      }), { numRuns: runs(100) });
    });

    // The documented limit of subnormal groups (fitScales' TSDoc): the scale is a multiple of 2^-1074 within a unit or
    // two of maxAbs/maxValue (the quantum is that coarse), and a group within maxValue·2^-1074 is stored exactly.
    it('fitScales on subnormal groups: a scale within two units of 2^-1074 of maxAbs/maxValue, exact when the group fits in such units', () => {
      const maxValue = { i8: 127, i16: 32767, i32: 2 ** 31 - 1 }[storage as 'i8' | 'i16' | 'i32'];
      fc.assert(fc.property(fc.array(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 40 }), (ks, shift) => {
        const units = ks.map((k) => Math.trunc(k / 2 ** shift) + 0);   // + 0: no −0 (an integer storage has none)   // groups of every magnitude up to 2^40 units
        fc.pre(units.some((k) => k !== 0));   // an all-zero group keeps the scale 1
        const values = units.map((k) => k * Number.MIN_VALUE);
        const A = scaledReducedRowMajor<1>({ size: values.length, storage, arithmetic: 'f64', scaleMask: [false] });
        fitScales(A, (i) => values[i!]!);
        const m = A.readScale(0) / Number.MIN_VALUE;   // the scale in units of 2^-1074
        const top = Math.max(...units.map(Math.abs));
        expect(Number.isInteger(m) && m >= 1).toBe(true);
        if (top <= maxValue) {
          expect(m).toBe(1);
          values.forEach((v, i) => expect(range(A).get(i)).toBe(v));
        } else {
          // the unit multiple nearest top/maxValue, or the next one up where that saturates; nothing saturates
          expect(m).toBeLessThan(top / maxValue + 2);
          expect(Math.round(top / m)).toBeLessThanOrEqual(maxValue);
          values.forEach((v, i) => expect(Math.abs(range(A).get(i) - v)).toBeLessThanOrEqual(m * Number.MIN_VALUE / 2));
        }
      }), { numRuns: runs(100), examples: [[[2024, 607], 0]] });
    });
  });
});

describe('scaled reduced accessors', () => {
  it('share one scale along the unmasked dimensions (per row, per column, per 3-D slice)', () => {
    fc.assert(fc.property(shapeOf(3), fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()), (size, mask) => {
      const A = scaledReducedRowMajor<3>({ size: size as [number, number, number], storage: 'i16', scaleMask: mask });
      let k = 1;
      for (const ix of allIndices(size)) if (ix.every((v, d) => mask[d] || v === 0)) (A.writeScale as (...a: number[]) => void)(...ix, k++);
      for (const ix of allIndices(size)) {
        const owner = ix.map((v, d) => (mask[d] ? v : 0));
        expect((A.readScale as (...i: number[]) => number)(...ix)).toBe((A.readScale as (...i: number[]) => number)(...owner));
      }
      // The number of distinct scales is the product of the masked extents.
      const distinct = new Set(allIndices(size).map((ix) => (A.readScale as (...i: number[]) => number)(...ix)));
      expect(distinct.size).toBe(size.reduce((p, s, d) => p * (mask[d] ? s : 1), 1));
    }), { numRuns: runs(60) });
  });

  it('writeScale changes the value of every element sharing the scale and keeps the stored integers', () => {
    const A = range(scaledReducedRowMajor({ size: [2, 3], storage: 'i8', scaleMask: [true, false] }));
    A.writeScale(0, 0, 0.5);
    for (let j = 0; j < 3; j++) A.set(0, j, j + 1);
    const before = [0, 1, 2].map((j) => storedElement(A, [0, j]));
    A.writeScale(0, 1, 0.25);
    expect(A.readScale(0, 2)).toBe(0.25);
    expect(A.readScale(1, 0)).toBe(1);
    for (let j = 0; j < 3; j++) {
      expect(storedElement(A, [0, j])).toBe(before[j]);
      expect(A.get(0, j)).toBe(before[j]! * 0.25);
    }
  });

  it('fitScales near the top of the double range: ±MAX_VALUE reads back finite, within half a quantum', () => {
    // Regression: scale = fl(MAX_VALUE / 32767) made 32767 × scale overflow, so ±MAX_VALUE was read back as ±∞.
    for (const storage of ['i8', 'i16', 'i32', 'f16'] as const) {
      const A = range(scaledReducedRowMajor({ size: [1, 3], storage, arithmetic: 'f64', scaleMask: [true, false] }));
      const row = [Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_VALUE / 3];
      fitScales(A.accessor, (_, j) => row[j]!);
      const scale = A.readScale(0, 0);
      for (let j = 0; j < 3; j++) {
        const v = A.get(0, j) as number;
        expect(Number.isFinite(v), `${storage} ${j}`).toBe(true);
        // |read − value| ≤ half a quantum (integers: scale/2; fp16: 2^-11 relative) plus the read's own rounding
        // (≤ ulp(MAX)/2 = 2^970), compared at 2^-1000 to stay finite
        const quantum = storage === 'f16' ? Math.abs(row[j]!) * 2 ** -11 : scale / 2;
        expect(Math.abs(v * 2 ** -1000 - row[j]! * 2 ** -1000), `${storage} ${j}`).toBeLessThanOrEqual((quantum + 2 ** 970) * 2 ** -1000);
      }
    }
  });

  it('readScale of an unscaled accessor is 1', () => {
    expect(range(rowMajor({ size: [2, 2] })).readScale(1, 1)).toBe(1);
  });

  it('work with floating storage too (fp16 × scale extends its range)', () => {
    const A = range(scaledReducedRowMajor<1>({ size: [2], storage: 'f16', scaleMask: [true] }));
    A.writeScale(0, 2 ** 20);
    A.set(0, 1e9); // beyond fp16's 65504 on its own
    expect(A.get(0)).toBe(storageRound('f16', 1e9 / 2 ** 20) * 2 ** 20);
    expect(Math.abs(A.get(0) - 1e9)).toBeLessThanOrEqual(1e9 * 2 ** -11);
  });

  it('sub-ranges read and write the parent\'s scales at the shifted index', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 4 }), fc.boolean(), (r0, c0, perRow) => {
      const A = range(scaledReducedRowMajor({ size: [4, 5], storage: 'i16', scaleMask: [perRow, !perRow] }));
      fitScales(A.accessor, (i, j) => (i! + 1) * (j! - 2.5));
      const S = A.sub(span(r0, 4), span(c0, 5));
      for (const [i, j] of allIndices([4 - r0, 5 - c0])) {
        expect(S.readScale(i!, j!)).toBe(A.readScale(i! + r0, j! + c0));
        expect(S.get(i!, j!)).toBe(A.get(i! + r0, j! + c0));
      }
      S.writeScale(0, 0, 3);
      expect(A.readScale(r0, c0)).toBe(3);
      S.set(0, 0, 300);
      expect(A.get(r0, c0)).toBe(300);
    }), { numRuns: runs(50) });
  });
});

describe('scaled accessor documentation', () => {
  // fitScales' comment promises |read − value| ≤ scale/2. Rounding fl(v/s) to an integer would break it: fl(v/s) can
  // land exactly on k + 1/2 when v/s is just above it, and the tie then goes to the even k. The write rounds the
  // exact quotient once (src/formats/convert/scaled-integer.ts), so near-ties keep it.
  it('|stored × scale − v| ≤ scale/2 exactly, near-ties of v/s included', () => {
    const A = range(scaledReducedRowMajor<1>({ size: [1], storage: 'i16', scaleMask: [true] }));
    fc.assert(fc.property(fc.double({ min: 1, max: 2, noNaN: true }), fc.integer({ min: 0, max: 30000 }), (s, k) => {
      const v = (k + 0.5) * s; // a near-tie of v/s
      A.writeScale(0, s);
      A.set(0, v);
      const error = absRational(subRational(storedExact(A, [0]), exactOf(v)));
      expect(compareRational(error, exactOf(s / 2)) <= 0).toBe(true);
    }), { numRuns: 20000, seed: 7 });
  });
});
