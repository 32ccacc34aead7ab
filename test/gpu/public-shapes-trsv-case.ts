/**
 * One TRSV case through the public API with `backend: 'gpu'`, checked against the exact solution (diagonals are
 * powers of two, so it is dyadic) within `trsvBound(args, { backend: 'gpu', … })`; the triangle the solve does not
 * reference, and the diagonal of a unit solve, hold NaN (BLAS: not referenced). Shared by the public-shapes TRSV tests.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { trsv, trsvBound } from '../../src/index.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { exactOf, exactTriangularSolve, type Rational } from '../../src/testing/index.js';
import {
  exactSumOfProducts, expectSpanKept, expectWithin, makeMatrix, makeVector, seededValues, storedFactors, storedMatrixFactors, type Factor, type MatLayout,
} from './public-shapes-oracle.js';

/** A double or a dd pair as an exact rational. */
const exactFactor = (f: Factor): Rational => exactSumOfProducts([[f]]);

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
export async function runTrsvCase(
  c: TrsvCase, storage: FormatLike, arithmetic: FormatLike | undefined, options: object = {}, xStorage: FormatLike = storage, xPad = 2,
): Promise<void> {
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
  const x = makeVector(seededValues(n, c.seed + 3), xStorage, arithmetic, c.incX, xPad);
  const [hA, hb] = [storedMatrixFactors(A), storedFactors(x.r)];
  const args = { A, x: x.r, uplo, trans, diag };
  const report = await trsv(args, { backend: 'gpu', strict: true, ...options });
  expect(report.backend).toBe('gpu');
  const bound = trsvBound(args, { backend: 'gpu', ...options });
  const got = storedFactors(x.r);
  const what = `${JSON.stringify(c)} ${JSON.stringify(options)}`;
  expectSpanKept(what, x);
  // op(A) by rows, as exact rationals (only the referenced triangle is read by the oracle too).
  const opA = (i: number, j: number) => exactFactor(trans === 'N' ? hA[i + j * n]! : hA[j + i * n]!);
  const lower = (uplo === 'L') === (trans === 'N');
  const T: Rational[][] = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => ((lower ? j <= i : j >= i) && !(i === j && diag === 'U') ? opA(i, j) : exactOf(0))));
  const exact = exactTriangularSolve(T, hb.map(exactFactor), lower, diag === 'U');
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

