/**
 * Random banded sparse matrices with a seed, for tests and benchmarks.
 * @module
 */
import { checkFinite, fail } from '../core/errors.js';
import type { CsrMatrix } from './csr-matrix.js';
import { allocateFloat64, allocateInt32, booleanOption, checkDimension, checkOptions, MAX_SPARSE_INDEX } from './sparse-checks.js';
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
 *   `INVALID_VALUE` for a density outside `[0, 1]` or a seed that is not a safe integer (naming `options.seed`);
 *   `INVALID_SIZE` naming `options` when the matrix would hold more than 2^31 − 1 entries (known before any is drawn
 *   when density × the band's positions, the expected count, exceeds it; otherwise when the draws reach it) or its
 *   arrays cannot be allocated
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
  const positions = bandPositions(rows, cols, lower, upper);
  // Every position of a full band is an entry: refused at once rather than after billions of draws.
  if (density === 1 && positions > MAX_SPARSE_INDEX) {
    fail('INVALID_SIZE', 'options', `(${rows} x ${cols}, bandwidths ${lower} and ${upper}) has ${positions} band positions, all entries at density 1: more than 2^31 - 1`);
  }
  // Below density 1 the count is drawn, but an expected count past the limit would only fail after as many draws
  // (1e15 positions at density 0.01 ran for days): refused at once too.
  if (density * positions > MAX_SPARSE_INDEX) {
    fail('INVALID_SIZE', 'options', `(${rows} x ${cols}, bandwidths ${lower} and ${upper}) expects ${density} x ${positions} band positions = ${density * positions} entries: more than 2^31 - 1`);
  }
  const random = seededRandom(o.seed as number);

  // Typed arrays grown by doubling: JavaScript arrays of ~1.7e8 numbers ended the process (V8's fatal 'invalid size
  // error', which no catch sees); a typed allocation that fails is INVALID_SIZE.
  const rowPtr = allocateInt32('rowPtr', rows + 1);
  let colIndex = allocateInt32('colIndex', Math.min(positions, 1024));
  let values = allocateFloat64('values', colIndex.length);
  let count = 0;
  const push = (j: number, value: number): void => {
    if (count === colIndex.length) {
      if (count === MAX_SPARSE_INDEX) fail('INVALID_SIZE', 'options', `(${rows} x ${cols}, bandwidths ${lower} and ${upper}, density ${density}) gives more than 2^31 - 1 entries`);
      const capacity = Math.min(MAX_SPARSE_INDEX, Math.max(16, 2 * count));
      colIndex = grown(allocateInt32('colIndex', capacity), colIndex);
      values = grown(allocateFloat64('values', capacity), values);
    }
    colIndex[count] = j;
    values[count] = value;
    count++;
  };
  for (let i = 0; i < rows; i++) {
    const first = Math.max(0, i - lower);
    const last = Math.min(cols - 1, i + upper);
    let diagonalAt = -1;
    let offSum = 0;
    for (let j = first; j <= last; j++) {
      const forced = dominant && j === i;
      if (!forced && random.nextDouble() >= density) continue;
      const value = 2 * random.nextDouble() - 1;
      if (j === i) diagonalAt = count;
      else offSum += Math.abs(value);
      push(j, value);
    }
    if (dominant && diagonalAt >= 0) values[diagonalAt] = 1 + offSum;
    rowPtr[i + 1] = count;
  }
  return {
    rows, cols, rowPtr,
    colIndex: count === colIndex.length ? colIndex : grown(allocateInt32('colIndex', count), colIndex.subarray(0, count)),
    values: count === values.length ? values : grown(allocateFloat64('values', count), values.subarray(0, count)),
  };
}

/** `into` with `from` copied to its start. */
function grown<T extends Int32Array | Float64Array>(into: T, from: T): T {
  into.set(from.subarray(0, Math.min(from.length, into.length)) as ArrayLike<number>);
  return into;
}

/**
 * Positions (i, j) of a rows × cols matrix with −lower ≤ j − i ≤ upper, summed over the diagonals in closed form
 * (a loop over rows or diagonals would take seconds for 2^31 of them); exact below 2^53.
 */
function bandPositions(rows: number, cols: number, lower: number, upper: number): number {
  if (rows === 0 || cols === 0) return 0;
  // Σ_{t=0}^{n−1} min(cap, start − t): the terms at the cap, then an arithmetic series.
  const sumMin = (cap: number, start: number, n: number): number => {
    const atCap = Math.min(n, Math.max(0, start - cap + 1));
    const rest = n - atCap;
    return cap * atCap + rest * (start - atCap) - (rest * (rest - 1)) / 2;
  };
  // diagonals d = 0 … upper have min(rows, cols − d) positions; d = −1 … −lower have min(cols, rows − |d|)
  return sumMin(rows, cols, Math.min(upper, cols - 1) + 1) + sumMin(cols, rows - 1, Math.min(lower, rows - 1));
}
