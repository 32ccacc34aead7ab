/**
 * ASUM in double-double in WebAssembly (kernels/asum/asum-dd-wasm.ts): bit for bit the documented order (|xᵢ| into
 * double-double lane i mod 8 by the JavaScript templates' additions, the tree of ddAdd, hi − (0 − lo)) evaluated in
 * JavaScript; within asumBound of the exact rational value; f64, f32, f16, bf16, dd and dd-split storage, strides of
 * either sign, sub-ranges, chunk boundaries; double-double arithmetic and fp64 arithmetic with the dd accumulation;
 * NaN and ±Inf answered as the JavaScript kernel (scaled storage: wasm-dd-scaled.test.ts). NRM2 likewise
 * (kernels/nrm2/nrm2-dd-wasm.ts): the scaled squares in the DD DOT's lanes and steps, the root as the JavaScript takes
 * it — bit for bit that order, and within nrm2Bound of the exact norm (compared through exact squares).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asum, asumBound, cpuBackendOf, formats, nrm2, nrm2Bound, range, rowMajor, span, vector, wasmArena, type Range } from '../../src/index.js';
import { addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';
import { laneOrderDdAsum, laneOrderDdNrm2 } from './dd-lane-orders.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { buildVector, exactDotOf, exactVector, vectorSpec, withinBound } from '../kernels/matrix-kernel-fixtures.js';
import { readValues } from './wasm-dot-oracles.js';
import '../../src/formats/dd/register.js';

/** Exact Σ|xᵢ| (of the stored values) within asumBound. */
function expectWithinBound(x: Range<1, any>, got: number, bound: number): void {
  const exact = exactDotOf(exactVector(x).map((r) => (r.num < 0n ? { ...r, num: -r.num } : r)), exactVector(vector(Array.from({ length: x.length() }, () => 1))));
  expect(withinBound(exactVector(vector([got]))[0]!, exact, bound)).toBe(true);
}

const element = fc.oneof(
  { weight: 12, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e-310, 2 ** -1074) },
);
const lengths = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 70 }) }, { weight: 1, arbitrary: fc.constantFrom(CHUNK / 2 + 3, CHUNK + 9) });
const OPTIONS = [{ arithmetic: formats.dd }, { arithmetic: formats.f64, accumulation: 'dd' as const }] as const;

/** A double-double vector (dd or dd-split storage) of pairs, stride and sub-range as given. */
function ddVector(storage: 'dd' | 'dd-split', pairs: readonly (readonly [number, number])[], stride: number, sub: boolean): Range<1, any> {
  const n = pairs.length, N = sub ? n + 3 : n;
  const parent = range(rowMajor<1, any>({ size: [N], storage: storage === 'dd' ? formats.dd : formats.ddSplit, arithmetic: formats.dd, stride }));
  for (let i = 0; i < N; i++) parent.set(i, { hi: NaN, lo: 0 });
  const view = sub ? parent.sub(span(1, 1 + n)) : parent;
  pairs.forEach(([hi, lo], i) => view.set(i, { hi, lo }));
  return view;
}

describe('WebAssembly ASUM in double-double', () => {
  it('f64, f32, f16, bf16 storage: the documented order bit for bit, within asumBound; NaN/±Inf as the JavaScript', () => {
    const input = lengths.chain((n) => fc.record({
      a: vectorSpec.filter((s) => s.storage !== 'i16s'), x: fc.array(element, { minLength: n, maxLength: n }), options: fc.constantFrom(...OPTIONS),
    }));
    fc.assert(fc.property(input, ({ a, x: xs, options }) => {
      const x = buildVector(a, xs, 'f64');
      expect(cpuBackendOf('asum', { x }, options).backend).toBe('wasm');
      const got = asum(x, { ...options, backend: 'wasm' });
      const v = readValues(x);
      if (!v.every(Number.isFinite)) { expect(Object.is(got, asum(x, { ...options, backend: 'js' }))).toBe(true); return; }
      expect(Object.is(got, laneOrderDdAsum(v.map((t) => [t, undefined])))).toBe(true);
      expectWithinBound(x, got, asumBound(x, options));
    }), { numRuns: 150 });
  });

  it('dd and dd-split storage: pairs in dd arithmetic (Algorithm 6, |·| as the arithmetic), hi + lo under fp64 with dd; the same bits for both layouts', () => {
    const pair = fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })).map(([hi, r]) => [hi, hi * r * 2 ** -54] as const);
    const input = lengths.chain((n) => fc.record({
      pairs: fc.array(pair, { minLength: n, maxLength: n }), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean(), options: fc.constantFrom(...OPTIONS),
      special: fc.option(fc.tuple(fc.nat(), fc.constantFrom(NaN, Infinity, -Infinity)), { freq: 5 }),
    }));
    fc.assert(fc.property(input, ({ pairs, stride, sub, options, special }) => {
      const p = pairs.map((t) => [...t] as [number, number]);
      if (special && p.length > 0) p[special[0] % p.length] = [special[1], 0];
      const [xd, xs] = [ddVector('dd', p, stride, sub), ddVector('dd-split', p, stride, sub)];
      const got = asum(xd, { ...options, backend: 'wasm' });
      expect(Object.is(asum(xs, { ...options, backend: 'wasm' }), got)).toBe(true);
      if (!p.every(([h]) => Number.isFinite(h))) { expect(Object.is(got, asum(xd, { ...options, backend: 'js' }))).toBe(true); return; }
      const want = options.arithmetic === formats.dd ? laneOrderDdAsum(p) : laneOrderDdAsum(p.map(([h, l]) => [h + l, undefined]));
      expect(Object.is(got, want)).toBe(true);
      // Σ|hᵢ + lᵢ| = Σ sign(hᵢ)·(hᵢ + lᵢ) (a pair's sign is its high part's), exactly.
      const parts = p.flat(), signs = p.flatMap(([h]) => (h < 0 ? [-1, -1] : [1, 1]));
      const exact = exactDotOf(exactVector(vector(parts)), exactVector(vector(signs)));
      expect(withinBound(exactVector(vector([got]))[0]!, exact, asumBound(xd, options))).toBe(true);
    }), { numRuns: 120 });
  });

  it('empty and size-1 vectors, ±0; the automatic choice takes WebAssembly', () => {
    expect(asum(vector([]), { arithmetic: formats.dd, backend: 'wasm' })).toBe(0);
    expect(Object.is(asum(vector([-0]), { arithmetic: formats.dd, backend: 'wasm' }), asum(vector([-0]), { arithmetic: formats.dd, backend: 'js' }))).toBe(true);
    expect(asum(vector([-2.5]), { arithmetic: formats.dd, backend: 'wasm' })).toBe(2.5);
    expect(cpuBackendOf('asum', { x: vector([1, 2]) }, { arithmetic: formats.dd })).toEqual({ backend: 'wasm' });
  });
});

/** |got − √S| ≤ b for S = Σ vᵢ² (v exact rationals), checked exactly: (got − b)² ≤ S ≤ (got + b)² (got − b ≤ 0: the left side holds). */
function expectNormWithinBound(values: readonly Rational[], got: number, b: number): void {
  const S = values.reduce<Rational>((acc, v) => addRational(acc, mulRational(v, v)), { num: 0n, den: 1n } as Rational);
  const [g, bb] = exactVector(vector([got, b]));
  const up = addRational(g!, bb!), down = subRational(g!, bb!);
  expect(compareRational(S, mulRational(up, up)) <= 0).toBe(true);
  if (down.num > 0n) expect(compareRational(mulRational(down, down), S) <= 0).toBe(true);
}

describe('WebAssembly NRM2 in double-double', () => {
  it('f64, f32, f16, bf16 storage: the documented order bit for bit, within nrm2Bound; NaN/±Inf as the JavaScript', () => {
    const wide = fc.oneof({ weight: 12, arbitrary: fc.double({ min: -1e200, max: 1e200, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -0, 1e-310, 2 ** -1074) });
    const input = lengths.chain((n) => fc.record({
      a: vectorSpec.filter((s) => s.storage !== 'i16s'), x: fc.array(wide, { minLength: n, maxLength: n }), options: fc.constantFrom(...OPTIONS),
    }));
    fc.assert(fc.property(input, ({ a, x: xs, options }) => {
      const x = buildVector(a, xs, 'f64');
      expect(cpuBackendOf('nrm2', { x }, options).backend).toBe('wasm');
      const got = nrm2(x, { ...options, backend: 'wasm' });
      const v = readValues(x);
      if (!v.every(Number.isFinite)) { expect(Object.is(got, nrm2(x, { ...options, backend: 'js' }))).toBe(true); return; }
      expect(Object.is(got, laneOrderDdNrm2(v.map((t) => [t, undefined]), options.arithmetic === formats.dd))).toBe(true);
      expectNormWithinBound(exactVector(x), got, nrm2Bound(x, options));
    }), { numRuns: 120 });
  });

  it('dd and dd-split storage: pairs in dd arithmetic (ddMulAccumulate\'s steps), hi + lo under fp64 with dd; the same bits for both layouts', () => {
    const pair = fc.tuple(fc.double({ min: -1e200, max: 1e200, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })).map(([hi, r]) => [hi, hi * r * 2 ** -54] as const);
    const input = lengths.chain((n) => fc.record({
      pairs: fc.array(pair, { minLength: n, maxLength: n }), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean(), options: fc.constantFrom(...OPTIONS),
    }));
    fc.assert(fc.property(input, ({ pairs, stride, sub, options }) => {
      const p = pairs.map((t) => [...t] as [number, number]);
      const [xd, xs] = [ddVector('dd', p, stride, sub), ddVector('dd-split', p, stride, sub)];
      const got = nrm2(xd, { ...options, backend: 'wasm' });
      expect(Object.is(nrm2(xs, { ...options, backend: 'wasm' }), got)).toBe(true);
      const dd = options.arithmetic === formats.dd;
      expect(Object.is(got, laneOrderDdNrm2(dd ? p : p.map(([h, l]) => [h + l, undefined]), dd))).toBe(true);
      // The exact values: hᵢ + lᵢ (dd arithmetic) or the double hᵢ + lᵢ (fp64 arithmetic reads that).
      const values = dd ? p.map(([h, l]) => addRational(exactVector(vector([h]))[0]!, exactVector(vector([l]))[0]!)) : exactVector(vector(p.map(([h, l]) => h + l)));
      expectNormWithinBound(values, got, nrm2Bound(xd, options));
    }), { numRuns: 100 });
  });
});

describe('WebAssembly ASUM and NRM2 in double-double, in place', () => {
  it('operands in a wasmArena (read in place, whole steps of 8; the rest staged): the staged path\'s bits, f64 and dd storage', () => {
    const input = lengths.chain((n) => fc.record({ xs: fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: n, maxLength: n }), options: fc.constantFrom(...OPTIONS) }));
    fc.assert(fc.property(input, ({ xs, options }) => {
      const arena = wasmArena(32 * xs.length + 4096);
      try {
        for (const storage of ['f64', 'dd'] as const) {
          const make = (memory?: typeof arena): Range<1, any> => {
            const r = range(rowMajor<1, any>({ size: [xs.length], storage: formats[storage], arithmetic: storage === 'dd' ? formats.dd : formats.f64, memory }));
            xs.forEach((v, i) => r.set(i, storage === 'dd' ? { hi: v, lo: v * 2 ** -60 } : v));
            return r;
          };
          const [staged, inPlace] = [make(), make(arena)];
          const o = { ...options, backend: 'wasm' as const };
          expect(Object.is(asum(inPlace, o), asum(staged, o))).toBe(true);
          expect(Object.is(nrm2(inPlace, o), nrm2(staged, o))).toBe(true);
        }
      } finally {
        arena.release();
      }
    }), { numRuns: 40 });
  });
});
