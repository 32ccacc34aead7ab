/**
 * Reduced accessors (storage ≠ arithmetic): write-then-read returns the storage-rounded value, computed with the
 * conversion functions, for every floating storage × CPU arithmetic; a write changes its own storage element
 * only (sentinels around and between the view's elements).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rowMajor, reducedRowMajor } from '../../accessors/row-major.js';
import { reducedColMajor } from '../../accessors/col-major.js';
import { range } from '../../src/core/range.js';
import { asStorage } from '../../src/formats/common/registry.js';
import '../../src/formats/index.js';
import { interestingDoublesFor } from '../../src/testing/arbitraries.js';
import { FLOAT_STORAGES, storageRound, storedElement } from './support/storage-oracle.js';
import { allIndices } from './support/layout-mapping.js';
import { layoutDraw } from './support/shape-arbitraries.js';
import { runs } from './support/runs.js';

const ARITHMETIC_ROUND = { f64: (x: number) => x, f32: Math.fround } as const;
const valuesFor = (storage: (typeof FLOAT_STORAGES)[number]) => (storage === 'f64' ? fc.double() : interestingDoublesFor(storage));

describe.each(FLOAT_STORAGES)('%s storage', (storage) => {
  describe.each(['f64', 'f32'] as const)('read in %s arithmetic', (arithmetic) => {
    const toArithmetic = ARITHMETIC_ROUND[arithmetic];

    it('write then read gives the value rounded once to the storage, and read back into the arithmetic', () => {
      // A number written goes straight to the storage with one rounding (never first to the arithmetic: fp32
      // arithmetic over fp16 storage would round twice); a read converts the stored value to the arithmetic.
      const x = range(reducedRowMajor<1>({ size: [1], storage, arithmetic }));
      fc.assert(fc.property(valuesFor(storage), (v) => {
        x.set(0, v);
        const stored = storageRound(storage, v);
        expect(Object.is(storedElement(x, [0]), stored), `stored ${storedElement(x, [0])} for ${v}`).toBe(true);
        expect(Object.is(x.get(0), toArithmetic(stored)), `read ${x.get(0)} for ${v}`).toBe(true);
      }), { numRuns: runs(500) });
    });

    it('a write changes exactly one storage element: every other element of the view and the sentinels around it stay', () => {
      fc.assert(fc.property(layoutDraw(2), fc.boolean(), valuesFor(storage), ({ size: [m, n], padding: [pad], offset, written }, byColumns, v) => {
        const ld = (byColumns ? m! : n!) + pad!;
        const st = asStorage(storage);
        const data = st.allocate(offset + ld * ((byColumns ? n! : m!) - 1) + (byColumns ? m! : n!) + 3) as Float64Array;
        // Sentinels: NaN everywhere (its bit pattern for the 16-bit formats).
        data.fill(storage === 'f16' ? 0x7e00 : storage === 'bf16' ? 0x7fc0 : NaN);
        const make = byColumns ? reducedColMajor : reducedRowMajor;
        const A = range(make({ size: [m!, n!], stride: ld, offset, storage, arithmetic, data }));
        for (const [i, j] of allIndices([m!, n!])) A.set(i!, j!, i! + j! / 8);
        const before = data.slice();
        A.set(written[0]!, written[1]!, v);
        const target = A.accessor.linearIndex(written);
        for (let k = 0; k < data.length; k++) if (k !== target) expect(Object.is(data[k], before[k]), `element ${k}`).toBe(true);
        for (const [i, j] of allIndices([m!, n!])) {
          if (i === written[0] && j === written[1]) continue;
          expect(A.get(i!, j!)).toBe(toArithmetic(storageRound(storage, i! + j! / 8)));
        }
      }), { numRuns: runs(100) });
    });
  });
});

describe('reduced accessors', () => {
  it('read fp32 storage into fp64 arithmetic exactly (the stored binary32 value, not a re-rounded one)', () => {
    const x = range(reducedRowMajor<1>({ size: [1], storage: 'f32', arithmetic: 'f64' }));
    x.set(0, 0.1);
    expect(x.get(0)).toBe(Math.fround(0.1));
    expect(x.get(0)).not.toBe(0.1);
  });

  it('default to the storage\'s own arithmetic, and to fp64 for storage-only formats', () => {
    expect(rowMajor({ size: [1, 1], storage: 'f32' }).arithmetic.name).toBe('f32');
    expect(rowMajor({ size: [1, 1], storage: 'f16' }).arithmetic.name).toBe('f64');
    expect(rowMajor({ size: [1, 1], storage: 'bf16' }).arithmetic.name).toBe('f64');
  });
});

describe('writes round once', () => {
  it('a number written to fp16 storage through fp32 arithmetic is not rounded to fp32 first', () => {
    // 1 + 2^-11 + 2^-30 rounds to fp32 as 1 + 2^-11, a tie for fp16 that goes to the even 1; rounded once, it is
    // above the tie and goes up to 1 + 2^-10.
    const x = range(reducedRowMajor<1>({ size: [1], storage: 'f16', arithmetic: 'f32' }));
    x.set(0, 1 + 2 ** -11 + 2 ** -30);
    expect(x.get(0)).toBe(1 + 2 ** -10);
  });
});
