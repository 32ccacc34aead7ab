/**
 * The compensated `kahan` accumulation in WebAssembly (issue 20): DOT in fp64 and fp32 arithmetic, every built-in
 * storage of the fixtures with strides, sub-ranges and a scale — bit for bit the documented order (lane i mod 8,
 * Knuth's TwoSum per term, the lanes joined by TwoSum in a fixed tree) evaluated here on the decoded values, within
 * dotBound's kahan bound of the exact rational value; NaN/±∞/±0/subnormal operands give the JavaScript kernel's
 * answer (a non-finite compensated sum is recomputed there); the automatic choice reported by cpuBackendOf.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, formats, vector, cpuBackendOf } from '../../src/index.js';
import { buildVector, exactDotOf, exactVector, errorOf, vectorSpec, withinBound, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { readValues } from './wasm-dot-oracles.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import type { Range } from '../../src/index.js';

const f = Math.fround;
const id = (v: number): number => v;

/** Knuth's TwoSum in `round`'s arithmetic: [fl(a + b), the exact error]. */
function twoSum(a: number, b: number, round: (v: number) => number): [number, number] {
  const s = round(a + b), z = round(s - a);
  return [s, round(round(a - round(s - z)) + round(b - z))];
}

/** The documented order: term i into lane i mod 8's (s, c); joins (S, (ca + cb) + e) in the tree; s + c. */
function laneOrderKahan(terms: readonly number[], round: (v: number) => number): number {
  const lanes = Array.from({ length: 8 }, () => [0, 0] as [number, number]);
  terms.forEach((t, i) => {
    const l = lanes[i % 8]!;
    const [s, e] = twoSum(l[0], t, round);
    lanes[i % 8] = [s, round(l[1] + e)];
  });
  const join = (a: [number, number], b: [number, number]): [number, number] => {
    const [s, e] = twoSum(a[0], b[0], round);
    return [s, round(round(a[1] + b[1]) + e)];
  };
  const [s, c] = join(join(join(lanes[0]!, lanes[1]!), join(lanes[2]!, lanes[3]!)), join(join(lanes[4]!, lanes[5]!), join(lanes[6]!, lanes[7]!)));
  return round(s + c);
}

/** The values the f32 arithmetic reads: each element rounded to binary32, then times the binary32 scale, rounded. */
function readF32(r: Range<1, any>): number[] {
  const a = r.accessor;
  return Array.from({ length: r.length() }, (_, i) => {
    const v = f(a.storage.decode(a.data as never, a.linearIndex([i])) as number);
    return a.scale ? f(v * f(a.scale.data[a.scaleIndex([i])]!)) : v;
  });
}

const KAHAN = { accumulation: 'kahan' } as const;
const lengths = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 70 }) }, { weight: 1, arbitrary: fc.constantFrom(CHUNK - 3, CHUNK + 9) });
/** Values spread over many binades, so the compensation matters (cancellation, terms far apart). */
const ordinary = fc.oneof(fc.double({ min: -4, max: 4, noNaN: true }), fc.integer({ min: -(2 ** 20), max: 2 ** 20 }).map((k) => k * 2 ** 30), fc.double({ min: -1e-3, max: 1e-3, noNaN: true }));
const special = fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 1e-310, -5e-324, 1e-40, 3e38, 1.7e308, -1.7e308);
const fit = (spec: VectorSpec, values: number[]): number[] => (spec.storage === 'i16s' ? values.map((v) => (Number.isFinite(v) ? v : 0)) : values);

for (const [arithmetic, round, read] of [['f64', id, readValues], ['f32', f, readF32]] as const) {
  describe(`WebAssembly DOT with the kahan accumulation, ${arithmetic} arithmetic`, () => {
    const options = { ...KAHAN, arithmetic: formats[arithmetic] };

    it('is the documented order bit for bit and within dotBound of the exact value: every storage, stride, sub-range, scale', () => {
      const input = lengths.chain((n) => fc.record({ a: vectorSpec, b: vectorSpec, x: fc.array(ordinary, { minLength: n, maxLength: n }), y: fc.array(ordinary, { minLength: n, maxLength: n }) }));
      fc.assert(fc.property(input, ({ a, b, x: xs, y: ys }) => {
        const x = buildVector(a, xs, arithmetic), y = buildVector(b, ys, arithmetic);
        expect(cpuBackendOf('dot', { x, y }, options).backend).toBe('wasm');
        const got = dot(x, y, { ...options, backend: 'wasm' });
        const vx = read(x), vy = read(y);
        const expected = laneOrderKahan(vx.map((v, i) => round(v * vy[i]!)), round);
        // A product or a sum beyond the format's range: the JavaScript kernel answers (checked below).
        if (!Number.isFinite(expected)) return;
        expect(Object.is(got, expected)).toBe(true);
        const exact = exactDotOf(exactVector(x), exactVector(y));
        const bound = dotBound(x, y, options);
        const computed = exactVector(vector([got]))[0]!;
        if (!withinBound(computed, exact, bound)) throw new Error(`error ${errorOf(computed, exact)} > bound ${bound}`);
      }), { numRuns: 250 });
    });

    it('gives the JavaScript kernel\'s NaN, ±∞ and zeros: special operands, overflowing sums', () => {
      const element = fc.oneof({ weight: 3, arbitrary: ordinary }, { weight: 2, arbitrary: special });
      const input = fc.integer({ min: 0, max: 40 }).chain((n) => fc.record({ a: vectorSpec, b: vectorSpec, x: fc.array(element, { minLength: n, maxLength: n }), y: fc.array(element, { minLength: n, maxLength: n }) }));
      fc.assert(fc.property(input, ({ a, b, x: xs, y: ys }) => {
        const x = buildVector(a, fit(a, xs), arithmetic), y = buildVector(b, fit(b, ys), arithmetic);
        const auto = dot(x, y, options), js = dot(x, y, { ...options, backend: 'js' });
        const vx = read(x), vy = read(y);
        const lanes = laneOrderKahan(vx.map((v, i) => round(v * vy[i]!)), round);
        // Non-finite in the lane order: the call went to the JavaScript kernel. Finite: the lane order's value
        // (the JavaScript loop may overflow where the lanes do not — then Σ|terms| overflows and the bound is ∞).
        expect(Object.is(auto, Number.isFinite(lanes) ? lanes : js)).toBe(true);
        if (Number.isFinite(js) && js === 0 && auto === 0) expect(Object.is(auto, js)).toBe(true);
      }), { numRuns: 300 });
    });

    it('sums from +0 as the JavaScript kernel does: products of ±0 give +0', () => {
      const x = vector([-0, -0, 0, -0, -0, -0, -0, -0, -0], { arithmetic: formats[arithmetic] });
      const y = vector([1, 2, -3, 4, 5, 6, 7, 8, 9], { arithmetic: formats[arithmetic] });
      expect(Object.is(dot(x, y, { ...options, backend: 'wasm' }), 0)).toBe(true);
      expect(Object.is(dot(x, y, { ...options, backend: 'js' }), 0)).toBe(true);
    });

    it('recovers what the recursive sum loses: [2^k, 1, −2^k] repeated over the lanes', () => {
      const big = arithmetic === 'f64' ? 2 ** 60 : 2 ** 30;
      const xs = Array.from({ length: 3 * 24 }, (_, i) => [big, 1, -big][i % 3]!);
      const x = vector(xs, { arithmetic: formats[arithmetic] }), ones = vector(xs.map(() => 1), { arithmetic: formats[arithmetic] });
      expect(dot(x, ones, { ...options, backend: 'wasm' })).toBe(24);
      expect(dot(x, ones, { ...options, backend: 'js' })).toBe(24);
    });
  });
}

describe('the kahan accumulation: the choice, reported', () => {
  const x = vector([1, 2, 3]);
  it('DOT runs it in WebAssembly; GEMV and the others say why not', () => {
    expect(cpuBackendOf('dot', { x, y: x }, KAHAN)).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('dot', { x, y: x }, { ...KAHAN, arithmetic: formats.f32 })).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('asum', { x }, KAHAN)).toEqual({ backend: 'js', reason: 'options.accumulation: WebAssembly sums asum with the recursive accumulation only (kahan: dot only)' });
    expectModprec(() => dot(x, x, { ...KAHAN, arithmetic: formats.dd, backend: 'wasm' }), 'INVALID_OPTION', 'options.accumulation');
  });
});
