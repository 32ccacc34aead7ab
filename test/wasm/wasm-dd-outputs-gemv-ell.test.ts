/**
 * GEMV and ELL SpMV in WebAssembly into double-double outputs (issue 20), interleaved `dd` and split `dd-split`,
 * with strides (negative too), sub-ranges inside NaN sentinels, empty and size-1 outputs, NaN/±∞/±0/subnormals:
 * - the generated JavaScript's pairs, bit for bit, wherever the two backends sum in the same order (ELL SpMV; GEMV
 *   reading op(A) by columns) — in fp64, fp32, kahan, double-double arithmetic and fp64 with the dd accumulation;
 * - in every layout, for the arithmetics whose sums are numbers (fp64, fp32, kahan): the pairs (r, 0) — (r, r) for
 *   a zero — of the result r the same WebAssembly call writes into an f64 twin of y holding y's values, which is
 *   how the JavaScript kernels store a number into double-double storage (src/formats/dd/dd-storage.ts);
 * - the automatic choice picks WebAssembly for them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gemv, ellSpmv, ellOperand, vector, formats, cpuBackendOf, ELL_PADDING, type Range } from '../../src/index.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector, matrixSpec, type MatrixSpec } from '../kernels/matrix-kernel-fixtures.js';
import { ddVector, ddVectorSpec, expectSameParts, pairOf, pairsOf, rawParts, SPECIALS, type Pair } from './dd-output-fixtures.js';

const NUMERICS = {
  f64: { arithmetic: formats.f64 },
  f32: { arithmetic: formats.f32 },
  kahan: { arithmetic: formats.f64, accumulation: 'kahan' },
  dd: { arithmetic: formats.dd },
  'dd-accumulation': { arithmetic: formats.f64, accumulation: 'dd' },
} as const;
type NumericsName = keyof typeof NUMERICS;
/** The numerics whose row sums are numbers (the f64-twin oracle applies). */
const NUMBER_SUMS: readonly NumericsName[] = ['f64', 'f32', 'kahan'];

const common = {
  numerics: fc.constantFrom(...(Object.keys(NUMERICS) as NumericsName[])),
  y: ddVectorSpec, x: fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() }),
  alpha: fc.constantFrom(1, -1, 0.5, 3), beta: fc.constantFrom(0, 1, -1, 0.75), special: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
};

/** A value in [−1, 1], or now and then a special one (when `special`). */
function valueSource(seed: number, special: boolean): () => number {
  const random = seededRandom(seed);
  return () => (special && random.nextDouble() < 0.2 ? SPECIALS[Math.floor(random.nextDouble() * SPECIALS.length)]! : random.nextDouble() * 2 - 1);
}

/** y's start values: β = 0 reads none, so they hold NaN there (it must not reach the result); fp32 arithmetic gets exact doubles. */
function yValues(m: number, beta: number, numerics: NumericsName, v: () => number): Pair[] {
  return Array.from({ length: m }, () => (beta === 0 ? { hi: NaN, lo: 0 } : pairOf(v(), numerics === 'f32' ? 0 : v())));
}

/** The f64 twin of a dd y: its values as fp64 arithmetic reads them (hi + lo). */
const twinOf = (y: Range<1, any>, stride: number): Range<1, any> => buildVector({ storage: 'f64', stride, sub: false }, pairsOf(y).map((p) => p.hi + p.lo));

/** How the JavaScript kernels store a number r into double-double storage: (r, 0), a zero as (r, r). */
const storedPair = (r: number): Pair => ({ hi: r, lo: r === 0 ? r : 0 });

/** Runs `call` into y by WebAssembly and by JavaScript (on a copy), and applies the oracles (`writes`: the call writes y, no quick return). */
function check(y: Range<1, any>, yCopy: Range<1, any>, numerics: NumericsName, sameOrder: boolean, writes: boolean, stride: number, call: (y: Range<1, any>, backend: 'wasm' | 'js') => void): void {
  const twin = NUMBER_SUMS.includes(numerics) ? twinOf(y, stride) : undefined;
  call(y, 'wasm');
  call(yCopy, 'js');
  if (sameOrder) expectSameParts(rawParts(y), rawParts(yCopy), 'wasm against js');
  if (twin) {
    call(twin, 'wasm');
    // An empty op(A) leaves y untouched (the quick return), as it leaves the twin.
    const want = !writes ? pairsOf(yCopy) : Array.from({ length: twin.length() }, (_, i) => storedPair(twin.get(i) as number));
    expectSameParts(pairsOf(y).flatMap((p) => [p.hi, p.lo]), want.flatMap((p) => [p.hi, p.lo]), 'wasm against its f64 twin');
  }
}

describe('WebAssembly GEMV into double-double y', () => {
  const gemvCase = fc.record({
    ...common, m: fc.integer({ min: 0, max: 13 }), n: fc.integer({ min: 0, max: 13 }), trans: fc.constantFrom('N' as const, 'T' as const),
    A: matrixSpec.map((s): MatrixSpec => ({ ...s, layout: s.layout === 'col' || s.layout === 'negative' ? 'col' : 'row', storage: s.storage === 'i16s' || s.storage === 'f16' ? 'f64' : s.storage })),
  });
  it('the JavaScript pairs where op(A) is read by columns; the f64 twin\'s result stored as the JavaScript stores it, in every layout', () => {
    fc.assert(fc.property(gemvCase, (c) => {
      const v = valueSource(c.seed, c.special);
      const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const A = buildMatrix(c.A, rows, cols, () => v());
      const x = buildVector(c.x, Array.from({ length: c.n }, v));
      const ys = yValues(c.m, c.beta, c.numerics, v);
      const y = ddVector(c.y, ys), yCopy = ddVector(c.y, ys);
      const options = NUMERICS[c.numerics];
      if (c.m > 0) expect(cpuBackendOf('gemv', { A, x, y }, options, ['y']).backend).toBe('wasm');
      // op(A) by columns: column-major A untransposed, row-major A transposed (layout 'col' / 'row' of the fixtures).
      const byColumns = (c.A.layout === 'col') === (c.trans === 'N');
      check(y, yCopy, c.numerics, byColumns, c.n > 0, c.y.stride, (out, backend) => gemv({ alpha: c.alpha, A, x, beta: c.beta, y: out, trans: c.trans }, { ...options, backend }));
    }), { numRuns: 300 });
  });
});

describe('WebAssembly ELL SpMV into double-double y', () => {
  const ellCase = fc.record({ ...common, rows: fc.integer({ min: 0, max: 19 }), cols: fc.integer({ min: 1, max: 9 }), width: fc.integer({ min: 1, max: 4 }), extra: fc.integer({ min: 0, max: 2 }) });
  it('the JavaScript pairs, bit for bit; the f64 twin\'s result stored as the JavaScript stores it', () => {
    fc.assert(fc.property(ellCase, (c) => {
      const v = valueSource(c.seed, c.special), random = seededRandom(c.seed + 1);
      const stride = c.rows + c.extra;
      const colIndex = new Int32Array(stride * c.width).fill(ELL_PADDING);
      for (let i = 0; i < c.rows; i++) {
        const length = Math.floor(random.nextDouble() * (c.width + 1));
        for (let k = 0; k < length; k++) colIndex[i + k * stride] = Math.floor(random.nextDouble() * c.cols);
      }
      const V = buildMatrix({ storage: 'f64', layout: 'col', sub: false, scaleRows: false }, stride, c.width, () => v());
      const A = ellOperand({ rows: c.rows, cols: c.cols, width: c.width, stride, colIndex }, V);
      const x = buildVector(c.x, Array.from({ length: c.cols }, v));
      const ys = yValues(c.rows, c.beta, c.numerics, v);
      const y = ddVector(c.y, ys), yCopy = ddVector(c.y, ys);
      const options = NUMERICS[c.numerics];
      if (c.rows > 0) expect(cpuBackendOf('ellSpmv', { x, y }, options, ['y']).backend).toBe('wasm');
      check(y, yCopy, c.numerics, true, true, c.y.stride, (out, backend) => ellSpmv({ alpha: c.alpha, A, x, beta: c.beta, y: out }, { ...options, backend }));
    }), { numRuns: 300 });
  });

  it('size 1 and a cancellation only the dd output keeps: the pair\'s low part', () => {
    const A = ellOperand({ rows: 1, cols: 2, width: 2, stride: 1, colIndex: Int32Array.of(0, 1) }, buildMatrix({ storage: 'f64', layout: 'col', sub: false, scaleRows: false }, 1, 2, (_, k) => (k === 0 ? 1 : -1)));
    for (const layout of ['dd', 'dd-split'] as const) {
      const y = ddVector({ layout, stride: 1, sub: false }, [{ hi: 0, lo: 0 }]);
      ellSpmv({ alpha: 1, A, x: vector([1 + 2 ** -52, 1]), beta: 0, y }, { arithmetic: formats.dd, backend: 'wasm' });
      expect(pairsOf(y)).toEqual([{ hi: 2 ** -52, lo: 0 }]);
      const y2 = ddVector({ layout, stride: 1, sub: false }, [{ hi: 1, lo: 2 ** -60 }]);
      gemv({ alpha: 1, A: buildMatrix({ storage: 'f64', layout: 'col', sub: false, scaleRows: false }, 1, 1, () => 2 ** -70), x: vector([1]), beta: 1, y: y2 }, { arithmetic: formats.dd, backend: 'wasm' });
      expect(pairsOf(y2)).toEqual([{ hi: 1, lo: 2 ** -60 + 2 ** -70 }]);
    }
  });
});
