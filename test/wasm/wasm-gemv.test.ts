/**
 * The WebAssembly GEMV: within gemvBound against the exact rational result for every storage and layout it
 * reads, trans, α, β (β = 0 with NaN in y); column-contiguous op(A) bit for bit the generated JavaScript (same
 * order), row-contiguous op(A) bit for bit the documented lane order; typed refusals.
 */
import { describe, expect, it } from 'vitest';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import fc from 'fast-check';
import { gemv, gemvBound, vector, range, strided, formats, cpuBackendOf, type ModprecErrorCode, type Range } from '../../src/index.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector, changedOutside, exactVector, positionsOf, snapshot, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { expectGemvWithinBound, wasmGemvMatrixSpec, wasmGemvOutputSpec } from './wasm-exact-bounds.js';

const inputSpec: fc.Arbitrary<VectorSpec> = fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const, 'i16s' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() });
const coefficient = fc.constantFrom(1, -1, 0.5, 3, 0);

const gemvCase = fc.record({
  m: fc.integer({ min: 1, max: 21 }), n: fc.integer({ min: 1, max: 21 }), trans: fc.constantFrom('N' as const, 'T' as const),
  A: wasmGemvMatrixSpec, x: inputSpec, y: wasmGemvOutputSpec, alpha: fc.constantFrom(1, -1, 0.5, 3), beta: coefficient, seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

/** The operands of one case (built twice: one copy per backend). */
function build(c: typeof gemvCase extends fc.Arbitrary<infer C> ? C : never): { A: Range<2, any>; x: Range<1, any>; y: Range<1, any> } {
  const random = seededRandom(c.seed);
  const v = (): number => (random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 6);
  const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
  const A = buildMatrix(c.A, rows, cols, () => v());
  const x = buildVector(c.x, Float64Array.from({ length: c.n }, v));
  const y = buildVector(c.y, Float64Array.from({ length: c.m }, () => (c.beta === 0 ? NaN : v())));
  return { A, x, y };
}

/** The WebAssembly DOT's order on doubles (kernels/dot/dot-wasm.ts). */
function laneOrderDot(a: readonly number[], b: readonly number[]): number {
  const p = new Array<number>(8).fill(0);
  for (let i = 0; i < a.length; i++) p[i % 8] = p[i % 8]! + a[i]! * b[i]!;
  return ((p[0]! + p[1]!) + (p[2]! + p[3]!)) + ((p[4]! + p[5]!) + (p[6]! + p[7]!));
}

const values = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i));

describe('WebAssembly GEMV', () => {
  it('stays within gemvBound of the exact result; the same bits as JavaScript where op(A) is read by columns, the lane order where by rows', () => {
    fc.assert(fc.property(gemvCase, (c) => {
      const a = build(c), b = build(c);
      const args = { alpha: c.alpha, A: a.A, x: a.x, beta: c.beta, y: a.y, trans: c.trans };
      expect(cpuBackendOf('gemv', { A: a.A, x: a.x, y: a.y }, {}, ['y']).backend).toBe('wasm');
      const yIn = c.beta === 0 ? null : exactVector(a.y);
      const xIn = values(a.x), yValues = values(a.y);
      const before = snapshot(a.y);
      const bound = gemvBound(args);
      gemv(args, { backend: 'wasm' });
      gemv({ ...args, A: b.A, x: b.x, y: b.y }, { backend: 'js' });
      expect(changedOutside(a.y, before, positionsOf(a.y))).toEqual([]);
      expectGemvWithinBound(c, a, yIn, bound);
      const byColumns = (c.A.layout === 'col') === (c.trans === 'N');
      if (byColumns) expect(values(a.y)).toEqual(values(b.y));
      else {
        const t = (i: number): number => laneOrderDot(Array.from({ length: c.n }, (_, j) => (c.trans === 'N' ? a.A.get(i, j) : a.A.get(j, i))), xIn);
        const expected = Array.from({ length: c.m }, (_, i) => {
          const ti = t(i);
          const r = c.beta === 0 ? (c.alpha === 1 ? ti : c.alpha * ti) : (c.alpha === 1 ? ti : c.alpha * ti) + (c.beta === 1 ? yValues[i]! : c.beta * yValues[i]!);
          return c.y.storage === 'f32' ? Math.fround(r) : r;
        });
        expect(values(a.y)).toEqual(expected);
      }
    }), { numRuns: 250 });
  });

  it('row blocks and column chunks past the staging size', () => {
    for (const [layout, m, n] of [['col', CHUNK + 5, 6], ['row', 3, CHUNK + 11]] as const) {
      const A = buildMatrix({ storage: 'bf16', layout, sub: true, scaleRows: false }, m, n, (i, j) => Math.sin(i + 3 * j));
      const x = vector(Array.from({ length: n }, (_, j) => Math.cos(j)));
      const y = vector(m), y2 = vector(m);
      gemv({ alpha: 1, A, x, beta: 0, y }, { backend: 'wasm' });
      gemv({ alpha: 1, A, x, beta: 0, y: y2 }, { backend: 'js' });
      const bound = gemvBound({ alpha: 1, A, x, beta: 0, y });
      for (let i = 0; i < m; i++) expect(Math.abs(y.get(i) - y2.get(i))).toBeLessThanOrEqual(2 * bound[i]!);
      if (layout === 'col') expect(values(y)).toEqual(values(y2));
    }
  });
});

describe("backend 'wasm' refuses GEMV calls it cannot run", () => {
  const x = vector([1, 2]), y = vector(2);
  const cases: [string, () => unknown, ModprecErrorCode, string][] = [
    ['a matrix with no unit stride', () => gemv({ alpha: 1, A: range(strided<2>({ size: [2, 2], strides: [2, 5] })), x, beta: 0, y }, { backend: 'wasm' }), 'INVALID_OPTION', 'A'],
    ['an explicit loop order', () => gemv({ alpha: 1, A: range(strided<2>({ size: [2, 2], strides: [2, 1] })), x, beta: 0, y }, { backend: 'wasm', loop: 'dot' }), 'INVALID_OPTION', 'options.loop'],
  ];
  for (const [name, call, code, parameter] of cases) {
    it(name, () => {
      expectModprec(call, code, parameter);
    });
  }
});
