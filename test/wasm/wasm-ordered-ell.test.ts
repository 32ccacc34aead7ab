/**
 * ELL SpMV with the `pairwise` and `dot2` accumulations in WebAssembly (issue 20), fp64 and fp32 arithmetic: the
 * generated JavaScript's bits (a NaN compared as NaN) over values in f64, f32, f16, bf16, dd and i16 scaled per row
 * in every layout, x and y with strides (negative too) and sub-ranges, y in f64, f32 and dd, rows padded at any slot,
 * empty rows, rows longer than pairwise's blocks, α/β with β = 0 over NaN in y, NaN/±∞/±0/subnormal values
 * (a non-finite row sum answered by the JavaScript kernel); the automatic choice reported by cpuBackendOf.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellSpmv, ellOperand, formats, cpuBackendOf, range, colMajor, ELL_PADDING, type Range } from '../../src/index.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector, matrixSpec, type MatrixSpec, type StorageName } from '../kernels/matrix-kernel-fixtures.js';
import { ddVector, expectSameParts, pairOf, rawParts, SPECIALS } from './dd-output-fixtures.js';

const ellCase = fc.record({
  accumulation: fc.constantFrom('pairwise' as const, 'dot2' as const), arithmetic: fc.constantFrom('f64' as const, 'f32' as const),
  V: fc.oneof(matrixSpec.map((s): MatrixSpec | 'dd' => (s.storage === 'i16s' ? { ...s, layout: 'col', scaleRows: true } : s)), fc.constant('dd' as const)),
  x: fc.record({ storage: fc.constantFrom<StorageName>('f64', 'f32', 'bf16'), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() }),
  y: fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const, 'dd' as const), stride: fc.constantFrom(1, 2, -1), sub: fc.boolean() }),
  rows: fc.integer({ min: 0, max: 15 }), cols: fc.integer({ min: 1, max: 12 }), width: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(300)),
  extra: fc.integer({ min: 0, max: 2 }), alpha: fc.constantFrom(1, -1, 0.5, 3), beta: fc.constantFrom(0, 1, -0.5),
  special: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

/** Every raw part of y's buffer (sentinels included). */
const partsOf = (r: Range<1, any>): number[] => (r.accessor.storage.kind === 'dd' ? rawParts(r) : Array.from(r.accessor.data as Float64Array));

describe('WebAssembly ELL SpMV with the pairwise and dot2 accumulations', () => {
  it("the automatic choice keeps them in JavaScript (a row per WebAssembly call is slower), backend 'wasm' runs them", () => {
    const x = buildVector({ storage: 'f64', stride: 1, sub: false }, [1, 2]), y = buildVector({ storage: 'f64', stride: 1, sub: false }, [0, 0]);
    for (const accumulation of ['pairwise', 'dot2'] as const) {
      const report = cpuBackendOf('ellSpmv', { x, y }, { accumulation }, ['y']);
      expect(report.backend).toBe('js');
      expect(report.reason).toMatch(/^options\.accumulation: ELL SpMV's/);
      expect(cpuBackendOf('ellSpmv', { x, y }, { accumulation, backend: 'wasm' }, ['y'])).toEqual({ backend: 'wasm' });
    }
  });

  it('the bits of the generated JavaScript', () => {
    fc.assert(fc.property(ellCase, (c) => {
      const random = seededRandom(c.seed);
      const value = (): number => (c.special && random.nextDouble() < 0.1 ? SPECIALS[Math.floor(random.nextDouble() * SPECIALS.length)]! : random.nextDouble() * 2 - 1);
      const stride = c.rows + c.extra;
      const colIndex = new Int32Array(stride * c.width).fill(ELL_PADDING);
      for (let i = 0; i < c.rows; i++) {
        const length = Math.floor(random.nextDouble() * (c.width + 1));
        for (let k = 0; k < length; k++) colIndex[i + k * stride] = Math.floor(random.nextDouble() * c.cols);
      }
      const V = c.V === 'dd'
        ? buildMatrix({ storage: 'f64', layout: 'col', sub: false, scaleRows: false }, stride, c.width, () => value())
        // Scaled integers hold finite values only.
        : buildMatrix(c.V, stride, c.width, () => (c.V !== 'dd' && c.V.storage === 'i16s' ? random.nextDouble() * 2 - 1 : value()));
      const A = ellOperand({ rows: c.rows, cols: c.cols, width: c.width, stride, colIndex }, c.V === 'dd' ? ddMatrixOf(V, random) : V);
      const x = buildVector(c.x, Array.from({ length: c.cols }, value));
      const ys = Array.from({ length: c.rows }, () => (c.beta === 0 ? NaN : value()));
      const yOf = (): Range<1, any> => (c.y.storage === 'dd'
        ? ddVector({ layout: 'dd', stride: c.y.stride, sub: c.y.sub }, ys.map((v) => pairOf(v, 0.5)))
        : buildVector({ storage: c.y.storage, stride: c.y.stride, sub: c.y.sub }, ys));
      const options = { arithmetic: formats[c.arithmetic], accumulation: c.accumulation };
      const y = yOf(), yjs = yOf();
      if (c.rows > 0) expect(cpuBackendOf('ellSpmv', { x, y }, { ...options, backend: 'wasm' }, ['y']).backend).toBe('wasm');
      ellSpmv({ alpha: c.alpha, A, x, beta: c.beta, y }, { ...options, backend: 'wasm' });
      ellSpmv({ alpha: c.alpha, A, x, beta: c.beta, y: yjs }, { ...options, backend: 'js' });
      expectSameParts(partsOf(y), partsOf(yjs), 'wasm against js');
    }), { numRuns: 250 });
  });
});

/** A column-major dd values matrix holding the f64 matrix's values with low parts that count. */
function ddMatrixOf(V: Range<2, any>, random: { nextDouble(): number }): Range<2, any> {
  const [m, w] = [V.length(0), V.length(1)];
  const out = range(colMajor<2, any>({ size: [m, w], storage: formats.dd, arithmetic: formats.f64 }));
  for (let i = 0; i < m; i++) for (let k = 0; k < w; k++) {
    const a = out.accessor;
    a.storage.encode(a.data as never, a.linearIndex([i, k]), pairOf(V.get(i, k) as number, random.nextDouble() * 2 - 1));
  }
  return out;
}
