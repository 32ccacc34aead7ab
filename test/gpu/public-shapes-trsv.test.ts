/**
 * TRSV through the public API with `backend: 'gpu'` and default options (f32 ranges: f32 arithmetic, 64-row blocks),
 * all 8 variants (uplo × trans × diag), n across the block size (1, 2, 63, 64, 65, 127, 129, 200), column-major
 * with lda > n, row-major and sub-range matrices, x strided with an offset among sentinels. The triangle the solve
 * does not reference — and the diagonal of a unit solve — holds NaN (BLAS: not referenced). Diagonals are powers of
 * two, so the exact solution is dyadic; x̂ is checked against it within `trsvBound(args, { backend: 'gpu' })`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, trsv, trsvBound } from '../../src/index.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { exactOf, exactTriangularSolve, type Rational } from '../../src/testing/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectSpanKept, expectWithin, makeMatrix, makeVector, seededValues, storedMatrix, storedVector, type MatLayout } from './public-shapes-oracle.js';

export interface TrsvCase {
  readonly n: number;
  readonly uplo: 'L' | 'U';
  readonly trans: 'N' | 'T';
  readonly diag: 'N' | 'U';
  readonly layout: MatLayout;
  readonly incX: number;
  readonly seed: number;
}

const DIAG = [1, -1, 2, -2, 0.5, -0.5, 4];

/**
 * Runs one solve and checks it. `storage`/`arithmetic` are the ranges' (undefined arithmetic: the storage's own),
 * `options` what trsv and trsvBound get besides `backend`.
 */
export async function runTrsvCase(c: TrsvCase, storage: FormatLike, arithmetic: FormatLike | undefined, options: object = {}): Promise<void> {
  const { n, uplo, trans, diag } = c;
  const r = seededValues(n * n + n, c.seed, 4);
  const inTriangle = (i: number, j: number) => (uplo === 'L' ? i >= j : i <= j);
  // Off-diagonal entries ≤ 1/n in magnitude against |diagonal| ≥ 1/2: well conditioned at every n.
  const fill = (i: number, j: number) => {
    if (!inTriangle(i, j)) return NaN;
    if (i === j) return diag === 'U' ? NaN : DIAG[(i * 7 + c.seed) % DIAG.length]!;
    return r[i + j * n]! / n;
  };
  const A = makeMatrix(n, n, fill, storage, arithmetic, c.layout);
  const x = makeVector(seededValues(n, c.seed + 3), storage, arithmetic, c.incX, 2);
  const [hA, hb] = [storedMatrix(A), storedVector(x.r)];
  const args = { A, x: x.r, uplo, trans, diag };
  const report = await trsv(args, { backend: 'gpu', strict: true, ...options });
  expect(report.backend).toBe('gpu');
  const bound = trsvBound(args, { backend: 'gpu', ...options });
  const got = storedVector(x.r);
  const what = `${JSON.stringify(c)} ${JSON.stringify(options)}`;
  expectSpanKept(what, x);
  // op(A) by rows, as exact rationals (only the referenced triangle is read by the oracle too).
  const opA = (i: number, j: number) => (trans === 'N' ? hA[i + j * n]! : hA[j + i * n]!);
  const lower = (uplo === 'L') === (trans === 'N');
  const T: Rational[][] = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => ((lower ? j <= i : j >= i) && !(i === j && diag === 'U') ? exactOf(opA(i, j)) : exactOf(0))));
  const exact = exactTriangularSolve(T, Array.from(hb, exactOf), lower, diag === 'U');
  for (let i = 0; i < n; i++) expectWithin(`${what} x[${i}]`, got[i]!, exact[i]!, bound[i]!);
}

export const trsvCases = (sizes: readonly number[]): fc.Arbitrary<TrsvCase> => fc.record({
  n: fc.constantFrom(...sizes),
  uplo: fc.constantFrom<'L' | 'U'>('L', 'U'),
  trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
  diag: fc.constantFrom<'N' | 'U'>('N', 'U'),
  layout: fc.constantFrom<MatLayout>('col', 'col-lda', 'row', 'sub-col', 'sub-row'),
  incX: fc.constantFrom(1, 1, 2, -1),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe('trsv, backend gpu, default options (f32): n across the 64-row blocks', () => {
  it('all 8 variants, every layout', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(trsvCases([1, 2, 63, 64, 65, 127, 129, 200]), (c) => runTrsvCase(c, formats.f32, undefined)), { numRuns: 30 });
  });

  it('each variant once at n = 129 (three blocks, the last one row)', async () => {
    await requireRuntime();
    for (const uplo of ['L', 'U'] as const) for (const trans of ['N', 'T'] as const) for (const diag of ['N', 'U'] as const) {
      await runTrsvCase({ n: 129, uplo, trans, diag, layout: 'col', incX: 1, seed: 11 }, formats.f32, undefined);
    }
  });
});
