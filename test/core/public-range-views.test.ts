/**
 * Ranges over every layout, against a plain model: the root view of each case has a hand-written storage formula
 * (index → storage element), the model is a Map of storage element → value held, and each view (sub-ranges of
 * sub-ranges to depth 3, transposed strided views over the same data) maps its indices to the root's. After every
 * write through any view, every view must read the model's value at every index (aliasing), where the value held is
 * the storage's documented rounding of what was written (ties to even, ±0, ±∞, NaN, subnormals, saturation and
 * scales for scaled integers).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockColMajor, colMajor, formats, range, rowMajor, scaledReducedColMajor, scaledReducedRowMajor, span, strided, toArray,
  type Range,
} from '../../src/index.js';
import { storageRound, type StorageName } from './support/storage-oracle.js';

type Index = number[];

/** A layout case: how to build the root view, and where the root's element (i…) sits in storage. */
interface Root {
  make: (storage: string, scale?: { mask: boolean[]; data: Float64Array }) => Range<any, any>;
  size: number[];
  element: (i: Index) => number;
  /** Another root over the same data with its indices permuted (a transpose), when the layout has one. */
  transposed?: { strides: number[]; offset: number; perm: number[] };
}

const ext = fc.integer({ min: 0, max: 4 });
const pad = fc.integer({ min: 0, max: 3 });

/** Roots of every layout and dimensionality, with padded leading dimensions and negative increments. */
const roots: fc.Arbitrary<Root> = fc.oneof(
  // 1-D, any non-zero increment (negative walks backwards from the far end).
  fc.tuple(ext, fc.integer({ min: -3, max: 3 }).filter((s) => s !== 0), fc.boolean()).map(([n, inc, col]): Root => ({
    make: (storage, scale) => range((scale ? (col ? scaledReducedColMajor : scaledReducedRowMajor) : col ? colMajor : rowMajor)(
      { size: [n], stride: inc, storage, ...(scale ? { arithmetic: 'f64', scaleMask: scale.mask, scale: scale.data } : {}) } as never)),
    size: [n], element: ([i]) => (inc < 0 ? -inc * Math.max(0, n - 1) : 0) + i! * inc,
  })),
  // 2-D row-major / column-major with a leading dimension ≥ the contiguous extent.
  fc.tuple(ext, ext, pad, fc.boolean()).map(([m, n, p, col]): Root => {
    const ld = Math.max(1, col ? m : n) + p;
    return {
      make: (storage, scale) => range((scale ? (col ? scaledReducedColMajor : scaledReducedRowMajor) : col ? colMajor : rowMajor)(
        { size: [m, n], stride: ld, storage, ...(scale ? { arithmetic: 'f64', scaleMask: scale.mask, scale: scale.data } : {}) } as never)),
      size: [m, n], element: ([i, j]) => (col ? i! + j! * ld : i! * ld + j!),
      transposed: { strides: col ? [ld, 1] : [1, ld], offset: 0, perm: [1, 0] },
    };
  }),
  // 3-D row-major, column-major and block-column-major, padded.
  fc.tuple(fc.tuple(ext, ext, ext), pad, pad, fc.constantFrom('row', 'col', 'block')).map(([[a, b, c], p, q, kind]): Root => {
    const w = (x: number) => Math.max(1, x);
    if (kind === 'row') {
      const s1 = w(c) + p, s0 = s1 * Math.max(0, b - 1) + c + q;
      return {
        make: (storage, scale) => range((scale ? scaledReducedRowMajor : rowMajor)(
          { size: [a, b, c], stride: [w(s0), s1], storage, ...(scale ? { arithmetic: 'f64', scaleMask: scale.mask, scale: scale.data } : {}) } as never)),
        size: [a, b, c], element: ([i, j, k]) => i! * w(s0) + j! * s1 + k!,
      };
    }
    if (kind === 'col') {
      const s0 = w(a) + p, s1 = s0 * Math.max(0, b - 1) + a + q;
      return {
        make: (storage, scale) => range((scale ? scaledReducedColMajor : colMajor)(
          { size: [a, b, c], stride: [s0, w(s1)], storage, ...(scale ? { arithmetic: 'f64', scaleMask: scale.mask, scale: scale.data } : {}) } as never)),
        size: [a, b, c], element: ([i, j, k]) => i! + j! * s0 + k! * w(s1),
      };
    }
    const ld = w(b) + p, bs = w(ld * Math.max(0, c - 1) + b + q);
    return {
      make: (storage) => range(blockColMajor({ size: [a, b, c], stride: [bs, ld], storage })),
      size: [a, b, c], element: ([i, j, k]) => i! * bs + j! + k! * ld,
    };
  }),
  // strided with negative strides in any dimension (2-D).
  fc.tuple(ext, ext, fc.boolean(), fc.boolean(), pad).map(([m, n, negRow, negCol, p]): Root => {
    const s = [(negRow ? -1 : 1) * (Math.max(1, n) + p), negCol ? -1 : 1];
    const offset = s.reduce((o, st, d) => o + (st < 0 ? -st * Math.max(0, [m, n][d]! - 1) : 0), 0);
    return {
      make: (storage) => range(strided({ size: [m, n], strides: s as [number, number], storage })),
      size: [m, n], element: ([i, j]) => offset + i! * s[0]! + j! * s[1]!,
      transposed: { strides: [s[1]!, s[0]!], offset, perm: [1, 0] },
    };
  }),
  // strided 3-D, dimensions in any memory order, any signs.
  fc.tuple(fc.tuple(ext, ext, ext), fc.constantFrom([0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]), fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()), pad)
    .map(([size, order, neg, p]): Root => {
      // order[0] is the innermost dimension; each stride steps over the ones inside it (plus padding).
      const s = [0, 0, 0];
      let step = 1;
      for (const d of order) { s[d] = step; step = step * Math.max(1, size[d]!) + p; }
      const signed = s.map((x, d) => (neg[d] ? -x : x));
      const offset = signed.reduce((o, st, d) => o + (st < 0 ? -st * Math.max(0, size[d]! - 1) : 0), 0);
      return {
        make: (storage) => range(strided({ size: size as [number, number, number], strides: signed as [number, number, number], storage })),
        size, element: (i) => offset + i.reduce((k, x, d) => k + x * signed[d]!, 0),
        transposed: { strides: [signed[2]!, signed[0]!, signed[1]!], offset, perm: [2, 0, 1] },
      };
    }),
);

/** A view: a range and the map from its indices to the root's. */
interface View { r: Range<any, any>; size: number[]; toRoot: (i: Index) => Index }

/** A chain of sub-range bounds (each a pair of naturals taken modulo the current size + 1; integer = point span). */
const subChain = fc.array(fc.array(fc.tuple(fc.nat({ max: 60 }), fc.nat({ max: 60 }), fc.boolean()), { minLength: 3, maxLength: 3 }), { maxLength: 3 });

function subViews(root: View, chain: [number, number, boolean][][]): View[] {
  const out = [root];
  let v = root;
  for (const step of chain) {
    const spans = v.size.map((n, d) => {
      const [x, y, point] = step[d]!;
      const a = x % (n + 1), b = y % (n + 1);
      // A point span needs an index < n; an empty dimension keeps its empty span [0, 0) or [n, n).
      return point && n > 0 ? Math.min(a, n - 1) : span(Math.min(a, b), Math.max(a, b));
    });
    const begins = spans.map((s) => (typeof s === 'number' ? s : s.begin));
    const size = spans.map((s) => (typeof s === 'number' ? 1 : s.end - s.begin));
    const parent = v;
    v = { r: parent.r.sub(...spans), size, toRoot: (i) => parent.toRoot(i.map((x, d) => x + begins[d]!)) };
    out.push(v);
  }
  return out;
}

function allIndices(size: readonly number[]): Index[] {
  const out: Index[] = [];
  const walk = (p: Index): void => {
    if (p.length === size.length) { out.push(p); return; }
    for (let i = 0; i < size[p.length]!; i++) walk([...p, i]);
  };
  walk([]);
  return out;
}

/** Every view reads the model's value at every index (toArray walks in row-major index order). */
function expectViews(views: View[], root: Root, held: Map<number, number>, initial: (rootIndex: Index) => number): void {
  for (const v of views) {
    expect(v.r.length(0)).toBe(v.size[0]);
    const want = allIndices(v.size).map((i) => held.get(root.element(v.toRoot(i))) ?? initial(v.toRoot(i)));
    expect(Array.from(toArray(v.r))).toEqual(want);
  }
}

const special = fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 5e-324, -(2 ** -1022), 2 ** -24 * 1.5, 2 ** -25, 65520, 65519.99, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 2.5, -3.5, 3.4028235677973366e38, 1e300, 0.1);
const anyValue = fc.oneof(fc.double(), special);

/** A case: a root, views of it, and writes (view number, index naturals taken modulo the view's size, value). */
const writes = fc.array(fc.tuple(fc.nat(), fc.array(fc.nat({ max: 60 }), { minLength: 3, maxLength: 3 }), anyValue), { minLength: 1, maxLength: 8 });

function run(root: Root, rootRange: Range<any, any>, chains: [number, number, boolean][][][], ws: [number, number[], number][], held: (v: number, rootIndex: Index) => number,
  initial: (rootIndex: Index) => number = () => 0): void {
  const base: View = { r: rootRange, size: root.size, toRoot: (i) => i };
  const views = chains.flatMap((c) => subViews(base, c));
  const t = root.transposed;
  // strided() takes no scale: a scaled root has no transposed view.
  if (t && !rootRange.accessor.scale) {
    const a = rootRange.accessor;
    const tr = range(strided({ size: t.perm.map((d) => root.size[d]!) as never, strides: t.strides as never, storage: a.storage, arithmetic: a.arithmetic, data: a.data, offset: t.offset }));
    views.push(...chains.flatMap((c) => subViews({ r: tr, size: t.perm.map((d) => root.size[d]!), toRoot: (i) => t.perm.map((_, d) => i[t.perm.indexOf(d)]!) }, c)));
  }
  const model = new Map<number, number>();
  expectViews(views, root, model, initial);
  for (const [w, fr, value] of ws) {
    const v = views[w % views.length]!;
    if (v.size.some((n) => n === 0)) continue;
    const i = v.size.map((n, d) => fr[d]! % n);
    v.r.set(...i, value);
    model.set(root.element(v.toRoot(i)), held(value, v.toRoot(i)));
    expectViews(views, root, model, initial);
  }
}

const chains = fc.array(subChain, { minLength: 1, maxLength: 3 });

describe('views of every layout read what was written through any other, as the storage rounds it', () => {
  it('binary floating-point storages (f64, f32, f16, bf16): ties to even, ±0, ±∞, NaN, subnormals', () => {
    fc.assert(fc.property(roots, fc.constantFrom<StorageName>('f64', 'f32', 'f16', 'bf16'), chains, writes, (root, storage, cs, ws) => {
      run(root, root.make(storage), cs, ws, (v) => storageRound(storage, v));
    }), { numRuns: 150 });
  });

  it('double-double storage, interleaved and split: a double is held exactly', () => {
    fc.assert(fc.property(roots, fc.constantFrom('dd', 'dd-split'), chains, writes, (root, storage, cs, ws) => {
      run(root, root.make(storage), cs, ws, (v) => v);
    }), { numRuns: 60 });
  });

  it('RNS storage: a finite double is held exactly', () => {
    const finite = writes.map((ws) => ws.map(([w, fr, v]) => [w, fr, Number.isFinite(v) ? v : 1.5] as [number, number[], number]));
    fc.assert(fc.property(roots, chains, finite, (root, cs, ws) => {
      run(root, root.make('rns106'), cs, ws, (v) => v);
    }), { numRuns: 30 });
  });

  it('scaled integer storages: round(v / scale) ties to even, saturated, NaN → 0, per element, row or column', () => {
    // The scaled factories are row- and column-major (make takes a scale).
    const scaledRoots = roots.filter((r) => r.make.length > 1);
    fc.assert(fc.property(scaledRoots, fc.constantFrom<StorageName>('i8', 'i16', 'i32'), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      fc.array(fc.integer({ min: -8, max: 8 }), { minLength: 1, maxLength: 64 }), fc.boolean(), chains, writes,
      (root, storage, maskBits, exps, negative, cs, ws) => {
        const D = root.size.length;
        const mask = maskBits.slice(0, D);
        // Scales are powers of two (v / scale exact away from the extremes), packed row-major over the masked dimensions.
        let count = 1;
        for (let d = 0; d < D; d++) if (mask[d]) count *= root.size[d]!;
        const data = Float64Array.from({ length: count }, (_, k) => (negative ? -1 : 1) * 2 ** exps[k % exps.length]!);
        const rootRange = root.make(storage, { mask, data });
        const scaleAt = (i: Index): number => {
          let k = 0, stride = 1;
          for (let d = D - 1; d >= 0; d--) if (mask[d]) { k += i[d]! * stride; stride *= root.size[d]!; }
          return data[k]!;
        };
        const bounded = ws.map(([w, fr, v]) => [w, fr, Math.abs(v) > 1e300 && Number.isFinite(v) ? Math.sign(v) * 1e300 : v] as [number, number[], number]);
        // value = stored × scale, so an unwritten 0 under a negative scale reads −0.
        run(root, rootRange, cs, bounded, (v, i) => storageRound(storage, v / scaleAt(i)) * scaleAt(i), (i) => 0 * scaleAt(i));
      }), { numRuns: 100 });
  });
});
