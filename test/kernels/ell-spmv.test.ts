import { describe, it, expect } from 'vitest';
import { matricesFolder } from '../matrix-fixtures.js';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { range, type Range } from '../../src/core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import { formats } from '../../src/formats/index.js';
import { ModprecError } from '../../src/core/errors.js';
import { ELL_PADDING, type EllMatrix } from '../../src/sparse/ell-matrix.js';
import { csrToEll } from '../../src/sparse/csr-to-ell.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import { randomBandedCsr } from '../../src/sparse/random-banded.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import type { CsrMatrix } from '../../src/sparse/csr-matrix.js';
import { readMatrixMarketCsr } from '../../src/io/matrix-market-csr.js';
import { ellSpmv } from '../../kernels/ell-spmv/ell-spmv.js';
import { ellSpmvBound } from '../../kernels/ell-spmv/ell-spmv-bound.js';
import { EllOperand, ellOperand, ellFromMatrix, ellWithStorage } from '../../kernels/ell-spmv/ell-operand.js';
import { exactOf } from '../../src/testing/exact.js';
import { type Rational, addRational, mulRational, ZERO } from '../../src/testing/rational.js';
import {
  buildMatrix, buildVector, changedOutside, exactElement, exactVector, errorOf, matrixSpec, positionsOf, snapshot,
  value, vectorSpec, vectorValues, withinBound, type ArithmeticName,
} from './matrix-kernel-fixtures.js';
import type { KernelOptions } from '../../kernels/shared/kernel-options.js';
import '../../src/formats/dd/register.js';

/** Exact α·A·x + β·y of the represented values (A's values read only at non-padding slots). */
function exactSpmv(A: EllOperand, x: Rational[], alpha: number, beta: number, y: Rational[] | null): Rational[] {
  const { rows, width, stride, colIndex } = A.structure;
  return Array.from({ length: rows }, (_, i) => {
    let s = ZERO;
    for (let k = 0; k < width; k++) {
      const col = colIndex[i + k * stride]!;
      if (col === ELL_PADDING) break;
      s = addRational(s, mulRational(exactElement(A.values, i, k), x[col]!));
    }
    let r = mulRational(exactOf(alpha), s);
    if (beta !== 0) r = addRational(r, mulRational(exactOf(beta), y![i]!));
    return r;
  });
}

/** Checks every output against its bound; returns the largest error/bound ratio seen. */
function expectWithinBound(out: Rational[], exact: Rational[], bound: Float64Array): number {
  let worst = 0;
  for (let i = 0; i < out.length; i++) {
    if (!withinBound(out[i]!, exact[i]!, bound[i]!)) throw new Error(`y[${i}]: error ${errorOf(out[i]!, exact[i]!)} > bound ${bound[i]}`);
    if (bound[i]! > 0) worst = Math.max(worst, errorOf(out[i]!, exact[i]!) / bound[i]!);
  }
  return worst;
}

const coefficient = fc.oneof(fc.constantFrom(0, 1, -1, 0.5, 0.1), value);

const ellCase = fc.record({
  rows: fc.integer({ min: 0, max: 6 }),
  cols: fc.integer({ min: 0, max: 6 }),
  extraStride: fc.integer({ min: 0, max: 2 }),
  extraWidth: fc.integer({ min: 0, max: 2 }),
  valuesRows: fc.constantFrom<'rows' | 'stride'>('rows', 'stride'),
  V: matrixSpec,
  x: vectorSpec,
  y: vectorSpec,
  alpha: coefficient,
  beta: coefficient,
  arithmetic: fc.constantFrom<ArithmeticName>('f64', 'f32'),
  seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

type EllCase = typeof ellCase extends fc.Arbitrary<infer C> ? C : never;

/** Builds one random ELL case, runs it, and checks it against the exact result within ellSpmvBound. */
function checkCase(c: EllCase, options: KernelOptions): void {
  const random = seededRandom(c.seed);
  const v = (): number => (random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 6);
  const stride = c.rows + c.extraStride;
  const lengths = Array.from({ length: c.rows }, () => (c.cols === 0 ? 0 : random.nextUint32() % (c.cols + 1)));
  const width = Math.max(0, ...lengths) + c.extraWidth;
  const colIndex = new Int32Array(stride * width).fill(ELL_PADDING);
  for (let i = 0; i < c.rows; i++) for (let k = 0; k < lengths[i]!; k++) colIndex[i + k * stride] = random.nextUint32() % c.cols;
  // Padding slots hold a sentinel (NaN where the storage can): they must never be read.
  const sentinel = c.V.storage === 'i16s' ? 7 : NaN;
  const valueRows = c.valuesRows === 'rows' ? c.rows : stride;
  const V = buildMatrix(c.V, valueRows, width, (i, k) => (i < c.rows && colIndex[i + k * stride] !== ELL_PADDING ? v() : sentinel));
  const A = ellOperand({ rows: c.rows, cols: c.cols, width, stride, colIndex }, V);
  const x = buildVector(c.x, Float64Array.from({ length: c.cols }, v));
  const yNaN = c.beta === 0 && c.y.storage !== 'i16s';
  const y = buildVector(c.y, Float64Array.from({ length: c.rows }, () => (yNaN ? NaN : v())), 'f64', Math.abs(c.alpha) * c.cols + Math.abs(c.beta) + 1);
  const before = { V: snapshot(V), x: snapshot(x), y: snapshot(y) };
  const yIn = yNaN ? null : exactVector(y);
  const args = { alpha: c.alpha, A, x, beta: c.beta, y };
  const bound = ellSpmvBound(args, options);
  ellSpmv(args, options);
  expect(changedOutside(V, before.V)).toEqual([]);
  expect(changedOutside(x, before.x)).toEqual([]);
  expect(changedOutside(y, before.y, positionsOf(y))).toEqual([]);
  if (c.rows === 0 || (c.alpha === 0 && c.beta === 1)) {
    expect(changedOutside(y, before.y)).toEqual([]);
    return;
  }
  expectWithinBound(exactVector(y), exactSpmv(A, exactVector(x), c.alpha, c.beta, yIn), bound);
}

describe('ellSpmv against the exact result of the stored values', () => {
  it('stays within ellSpmvBound for random structures, every storage and layout of the values, strides and α/β', () => {
    fc.assert(fc.property(ellCase, (c) => checkCase(c, { arithmetic: c.arithmetic })), { numRuns: 400 });
  });

  it('stays within ellSpmvBound with the accumulation plugins and double-double arithmetic', () => {
    const pair = fc.constantFrom(['f64', 'pairwise'], ['f64', 'kahan'], ['f64', 'dot2'], ['f64', 'dd'], ['f32', 'dot2'], ['dd', 'recursive'], ['dd', 'dd']);
    fc.assert(fc.property(ellCase, pair, (c, [arithmetic, accumulation]) => checkCase(c, { arithmetic, accumulation })), { numRuns: 150 });
  });
});

const MATRICES = ['bcsstk01', 'arc130', 'west0479', 'gr_30_30'];
const readCsr = (name: string): CsrMatrix => readMatrixMarketCsr(readFileSync(`${matricesFolder}/${name}.mtx`, 'utf8'));

/** The reference loop: row by row over the CSR arrays in fp64, in the same order as the ELL slots. */
function referenceSpmv(A: CsrMatrix, x: Float64Array): Float64Array {
  const y = new Float64Array(A.rows);
  for (let i = 0; i < A.rows; i++) {
    let s = 0;
    for (let t = A.rowPtr[i]!; t < A.rowPtr[i + 1]!; t++) s = A.values[t]! * x[A.colIndex[t]!]! + s;
    y[i] = s;
  }
  return y;
}

describe('ellSpmv on SuiteSparse matrices and generated ones', () => {
  const cases: [string, () => EllMatrix][] = [
    ...MATRICES.map((name): [string, () => EllMatrix] => [name, () => csrToEll(readCsr(name), { strideMultiple: 32 })]),
    ['2-D Laplacian 20×20', () => laplacianEll([20, 20])],
    ['random banded', () => csrToEll(randomBandedCsr({ rows: 300, cols: 250, lowerBandwidth: 4, upperBandwidth: 9, density: 0.6, seed: 5 }), { strideMultiple: 8 })],
  ];
  for (const [name, make] of cases) {
    it(`${name}: every storage × arithmetic within the bound; fp64 equals the reference loop bit for bit`, () => {
      const E = make();
      const random = seededRandom(name.length);
      const xs = Float64Array.from({ length: E.cols }, () => random.nextDouble() * 2 - 1);
      const maxAbs = E.values.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      // fp64 through a plain EllMatrix and through the operand: the same bits as the reference loop.
      const y64 = range(rowMajor<1>({ size: [E.rows] }));
      ellSpmv({ alpha: 1, A: E, x: range(rowMajor<1>({ size: [E.cols], data: xs })), beta: 0, y: y64 });
      if (name !== '2-D Laplacian 20×20' && name !== 'random banded') {
        expect(Float64Array.from(vectorValues(y64))).toEqual(referenceSpmv(readCsr(name), xs));
      }
      for (const storage of ['f64', 'f32', 'f16', 'bf16', 'i16'] as const) {
        if (storage === 'f16' && maxAbs >= 65504) continue; // would overflow to Inf
        for (const arithmetic of ['f64', 'f32'] as const) {
          const A = ellWithStorage(E, { storage, arithmetic });
          const x = range(rowMajor<1>({ size: [E.cols], storage: formats.f32, arithmetic: formats.f64, data: Float32Array.from(xs) }));
          const y = range(rowMajor<1>({ size: [E.rows], storage: formats.f32, arithmetic: formats.f64 }));
          for (let i = 0; i < E.rows; i++) y.set(i, Math.cos(i));
          const yIn = exactVector(y);
          const args = { alpha: -0.75, A, x, beta: 0.5, y };
          const bound = ellSpmvBound(args, { arithmetic });
          ellSpmv(args, { arithmetic });
          expectWithinBound(exactVector(y), exactSpmv(A, exactVector(x), -0.75, 0.5, yIn), bound);
        }
      }
    });
  }
});

const tiny = (): EllMatrix => ({
  // [[2, 0, 1], [0, 3, 0]] with one padding slot, stride 2
  rows: 2, cols: 3, width: 2, stride: 2, colIndex: Int32Array.of(0, 1, 2, ELL_PADDING), values: Float64Array.of(2, 3, 1, 0),
});
const vec = (values: number[]): Range<1> => {
  const r = range(rowMajor<1>({ size: [values.length] }));
  values.forEach((v, i) => r.set(i, v));
  return r;
};
const read = (r: Range<1>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i));

describe('ellSpmv BLAS semantics', () => {
  it('computes αAx + βy, skipping padding', () => {
    const y = vec([1, 1]);
    ellSpmv({ alpha: 2, A: tiny(), x: vec([1, 2, 3]), beta: -1, y });
    expect(read(y)).toEqual([2 * 5 - 1, 2 * 6 - 1]);
  });
  it('β = 0 does not read y; α = 0 reads neither A nor x; α = 0, β = 1 returns at once', () => {
    const y = vec([NaN, Infinity]);
    ellSpmv({ alpha: 1, A: tiny(), x: vec([1, 2, 3]), beta: 0, y });
    expect(read(y)).toEqual([5, 6]);
    const z = vec([1, 2]);
    ellSpmv({ alpha: 0, A: tiny(), x: vec([NaN, NaN, NaN]), beta: 3, y: z });
    expect(read(z)).toEqual([3, 6]);
    const w = vec([NaN, 2]);
    ellSpmv({ alpha: 0, A: tiny(), x: vec([1, 2, 3]), beta: 1, y: w });
    expect(read(w)).toEqual([NaN, 2]);
  });
  it('no rows returns at once; no slots gives y := β·y', () => {
    const empty = { rows: 0, cols: 3, width: 2, stride: 0, colIndex: new Int32Array(0), values: new Float64Array(0) };
    const e = vec([]);
    ellSpmv({ alpha: 1, A: empty, x: vec([1, 2, 3]), beta: 0, y: e });
    expect(e.length()).toBe(0);
    const noSlots = { rows: 2, cols: 3, width: 0, stride: 2, colIndex: new Int32Array(0), values: new Float64Array(0) };
    const y = vec([1, 2]);
    ellSpmv({ alpha: 1, A: noSlots, x: vec([1, 2, 3]), beta: 2, y });
    expect(read(y)).toEqual([2, 4]);
  });
  it('reads values through any accessor: ellFromMatrix shares them, ellWithStorage rounds them', () => {
    const E = tiny();
    const shared = ellFromMatrix(E);
    E.values[0] = 4;
    const y = vec([0, 0]);
    ellSpmv({ alpha: 1, A: shared, x: vec([1, 0, 0]), beta: 0, y });
    expect(read(y)).toEqual([4, 0]);
    const rounded = ellWithStorage({ ...tiny(), values: Float64Array.of(0.1, 3, 1, 0) }, { storage: formats.f16, arithmetic: formats.f32 });
    ellSpmv({ alpha: 1, A: rounded, x: vec([1, 0, 0]), beta: 0, y });
    expect(y.get(0)).toBe(formats.f16.storage!.decode(Uint16Array.of(0x2e66), 0)); // 0.1 in fp16
  });
});

describe('ellSpmv bad input: a typed error naming the parameter, nothing written', () => {
  const expectError = (f: () => unknown, code: string, parameter: string): void => {
    let caught: unknown;
    try { f(); } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(ModprecError);
    expect((caught as ModprecError).code).toBe(code);
    expect((caught as ModprecError).parameter).toBe(parameter);
  };
  it('column index outside the matrix, in a plain matrix and when building an operand', () => {
    const bad = { ...tiny(), colIndex: Int32Array.of(0, 3, 2, ELL_PADDING) };
    const y = vec([7, 8]);
    expectError(() => ellSpmv({ alpha: 1, A: bad, x: vec([1, 2, 3]), beta: 0, y }), 'INDEX_OUT_OF_RANGE', 'colIndex[1]');
    expect(read(y)).toEqual([7, 8]);
    const values = range(colMajor<2>({ size: [2, 2] }));
    expectError(() => ellOperand(bad, values), 'INDEX_OUT_OF_RANGE', 'colIndex[1]');
    expectError(() => ellOperand({ ...bad, colIndex: Int32Array.of(0, -2, 2, ELL_PADDING) }, values), 'INDEX_OUT_OF_RANGE', 'colIndex[1]');
  });
  it('mismatched lengths, read-only y, values of the wrong shape, a hand-made operand', () => {
    const y = vec([7, 8]);
    expectError(() => ellSpmv({ alpha: 1, A: tiny(), x: vec([1, 2]), beta: 0, y }), 'DIMENSION_MISMATCH', 'x');
    expectError(() => ellSpmv({ alpha: 1, A: tiny(), x: vec([1, 2, 3]), beta: 0, y: vec([1, 2, 3]) }), 'DIMENSION_MISMATCH', 'y');
    expectError(() => ellSpmv({ alpha: 1, A: tiny(), x: vec([1, 2, 3]), beta: 0, y: y.toConst() }), 'INVALID_STORAGE', 'y');
    expectError(() => ellSpmv({ alpha: NaN as unknown as number, A: tiny(), x: vec([1, 2, 3]), beta: 'x' as unknown as number, y }), 'INVALID_VALUE', 'beta');
    expectError(() => ellSpmv({ alpha: 1, A: null as unknown as EllMatrix, x: vec([1, 2, 3]), beta: 0, y }), 'INVALID_OPTION', 'A');
    expectError(() => ellOperand(tiny(), range(colMajor<2>({ size: [2, 3] }))), 'DIMENSION_MISMATCH', 'values');
    expectError(() => new EllOperand(Symbol('forged') as never, tiny(), range(colMajor<2>({ size: [2, 2] }))), 'INVALID_OPTION', 'EllOperand');
    expect(read(y)).toEqual([7, 8]);
  });
});
