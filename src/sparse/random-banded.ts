/**
 * Random banded sparse matrices with a seed, for tests and benchmarks.
 * @module
 */
import { checkFinite, fail } from '../core/errors.js';
import type { CsrMatrix } from './csr-matrix.js';
import { booleanOption, checkDimension, checkOptions } from './sparse-checks.js';
import { seededRandom } from './seeded-random.js';

/**
 * Parameters of {@link randomBandedCsr}.
 * @group Sparse & IO
 */
export interface RandomBandedOptions {
  /** Number of rows. */
  readonly rows: number;
  /** Number of columns (default `rows`). */
  readonly cols?: number;
  /** Entries may lie this many diagonals below the main one (`i − j ≤ lowerBandwidth`). */
  readonly lowerBandwidth: number;
  /** Entries may lie this many diagonals above the main one (`j − i ≤ upperBandwidth`). */
  readonly upperBandwidth: number;
  /** Probability that a position inside the band holds an entry, in `[0, 1]` (default 1: full band). */
  readonly density?: number;
  /** Seed: the same options always give the same matrix. */
  readonly seed: number;
  /**
   * Make the matrix strictly diagonally dominant by rows: every diagonal position inside the matrix is
   * stored with value `1 + Σ|off-diagonal entries of the row|` (so the matrix is nonsingular and Jacobi
   * and BiCGStab converge well). Default `false`.
   */
  readonly diagonallyDominant?: boolean;
}

/**
 * Generates a random banded matrix in canonical CSR. Off-diagonal values (and the diagonal unless
 * `diagonallyDominant`) are uniform in `[−1, 1)`.
 *
 * @param options - see {@link RandomBandedOptions}
 * @returns a new CSR matrix with columns increasing in each row
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options` when it is not an object,
 *   `options.diagonallyDominant` when it is given and not a boolean; `INVALID_SIZE` for bad sizes or bandwidths;
 *   `INVALID_VALUE` for a density outside `[0, 1]` or a seed that is not a safe integer (naming `options.seed`)
 * @example
 * ```ts
 * import { randomBandedCsr } from 'modprec';
 *
 * const A = randomBandedCsr({ rows: 1000, lowerBandwidth: 3, upperBandwidth: 5, density: 0.5, seed: 7,
 *                             diagonallyDominant: true });
 * ```
 * @group Sparse & IO
 */
export function randomBandedCsr(options: RandomBandedOptions): CsrMatrix {
  // Required (it holds the sizes), so undefined is refused too.
  if (options === undefined) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const o = checkOptions(options);
  const rows = checkDimension('options.rows', o.rows);
  const cols = o.cols === undefined ? rows : checkDimension('options.cols', o.cols);
  const lower = checkDimension('options.lowerBandwidth', o.lowerBandwidth);
  const upper = checkDimension('options.upperBandwidth', o.upperBandwidth);
  const density = o.density === undefined ? 1 : checkFinite('options.density', o.density);
  if (density < 0 || density > 1) fail('INVALID_VALUE', 'options.density', 'must lie in [0, 1]', density);
  const dominant = booleanOption('options.diagonallyDominant', o.diagonallyDominant, false);
  if (!Number.isSafeInteger(o.seed)) fail('INVALID_VALUE', 'options.seed', 'must be a safe integer', o.seed);
  const random = seededRandom(o.seed as number);

  const rowPtr = new Int32Array(rows + 1);
  const colList: number[] = [];
  const valueList: number[] = [];
  for (let i = 0; i < rows; i++) {
    const first = Math.max(0, i - lower);
    const last = Math.min(cols - 1, i + upper);
    let diagonalAt = -1;
    let offSum = 0;
    for (let j = first; j <= last; j++) {
      const forced = dominant && j === i;
      if (!forced && random.nextDouble() >= density) continue;
      const value = 2 * random.nextDouble() - 1;
      if (j === i) diagonalAt = colList.length;
      else offSum += Math.abs(value);
      colList.push(j);
      valueList.push(value);
    }
    if (dominant && diagonalAt >= 0) valueList[diagonalAt] = 1 + offSum;
    rowPtr[i + 1] = colList.length;
  }
  return { rows, cols, rowPtr, colIndex: Int32Array.from(colList), values: Float64Array.from(valueList) };
}
