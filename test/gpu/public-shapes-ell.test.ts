/**
 * ELL SpMV through the public API with `backend: 'gpu'`: rows from 1 to ~1000 (many 64-thread workgroups), stride
 * > rows, empty rows, rows of every length up to the width, padding slots and the rows past `rows` holding NaN (never
 * read), values stored in f32/f16/bf16/f64 (default f32 arithmetic for f32 ranges; f32 and float-float otherwise), x
 * and y strided views among sentinels, α = 0, β = 0 with NaN in y. Every yᵢ against the exact rational result within
 * `ellSpmvBound` (called before the run); nothing outside y's view changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colMajor, ELL_PADDING, ellOperand, ellSpmv, ellSpmvBound, ellStructure, formats, range } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectSpanKept, expectWithin, exactSumOfProducts, makeVector, seededValues, storedVector } from './public-shapes-oracle.js';

interface Case {
  readonly rows: number;
  readonly cols: number;
  readonly width: number;
  readonly pad: number;
  readonly alpha: number;
  readonly beta: number;
  readonly incX: number;
  readonly incY: number;
  readonly seed: number;
}

async function runCase(c: Case, storage: FormatLike, vecStorage: FormatLike, arithmetic: FormatLike | undefined): Promise<void> {
  const { rows, cols, width } = c;
  const stride = rows + c.pad;
  const rnd = seededValues(stride * width * 2 + rows, c.seed, 5);
  const colIndex = new Int32Array(stride * width).fill(ELL_PADDING);
  // Row lengths 0 … width (every third row empty); distinct columns are not required.
  for (let i = 0; i < rows; i++) {
    const len = i % 3 === 1 ? 0 : Math.floor(Math.abs(rnd[stride * width + i]!) * (width + 1)) % (width + 1);
    for (let k = 0; k < len; k++) colIndex[i + k * stride] = Math.floor(Math.abs(rnd[i + k * stride]!) * 1e6) % cols;
  }
  const S = ellStructure({ rows, cols, width, stride, colIndex });
  const ar = arithmetic ? { arithmetic } : {};
  const values = range(colMajor<2>({ size: [stride, width], stride, storage, ...ar } as never)) as Range<2, any>;
  for (let k = 0; k < width; k++) {
    for (let i = 0; i < stride; i++) values.set(i, k, colIndex[i + k * stride]! === ELL_PADDING ? NaN : rnd[stride * width + i + k * stride]!);
  }
  const A = ellOperand(S, values);
  const x = makeVector(seededValues(cols, c.seed + 1), vecStorage, arithmetic, c.incX, 1);
  const y0 = c.beta === 0 ? new Float64Array(rows).fill(NaN) : seededValues(rows, c.seed + 2);
  const y = makeVector(y0, vecStorage, arithmetic, c.incY, 1);
  const args = { alpha: c.alpha, A, x: x.r, beta: c.beta, y: y.r };
  const bound = ellSpmvBound(args, ar);
  const [hx, hy] = [storedVector(x.r), storedVector(y.r)];
  const vget = (i: number, k: number) => values.accessor.arithmetic.toNumber(values.get(i, k));
  const report = await ellSpmv(args, { backend: 'gpu', strict: true, ...ar });
  expect(report.backend).toBe('gpu');
  const got = storedVector(y.r);
  const what = JSON.stringify(c);
  expectSpanKept(what, y);
  for (let i = 0; i < rows; i++) {
    if (c.alpha === 0 && c.beta === 1) {
      expect(Object.is(got[i], hy[i]), `${what} y[${i}] untouched`).toBe(true);
      continue;
    }
    const terms: number[][] = [];
    if (c.alpha !== 0) {
      for (let k = 0; k < width; k++) {
        const col = colIndex[i + k * stride]!;
        if (col !== ELL_PADDING) terms.push([c.alpha, vget(i, k), hx[col]!]);
      }
    }
    if (c.beta !== 0) terms.push([c.beta, hy[i]!]);
    expectWithin(`${what} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
  }
}

const cases = fc.record({
  rows: fc.constantFrom(1, 2, 63, 64, 65, 257, 1000),
  cols: fc.constantFrom(1, 5, 64, 300),
  width: fc.constantFrom(1, 2, 3, 7),
  pad: fc.constantFrom(0, 1, 5),
  alpha: fc.constantFrom(1, -0.5, 0, 3),
  beta: fc.constantFrom(0, 0, 1, 0.25),
  incX: fc.constantFrom(1, 1, 2, -1),
  incY: fc.constantFrom(1, 1, -2, 3),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe('ellSpmv, backend gpu: many rows, empty rows, padded slots', () => {
  it('default options (f32 ranges: f32 arithmetic)', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(cases, (c) => runCase(c, formats.f32, formats.f32, undefined)), { numRuns: 40 });
  });

  it('values f16/bf16/f64, vectors f32/f16/f64, f32 and float-float', async () => {
    await requireRuntime();
    const store = fc.constantFrom(formats.f16, formats.bf16, formats.f64, formats.f32);
    const vec = fc.constantFrom(formats.f32, formats.f16, formats.f64);
    await fc.assert(fc.asyncProperty(cases, store, vec, fc.constantFrom(formats.f32, formats.ff), (c, s, v, a) => runCase(c, s, v, a)), { numRuns: 30 });
  });
});
