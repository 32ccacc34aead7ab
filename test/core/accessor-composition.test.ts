/**
 * Accessor composition: chains of sub-ranges over strided, negative-stride, padded row-/column-major, general strided
 * (transposed) and scaled ranges, against an independent model of where each element lives (offset + Σ i_d·stride_d,
 * written out per layout from its definition, not read back from the accessor). Every word of the buffer holds a
 * distinct sentinel, so a read through the chain must return exactly the modelled word, and a write through it must
 * change that word and no other (padding and the parent's other elements included).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { range, type Range } from '../../src/core/range.js';
import { span, type SpanLike } from '../../src/core/span.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import { strided } from '../../accessors/strided.js';
import { scaledReducedRowMajor, scaledReducedColMajor } from '../../accessors/scaled-reduced.js';
import { ModprecError } from '../../src/core/errors.js';
import '../../src/formats/index.js';

/** A base range and the model of its layout: the buffer word of each index, and the scale that applies there. */
interface Base {
  readonly label: string;
  readonly r: Range<any, number>;
  readonly size: readonly number[];
  readonly data: Float64Array | Float32Array | Int16Array;
  readonly word: (idx: readonly number[]) => number;
  readonly scale: (idx: readonly number[]) => number;
}

const dim = fc.integer({ min: 0, max: 5 });
const storage = fc.constantFrom('f64' as const, 'f32' as const, 'i16' as const);
const alloc = (s: 'f64' | 'f32' | 'i16', n: number) => (s === 'f64' ? new Float64Array(n) : s === 'f32' ? new Float32Array(n) : new Int16Array(n));

const base: fc.Arbitrary<Base> = fc.oneof(
  // a 1-D vector with any non-zero increment; a negative one walks back from the far end (BLAS)
  fc.tuple(dim, fc.integer({ min: -4, max: 4 }).filter((k) => k !== 0), fc.integer({ min: 0, max: 3 }), storage.filter((s) => s !== 'i16'))
    .map(([n, k, pad, s]) => {
      const data = alloc(s, Math.abs(k) * Math.max(0, n - 1) + 1 + pad);
      const offset = k < 0 ? -k * Math.max(0, n - 1) : 0;
      return { label: `vector n=${n} inc=${k} ${s}`, r: range(rowMajor<1>({ size: [n], stride: k, storage: s, data })), size: [n], data, word: (i) => offset + i[0]! * k, scale: () => 1 };
    }),
  // padded 2-D, row- or column-major, with a leading dimension beyond the packed one
  fc.tuple(dim, dim, fc.integer({ min: 0, max: 3 }), fc.boolean(), storage.filter((s) => s !== 'i16')).map(([m, n, extra, rows, s]) => {
    const ld = (rows ? n : m) + extra || 1;
    const data = alloc(s, ld * Math.max(rows ? m : n, 1) + 2);
    const r = range((rows ? rowMajor<2> : colMajor<2>)({ size: [m, n], stride: ld, storage: s, data }));
    return { label: `${rows ? 'row' : 'col'}-major ${m}×${n} ld=${ld} ${s}`, r, size: [m, n], data, word: ([i, j]) => (rows ? i! * ld + j! : i! + j! * ld), scale: () => 1 };
  }),
  // general strided 2-D: any signs (a transposed, reversed view), no two indices on one word
  fc.tuple(dim, dim, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.boolean(), fc.boolean()).map(([m, n, inner, gap, neg0, neg1, swap]) => {
    // the inner dimension steps by `inner`, the outer by inner·extent + gap (no overlap)
    const [innerDim, outerDim] = swap ? [0, 1] : [1, 0];
    const ext = [m, n];
    const s = [0, 0];
    s[innerDim] = inner * (neg1 ? -1 : 1);
    s[outerDim] = (inner * Math.max(1, ext[innerDim]!) + gap) * (neg0 ? -1 : 1);
    const offset = s.reduce((o, sd, d) => o + (sd < 0 ? -sd * Math.max(0, ext[d]! - 1) : 0), 0);
    const data = new Float64Array(Math.abs(s[0]!) * Math.max(1, m) + Math.abs(s[1]!) * Math.max(1, n) + 1);
    const r = range(strided<2>({ size: [m, n], strides: [s[0]!, s[1]!], data }));
    return { label: `strided ${m}×${n} strides=${s}`, r, size: [m, n], data, word: ([i, j]) => offset + i! * s[0]! + j! * s[1]!, scale: () => 1 };
  }),
  // scaled: one power-of-two scale per row or per column (reads exact), int16 or fp32 words
  fc.tuple(dim, dim, fc.boolean(), fc.boolean(), fc.constantFrom('i16' as const, 'f32' as const)).map(([m, n, perRow, rows, s]) => {
    const scales = Float64Array.from({ length: perRow ? m : n }, (_, k) => 2 ** (k - 2));
    const data = alloc(s, m * n + 1);
    const factory = rows ? scaledReducedRowMajor<2> : scaledReducedColMajor<2>;
    const r = range(factory({ size: [m, n], storage: s, arithmetic: 'f64', scaleMask: [perRow, !perRow], scale: scales, data }));
    return { label: `scaled ${rows ? 'row' : 'col'}-major ${m}×${n} per ${perRow ? 'row' : 'column'} ${s}`, r, size: [m, n], data,
      word: ([i, j]) => (rows ? i! * n + j! : i! + j! * m), scale: ([i, j]) => scales[perRow ? i! : j!]! };
  }),
);

/** A random chain of sub-range steps, each a span or a point per dimension of the current extents. */
function chainFor(size: readonly number[]): fc.Arbitrary<SpanLike[][]> {
  const step = (ext: readonly number[]) => fc.tuple(...ext.map((e) => fc.oneof(
    ...(e > 0 ? [fc.integer({ min: 0, max: e - 1 })] : []),
    fc.tuple(fc.integer({ min: 0, max: e }), fc.integer({ min: 0, max: e })).map(([a, b]) => span(Math.min(a, b), Math.max(a, b))),
  )));
  const extentOf = (s: SpanLike) => (typeof s === 'number' ? 1 : s.end - s.begin);
  return fc.integer({ min: 1, max: 3 }).chain((count) => {
    let arb: fc.Arbitrary<SpanLike[][]> = fc.constant([]);
    for (let k = 0; k < count; k++) {
      arb = arb.chain((steps) => {
        const ext = steps.reduce<readonly number[]>((e, st) => st.map(extentOf), size);
        return step(ext).map((st) => [...steps, st as SpanLike[]]);
      });
    }
    return arb;
  });
}

function* indicesOf(size: readonly number[]): Generator<number[]> {
  if (size.some((e) => e === 0)) return;
  const idx = size.map(() => 0);
  for (;;) {
    yield [...idx];
    let d = size.length - 1;
    while (d >= 0 && ++idx[d]! === size[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}

describe('sub-ranges of sub-ranges, over every layout', () => {
  it('read, write, length and the untouched rest agree with the layout model', () => {
    fc.assert(fc.property(base.chain((b) => chainFor(b.size).map((chain) => [b, chain] as const)), fc.nat(), ([b, chain], pick) => {
      // distinct sentinels in every word (small integers: exact in int16, fp32 and fp64)
      for (let k = 0; k < b.data.length; k++) b.data[k] = k + 1;
      let r: Range<any, number> = b.r;
      const begin = b.size.map(() => 0);
      let ext = [...b.size];
      for (const st of chain) {
        r = r.sub(...st);
        st.forEach((s, d) => { begin[d] += typeof s === 'number' ? s : s.begin; ext[d] = typeof s === 'number' ? 1 : s.end - s.begin; });
      }
      const label = `${b.label}, chain ${JSON.stringify(chain)}`;
      expect(b.size.map((_, d) => r.length(d)), label).toEqual(ext);
      const parent = (idx: readonly number[]) => idx.map((v, d) => v + begin[d]!);
      const all = [...indicesOf(ext)];
      for (const idx of all) {
        const at = parent(idx);
        expect(r.get(...idx), `${label} get(${idx})`).toBe(b.data[b.word(at)]! * b.scale(at));
        expect(r.accessor.readScale(...idx)).toBe(b.scale(at));
      }
      if (all.length === 0) return;
      // one write through the chain: that word changes, no other word of the buffer does
      const idx = all[pick % all.length]!;
      const at = parent(idx);
      const before = Array.from(b.data);
      r.set(...idx, -7 * b.scale(at));
      const after = Array.from(b.data);
      before[b.word(at)] = -7;
      expect(after, `${label} set(${idx})`).toEqual(before);
      // a read-only view of the chain refuses writes, before anything changes
      const frozen = b.r.toConst();
      let c: Range<any, number> = frozen;
      for (const st of chain) c = c.sub(...st);
      expect(() => c.set(...idx, 1)).toThrowError(expect.objectContaining({ code: 'INVALID_STORAGE' }));
      expect(Array.from(b.data)).toEqual(after);
    }), { numRuns: 400 });
  });

  it('a span beyond the current extent, reversed or not an integer is INDEX_OUT_OF_RANGE naming it, at any depth', () => {
    fc.assert(fc.property(base.chain((b) => chainFor(b.size).map((chain) => [b, chain] as const)), fc.nat({ max: 2 }), fc.nat(), ([b, chain], kind, which) => {
      let r: Range<any, number> = b.r;
      for (const st of chain) r = r.sub(...st);
      const d = which % b.size.length;
      const e = r.length(d);
      const bad: SpanLike = kind === 0 ? { begin: 0, end: e + 1 } : kind === 1 ? { begin: Math.min(1, e), end: 0 } : 0.5;
      fc.pre(!(kind === 1 && e === 0));
      const spans: SpanLike[] = b.size.map((_, k) => (k === d ? bad : span(0, r.length(k))));
      let error: unknown;
      try { r.sub(...spans); } catch (err) { error = err; }
      expect(error).toBeInstanceOf(ModprecError);
      expect((error as ModprecError).code).toBe('INDEX_OUT_OF_RANGE');
      expect((error as ModprecError).parameter).toMatch(new RegExp(`^spans\\[${d}\\]`));
    }), { numRuns: 300 });
  });
});
