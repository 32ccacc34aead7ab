/**
 * A user's storage formats (test/formats/user-formats.ts: a table-coded 8-bit storage, a logarithmic 16-bit one, a
 * fixed-point integer one under its own scale) over the user's own layouts: row- and column-major with padded leading
 * dimensions, negative and arbitrary strides, blocks, sub-ranges of each. At every index of every view a write stores
 * the format's code at offset + Σ iₖ·strideₖ of the buffer and nothing else, and reads give the rounded value back.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockColMajor, colMajor, range, rowMajor, scaledReducedRowMajor, span, strided, type Range } from '../../src/index.js';
import { checkAccessorLaws } from '../../src/testing/index.js';
import { lns16, lnsEncode, lnsRound, q32, q32Encode, tb8, tb8Encode, tb8Round } from './user-formats.js';

type Codec = { format: typeof tb8; encode: (x: number) => number; round: (x: number) => number };
const codecs: Codec[] = [
  { format: tb8, encode: tb8Encode, round: tb8Round },
  { format: lns16, encode: lnsEncode, round: lnsRound },
];

/** The user's views over one storage: [description, a range over fresh memory]. */
function views(c: Codec): [string, () => Range<any, any>][] {
  const o = { storage: c.format, arithmetic: 'f64' } as const;
  return [
    ['row-major 3×4, ld 7', () => range(rowMajor({ size: [3, 4], stride: 7, ...o }))],
    ['column-major 4×3, ld 6, rows 1–3 × cols 1–2', () => range(colMajor({ size: [4, 3], stride: 6, ...o })).sub(span(1, 4), span(1, 3))],
    ['vector, increment −3', () => range(rowMajor<1>({ size: [5], stride: -3, ...o }))],
    ['strided 3×2, strides [2, 9] (a transposed, padded view)', () => range(strided({ size: [3, 2], strides: [2, 9], ...o }))],
    ['blocks 2×3×2, block 1', () => range(blockColMajor({ size: [2, 3, 2], ...o })).sub(1, span(0, 3), span(0, 2))],
    ['row 2 of a 4×5 row-major, columns 1–4', () => range(rowMajor({ size: [4, 5], ...o })).sub(2, span(1, 5))],
  ];
}

/** Every index of a range, in row-major order. */
function indices(r: Range<any, any>): number[][] {
  let out: number[][] = [[]];
  for (let d = 0; d < r.dimensionality; d++) out = out.flatMap((p) => Array.from({ length: r.length(d) }, (_, i) => [...p, i]));
  return out;
}

describe("a user's storage at every index of the user's views", () => {
  for (const c of codecs) {
    for (const [name, make] of views(c)) {
      it(`${c.format.name}: ${name}`, () => {
        fc.assert(fc.property(fc.array(fc.double({ min: -40, max: 40, noNaN: true }), { minLength: 24, maxLength: 24 }), (values) => {
          const r = make();
          const a = r.accessor, data = a.data as Uint8Array | Uint16Array;
          const untouched = new Set(Array.from({ length: data.length }, (_, k) => k));
          const idx = indices(r);
          idx.forEach((i, k) => r.set(...i, values[k]!));
          idx.forEach((i, k) => {
            const at = a.offset + i.reduce((s, ik, d) => s + ik * a.strides[d]!, 0);
            expect(data[at], `code at [${i}]`).toBe(c.encode(values[k]!));
            expect(Object.is(r.get(...i), c.round(values[k]!)), `read at [${i}]`).toBe(true);
            untouched.delete(at);
          });
          for (const k of untouched) expect(data[k], `element ${k} outside the view`).toBe(0);
        }), { numRuns: 20 });
      });
    }
    it(`${c.format.name}: the accessor laws of modprec/testing hold on every view`, () => {
      for (const [name, make] of views(c)) checkAccessorLaws({ name: `${c.format.name} ${name}`, make, round: (x) => c.round(x) }, { numRuns: 20 });
    });
  }

  it('user-q32 (fixed point) under a scale per row: q = nearest-even(x / s), read q·s, over a padded sub-range', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 6, maxLength: 6 }),
      fc.integer({ min: -20, max: 4 }), (values, e) => {
        const R = range(scaledReducedRowMajor({ size: [3, 4], stride: 6, storage: q32, arithmetic: 'f64', scaleMask: [true, false] }));
        for (let i = 0; i < 3; i++) R.writeScale(i, 0, 2 ** (e + i));
        const V = R.sub(span(1, 3), span(1, 4));
        for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) V.set(i, j, values[3 * i + j]!);
        const data = R.accessor.data as Int32Array;
        for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) {
          const s = 2 ** (e + i + 1), q = q32Encode(values[3 * i + j]! / s);
          expect(data[(i + 1) * 6 + (j + 1)]).toBe(q);
          expect(V.get(i, j)).toBe(q * s);
        }
        expect([...data].filter((q, k) => q !== 0 && !(k >= 6 && k < 18 && k % 6 >= 1 && k % 6 <= 3))).toEqual([]);
      }), { numRuns: 30 });
  });
});
