/**
 * Choosing the stride (leading dimension) of an ELL matrix.
 * @module
 */
import { fail } from '../core/errors.js';
import { checkDimension, checkOptions, MAX_SPARSE_INDEX } from './sparse-checks.js';

/**
 * How to lay out an ELL matrix built by a conversion or a generator.
 * @group Sparse & IO
 */
export interface EllLayoutOptions {
  /** Exact stride, `≥ rows`. Default: `rows`, rounded up to `strideMultiple`. Do not give both. */
  readonly stride?: number;
  /**
   * Round the stride up to a multiple of this (e.g. 32, a GPU warp, so every slot column starts aligned): an integer
   * ≥ 1, a size like the GPU's `scaleBlock`, so 0, a negative or a fraction is `INVALID_SIZE`. Default 1.
   */
  readonly strideMultiple?: number;
  /** Slots per row, `≥` the longest row. Default: exactly the longest row. */
  readonly width?: number;
}

/**
 * Resolves the stride for an ELL matrix of `rows` rows from the layout options.
 *
 * @param rows - number of rows
 * @param options - `stride` or `strideMultiple`
 * @returns the stride, `≥ rows`
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options` when both are given or it is not an object; `INVALID_SIZE` for a `rows`
 *   or `stride` that is not a non-negative integer, a `strideMultiple` that is not an integer ≥ 1 (0 included: it is a size, as `scaleBlock`),
 *   or one that rounds `rows` past 2^31 − 1; `INVALID_STRIDE` when `stride < rows`
 * @example
 * ```ts
 * import { resolveEllStride } from 'modprec';
 *
 * resolveEllStride(100); // → 100
 * resolveEllStride(100, { strideMultiple: 32 }); // → 128
 * ```
 * @group Sparse & IO
 */
export function resolveEllStride(rows: number, options: EllLayoutOptions = {}): number {
  checkDimension('rows', rows);
  const { stride, strideMultiple } = checkOptions(options);
  if (stride !== undefined && strideMultiple !== undefined) {
    fail('INVALID_OPTION', 'options', 'may give stride or strideMultiple, not both');
  }
  if (stride !== undefined) {
    const exact = checkDimension('options.stride', stride);
    if (exact < rows) fail('INVALID_STRIDE', 'options.stride', `must be at least rows = ${rows}`, exact);
    return exact;
  }
  if (strideMultiple === undefined) return rows;
  // A rounding granularity, not a stride: one code (INVALID_SIZE) for 0, −4 and 1.5 alike, as for scaleBlock.
  if (typeof strideMultiple !== 'number' || !Number.isSafeInteger(strideMultiple) || strideMultiple < 1 || strideMultiple > MAX_SPARSE_INDEX) {
    fail('INVALID_SIZE', 'options.strideMultiple', 'must be an integer in 1..2^31 - 1', strideMultiple);
  }
  const rounded = Math.ceil(rows / strideMultiple) * strideMultiple;
  if (rounded > MAX_SPARSE_INDEX) fail('INVALID_SIZE', 'options.strideMultiple', `rounds rows = ${rows} up past 2^31 - 1`, strideMultiple);
  return rounded;
}

/**
 * Resolves the width for an ELL matrix whose longest row has `longest` entries.
 *
 * @param longest - the longest row's entry count
 * @param options - optional `width`
 * @returns the width, `≥ longest`
 * @throws {@link ModprecError} `INVALID_SIZE` when `longest` or `options.width` is not a non-negative integer, or the
 *   width is below `longest`;
 *   `INVALID_OPTION` naming `options` when it is not an object
 * @example
 * ```ts
 * import { resolveEllWidth } from 'modprec';
 *
 * resolveEllWidth(5); // → 5
 * resolveEllWidth(5, { width: 8 }); // → 8
 * ```
 * @group Sparse & IO
 */
export function resolveEllWidth(longest: number, options: EllLayoutOptions = {}): number {
  checkDimension('longest', longest);
  const { width: given } = checkOptions(options);
  if (given === undefined) return longest;
  const width = checkDimension('options.width', given);
  if (width < longest) fail('INVALID_SIZE', 'options.width', `must be at least the longest row's length ${longest}`, width);
  return width;
}
