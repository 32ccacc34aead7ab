/**
 * ELL SpMV in fp32 arithmetic in WebAssembly (issue 20): the bits of the generated JavaScript f32 kernel (each row
 * sums its slots in order, every read, product and sum one binary32 rounding), within ellSpmvBound (arithmetic f32)
 * of the exact rational result, for every value storage the fixtures build (integers scaled per row), strided x
 * and y, α/β with β = 0 over NaN in y, padding never read, NaN/±∞/±0/subnormals and binary32 overflow; blocks past
 * the staging size; double-double values through a twin of the JavaScript's reads (backend 'wasm'); the slots
 * looped or written out one by one (ellSlotsUnrolled).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellSpmv, ellSpmvBound, ellOperand, ellWithStorage, laplacianEll, vector, formats, cpuBackendOf, range, rowMajor, ELL_PADDING, type Range } from '../../src/index.js';
import { addRational, mulRational, ZERO } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import {
  buildMatrix, buildVector, changedOutside, errorOf, exactElement, exactVector, matrixSpec, positionsOf, snapshot, withinBound,
  type VectorSpec,
} from '../kernels/matrix-kernel-fixtures.js';
import { setWasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import '../../src/formats/dd/register.js';

const F32 = { arithmetic: formats.f32 } as const;
const xSpec: fc.Arbitrary<VectorSpec> = fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const, 'i16s' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() });
const ySpec: fc.Arbitrary<VectorSpec> = fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() });

const ellCase = fc.record({
  rows: fc.integer({ min: 1, max: 23 }), cols: fc.integer({ min: 1, max: 9 }), extraStride: fc.integer({ min: 0, max: 2 }),
  extraWidth: fc.integer({ min: 0, max: 2 }), valuesRows: fc.constantFrom<'rows' | 'stride'>('rows', 'stride'),
  // integer values are scaled per row (the WebAssembly reader takes one scale per row, not per slot)
  V: matrixSpec.map((s) => ({ ...s, scaleRows: true })), x: xSpec, y: ySpec,
  alpha: fc.constantFrom(1, -1, 0.5, 3), beta: fc.constantFrom(0, 1, -1, 0.5), seed: fc.integer({ min: 0, max: 2 ** 30 }),
  special: fc.boolean(),
  // the slots written out one by one (wasmKernelForms().ellSlotsUnrolled, widths up to 8) or looped: the same bits
  unrolled: fc.boolean(),
});
type EllCase = typeof ellCase extends fc.Arbitrary<infer C> ? C : never;

// binary32's specials too: 1e39 reads as ∞, 1e-40 as a subnormal, 3e38 overflows a product or a sum.
const SPECIALS = [NaN, Infinity, -Infinity, 0, -0, 2 ** -1074, 1e-40, -(2 ** -130), 3e38, 1e39];

/** The operands of one case (built twice: one copy per backend). */
function build(c: EllCase): { A: ReturnType<typeof ellOperand>; V: Range<2, any>; x: Range<1, any>; y: Range<1, any> } {
  const random = seededRandom(c.seed);
  const v = (): number => (c.special && random.nextUint32() % 5 === 0 && c.V.storage !== 'i16s'
    ? SPECIALS[random.nextUint32() % SPECIALS.length]!
    : (random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 6));
  const stride = c.rows + c.extraStride;
  const lengths = Array.from({ length: c.rows }, () => random.nextUint32() % (c.cols + 1));
  const width = Math.max(0, ...lengths) + c.extraWidth;
  const colIndex = new Int32Array(stride * width).fill(ELL_PADDING);
  for (let i = 0; i < c.rows; i++) for (let k = 0; k < lengths[i]!; k++) colIndex[i + k * stride] = random.nextUint32() % c.cols;
  // Padding slots hold NaN where the storage can: a padding value must never reach a result.
  const sentinel = c.V.storage === 'i16s' ? 7 : NaN;
  const V = buildMatrix(c.V, c.valuesRows === 'rows' ? c.rows : stride, width, (i, k) => (i < c.rows && colIndex[i + k * stride] !== ELL_PADDING ? v() : sentinel), 'f32');
  const A = ellOperand({ rows: c.rows, cols: c.cols, width, stride, colIndex }, V);
  const xv = Float64Array.from({ length: c.cols }, () => (c.x.storage === 'i16s' ? (random.nextDouble() * 2 - 1) : v()));
  const x = buildVector(c.x, xv, 'f32');
  const y = buildVector(c.y, Float64Array.from({ length: c.rows }, () => (c.beta === 0 ? NaN : random.nextDouble() * 2 - 1)), 'f32');
  return { A, V, x, y };
}

const values = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i));
const sameBits = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describe('WebAssembly ELL SpMV in fp32 arithmetic', () => {
  for (const [accumulation, numRuns] of [['recursive', 200], ['kahan', 100]] as const) it(`gives the bits of the generated JavaScript f32 kernel and stays within ellSpmvBound of the exact result (${accumulation} accumulation)`, () => {
    const options = { ...F32, accumulation };
    fc.assert(fc.property(ellCase, (c) => {
      const a = build(c), b = build(c);
      expect(cpuBackendOf('ellSpmv', { x: a.x, y: a.y }, options, ['y']).backend).toBe('wasm');
      const yIn = c.beta === 0 ? null : exactVector(a.y);
      const before = { V: snapshot(a.V), x: snapshot(a.x), y: snapshot(a.y) };
      const args = { alpha: c.alpha, A: a.A, x: a.x, beta: c.beta, y: a.y };
      const bound = ellSpmvBound(args, options);
      const previous = setWasmKernelForms({ ellSlotsUnrolled: c.unrolled });
      try { ellSpmv(args, { ...options, backend: 'wasm' }); } finally { setWasmKernelForms(previous); }
      ellSpmv({ ...args, A: b.A, x: b.x, y: b.y }, { ...options, backend: 'js' });
      expect(changedOutside(a.V, before.V)).toEqual([]);
      expect(changedOutside(a.x, before.x)).toEqual([]);
      expect(changedOutside(a.y, before.y, positionsOf(a.y))).toEqual([]);
      const got = values(a.y), want = values(b.y);
      if (!sameBits(got, want)) throw new Error(`wasm ${got} ≠ js ${want}`);
      if (c.special || !got.every(Number.isFinite)) return;
      const ex = exactVector(a.x), out = exactVector(a.y);
      const { width, stride, colIndex } = a.A.structure;
      for (let i = 0; i < c.rows; i++) {
        let s = ZERO;
        for (let k = 0; k < width && colIndex[i + k * stride] !== ELL_PADDING; k++) s = addRational(s, mulRational(exactElement(a.V, i, k), ex[colIndex[i + k * stride]!]!));
        let exact = mulRational(exactOf(c.alpha), s);
        if (yIn) exact = addRational(exact, mulRational(exactOf(c.beta), yIn[i]!));
        if (!withinBound(out[i]!, exact, bound[i]!)) throw new Error(`y[${i}]: error ${errorOf(out[i]!, exact)} > bound ${bound[i]}`);
      }
    }), { numRuns });
  });

  it('blocks of rows past the staging size, every value storage of ellWithStorage (i8/i16/i32 scaled per row)', () => {
    const L = laplacianEll([24, 24, 24]);
    const random = seededRandom(7);
    const xs = Array.from({ length: L.cols }, () => random.nextDouble() * 2 - 1);
    for (const storage of [formats.f64, formats.f32, formats.f16, formats.bf16, formats.i8, formats.i16, formats.i32]) {
      const A = ellWithStorage(L, { storage });
      const x = vector(xs, F32), y = vector(L.rows, F32), y2 = vector(L.rows, F32);
      ellSpmv({ alpha: 0.1, A, x, beta: 0, y }, { ...F32, backend: 'wasm' });
      ellSpmv({ alpha: 0.1, A, x, beta: 0, y: y2 }, { ...F32, backend: 'js' });
      expect(sameBits(values(y), values(y2))).toBe(true);
    }
  });

  it('reads a double-double x through round-to-odd as the f32 arithmetic; runs double-double values through a twin for backend wasm', () => {
    const L = laplacianEll([2]);
    const x = range(rowMajor<1, any>({ size: [2], stride: 1, storage: formats.dd, arithmetic: formats.f32 }));
    (x.accessor.data as Float64Array).set([1 + 2 ** -24, 2 ** -60, -(1 + 2 ** -24), -(2 ** -60)]);
    const A = ellWithStorage(L, { storage: formats.f32 });
    const [y, y2] = [vector(2, F32), vector(2, F32)];
    ellSpmv({ alpha: 1, A, x, beta: 0, y }, { ...F32, backend: 'wasm' });
    ellSpmv({ alpha: 1, A, x, beta: 0, y: y2 }, { ...F32, backend: 'js' });
    expect(sameBits(values(y), values(y2))).toBe(true);
    expect(values(y)[0]).toBe(Math.fround(2 * (1 + 2 ** -23) + (1 + 2 ** -23)));
    // Double-double values run too, through a twin of the JavaScript's reads (wasm-ell.test.ts); the automatic choice keeps them in JavaScript.
    const run = (backend: 'wasm' | 'js'): number[] => { const out = vector(2, F32); ellSpmv({ alpha: 1, A: ellWithStorage(L, { storage: formats.dd }), x: vector([1, 2], F32), beta: 0, y: out }, { ...F32, backend }); return values(out); };
    expect(sameBits(run('wasm'), run('js'))).toBe(true);
  });
});
