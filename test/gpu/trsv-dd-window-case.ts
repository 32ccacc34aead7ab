/**
 * One case of the `ddTrsvWindow` tests (kernels/trsv/trsv-window-update-source.ts): a dd solve on the GPU through the
 * overlapped lane solve with the update terms in GEMV's window, every component of x within trsvBound (backend 'gpu',
 * the same block size) of the exact rational solution of the stored system (src/testing exactTriangularSolve).
 * Well conditioned: off-diagonal entries ≤ 1/n against pivots of 1/2 … 4; ill conditioned: off-diagonal entries up to 2
 * in magnitude (of six binades, both signs) against pivots ±1, ±2 — M(T)⁻¹ grows like 3^n, the sums cancel.
 */
import { expect } from 'vitest';
import { setTrsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { colMajor, formats, range, trsv, trsvBound, type Range } from '../../src/index.js';
import { exactTriangularSolve, type Rational } from '../../src/testing/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { exactSumOfProducts, expectWithin, makeMatrix, makeVector, seededPairs, seededValues, storedFactors, storedMatrixFactors, type Factor, type MatLayout } from './public-shapes-oracle.js';

/** A case: storage of A and x, size, variant, conditioning, layouts, block size, lanes W (near, solve) and F (far), seed. */
export interface WindowCase {
  readonly storage: 'dd' | 'f64';
  readonly n: number;
  readonly uplo: 'L' | 'U';
  readonly trans: 'N' | 'T';
  readonly diag: 'N' | 'U';
  readonly conditioning: 'well' | 'ill';
  readonly layout: MatLayout;
  readonly incX: number;
  readonly blockSize: 64 | 128 | 256;
  readonly W: number;
  readonly F: number;
  readonly seed: number;
}

const WELL_PIVOTS = [1, -1, 2, -2, 0.5, -0.5, 4];
const ILL_PIVOTS = [1, -1, 2, -2];

/** A double or a dd pair as an exact rational. */
const exactFactor = (f: Factor): Rational => exactSumOfProducts([[f]]);

/**
 * Solves the case with `ddTrsvWindow` on (the caller restores the switches) and holds x to the bound of the exact
 * solution; every bound finite.
 * @param c - the case
 */
export async function windowWithinBound(c: WindowCase): Promise<void> {
  await requireRuntime();
  const { n, uplo, trans, diag } = c;
  const storage = c.storage === 'dd' ? formats.dd : formats.f64;
  const inTriangle = (i: number, j: number): boolean => (uplo === 'L' ? i >= j : i <= j);
  const ill = c.conditioning === 'ill';
  // dd entries are genuine pairs (lo a few binades under hi's last bit), f64 entries doubles.
  const values: Factor[] = c.storage === 'dd' ? seededPairs(n * n, c.seed, 6) : Array.from(seededValues(n * n, c.seed, 6));
  const scale = ill ? 2 : 1 / n;
  const pivots = ill ? ILL_PIVOTS : WELL_PIVOTS;
  const fill = (i: number, j: number): Factor => {
    if (!inTriangle(i, j)) return NaN;
    if (i === j) return diag === 'U' ? NaN : pivots[(i * 7 + c.seed) % pivots.length]!;
    const v = values[i + j * n]!;
    return typeof v === 'number' ? v * scale : { hi: v.hi * scale, lo: v.lo * scale };
  };
  const A = makeMatrix(n, n, fill, storage, formats.dd, c.layout);
  const b: Factor[] = c.storage === 'dd' ? seededPairs(n, c.seed + 3, 4) : Array.from(seededValues(n, c.seed + 3, 4));
  const x = makeVector(b, storage, formats.dd, c.incX, 1);
  const [hA, hb] = [storedMatrixFactors(A), storedFactors(x.r)];
  setTrsvKernelSwitches({ ddLanes: true, ddOverlapLanes: c.W, ddOverlapFarLanes: c.F, ddTrsvWindow: true });
  const args = { A, x: x.r, uplo, trans, diag };
  const report = await trsv(args, { backend: 'gpu', arithmetic: formats.dd, strict: true, blockSize: c.blockSize });
  expect(report.backend).toBe('gpu');
  const bound = trsvBound(args, { backend: 'gpu', arithmetic: formats.dd, blockSize: c.blockSize });
  const got = storedFactors(x.r);
  const lower = (uplo === 'L') === (trans === 'N');
  const opA = (i: number, j: number): Rational => exactFactor(trans === 'N' ? hA[i + j * n]! : hA[j + i * n]!);
  const zero = exactFactor(0);
  const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => ((lower ? j <= i : j >= i) && !(i === j && diag === 'U') ? opA(i, j) : zero)));
  const exact = exactTriangularSolve(T, hb.map(exactFactor), lower, diag === 'U');
  const what = JSON.stringify(c);
  for (let i = 0; i < n; i++) {
    expect(Number.isFinite(bound[i]), `${what} bound ${i}`).toBe(true);
    expectWithin(`${what} x[${i}]`, got[i]!, exact[i]!, bound[i]!);
  }
}

/**
 * Element `index` of a dd or f64 range set to the double v (a dd pair with lo = 0).
 * @param r - the range
 * @param index - the element's linear index
 * @param v - the value
 */
export function setDouble(r: Range<any, any>, index: number, v: number): void {
  const a = r.accessor;
  a.storage.encode(a.data as never, index, (a.storage === formats.dd ? { hi: v, lo: 0 } : v) as never);
}

/**
 * Solves L N N (n = 150, 64-row blocks: the far update from block 0 reaches rows 128 …) with unit pivots and the
 * off-diagonal entries `entries` (row, column, value), b = `b` (index, value; others 0), with `ddTrsvWindow` as given
 * (64 near lanes, `far` far lanes); returns x's stored values as numbers (hi + lo).
 * @param storage - A's and x's storage
 * @param window - the switch
 * @param entries - off-diagonal entries
 * @param b - right-hand side entries
 * @param far - far lanes a row (16: columns 0, 16, 32, 48 in one lane)
 * @returns x
 */
export async function solveSparse(storage: 'dd' | 'f64', window: boolean, entries: readonly (readonly [number, number, number])[], b: readonly (readonly [number, number])[], far = 32): Promise<number[]> {
  await requireRuntime();
  const n = 150;
  const format = storage === 'dd' ? formats.dd : formats.f64;
  const A = range(colMajor<2>({ size: [n, n], storage: format as never, arithmetic: formats.dd as never }));
  const x = range(colMajor<1>({ size: [n], storage: format as never, arithmetic: formats.dd as never }));
  for (let i = 0; i < n; i++) setDouble(A, A.accessor.linearIndex([i, i]), 1);
  for (const [i, j, v] of entries) setDouble(A, A.accessor.linearIndex([i, j]), v);
  for (const [i, v] of b) setDouble(x, i, v);
  setTrsvKernelSwitches({ ddLanes: true, ddOverlapLanes: 64, ddOverlapFarLanes: far, ddTrsvWindow: window });
  const report = await trsv({ A, x, uplo: 'L', trans: 'N', diag: 'N' }, { backend: 'gpu', arithmetic: formats.dd, strict: true, blockSize: 64 });
  expect(report.backend).toBe('gpu');
  return storedFactors(x).map((v) => (typeof v === 'number' ? v : v.hi + v.lo));
}
