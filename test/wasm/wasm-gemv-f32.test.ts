/**
 * GEMV in fp32 arithmetic in WebAssembly (issue 20): op(A) read by columns gives the generated JavaScript f32
 * kernel's bits (same operations, same order), by rows the documented lane order (eight binary32 partial sums, the
 * fixed tree) evaluated here on the values as the f32 arithmetic reads them, combined with α and β as the f32
 * template does; within gemvBound (arithmetic f32) of the exact rational result; every storage the fixtures build,
 * strides, sub-ranges, a scaled x, NaN/±∞/±0/subnormals and binary32 overflow; the choice reported.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gemv, gemvBound, formats, vector, cpuBackendOf, range, rowMajor, type Range } from '../../src/index.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector, changedOutside, exactVector, positionsOf, snapshot, vectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { expectGemvWithinBound, wasmGemvMatrixSpec, wasmGemvOutputSpec } from './wasm-exact-bounds.js';

const f = Math.fround;
const F32 = { arithmetic: formats.f32 } as const;

const gemvCase = fc.record({
  m: fc.integer({ min: 1, max: 21 }), n: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 21 }) }, { weight: 1, arbitrary: fc.constant(CHUNK + 5) }), trans: fc.constantFrom('N' as const, 'T' as const),
  A: wasmGemvMatrixSpec, x: vectorSpec, y: wasmGemvOutputSpec, alpha: fc.constantFrom(1, -1, 0.1, 3), beta: fc.constantFrom(1, -1, 0.1, 3, 0),
  seed: fc.integer({ min: 0, max: 2 ** 30 }), specials: fc.boolean(),
});
type GemvCase = typeof gemvCase extends fc.Arbitrary<infer C> ? C : never;
const SPECIALS = [NaN, Infinity, -Infinity, -0, 1e-40, 3e38, 1e39] as const;

/** The operands of one case (built twice: one copy per backend). */
function build(c: GemvCase): { A: Range<2, any>; x: Range<1, any>; y: Range<1, any> } {
  const random = seededRandom(c.seed);
  const v = (): number => (random.nextDouble() * 2 - 1) * 2 ** ((random.nextUint32() % 24) - 12);
  const special = (): number => (c.specials && random.nextUint32() % 8 === 0 ? SPECIALS[random.nextUint32() % SPECIALS.length]! : v());
  const finite = (spec: { storage: string }) => (): number => { const t = special(); return spec.storage === 'i16s' && !Number.isFinite(t) ? 0 : t; };
  const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
  const A = buildMatrix(c.A, rows, cols, finite(c.A), 'f32');
  const x = buildVector(c.x, Float64Array.from({ length: c.n }, finite(c.x)), 'f32');
  const y = buildVector(c.y, Float64Array.from({ length: c.m }, () => (c.beta === 0 ? NaN : v())), 'f32');
  return { A, x, y };
}

/** An element as the f32 arithmetic reads it: rounded to binary32, times the binary32 scale, rounded. */
function readF32(a: Range<any, any>['accessor'], idx: readonly number[]): number {
  const v = f(a.storage.decode(a.data as never, a.linearIndex(idx)) as number);
  return a.scale ? f(v * f(a.scale.data[a.scaleIndex(idx)]!)) : v;
}

/** The WebAssembly fp32 DOT's order: term i into partial sum i mod 8 (binary32), then the fixed tree. */
function laneOrderF32(terms: readonly number[]): number {
  const p = new Array<number>(8).fill(0);
  terms.forEach((t, i) => { p[i % 8] = f(p[i % 8]! + t); });
  return f(f(f(p[0]! + p[1]!) + f(p[2]! + p[3]!)) + f(f(p[4]! + p[5]!) + f(p[6]! + p[7]!)));
}

const stored = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i));

describe('WebAssembly GEMV in fp32 arithmetic', () => {
  it('by columns the JavaScript bits, by rows the lane order; within gemvBound of the exact result', () => {
    fc.assert(fc.property(gemvCase, (c) => {
      const a = build(c), b = build(c);
      const args = { alpha: c.alpha, A: a.A, x: a.x, beta: c.beta, y: a.y, trans: c.trans };
      expect(cpuBackendOf('gemv', { A: a.A, x: a.x, y: a.y }, F32, ['y']).backend).toBe('wasm');
      const yIn = c.beta === 0 ? null : exactVector(a.y);
      const xs = Array.from({ length: c.n }, (_, j) => readF32(a.x.accessor, [j]));
      const ys = Array.from({ length: c.m }, (_, i) => readF32(a.y.accessor, [i]));
      const before = snapshot(a.y);
      const bound = gemvBound(args, F32);
      gemv(args, { ...F32, backend: 'wasm' });
      gemv({ ...args, A: b.A, x: b.x, y: b.y }, { ...F32, backend: 'js' });
      expect(changedOutside(a.y, before, positionsOf(a.y))).toEqual([]);
      const got = stored(a.y);
      if ((c.A.layout === 'col') === (c.trans === 'N')) expect(got).toEqual(stored(b.y));
      else {
        const el = (i: number, j: number): number => readF32(a.A.accessor, c.trans === 'N' ? [i, j] : [j, i]);
        const expected = Array.from({ length: c.m }, (_, i) => {
          const t = laneOrderF32(xs.map((xj, j) => f(el(i, j) * xj)));
          const at = c.alpha === 1 ? t : f(f(c.alpha) * t);
          const r = c.beta === 0 ? at : f(at + (c.beta === 1 ? ys[i]! : f(f(c.beta) * ys[i]!)));
          return r;
        });
        expect(got).toEqual(expected);
      }
      if (!got.every(Number.isFinite) || c.specials) return;
      expectGemvWithinBound(c, a, yIn, bound);
    }), { numRuns: 120 });
  });

  it('row blocks past the staging size by columns: the JavaScript bits', () => {
    const m = CHUNK + 5, n = 6;
    const A = buildMatrix({ storage: 'bf16', layout: 'col', sub: true, scaleRows: false }, m, n, (i, j) => Math.sin(i + 3 * j), 'f32');
    const x = vector(Array.from({ length: n }, (_, j) => Math.cos(j)), F32), y = vector(m, F32), y2 = vector(m, F32);
    gemv({ alpha: 0.1, A, x, beta: 0, y }, { ...F32, backend: 'wasm' });
    gemv({ alpha: 0.1, A, x, beta: 0, y: y2 }, { ...F32, backend: 'js' });
    expect(stored(y)).toEqual(stored(y2));
  });

  it('reads a double-double x as the f32 arithmetic does: fround(roundToOddDd(hi, lo)), not fround(hi + lo)', () => {
    // hi halfway between two binary32 neighbours, lo above it: hi + lo rounds to hi, which then ties to even (1).
    const x = range(rowMajor<1, any>({ size: [2], stride: 1, storage: formats.dd, arithmetic: formats.f32 }));
    (x.accessor.data as Float64Array).set([1 + 2 ** -24, 2 ** -60, -(1 + 2 ** -24), -(2 ** -60)]);
    for (const layout of ['col', 'row'] as const) {
      const A = buildMatrix({ storage: 'f32', layout, sub: false, scaleRows: false }, 1, 2, (_, j) => j + 1, 'f32');
      const [y, y2] = [vector(1, F32), vector(1, F32)];
      gemv({ alpha: 1, A, x, beta: 0, y }, { ...F32, backend: 'wasm' });
      gemv({ alpha: 1, A, x, beta: 0, y: y2 }, { ...F32, backend: 'js' });
      expect(stored(y)).toEqual([-(1 + 2 ** -23)]);
      expect(stored(y2)).toEqual(stored(y));
    }
  });
});
