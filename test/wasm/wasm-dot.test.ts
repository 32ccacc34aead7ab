/**
 * The WebAssembly DOT (issue 20): within dotBound against the exact rational value for every built-in storage it
 * reads, strides, sub-ranges and a scale; bit for bit the documented summation order (eight interleaved partial
 * sums) evaluated in JavaScript on the decoded values, NaN/±Inf/subnormals included; typed refusals for
 * backend 'wasm'; the automatic choice reported by cpuBackendOf.
 */
import { describe, expect, it } from 'vitest';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { nrm2Scaling, unscaled } from './nrm2-scaling.js';
import fc from 'fast-check';
import { dot, dotBound, asum, asumBound, nrm2, formats, vector, range, span, cpuBackendOf, type ModprecErrorCode, type Range } from '../../src/index.js';
import { wasmSimdAvailable } from '../../src/backends/wasm/wasm-runtime.js';
import { buildVector, exactDotOf, exactVector, errorOf, vectorSpec, withinBound, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { laneOrderDot, readValues } from './wasm-dot-oracles.js';


const values = (n: number) => fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: n, maxLength: n });

describe('WebAssembly DOT', () => {
  it('runs here (Node has WebAssembly SIMD128)', () => {
    expect(wasmSimdAvailable()).toBe(true);
    const x = vector([1, 2, 3]);
    expect(cpuBackendOf('dot', { x, y: x })).toEqual({ backend: 'wasm' });
  });

  it('stays within dotBound of the exact value: every storage, stride, sub-range, scale', () => {
    const input = fc.integer({ min: 0, max: 70 }).chain((n) => fc.record({ a: vectorSpec, b: vectorSpec, x: values(n), y: values(n) }));
    fc.assert(fc.property(input, ({ a, b, x: xs, y: ys }) => {
      const x = buildVector(a, xs, 'f64'), y = buildVector(b, ys, 'f64');
      expect(cpuBackendOf('dot', { x, y }).backend).toBe('wasm');
      const got = dot(x, y, { backend: 'wasm' });
      const exact = exactDotOf(exactVector(x), exactVector(y));
      const bound = dotBound(x, y);
      const computed = exactVector(vector([got]))[0]!;
      if (!withinBound(computed, exact, bound)) throw new Error(`error ${errorOf(computed, exact)} > bound ${bound}`);
      // The documented order, bit for bit.
      expect(Object.is(got, laneOrderDot(readValues(x), readValues(y)))).toBe(true);
    }), { numRuns: 300 });
  });

  it('crosses staging chunks in the same order (n around multiples of the chunk)', () => {
    for (const n of [CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 13]) {
      for (const stride of [1, -3]) {
        const spec: VectorSpec = { storage: 'f16', stride, sub: true };
        const xs = Array.from({ length: n }, (_, i) => Math.sin(i) * 100), ys = Array.from({ length: n }, (_, i) => Math.cos(i * 0.37));
        const x = buildVector(spec, xs), y = buildVector({ storage: 'f64', stride: 1, sub: false }, ys);
        expect(Object.is(dot(x, y, { backend: 'wasm' }), laneOrderDot(readValues(x), readValues(y)))).toBe(true);
        const exact = exactDotOf(exactVector(x), exactVector(y));
        expect(withinBound(exactVector(vector([dot(x, y)]))[0]!, exact, dotBound(x, y))).toBe(true);
      }
    }
  });

  it('crosses the larger chunks of narrow formats (i8 and bf16 operands move 32 KiB per chunk too)', () => {
    for (const [storage, n] of [['bf16', 2 * (CHUNK * 4) + 21], ['i8', CHUNK * 8 + 3]] as const) {
      const xs = Array.from({ length: n }, (_, i) => (storage === 'i8' ? (i % 200) - 100 : Math.sin(i))), ys = Array.from({ length: n }, (_, i) => Math.cos(i));
      const x = vector(xs, { storage: formats[storage], arithmetic: formats.f64 }), y = vector(ys, { storage: formats[storage], arithmetic: formats.f64 });
      expect(Object.is(dot(x, y, { backend: 'wasm' }), laneOrderDot(readValues(x), readValues(y)))).toBe(true);
    }
  });

  it('decodes specials as the JavaScript kernels do: NaN, ±Inf, ±0, subnormals of every 16-bit and float storage', () => {
    const special = fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 2 ** -24, -(2 ** -20), 2 ** -14 * 0.75, 65504, 3.4e38, 2 ** -126, 2 ** -140, 1e-310, 1);
    const storages = ['f64', 'f32', 'f16', 'bf16'] as const;
    fc.assert(fc.property(fc.constantFrom(...storages), fc.array(special, { minLength: 1, maxLength: 20 }), (storage, xs) => {
      const x = vector(xs, { storage: formats[storage], arithmetic: formats.f64 });
      const one = vector(xs.map(() => 1));
      const v = readValues(x);
      // Each element alone: the product with 1 is the decoded value (sign of zero aside: the sum starts at +0).
      for (let i = 0; i < xs.length; i++) {
        const xi = range(x.accessor.sub(span(i, i + 1)) as never) as Range<1, any>;
        expect(dot(xi, vector([1]), { backend: 'wasm' })).toBe(0 + v[i]!);
      }
      expect(Object.is(dot(x, one, { backend: 'wasm' }), laneOrderDot(v, xs.map(() => 1)))).toBe(true);
    }), { numRuns: 200 });
  });

  it('agrees with the JavaScript kernel where the order cannot matter (sums of small integers)', () => {
    const ints = fc.array(fc.integer({ min: -100, max: 100 }), { maxLength: 300 });
    fc.assert(fc.property(ints, (xs) => {
      const x = vector(xs, { storage: formats.i16 }), y = vector(xs.map((v) => v / 4), { storage: formats.bf16, arithmetic: formats.f64 });
      expect(dot(x, y, { backend: 'wasm' })).toBe(dot(x, y, { backend: 'js' }));
    }), { numRuns: 100 });
  });
});

describe('WebAssembly ASUM', () => {
  it('sums |xᵢ| in the lane order, within asumBound of the exact value: every storage, stride, sub-range, scale, NaN/±Inf', () => {
    const input = fc.integer({ min: 0, max: 70 }).chain((n) => fc.record({ a: vectorSpec, x: fc.array(fc.oneof({ weight: 9, arbitrary: fc.double({ min: -4, max: 4, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0) }), { minLength: n, maxLength: n }) }));
    fc.assert(fc.property(input, ({ a, x: xs }) => {
      const x = buildVector(a, a.storage === 'i16s' ? xs.map((v) => (Number.isFinite(v) ? v : 0)) : xs, 'f64');
      const got = asum(x, { backend: 'wasm' });
      const v = readValues(x);
      expect(Object.is(got, laneOrderDot(v.map(Math.abs), v.map(() => 1)))).toBe(true);
      if (v.every(Number.isFinite)) {
        const exact = exactDotOf(exactVector(x).map((r) => (r.num < 0n ? { ...r, num: -r.num } : r)), exactVector(vector(v.map(() => 1))));
        expect(withinBound(exactVector(vector([got]))[0]!, exact, asumBound(x))).toBe(true);
      }
    }), { numRuns: 200 });
  });
});

describe('WebAssembly NRM2 (its sum of scaled squares)', () => {
  it('gives 2^e·√(Σ (xᵢ·2^−e)²) with the sum in the lane order, bit for bit; NaN and ±Inf as the JavaScript kernel', () => {
    const input = fc.integer({ min: 0, max: 70 }).chain((n) => fc.record({ a: vectorSpec, x: fc.array(fc.oneof({ weight: 9, arbitrary: fc.double({ min: -1e200, max: 1e200, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -0, 1e-310) }), { minLength: n, maxLength: n }) }));
    fc.assert(fc.property(input, ({ a, x: xs }) => {
      const x = buildVector(a, a.storage === 'i16s' ? xs.map((v) => (Number.isFinite(v) ? v : 0)) : xs, 'f64');
      const got = nrm2(x, { backend: 'wasm' });
      const js = nrm2(x, { backend: 'js' });
      const v = readValues(x);
      const max = v.reduce((m, t) => (Number.isNaN(m) || Number.isNaN(t) ? NaN : Math.max(m, Math.abs(t))), 0);
      if (max === 0 || !Number.isFinite(max)) { expect(Object.is(got, js)).toBe(true); return; }
      const { e, h1, h2 } = nrm2Scaling(max);
      const scaled = v.map((t) => t * 2 ** h1 * 2 ** h2);
      const expected = unscaled(Math.sqrt(laneOrderDot(scaled, scaled)), e);
      expect(Object.is(got, expected)).toBe(true);
      expect(Math.abs(got - js)).toBeLessThanOrEqual(js * 1e-13);
    }), { numRuns: 200 });
  });
});

describe("backend 'wasm' refuses what it cannot run: a typed error naming the parameter", () => {
  const x = vector([1, 2, 3]);
  const cases: [string, () => unknown, ModprecErrorCode, string][] = [
    ['a compensated accumulation in dd arithmetic', () => dot(x, x, { backend: 'wasm', arithmetic: formats.dd, accumulation: 'pairwise' }), 'INVALID_OPTION', 'options.accumulation'],
    ['f32 arithmetic with the dd accumulation', () => dot(x, x, { backend: 'wasm', arithmetic: formats.f32, accumulation: 'dd' }), 'INVALID_OPTION', 'options.accumulation'],
    ['RNS arithmetic', () => dot(x, x, { backend: 'wasm', arithmetic: formats.rns212 }), 'INVALID_OPTION', 'options.arithmetic'],
  ];
  for (const [name, call, code, parameter] of cases) {
    it(name, () => {
      expectModprec(call, code, parameter);
    });
  }

  it('the automatic choice runs those on the JavaScript kernels and says why', () => {
    expect(cpuBackendOf('dot', { x, y: x }, { arithmetic: formats.dd, accumulation: 'pairwise' })).toEqual({ backend: 'js', reason: 'options.accumulation: WebAssembly sums in double-double arithmetic with the recursive or dd accumulation only (not pairwise)' });
    expect(cpuBackendOf('dot', { x, y: x }, { backend: 'js' }).backend).toBe('js');
    expect(cpuBackendOf('ellSpmv', { x }).backend).toBe('wasm');
    expect(cpuBackendOf('asum', { x }).backend).toBe('wasm');
    expect(cpuBackendOf('nrm2', { x }).backend).toBe('wasm');
    expect(dot(x, x, { arithmetic: formats.dd, accumulation: 'pairwise' })).toBe(14);
  });
});
