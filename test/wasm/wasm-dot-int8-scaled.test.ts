/**
 * The i8-pair DOT forms for operands with one scale each (kernels/dot/dot-narrow-wasm.ts, `int8PairForm`): which
 * scales take which form (powers of two, or scales short enough for n: exact integer sums times S; at most 46
 * significant bits: S·(qx·qy) in one rounding; other scales: the general chunk), and through the public API bit for bit the documented lane order of
 * the read values (sx·qx)·(sy·qy) — the general chunk's bits — for every form, with strides, sub-ranges, in-place
 * operands, chunk boundaries, negative and extreme scales, overflow and zero sums.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, formats, range, scaledReducedRowMajor, span, vector, wasmArena, type Range } from '../../src/index.js';
import { int8PairForm } from '../../kernels/dot/dot-narrow-wasm.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { setWasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { laneOrderDot, readValues } from './wasm-dot-oracles.js';

const formOf = (sx: number, sy: number, n = 1000): string => int8PairForm(sx, sy, n, 0)?.form ?? 'general';
/** (2^bits − 1) · 2^shift: a scale of exactly `bits` significant bits. */
const bitsScale = (bits: number, shift: number): number => (2 ** bits - 1) * 2 ** shift;

describe('int8PairForm: the form each pair of scales takes', () => {
  it('powers of two (1: unscaled; negative; subnormal) take the integer sums', () => {
    for (const [sx, sy] of [[1, 1], [2 ** -7, 2 ** -5], [-(2 ** 3), 2 ** -20], [2 ** -1074, 2 ** 1000], [2 ** 1016, 2 ** -1016]]) expect(formOf(sx!, sy!)).toBe('sums');
  });
  it('the integer sums only while |S|·2^14·n stays below 2^1000; then the products', () => {
    expect(formOf(2 ** 900, 2 ** 80, 2 ** 5)).toBe('sums');
    expect(formOf(2 ** 900, 2 ** 80, 2 ** 6)).toBe('products');
  });
  it('short scales take the integer sums while S and the sums fit 53 bits together', () => {
    expect(formOf(0.75, 3)).toBe('sums'); // 2 + 2 bits
    expect(formOf(bitsScale(11, -12), bitsScale(11, -3), 1000)).toBe('sums'); // 22 + 15 + 7 bits
    expect(formOf(bitsScale(11, -12), bitsScale(11, -3), 2 ** 30)).toBe('products'); // 22 + 15 + 27 bits
    expect(formOf(bitsScale(11, -12), 2 ** -3, 2 ** 24)).toBe('sums'); // 12 + 15 + 21 bits
    expect(formOf(1, 1, 2 ** 39)).toBe('sums');
    expect(formOf(1, 1, 2 ** 39 + 8)).toBe('products');
  });
  it('scales of at most 46 significant bits take the products while S is exact', () => {
    expect(formOf(Math.fround(1 / 3), Math.fround(0.37))).toBe('products'); // 24 + 24 bits
    expect(formOf(bitsScale(20, -25), bitsScale(20, -3))).toBe('products'); // 20 + 20 + 15 + 7 bits
    expect(formOf(bitsScale(46, -50), 0.875)).toBe('products'); // 46 + 3 bits
    expect(formOf(bitsScale(47, -50), 2 ** -3)).toBe('general'); // sx·127 may round
    expect(formOf(bitsScale(27, -30), bitsScale(27, -10))).toBe('general'); // S of 54 bits rounds
    expect(formOf(1 / 3, 0.5)).toBe('general'); // 53 bits
  });
  it('a scale above 2^1016 (sx·qx may overflow) or an S that underflows takes the general chunk', () => {
    expect(formOf(2 ** 1017, 2 ** -1017)).toBe('general');
    expect(formOf(-(2 ** 1017), 1)).toBe('general');
    expect(formOf(2 ** -600, 2 ** -600)).toBe('general');
    expect(formOf(3 * 2 ** -1073, 2 ** -2)).toBe('general'); // S's lowest bit below 2^-1074
  });
});

/** Scales for the property: every form and its edges, the general chunk's 53-bit scales among them. */
const SCALES = [
  1, 2 ** -7, -(2 ** -5), 2 ** 1016, 2 ** -1074, 2 ** -1040, 2 ** 600, Math.fround(1 / 3), Math.fround(-0.37), 0.75, 3,
  bitsScale(11, -12), -bitsScale(20, -25), bitsScale(33, -30), bitsScale(46, -46), bitsScale(47, -47), 1 / 3, 0.37 / 127, 2 ** 1017, 3 * 2 ** 1000,
];
const arena = wasmArena(1 << 20);

/** An i8 vector holding integers `q` with one scale (1: unscaled storage), strided, a sub-range, or in the arena. */
function int8Vector(q: readonly number[], scale: number, stride: number, sub: boolean, inPlace: boolean): Range<1, any> {
  const n = q.length, N = sub ? n + 3 : n;
  const common = { size: [N] as const, storage: formats.i8, arithmetic: formats.f64, stride: inPlace ? 1 : stride, ...(inPlace ? { memory: arena } : {}) };
  if (N === 0) return vector(0, common);
  const parent = scale === 1 ? vector(N, common).accessor : scaledReducedRowMajor<1>({ ...common, scaleMask: [false] });
  if (scale !== 1) parent.writeScale!(0, scale);
  const view = sub ? parent.sub(span(1, 1 + n)) : parent;
  q.forEach((v, i) => view.set(i, v * scale));
  return range(view) as Range<1, any>;
}

/** The DOT with the narrow forms on and off: both must be the lane order's bits. */
function bothForms(x: Range<1, any>, y: Range<1, any>): [number, number] {
  const on = dot(x, y, { backend: 'wasm' });
  const previous = setWasmKernelForms({ int8PairForms: false });
  try { return [on, dot(x, y, { backend: 'wasm' })]; } finally { setWasmKernelForms(previous); }
}

describe('scaled i8 pairs through the public API: bit for bit the lane order in every form', () => {
  const int8 = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -128, max: 127 }) }, fc.constantFrom(-128, 127, 0, 1, -1));
  const layout = fc.record({ stride: fc.constantFrom(1, 2, -3), sub: fc.boolean(), inPlace: fc.boolean(), scale: fc.constantFrom(...SCALES) });

  it('random integers and scales (n ≤ 90)', () => {
    const input = fc.integer({ min: 0, max: 90 }).chain((n) => fc.record({
      a: layout, b: layout, x: fc.array(int8, { minLength: n, maxLength: n }), y: fc.array(int8, { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ a, b, x, y }) => {
      const xv = int8Vector(x, a.scale, a.stride, a.sub, a.inPlace), yv = int8Vector(y, b.scale, b.stride, b.sub, b.inPlace);
      const want = laneOrderDot(readValues(xv), readValues(yv));
      const [on, off] = bothForms(xv, yv);
      expect(Object.is(on, want)).toBe(true);
      expect(Object.is(off, want)).toBe(true);
    }), { numRuns: 400 });
  });

  it('across chunk boundaries (staged and in place), each form', () => {
    const chunk = CHUNK * 8; // i8 elements per staged chunk
    const q = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => ((Math.imul(i + seed, 0x9e3779b1) >>> 24) - 128));
    for (const [sx, sy] of [[2 ** -7, -(2 ** -5)], [Math.fround(0.1), Math.fround(3.7)], [1 / 3, 0.37]]) {
      for (const n of [chunk - 1, chunk + 17, 2 * chunk + 5]) {
        for (const inPlace of [false, true]) {
          const x = int8Vector(q(n, 1), sx!, inPlace ? 1 : -3, true, inPlace), y = int8Vector(q(n, 2), sy!, 1, false, inPlace);
          const want = laneOrderDot(readValues(x), readValues(y));
          for (const got of bothForms(x, y)) expect(Object.is(got, want)).toBe(true);
        }
      }
    }
  });

  it('a zero sum is +0 with a negative power-of-two scale (cancelling and all-zero operands)', () => {
    for (const [x, y] of [[[3, -3, 5, -5, 7, -7, 1, -1, 2, -2], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]], [[0, 0, 0], [5, -7, 0]]]) {
      const xv = int8Vector([...x!, ...x!], -(2 ** -4), 1, false, false), yv = int8Vector([...y!, ...y!], 2 ** -3, 1, false, false);
      expect(formOf(-(2 ** -4), 2 ** -3)).toBe('sums');
      const [on, off] = bothForms(xv, yv);
      expect(Object.is(on, laneOrderDot(readValues(xv), readValues(yv)))).toBe(true);
      expect(Object.is(on, 0)).toBe(true);
      expect(Object.is(off, 0)).toBe(true);
    }
  });

  it('products rounded as fl(x·y) and a sum that overflows as in the lane order', () => {
    // 46 + 3 significant bits in S: each S·(qx·qy) rounds (up to 63 bits), as the product of the read values does.
    const sx = bitsScale(46, -46), sy = 0.875;
    const qx = Array.from({ length: 40 }, (_, i) => 127 - 7 * i), qy = Array.from({ length: 40 }, (_, i) => -128 + 5 * i);
    const xv = int8Vector(qx, sx, 1, false, true), yv = int8Vector(qy, sy, 1, false, true);
    expect(formOf(sx, sy)).toBe('products');
    expect(qx.some((v, i) => (v * sx) * (qy[i]! * sy) !== (v * qy[i]!) * (sx * sy) || !Number.isInteger(v * qy[i]! * 2 ** 46))).toBe(true);
    for (const got of bothForms(xv, yv)) expect(Object.is(got, laneOrderDot(readValues(xv), readValues(yv)))).toBe(true);
    // S = 3·2^1008: products up to 2^1023.6, so partial sums overflow to ±Inf in the lane order (then stay or give NaN).
    const big = int8Vector(Array.from({ length: 32 }, (_, i) => (i % 3 === 0 ? -128 : 127)), 3 * 2 ** 1000, 1, false, false);
    const small = int8Vector(Array.from({ length: 32 }, () => 127), 2 ** 8, 1, false, false);
    expect(formOf(3 * 2 ** 1000, 2 ** 8)).toBe('products');
    const want = laneOrderDot(readValues(big), readValues(small));
    expect(Number.isFinite(want)).toBe(false);
    for (const got of bothForms(big, small)) expect(Object.is(got, want)).toBe(true);
  });
});
