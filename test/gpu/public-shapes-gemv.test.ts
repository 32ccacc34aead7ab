/**
 * GEMV through the public API with `backend: 'gpu'` and default options (f32 ranges: f32 arithmetic), over shapes
 * that cross the kernel's internal boundaries: m from 1 to ~3000 (several 64-thread workgroups of 4-row groups,
 * m not a multiple of 2, 4 or 8), n across the reduction chunks (m·S ≈ 2^18 threads), T's lanes per column, lda > m,
 * row-major and sub-range matrices, strided x and y with offsets among sentinels, α = 0, β = 0 with NaN in y, n = 0.
 * Every yᵢ is checked against the exact rational α·op(A)·x + β·y of the stored values within `gemvBound` (its own
 * a-priori bound, called before the run), and nothing outside y's view may change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, gemv, gemvBound } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import {
  expectSpanKept, expectWithin, exactSumOfProducts, makeMatrix, makeVector, seededValues, storedMatrix, storedVector, type MatLayout,
} from './public-shapes-oracle.js';

const f32 = formats.f32;

interface Case {
  readonly m: number;
  readonly n: number;
  readonly trans: 'N' | 'T';
  readonly layout: MatLayout;
  readonly alpha: number;
  readonly beta: number;
  readonly incX: number;
  readonly incY: number;
  readonly seed: number;
}

async function runCase(c: Case): Promise<void> {
  const { m, n, trans } = c;
  const [rows, inner] = trans === 'N' ? [m, n] : [n, m];
  const a = seededValues(m * n, c.seed);
  const A = makeMatrix(m, n, (i, j) => a[i + j * m]!, f32, undefined, c.layout);
  const x = makeVector(seededValues(inner, c.seed + 1), f32, undefined, c.incX, 2);
  // β = 0: y must not be read, so it holds NaN.
  const y0 = c.beta === 0 ? new Float64Array(rows).fill(NaN) : seededValues(rows, c.seed + 2);
  const y = makeVector(y0, f32, undefined, c.incY, 2);
  const args = { alpha: c.alpha, A, x: x.r, beta: c.beta, y: y.r, trans };
  const bound = gemvBound(args);
  const [hA, hx, hy] = [storedMatrix(A), storedVector(x.r), storedVector(y.r)];
  const report = await gemv(args, { backend: 'gpu', strict: true });
  expect(report.backend).toBe('gpu');
  const got = storedVector(y.r);
  const what = `${JSON.stringify(c)}`;
  expectSpanKept(what, y);
  const quick = n === 0 || m === 0 || (c.alpha === 0 && c.beta === 1);
  for (let i = 0; i < rows; i++) {
    if (quick) {
      // Empty product (or α = 0, β = 1): y untouched, as the reference BLAS.
      expect(Object.is(got[i], hy[i]), `${what} y[${i}] untouched`).toBe(true);
      continue;
    }
    const terms: number[][] = [];
    if (c.alpha !== 0) for (let k = 0; k < inner; k++) terms.push([c.alpha, trans === 'N' ? hA[i + k * m]! : hA[k + i * m]!, hx[k]!]);
    if (c.beta !== 0) terms.push([c.beta, hy[i]!]);
    expectWithin(`${what} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
  }
}

const M = [1, 3, 63, 65, 255, 257, 259, 1001, 2999];
const N = [0, 1, 2, 7, 9, 63, 65, 90, 131];

function cases(trans: 'N' | 'T'): fc.Arbitrary<Case> {
  return fc.record({
    m: fc.constantFrom(...M),
    n: fc.constantFrom(...N),
    trans: fc.constant(trans),
    layout: fc.constantFrom<MatLayout>('col', 'col-lda', 'row', 'sub-col', 'sub-row'),
    alpha: fc.constantFrom(1, -0.75, 0, 3),
    beta: fc.constantFrom(0, 0, 1, -0.5),
    incX: fc.constantFrom(1, 1, 2, -1, -3),
    incY: fc.constantFrom(1, 1, 2, -2),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
  });
}

describe('gemv, backend gpu, default options (f32): shapes across workgroups and chunks', () => {
  for (const trans of ['N', 'T'] as const) {
    it(`trans ${trans}`, async () => {
      await requireRuntime();
      await fc.assert(fc.asyncProperty(cases(trans), runCase), { numRuns: 60 });
    });
  }

  it('the largest shapes, every layout', async () => {
    await requireRuntime();
    for (const layout of ['col', 'col-lda', 'row', 'sub-col'] as const) {
      for (const trans of ['N', 'T'] as const) {
        await runCase({ m: 2999, n: 131, trans, layout, alpha: 1, beta: -0.5, incX: 1, incY: 1, seed: 7 + layout.length });
      }
    }
  });

  it('wide and tall extremes: a few rows over up to 2^18 + 3 columns (S ≈ n chunks), 2^18 + 3 rows over one or two columns', async () => {
    await requireRuntime();
    for (const [m, n] of [[1, 100003], [3, 262147], [262147, 1], [100003, 2]] as const) {
      for (const trans of ['N', 'T'] as const) {
        await runCase({ m, n, trans, layout: 'col', alpha: 1, beta: -0.5, incX: 1, incY: 1, seed: m + n });
      }
    }
  });
});
