/**
 * TRSV in WebAssembly into an x it does not store itself (scaled int16 with one scale, fp16, bf16; issue 20), under
 * every accumulation WebAssembly runs in fp64 and fp32 arithmetic, and fp64 arithmetic with the `dd` accumulation
 * (x in any of those storages or f64/f32): the JavaScript kernel's stored bits and scales (sentinels around
 * sub-ranges included) wherever both solve in the same order — op(A) read by columns for the recursive and kahan
 * sums, every layout for pairwise, dot2 and the dd accumulation (strided and negative-stride A too for dd) — and,
 * where the recursive and kahan sums take the row-oriented WebAssembly order, within trsvBound of the exact
 * (rational) solution; over lower/upper, unit/non-unit, strides (negative too), size 1, zero pivots and
 * NaN/±∞/±0/subnormal right-hand sides in floating-point storage; and x in i8 or i32 with one scale, or unscaled i32.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trsv, trsvBound, cpuBackendOf, formats, range, rowMajor, span, type Range } from '../../src/index.js';
import { scaledReducedRowMajor } from '../../accessors/scaled-reduced.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector, errorOf, exactElement, exactVector, withinBound, type MatrixSpec } from '../kernels/matrix-kernel-fixtures.js';
import { ZERO } from '../../src/testing/rational.js';
import { exactTriangularSolve } from '../../src/testing/exact.js';

const SPECIALS = [NaN, Infinity, -Infinity, 0, -0, 2 ** -1074, -(2 ** -1060), 2 ** -1022];

/** The numerics, and whether WebAssembly sums each row in the JavaScript's order in every layout. */
const NUMERICS = {
  'f64': { options: { arithmetic: formats.f64 }, anyOrder: false, arithmetic: 'f64' },
  'f32': { options: { arithmetic: formats.f32 }, anyOrder: false, arithmetic: 'f32' },
  'kahan f64': { options: { arithmetic: formats.f64, accumulation: 'kahan' }, anyOrder: false, arithmetic: 'f64' },
  'kahan f32': { options: { arithmetic: formats.f32, accumulation: 'kahan' }, anyOrder: false, arithmetic: 'f32' },
  'pairwise f64': { options: { arithmetic: formats.f64, accumulation: 'pairwise' }, anyOrder: true, arithmetic: 'f64' },
  'pairwise f32': { options: { arithmetic: formats.f32, accumulation: 'pairwise' }, anyOrder: true, arithmetic: 'f32' },
  'dot2 f64': { options: { arithmetic: formats.f64, accumulation: 'dot2' }, anyOrder: true, arithmetic: 'f64' },
  'dot2 f32': { options: { arithmetic: formats.f32, accumulation: 'dot2' }, anyOrder: true, arithmetic: 'f32' },
  'dd f64': { options: { arithmetic: formats.f64, accumulation: 'dd' }, anyOrder: true, arithmetic: 'f64' },
} as const;
type NumericsName = keyof typeof NUMERICS;

/** Every raw element of a range's buffer decoded (a NaN compared as NaN), then its scales. */
const raw = (r: Range<1, any>): number[] => {
  const a = r.accessor, data = a.data as ArrayLike<number>;
  return [...Array.from({ length: data.length }, (_, k) => a.storage.decode(data as never, k) as number), ...(a.scale ? [...a.scale.data] : [])];
};

const trsvCase = fc.record({
  numerics: fc.constantFrom(...(Object.keys(NUMERICS) as NumericsName[])),
  n: fc.integer({ min: 1, max: 19 }), uplo: fc.constantFrom('L' as const, 'U' as const), trans: fc.constantFrom('N' as const, 'T' as const),
  diag: fc.constantFrom('N' as const, 'U' as const),
  A: fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const), layout: fc.constantFrom('row' as const, 'col' as const, 'strided' as const, 'negative' as const), sub: fc.boolean() }),
  x: fc.record({ storage: fc.constantFrom('i16s' as const, 'f16' as const, 'bf16' as const, 'f64' as const, 'f32' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() }),
  special: fc.boolean(), zeroPivot: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
}).map((c) => ({
  ...c,
  // Only the dd accumulation solves an op(A) with neither unit stride in WebAssembly; f64/f32 x only for it (the others: test/wasm/wasm-trsv.test.ts).
  A: { ...c.A, layout: c.numerics !== 'dd f64' && (c.A.layout === 'strided' || c.A.layout === 'negative') ? 'col' as const : c.A.layout },
  x: { ...c.x, storage: c.numerics !== 'dd f64' && (c.x.storage === 'f64' || c.x.storage === 'f32') ? 'f16' as const : c.x.storage },
}));

describe('WebAssembly TRSV into scaled, fp16 and bf16 x', () => {
  it("the JavaScript kernel's stored bits where both sum in the same order, trsvBound otherwise", () => {
    fc.assert(fc.property(trsvCase, (c) => {
      const { options, anyOrder, arithmetic } = NUMERICS[c.numerics];
      const read = (i: number, j: number): boolean => (i === j ? c.diag === 'N' : c.uplo === 'U' ? j > i : j < i);
      // Off-diagonals of order 1/n keep the solution near b's size (the i16 x's scale fits it with headroom).
      const make = (): { A: Range<2, any>; x: Range<1, any> } => {
        const random = seededRandom(c.seed);
        const pivot = c.zeroPivot ? random.nextUint32() % c.n : -1;
        const spec: MatrixSpec = { storage: c.A.storage, layout: c.A.layout, sub: c.A.sub, scaleRows: false };
        const A = buildMatrix(spec, c.n, c.n, (i, j) => (!read(i, j) ? NaN : i === j ? (i === pivot ? 0 : 1 + random.nextDouble()) : (random.nextDouble() - 0.5) / c.n), arithmetic);
        const b = Float64Array.from({ length: c.n }, () => (c.special && c.x.storage !== 'i16s' && random.nextUint32() % 4 === 0
          ? SPECIALS[random.nextUint32() % SPECIALS.length]! : random.nextDouble() * 2 - 1));
        return { A, x: buildVector(c.x, b, arithmetic, 64) };
      };
      const w = make(), j = make();
      const args = { uplo: c.uplo, trans: c.trans, diag: c.diag };
      expect(cpuBackendOf('trsv', { A: w.A, x: w.x }, { ...options, backend: 'wasm' }, ['x']).backend).toBe('wasm');
      // The automatic choice: WebAssembly for the recursive and kahan sums (faster in both layouts); JavaScript for the
      // per-row pairwise and dot2 sums and the dd accumulation's column-per-call solve, as with an f64 x.
      expect(cpuBackendOf('trsv', { A: w.A, x: w.x }, options, ['x']).backend).toBe(anyOrder ? 'js' : 'wasm');
      const bIn = c.special ? [] : exactVector(w.x);
      trsv({ ...args, A: w.A, x: w.x }, { ...options, backend: 'wasm' });
      trsv({ ...args, A: j.A, x: j.x }, { ...options, backend: 'js' });
      // op(A) by columns: column-major A untransposed, row-major A transposed.
      const byColumns = (c.A.layout === 'col') === (c.trans === 'N');
      if (anyOrder || byColumns) { expect(raw(w.x)).toEqual(raw(j.x)); return; }
      // The row-oriented lane order: within trsvBound of the exact solution (finite, non-singular systems only).
      if (c.special || c.zeroPivot) return;
      const lower = (c.uplo === 'L') !== (c.trans === 'T');
      const T = Array.from({ length: c.n }, (_, i) => Array.from({ length: c.n }, (_, k) => {
        const [r, q] = c.trans === 'N' ? [i, k] : [k, i];
        return read(r, q) ? exactElement(w.A, r, q) : ZERO;
      }));
      const exact = exactTriangularSolve(T, bIn, lower, c.diag === 'U');
      const bound = trsvBound({ ...args, A: w.A, x: w.x }, options);
      const got = exactVector(w.x);
      for (let i = 0; i < c.n; i++) if (!withinBound(got[i]!, exact[i]!, bound[i]!)) throw new Error(`x[${i}]: error ${errorOf(got[i]!, exact[i]!)} > bound ${bound[i]}`);
    }), { numRuns: 400 });
  });

  it("i8 and i32 x with one scale, and unscaled i32: the JavaScript kernel's stored bits (op(A) by columns, or an accumulation in the JavaScript's order)", () => {
    const intCase = fc.record({
      storage: fc.constantFrom('i8' as const, 'i32' as const), scaled: fc.boolean(), numerics: fc.constantFrom<NumericsName>('f64', 'f32', 'kahan f64', 'dot2 f64', 'dd f64'),
      n: fc.integer({ min: 1, max: 12 }), uplo: fc.constantFrom('L' as const, 'U' as const), diag: fc.constantFrom('N' as const, 'U' as const),
      stride: fc.constantFrom(1, -2), sub: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    fc.assert(fc.property(intCase, (c) => {
      const { options, arithmetic } = NUMERICS[c.numerics];
      const make = (): { A: Range<2, any>; x: Range<1, any> } => {
        const random = seededRandom(c.seed);
        const A = buildMatrix({ storage: 'f64', layout: 'col', sub: false, scaleRows: false }, c.n, c.n, (i, j) => (i === j ? 1 + random.nextDouble() : (random.nextDouble() - 0.5) / c.n), arithmetic);
        const N = c.sub ? c.n + 3 : c.n;
        const common = { size: [N] as const, storage: formats[c.storage], arithmetic: formats[arithmetic], stride: c.stride };
        const parent = c.scaled ? scaledReducedRowMajor<1>({ ...common, scaleMask: [false] }) : rowMajor<1>(common);
        if (parent.scale) parent.writeScale(0, c.storage === 'i8' ? 2 / 100 : 2 / 2 ** 30);
        const x = range(c.sub ? parent.sub(span(1, 1 + c.n)) : parent);
        for (let i = 0; i < c.n; i++) x.set(i, c.scaled ? random.nextDouble() * 2 - 1 : Math.round((random.nextDouble() * 2 - 1) * 100));
        return { A, x };
      };
      const w = make(), j = make();
      const args = { uplo: c.uplo, trans: 'N' as const, diag: c.diag };
      trsv({ ...args, A: w.A, x: w.x }, { ...options, backend: 'wasm' });
      trsv({ ...args, A: j.A, x: j.x }, { ...options, backend: 'js' });
      expect(raw(w.x)).toEqual(raw(j.x));
    }), { numRuns: 150 });
  });
});
