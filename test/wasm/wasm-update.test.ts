/**
 * The WebAssembly element-wise updates (AXPY, WAXPBY in each zero-coefficient form, SCAL): bit for bit the
 * generated JavaScript's results (same roundings per element) over every readable storage, strides, sub-ranges,
 * scales and special values, nothing written outside the output view; typed refusals for outputs it cannot write.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, waxpby, scal, ellSpmv, ellFromMatrix, vector, formats, cpuBackendOf, ModprecError, type Range } from '../../src/index.js';
import { buildVector, changedOutside, positionsOf, snapshot, vectorSpec, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';

const outputSpec: fc.Arbitrary<VectorSpec> = fc.record({
  storage: fc.constantFrom('f64' as const, 'f32' as const),
  stride: fc.constantFrom(1, 1, 2, -1, -3),
  sub: fc.boolean(),
});
const element = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: -1e3, max: 1e3, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e-310, 3e38, 1e300) },
);
const coefficient = fc.oneof(fc.double({ min: -8, max: 8, noNaN: true }), fc.constantFrom(0, -0, 1, NaN, Infinity));
const lengths = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 40 }) }, { weight: 1, arbitrary: fc.constantFrom(CHUNK - 3, CHUNK + 9) });

/** Scaled integers hold finite values only (their scale is fitted to them). */
const fit = (spec: VectorSpec, values: number[]): number[] => (spec.storage === 'i16s' ? values.map((v) => (Number.isFinite(v) ? v : 0)) : values);

/** Two identical builds of the same operands: one for each backend. */
function twice<T>(build: () => T): [T, T] {
  return [build(), build()];
}

/** The raw storage of a range (bits compared with Object.is, NaN payloads aside). */
const raw = (r: Range<1, any>): number[] => Array.from(r.accessor.data as ArrayLike<number>);

describe('WebAssembly updates: the same bits as the generated JavaScript', () => {
  it('AXPY y := αx + y', () => {
    const input = lengths.chain((n) => fc.record({ a: vectorSpec, b: outputSpec, alpha: coefficient, xs: fc.array(element, { minLength: n, maxLength: n }), ys: fc.array(element, { minLength: n, maxLength: n }) }));
    fc.assert(fc.property(input, ({ a, b, alpha, xs, ys }) => {
      const [[x1, y1], [x2, y2]] = twice(() => [buildVector(a, fit(a, xs)), buildVector(b, ys)] as const);
      expect(cpuBackendOf('axpy', { x: x1, y: y1 }, {}, ['y']).backend).toBe('wasm');
      const before = snapshot(y1);
      axpy(alpha, x1, y1, { backend: 'wasm' });
      axpy(alpha, x2, y2, { backend: 'js' });
      expect(raw(y1)).toEqual(raw(y2));
      expect(changedOutside(y1, before, positionsOf(y1))).toEqual([]);
    }), { numRuns: 150 });
  });

  it('WAXPBY w := αx + βy with zero coefficients in any position', () => {
    const input = lengths.chain((n) => fc.record({
      a: vectorSpec, b: vectorSpec, c: outputSpec, alpha: fc.oneof(coefficient, fc.constant(0)), beta: fc.oneof(coefficient, fc.constant(0)),
      xs: fc.array(element, { minLength: n, maxLength: n }), ys: fc.array(element, { minLength: n, maxLength: n }), ws: fc.array(element, { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ a, b, c, alpha, beta, xs, ys, ws }) => {
      const [[x1, y1, w1], [x2, y2, w2]] = twice(() => [buildVector(a, fit(a, xs)), buildVector(b, fit(b, ys)), buildVector(c, ws)] as const);
      const before = snapshot(w1);
      waxpby(alpha, x1, beta, y1, w1, { backend: 'wasm' });
      waxpby(alpha, x2, beta, y2, w2, { backend: 'js' });
      expect(raw(w1)).toEqual(raw(w2));
      expect(changedOutside(w1, before, positionsOf(w1))).toEqual([]);
    }), { numRuns: 150 });
  });

  it('SCAL x := αx (α = 0 writes zeros over NaN, as the JavaScript kernel does)', () => {
    const input = lengths.chain((n) => fc.record({ a: outputSpec, alpha: fc.oneof(coefficient, fc.constant(0)), xs: fc.array(element, { minLength: n, maxLength: n }) }));
    fc.assert(fc.property(input, ({ a, alpha, xs }) => {
      const [x1, x2] = twice(() => buildVector(a, xs));
      const before = snapshot(x1);
      scal(alpha, x1, { backend: 'wasm' });
      scal(alpha, x2, { backend: 'js' });
      expect(raw(x1)).toEqual(raw(x2));
      expect(changedOutside(x1, before, positionsOf(x1))).toEqual([]);
    }), { numRuns: 150 });
  });

  it('y may be x itself (the same elements)', () => {
    const x = vector([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    axpy(2, x, x, { backend: 'wasm' });
    expect(Array.from(x.accessor.data as Float64Array)).toEqual([3, 6, 9, 12, 15, 18, 21, 24, 27]);
  });
});

describe("backend 'wasm' refuses outputs it cannot write, before writing", () => {
  it('a bf16, fp16 or int16 y runs in WebAssembly, stored as the JavaScript stores it (wasm-stored-outputs.test.ts covers more)', () => {
    for (const storage of [formats.bf16, formats.f16, formats.i16]) {
      const x = vector([1, 2.5]), y = vector([3, 4], { storage, arithmetic: formats.f64 }), yjs = vector([3, 4], { storage, arithmetic: formats.f64 });
      expect(cpuBackendOf('axpy', { x, y }, {}, ['y']).backend).toBe('wasm');
      axpy(1.5, x, y, { backend: 'wasm' });
      axpy(1.5, x, yjs, { backend: 'js' });
      expect(raw(y)).toEqual(raw(yjs));
    }
  });

  it('an arithmetic WebAssembly does not compute in is refused naming options.arithmetic, before anything is written', () => {
    const x = vector([1]);
    let caught: unknown;
    try { scal(2, x, { backend: 'wasm', arithmetic: formats.rns212 }); } catch (e) { caught = e; }
    expect((caught as ModprecError).parameter).toBe('options.arithmetic');
    expect(x.get(0)).toBe(1);
    caught = undefined;
    const A = ellFromMatrix({ rows: 1, cols: 1, width: 1, stride: 1, colIndex: Int32Array.from([0]), values: Float64Array.from([2]) });
    const y = vector([5]);
    try { ellSpmv({ alpha: 1, A, x, beta: 0, y }, { backend: 'wasm', arithmetic: formats.rns212 }); } catch (e) { caught = e; }
    expect((caught as ModprecError).code).toBe('INVALID_OPTION');
    expect((caught as ModprecError).parameter).toBe('options.arithmetic');
    expect(y.get(0)).toBe(5);
    ellSpmv({ alpha: 1, A, x, beta: 0, y }, { backend: 'wasm' });
    expect(y.get(0)).toBe(2);
    expect(x.get(0)).toBe(1);
  });

});

describe('the element-wise kernels under every accumulation (no reduction: the option is validated, not used)', () => {
  it('cpuBackendOf reports WebAssembly and the kernels give the JavaScript kernel\'s bits for each registered accumulation', () => {
    for (const accumulation of ['recursive', 'kahan', 'pairwise', 'dot2', 'dd']) {
      for (const arithmetic of [formats.f64, formats.f32]) {
        const build = (): Range<1, any>[] => [vector([1.5, -2.25, 3e-7, 7]), vector([0.1, 0.2, -0.3, 1e10]), vector(4)];
        const [x, y, w] = build(), [x2, y2, w2] = build();
        const options = { accumulation, arithmetic };
        expect(cpuBackendOf('axpy', { x, y }, options, ['y'])).toEqual({ backend: 'wasm' });
        expect(cpuBackendOf('waxpby', { x, y, w }, options, ['w'])).toEqual({ backend: 'wasm' });
        expect(cpuBackendOf('scal', { x }, options, ['x'])).toEqual({ backend: 'wasm' });
        axpy(0.3, x!, y!, { ...options, backend: 'wasm' });
        axpy(0.3, x2!, y2!, { ...options, backend: 'js' });
        waxpby(1 / 3, x!, -0.7, y!, w!, { ...options, backend: 'wasm' });
        waxpby(1 / 3, x2!, -0.7, y2!, w2!, { ...options, backend: 'js' });
        scal(0.1, x!, { ...options, backend: 'wasm' });
        scal(0.1, x2!, { ...options, backend: 'js' });
        expect([raw(x!), raw(y!), raw(w!)]).toEqual([raw(x2!), raw(y2!), raw(w2!)]);
      }
    }
  });
});
