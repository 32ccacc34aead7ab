/**
 * Conveniences for the common case: a vector or matrix range built from plain numbers.
 * @module
 */
import { Range, range } from './range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import type { FormatLike } from '../formats/common/registry.js';
import { fail } from './errors.js';
import type { StorageMemory } from '../../accessors/layout-options.js';

/**
 * Formats of a convenience constructor.
 * @group Ranges & accessors
 */
export interface FormatOptions<T = number> {
  /** Storage format (default fp64). */
  storage?: FormatLike;
  /** Arithmetic format (default: the arithmetic of the format given as `storage`, else the one registered under the storage's name, else fp64). */
  arithmetic?: FormatLike<T>;
  /** Allocate the storage in a SharedArrayBuffer, for calls split over threads (`options.threads`; default false). */
  shared?: boolean;
  /** Allocate the storage in a {@link WasmArena}, which the WebAssembly kernels read in place (see {@link wasmArena}). */
  memory?: StorageMemory;
}

/**
 * A packed 1-D range holding `values` (rounded to the storage); given a length, `values` zeros, or the values of
 * `fill(i)` (as {@link matrix} fills from a function of (row, column)). The options of {@link rowMajor} pass through:
 * `stride` (the increment), `offset` and `data` (a buffer to fill and view).
 * @throws {@link ModprecError} `INVALID_SIZE` naming `values.length` when an array-like's length is not a non-negative
 *   integer; `INVALID_VALUE` naming `values[i]` for an entry that is not a number (NaN and ±∞ are
 *   numbers), before anything is allocated, or naming `fill(i)` when it returns something other than a number;
 *   `INVALID_OPTION` naming `fill` when the second argument of a length is neither a function nor options, naming
 *   `options` when they are not an object
 * @example
 * ```ts
 * import { vector, formats } from 'modprec';
 *
 * const x = vector([0.1, 0.2], { storage: formats.f16, arithmetic: formats.f32 });
 * x.get(0); // → 0.0999755859375
 * vector(3).length(); // → 3
 * vector(3, (i) => i + 1, { storage: formats.f32 }).get(2); // → 3
 * ```
 * @group Ranges & accessors
 */
export function vector<T = number>(values: number, fill: ((i: number) => number) | undefined, options?: FormatOptions<T>): Range<1, T>;
export function vector<T = number>(values: ArrayLike<number> | number, options?: FormatOptions<T>): Range<1, T>;
export function vector<T = number>(values: ArrayLike<number> | number, fillOrOptions?: ((i: number) => number) | FormatOptions<T>, maybeOptions?: FormatOptions<T>): Range<1, T> {
  const n = typeof values === 'number' ? values : values?.length;
  if (typeof values !== 'number' && (typeof values !== 'object' || values === null || typeof n !== 'number')) {
    fail('INVALID_OPTION', 'values', 'must be an array of numbers or a length', values);
  }
  // An array-like's length is checked as a length ({ length: 1.5 } was reported as values[0] = undefined).
  if (typeof values !== 'number' && (!Number.isSafeInteger(n) || n! < 0)) fail('INVALID_SIZE', 'values.length', 'must be a non-negative integer', n);
  const fill = typeof fillOrOptions === 'function' ? fillOrOptions : undefined;
  if (fill && typeof values !== 'number') fail('INVALID_OPTION', 'fill', 'is taken with a length only (values were given)', fill);
  // vector(n, undefined, options) mirrors matrix(m, n, undefined, options).
  const options = fill || fillOrOptions === undefined ? maybeOptions ?? {} : fillOrOptions;
  if (!fill && fillOrOptions !== undefined && maybeOptions !== undefined) fail('INVALID_OPTION', 'fill', 'must be a function of the index (a third argument was given)', fillOrOptions);
  if (typeof options !== 'object' || options === null) fail('INVALID_OPTION', 'options', 'must be an object', options);
  // Numbers only (NaN and ±∞ included): a string or a hole would otherwise be coerced, or stored as NaN, silently.
  if (typeof values !== 'number') {
    for (let i = 0; i < n!; i++) if (typeof values[i] !== 'number') fail('INVALID_VALUE', `values[${i}]`, 'must be a number', values[i]);
  }
  // The layout's own options (a stride, …) pass through; the length is the values' (a `size` key cannot resize it).
  const r = range(rowMajor<1, T>({ ...(options as FormatOptions<T>), size: [n as number] }));
  if (typeof values !== 'number') for (let i = 0; i < n!; i++) r.set(i, values[i]!);
  else if (fill) {
    for (let i = 0; i < n!; i++) {
      const v = fill(i);
      if (typeof v !== 'number') fail('INVALID_VALUE', `fill(${i})`, 'must return a number', v);
      r.set(i, v);
    }
  }
  return r;
}

/**
 * A packed m×n range (column-major by default, row-major with `layout: 'row-major'`) filled from a function
 * of (row, column), or zeros. The options of {@link colMajor} / {@link rowMajor} pass through: `stride` (the leading
 * dimension), `offset` and `data` (a buffer to fill and view) make it a view instead of a packed matrix.
 * @throws {@link ModprecError} `INVALID_VALUE` naming `fill(i, j)` when it returns something other than a number;
 *   `INVALID_OPTION` naming `layout` for a layout other than 'row-major' or 'col-major'
 * @example
 * ```ts
 * import { matrix, formats } from 'modprec';
 *
 * // [[0, 1, 2], [1, 2, 3]], stored in fp32, column-major
 * const A = matrix(2, 3, (i, j) => i + j, { storage: formats.f32 });
 * A.get(1, 2); // → 3
 * A.length(1); // → 3
 * ```
 * @group Ranges & accessors
 */
export function matrix<T = number>(
  m: number, n: number, fill?: (i: number, j: number) => number,
  options: FormatOptions<T> & { layout?: 'row-major' | 'col-major' } = {},
): Range<2, T> {
  if (typeof options !== 'object' || options === null) fail('INVALID_OPTION', 'options', 'must be an object', options);
  // Any other layout (a typo such as 'rowMajor') silently built a column-major matrix.
  if (options.layout !== undefined && options.layout !== 'row-major' && options.layout !== 'col-major') {
    fail('INVALID_OPTION', 'layout', "must be 'row-major' or 'col-major'", options.layout);
  }
  // Checked before the storage is allocated (a bad fill of a large matrix allocated it first).
  if (fill !== undefined && typeof fill !== 'function') fail('INVALID_OPTION', 'fill', 'must be a function of (row, column)', fill);
  const make = options.layout === 'row-major' ? rowMajor : colMajor;
  // The layout's own options (stride: the leading dimension, offset, data) pass through as vector()'s do; they were
  // dropped, so matrix(2, 2, f, { data }) filled a new buffer and left the caller's untouched.
  const { layout: _layout, ...layoutOptions } = options as FormatOptions<T> & { layout?: string };
  const r = range(make<2, T>({ ...layoutOptions, size: [m, n] }));
  if (fill) {
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < m; i++) {
        const v = fill(i, j);
        if (typeof v !== 'number') fail('INVALID_VALUE', `fill(${i}, ${j})`, 'must return a number', v);
        r.set(i, j, v);
      }
    }
  }
  return r;
}

/**
 * The values of a range rounded to doubles, in index order (row-major for matrices).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `r` when it is not a range (as the kernels name a non-range operand);
 *   `INVALID_SIZE` naming `r` when its elements cannot be allocated as one Float64Array
 * @example
 * ```ts
 * import { matrix, toArray } from 'modprec';
 *
 * const A = matrix(2, 2, (i, j) => 10 * i + j);   // column-major in memory
 * toArray(A); // → Float64Array(4) [ 0, 1, 10, 11 ]
 * ```
 * @group Ranges & accessors
 */
export function toArray(r: Range<any, any>): Float64Array {
  if (!(r instanceof Range)) fail('INVALID_OPTION', 'r', 'must be a range (vector(…), matrix(…), range(rowMajor(…)) etc.)', r);
  const a = r.accessor;
  const ar = a.arithmetic;
  const size = a.size as readonly number[];
  const count = size.reduce((p, s) => p * s, 1);
  let out: Float64Array;
  try {
    out = new Float64Array(count);
  } catch (e) {
    // Up to 2^31 − 1 doubles (16 GiB) may be more than the engine can allocate: a typed error, not a RangeError.
    if (e instanceof RangeError) fail('INVALID_SIZE', 'r', `has ${count} elements, more than can be allocated as one Float64Array`, r);
    throw e;
  }
  let k = 0;
  const walk = (idx: number[]): void => {
    if (idx.length === size.length) { out[k++] = ar.toNumber(a.get(...idx)); return; }
    for (let i = 0; i < size[idx.length]!; i++) walk([...idx, i]);
  };
  walk([]);
  return out;
}
