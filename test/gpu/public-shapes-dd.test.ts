/**
 * The double-double arithmetic on the GPU through the public API (`backend: 'gpu'`, dd ranges: dd arithmetic by
 * default): GEMV N/T over m in the hundreds (several workgroups) and n across GEMV's 8-column windows, dd and f64
 * storage, every layout; DOT across its windows of 4 and its first pass's runs. Pairs with a non-zero lo, checked
 * against the exact rational result (hi + lo of every pair) within `gemvBound` / `dotBound`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dot, dotBound, formats, gemv, gemvBound } from '../../src/index.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { requireRuntime } from './gpu-test-helpers.js';
import {
  expectSpanKept, expectWithin, exactSumOfProducts, makeMatrix, makeVector, seededPairs, storedFactors, storedMatrixFactors, type Factor, type MatLayout,
} from './public-shapes-oracle.js';

const dd = formats.dd;

interface GemvCase {
  readonly m: number;
  readonly n: number;
  readonly trans: 'N' | 'T';
  readonly layout: MatLayout;
  readonly f64A: boolean;
  readonly alpha: number;
  readonly beta: number;
  readonly incX: number;
  readonly seed: number;
}

async function runGemv(c: GemvCase): Promise<void> {
  const { m, n, trans } = c;
  const [rows, inner] = trans === 'N' ? [m, n] : [n, m];
  const a = seededPairs(m * n, c.seed);
  const storageA: FormatLike = c.f64A ? formats.f64 : dd;
  const A = makeMatrix(m, n, (i, j) => a[i + j * m]!, storageA, dd, c.layout);
  const x = makeVector(seededPairs(inner, c.seed + 1), dd, dd, c.incX, 1);
  const y0: Factor[] = c.beta === 0 ? Array.from({ length: rows }, () => ({ hi: NaN, lo: 0 })) : seededPairs(rows, c.seed + 2);
  const y = makeVector(y0, dd, dd, -1, 1);
  const args = { alpha: c.alpha, A, x: x.r, beta: c.beta, y: y.r, trans };
  const bound = gemvBound(args);
  const [hA, hx, hy] = [storedMatrixFactors(A), storedFactors(x.r), storedFactors(y.r)];
  const report = await gemv(args, { backend: 'gpu', strict: true });
  expect(report.backend).toBe('gpu');
  const got = storedFactors(y.r);
  const what = JSON.stringify(c);
  expectSpanKept(what, y);
  for (let i = 0; i < rows; i++) {
    const terms: Factor[][] = [];
    if (c.alpha !== 0) for (let k = 0; k < inner; k++) terms.push([c.alpha, trans === 'N' ? hA[i + k * m]! : hA[k + i * m]!, hx[k]!]);
    if (c.beta !== 0) terms.push([c.beta, hy[i]!]);
    expectWithin(`${what} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
  }
}

describe('double-double on the GPU, default options (dd ranges: dd arithmetic)', () => {
  it('GEMV N and T: m in the hundreds, n across the 8-column windows, dd and f64 A', async () => {
    await requireRuntime();
    const cases = fc.record({
      m: fc.constantFrom(1, 65, 257, 601),
      n: fc.constantFrom(1, 7, 8, 9, 17, 70),
      trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
      layout: fc.constantFrom<MatLayout>('col', 'col-lda', 'row', 'sub-col'),
      f64A: fc.boolean(),
      alpha: fc.constantFrom(1, -0.75, 0),
      beta: fc.constantFrom(0, 1, 0.5),
      incX: fc.constantFrom(1, -2),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(fc.asyncProperty(cases, runGemv), { numRuns: 8 });
  });

  it('DOT: lengths across the windows of 4 and the first pass, strided views', async () => {
    await requireRuntime();
    const cases = fc.record({
      n: fc.constantFrom(0, 1, 3, 4, 5, 63, 65, 257, 1025, 4097),
      incX: fc.constantFrom(1, 2, -1),
      incY: fc.constantFrom(1, -3),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const x = makeVector(seededPairs(c.n, c.seed), dd, dd, c.incX, 1);
      const y = makeVector(seededPairs(c.n, c.seed + 1, 12), dd, dd, c.incY, 1);
      const [hx, hy] = [storedFactors(x.r), storedFactors(y.r)];
      const bound = dotBound(x.r, y.r);
      const r = await dot(x.r, y.r, { backend: 'gpu', strict: true });
      expect(r.backend).toBe('gpu');
      expectWithin(`dot ${JSON.stringify(c)}`, r.value, exactSumOfProducts(hx.map((v, i) => [v, hy[i]!])), bound);
    }), { numRuns: 8 });
  });
});
