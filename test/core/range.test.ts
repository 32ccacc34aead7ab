/**
 * range: forwarding to the accessor, length(dim), sub-ranges that alias their parent (writes seen both ways at
 * the shifted index), rank never dropped (a point span keeps its dimension), toConst.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { range, Range } from '../../src/core/range.js';
import { span, type SpanLike } from '../../src/core/span.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import { blockColMajor } from '../../accessors/block-col-major.js';
import { ModprecError } from '../../src/core/errors.js';
import { vector, matrix, toArray } from '../../src/core/vectors.js';
import { rns106 } from '../../src/formats/rns/index.js';
import '../../src/formats/index.js';
import { dd } from '../../src/formats/dd/index.js';
import { allIndices } from './support/layout-mapping.js';
import { shapeOf } from './support/shape-arbitraries.js';
import { runs } from './support/runs.js';

/** A random span or point per dimension of `size`. */
function spansFor(size: readonly number[]): fc.Arbitrary<SpanLike[]> {
  return fc.tuple(...size.map((s) => fc.oneof(
    fc.integer({ min: 0, max: s - 1 }),
    fc.tuple(fc.integer({ min: 0, max: s }), fc.integer({ min: 0, max: s })).map(([a, b]) => span(Math.min(a, b), Math.max(a, b))),
  )));
}
const begin = (s: SpanLike) => (typeof s === 'number' ? s : s.begin);
const extent = (s: SpanLike) => (typeof s === 'number' ? 1 : s.end - s.begin);

const LAYOUTS = {
  'row-major': (size: number[]) => rowMajor({ size: size as never, storage: 'f32', arithmetic: 'f64' }),
  'col-major': (size: number[]) => colMajor({ size: size as never, storage: 'bf16' }),
  'block-col-major': (size: number[]) => (size.length === 3 ? blockColMajor({ size: size as never, storage: 'f16' }) : colMajor({ size: size as never })),
} as const;

describe.each(Object.keys(LAYOUTS) as (keyof typeof LAYOUTS)[])('sub-ranges of a %s range', (layout) => {
  const dims = fc.integer({ min: layout === 'block-col-major' ? 3 : 1, max: 3 });

  it('keep the rank and have the spans\' lengths (a point span has length 1)', () => {
    fc.assert(fc.property(dims.chain(shapeOf).chain((size) => fc.tuple(fc.constant(size), spansFor(size))), ([size, spans]) => {
      const A = range(LAYOUTS[layout](size));
      const S = A.sub(...spans);
      expect(S.dimensionality).toBe(A.dimensionality);
      spans.forEach((s, d) => expect(S.length(d)).toBe(extent(s)));
    }), { numRuns: runs(100) });
  });

  it('alias the parent: a write through either is read through the other at the shifted index', () => {
    fc.assert(fc.property(dims.chain(shapeOf).chain((size) => fc.tuple(fc.constant(size), spansFor(size))), fc.integer({ min: -100, max: 100 }),
      ([size, spans], seed) => {
        const A = range(LAYOUTS[layout](size));
        const S = A.sub(...spans);
        const shift = (ix: readonly number[]) => ix.map((i, d) => i + begin(spans[d]!));
        let k = seed;
        for (const ix of allIndices(S.accessor.size as readonly number[])) {
          (S.set as (...a: number[]) => void)(...ix, ++k); // small integers: exact in every storage used here
          expect((A.get as (...i: number[]) => number)(...shift(ix))).toBe(k);
          (A.set as (...a: number[]) => void)(...shift(ix), -k);
          expect((S.get as (...i: number[]) => number)(...ix)).toBe(-k);
        }
        // Elements outside the sub-range were not touched.
        const inside = new Set(allIndices(S.accessor.size as readonly number[]).map((ix) => shift(ix).join()));
        for (const ix of allIndices(size)) if (!inside.has(ix.join())) expect((A.get as (...i: number[]) => number)(...ix)).toBe(0);
      }), { numRuns: runs(100) });
  });

  it('nest: a sub-range of a sub-range is the sub-range of the composed spans', () => {
    const outerSpans = dims.chain(shapeOf).chain((size) => fc.tuple(fc.constant(size), spansFor(size)))
      .filter(([, outer]) => outer.every((s) => extent(s) > 0));
    fc.assert(fc.property(outerSpans.chain(([size, outer]) => fc.tuple(fc.constant(size), fc.constant(outer), spansFor(outer.map(extent)))),
    ([size, outer, inner]) => {
      const A = range(LAYOUTS[layout](size));
      let k = 0;
      for (const ix of allIndices(size)) (A.set as (...a: number[]) => void)(...ix, ++k);
      const S = A.sub(...outer).sub(...inner);
      for (const ix of allIndices(S.accessor.size as readonly number[])) {
        const parent = ix.map((i, d) => i + begin(inner[d]!) + begin(outer[d]!));
        expect((S.get as (...i: number[]) => number)(...ix)).toBe((A.get as (...i: number[]) => number)(...parent));
      }
    }), { numRuns: runs(60) });
  });
});

describe('range', () => {
  it('forwards get/set to its accessor and reports lengths per dimension', () => {
    const a = rowMajor({ size: [2, 3] });
    const A = range(a);
    expect(A).toBeInstanceOf(Range);
    expect(A.accessor).toBe(a);
    expect([A.length(0), A.length(1), A.length()]).toEqual([2, 3, 2]);
    A.set(1, 2, 5);
    expect(a.get(1, 2)).toBe(5);
  });

  it('toConst gives a read-only view of the same storage: reads follow the parent, writes throw and change nothing', () => {
    const A = range(rowMajor({ size: [2, 2], storage: 'f32', arithmetic: 'f64' }));
    const C = A.toConst();
    A.set(0, 1, 0.1);
    expect(C.get(0, 1)).toBe(Math.fround(0.1));
    const before = (A.accessor.data as Float32Array).slice();
    expect(() => C.set(0, 1, 2)).toThrowError(ModprecError);
    try { C.set(1, 1, 2); } catch (e) { expect((e as ModprecError).code).toBe('INVALID_STORAGE'); }
    expect(A.accessor.data).toEqual(before);
    // Read-only survives sub-ranging.
    expect(() => C.sub(span(0, 1), 1).set(0, 0, 3)).toThrowError(/read-only/);
  });

  it('has an empty sub-range for an empty span, which reads nothing', () => {
    const A = range(rowMajor({ size: [3, 3] }));
    const E = A.sub(span(1, 1), span(0, 3));
    expect([E.length(0), E.length(1)]).toEqual([0, 3]);
    expect(() => E.get(0, 0)).toThrowError(ModprecError);
  });
});

describe('vector and matrix take numbers only', () => {
  it('an entry that is not a number is INVALID_VALUE naming it, not coerced (vector([\'1\', 2]) stored 1, [undefined] NaN)', () => {
    const expectInvalid = (f: () => unknown, parameter: string): void => {
      try { f(); expect.unreachable(); } catch (e) {
        expect(e).toBeInstanceOf(ModprecError);
        expect([(e as ModprecError).code, (e as ModprecError).parameter]).toEqual(['INVALID_VALUE', parameter]);
      }
    };
    expectInvalid(() => vector(['1', 2] as never), 'values[0]');
    expectInvalid(() => vector([1, undefined] as never), 'values[1]');
    expectInvalid(() => vector(Array.from({ length: 3 }) as never, { storage: 'f16' }), 'values[0]');   // holes
    expectInvalid(() => matrix(2, 2, (i, j) => (i === 1 && j === 0 ? null : 1) as never), 'fill(1, 0)');
    // NaN and ±∞ are numbers: stored as the storage stores them
    expect([...toArray(vector([NaN, -Infinity, -0]))]).toEqual([NaN, -Infinity, -0]);
    expect([...toArray(matrix(1, 2, (_, j) => (j === 0 ? NaN : Infinity)))]).toEqual([NaN, Infinity]);
  });
});

describe('reading a non-finite value into RNS arithmetic', () => {
  it('is INVALID_VALUE naming the element (it named the converter\'s "value")', () => {
    // fp16 storage holds ±∞ (an overflowing write), which an RNS arithmetic cannot represent
    const x = vector([1, Infinity, 2], { storage: 'f16', arithmetic: rns106 });
    for (const read of [() => x.get(1), () => toArray(x)]) {
      try { read(); expect.unreachable(); } catch (e) {
        expect(e).toBeInstanceOf(ModprecError);
        expect([(e as ModprecError).code, (e as ModprecError).parameter]).toEqual(['INVALID_VALUE', 'range[1]']);
      }
    }
    const A = matrix(2, 2, (i, j) => (i === 1 && j === 0 ? NaN : 1), { arithmetic: rns106, storage: 'f32' });
    expect(() => A.get(1, 0)).toThrow(/range\[1, 0\] must be finite for rns106 arithmetic/);
    expect(A.get(0, 1)).toBeDefined();
  });
});

describe('range.set refuses what is not a value', () => {
  // Regression: range.set(0, '1') stored 1 (the encoder coerced the string), and '' stored 0, where vector(['1']) is
  // INVALID_VALUE naming values[0]. Now every storage and arithmetic refuses it, naming `value`, and writes nothing.
  const cases = [
    { storage: 'f64' }, { storage: 'f32' }, { storage: 'f16' }, { storage: 'bf16' }, { storage: dd }, { storage: dd, arithmetic: 'f64' },
    { storage: 'f32', arithmetic: dd }, { storage: 'i16', arithmetic: 'f64' }, { storage: rns106 },
  ] as const;
  it.each(cases.map((f) => [JSON.stringify(f, (_, v) => (typeof v === 'object' && 'name' in v ? v.name : v)), f] as const))('%s', (_, f) => {
    const r = range(rowMajor<1, any>({ size: [3], ...(f as object) }));
    r.set(1, 2);
    const before = toArray(r);
    for (const bad of ['1', '', null, undefined, true, 1n, Symbol('x')]) {
      let error: unknown;
      try { r.set(1, bad as never); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(ModprecError);
      expect([(error as ModprecError).code, (error as ModprecError).parameter]).toEqual(['INVALID_VALUE', 'value']);
      // a sub-range writes through the same check
      expect(() => r.sub(span(1, 3)).set(0, bad as never)).toThrow(ModprecError);
    }
    expect(toArray(r)).toEqual(before);
  });
});
