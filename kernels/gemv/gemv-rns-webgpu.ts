/**
 * GEMV on device RNS arrays, y := α·op(A)·x + β·y, after seed 000's Algorithm 1: d = α·x rounded first (SCAL),
 * then each y_i is one exact sum of the products a_ij·d_j and β·y_i on its grid, rounded once
 * (src/formats/rns/gpu/grid.ts). Per row |ŷ_i − y_i| ≤ 2^-p(3 + O(2^-p))·(Σ_j|α·a_ij·x_j| + |β·y_i|) ≤
 * γ_{N+2}(…), the CPU's bound (seed 000 eqs. 16–18; `gemvBound`). A is column-major with leading dimension lda.
 *
 * @module
 */
import { fail } from '../../src/core/errors.js';
import { checkArgumentsObject } from '../../src/backends/webgpu/kernel-common.js';
import { encodeValues, type RnsDeviceArray } from '../../src/formats/rns/gpu/rns-device-array.js';
import { checkOperands, coefficient, deviceTable, runStages, sharedScalars, type RnsCoefficient, type RoundedStage } from '../../src/formats/rns/gpu/rns-device-kernel.js';
import { rowSumPasses, rowSumPrograms } from '../../src/formats/rns/gpu/row-sum-webgpu.js';
import { scaledVectorStage } from '../../src/formats/rns/gpu/update-rns-webgpu.js';

/**
 * Arguments of {@link rnsGpuGemv}.
 * @group GPU
 */
export interface RnsGpuGemvArgs {
  /** The matrix, column-major: element (i, j) at i + j·lda. */
  readonly A: RnsDeviceArray;
  /** Rows of A. */
  readonly m: number;
  /** Columns of A. */
  readonly n: number;
  /** Leading dimension (default m). */
  readonly lda?: number;
  /** `'N'` (default) or `'T'`: y := α·Aᵀ·x + β·y. */
  readonly trans?: 'N' | 'T';
  readonly x: RnsDeviceArray;
  readonly y: RnsDeviceArray;
  /** Default 1. */
  readonly alpha?: RnsCoefficient;
  /** Default 0 (y is then not read). */
  readonly beta?: RnsCoefficient;
}

/**
 * y := α·op(A)·x + β·y on device RNS arrays, each y_i rounded once.
 * @param args - operands and coefficients
 * @returns when the device has finished
 * @throws {@link modprec!ModprecError} before anything is written: `INVALID_VALUE` (α, β non-finite),
 *   `INVALID_SIZE` (m, n), `INVALID_STRIDE` (lda), `INVALID_STORAGE` (A too short for them),
 *   `DIMENSION_MISMATCH` (x's or y's length), `INVALID_OPTION` (trans), `INVALID_FORMAT`
 * @example
 * ```ts
 * import { rnsDeviceSet, rnsToDevice, rnsGpuGemv } from 'modprec/gpu';
 *
 * const set = rnsDeviceSet(106);
 * const A = await rnsToDevice([1, 3, 2, 4], set);     // [[1, 2], [3, 4]] column-major
 * const x = await rnsToDevice([1, 1], set), y = await rnsToDevice([0, 0], set);
 * await rnsGpuGemv({ A, m: 2, n: 2, x, y });
 * (await y.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp); // → [ 3, 7 ]
 * ```
 * @group GPU
 */
export async function rnsGpuGemv(args: RnsGpuGemvArgs): Promise<void> {
  checkArgumentsObject(args, '{ A, x, y, m, n, alpha, beta, trans }');
  const { A, x, y, m, n } = args;
  const alpha = coefficient('alpha', args.alpha ?? 1), beta = coefficient('beta', args.beta ?? 0);
  const trans = args.trans ?? 'N';
  if (trans !== 'N' && trans !== 'T') fail('INVALID_OPTION', 'trans', "must be 'N' or 'T'", trans);
  const { runtime, set } = checkOperands({ A, x, y });
  if (!Number.isSafeInteger(m) || m < 0) fail('INVALID_SIZE', 'm', 'must be a non-negative integer', m);
  if (!Number.isSafeInteger(n) || n < 0) fail('INVALID_SIZE', 'n', 'must be a non-negative integer', n);
  const lda = args.lda ?? Math.max(1, m);
  if (!Number.isSafeInteger(lda) || lda < Math.max(1, m)) fail('INVALID_STRIDE', 'lda', `must be an integer ≥ max(1, m) = ${Math.max(1, m)}`, lda);
  if (m > 0 && n > 0 && A.length < lda * (n - 1) + m) fail('INVALID_STORAGE', 'A', `must hold lda·(n − 1) + m = ${lda * (n - 1) + m} elements`, A.length);
  const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
  if (x.length !== cols) fail('DIMENSION_MISMATCH', 'x', `must have ${cols} elements`, x.length);
  if (y.length !== rows) fail('DIMENSION_MISMATCH', 'y', `must have ${rows} elements`, y.length);
  if (rows === 0) return;
  const alphaZero = alpha.X === 0n, betaZero = beta.X === 0n;
  if ((alphaZero || cols === 0) && beta.X === 1n && beta.exp === 0 && beta.sign === 0) return; // y unchanged
  // d = α·x (rounded once per element; a stage of the same submit), unless α = 1.
  const one = alpha.X === 1n && alpha.exp === 0 && alpha.sign === 0;
  const betaWords = encodeValues(set, [beta]);
  const stages: RoundedStage[] = [];
  let d = (): RnsDeviceArray => x;
  if (!one && cols > 0) {
    const scaled = await scaledVectorStage(runtime, set, alpha, x, 'gemv');
    stages.push(scaled.stage);
    d = scaled.d;
  }
  const programs = await rowSumPrograms(runtime, set, { beta: !betaZero, p: 'rns', gather: false });
  const table = deviceTable(runtime, set);
  const shape = trans === 'N'
    ? { R: rows, N: cols, rs: 1, cs: lda, LP: A.length, LQ: cols, LY: y.length, beta: !betaZero }
    : { R: rows, N: cols, rs: lda, cs: 1, LP: A.length, LQ: cols, LY: y.length, beta: !betaZero };
  stages.push({ before: (acc) => rowSumPasses(runtime, set, programs, shape, A.live('A'), d().live('x'), sharedScalars(runtime, betaWords, 'gemv: β'), y.live('y'), table, acc), count: rows, out: () => y.live('y') });
  await runStages(runtime, set, stages, []);
}
