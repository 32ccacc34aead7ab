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
  /** Arithmetic format (default: the storage's own, else fp64). */
  arithmetic?: FormatLike<T>;
  /** Allocate the storage in a SharedArrayBuffer, for calls split over threads (`options.threads`; default false). */
  shared?: boolean;
  /** Allocate the storage in a {@link WasmArena}, which the WebAssembly kernels read in place (see {@link wasmArena}). */
  memory?: StorageMemory;
}

/**
 * A packed 1-D range holding `values` (rounded to the storage), or `values` zeros when given a length.
 * @throws {@link ModprecError} `INVALID_VALUE` naming `values[i]` for an entry that is not a number (NaN and ±∞ are
 *   numbers), before anything is allocated
 * @example
 * ```ts
 * import { vector, formats } from 'modprec';
 *
 * const x = vector([0.1, 0.2], { storage: formats.f16, arithmetic: formats.f32 });
 * x.get(0); // → 0.0999755859375
 * vector(3).length(); // → 3
 * ```
 * @group Ranges & accessors
 */
export function vector<T = number>(values: ArrayLike<number> | number, options: FormatOptions<T> = {}): Range<1, T> {
  const n = typeof values === 'number' ? values : values?.length;
  if (typeof values !== 'number' && (typeof values !== 'object' || values === null || typeof n !== 'number')) {
    fail('INVALID_OPTION', 'values', 'must be an array of numbers or a length', values);
  }
  // Numbers only (NaN and ±∞ included): a string or a hole would otherwise be coerced, or stored as NaN, silently.
  if (typeof values !== 'number') {
    for (let i = 0; i < n!; i++) if (typeof values[i] !== 'number') fail('INVALID_VALUE', `values[${i}]`, 'must be a number', values[i]);
  }
  const r = range(rowMajor<1, T>({ size: [n as number], ...options }));
  if (typeof values !== 'number') for (let i = 0; i < n!; i++) r.set(i, values[i]!);
  return r;
}

/**
 * A packed m×n range (column-major by default, row-major with `layout: 'row-major'`) filled from a function
 * of (row, column), or zeros.
 * @throws {@link ModprecError} `INVALID_VALUE` naming `fill(i, j)` when it returns something other than a number
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
  const make = options.layout === 'row-major' ? rowMajor : colMajor;
  const r = range(make<2, T>({ size: [m, n], storage: options.storage, arithmetic: options.arithmetic, shared: options.shared, memory: options.memory }));
  if (fill !== undefined && typeof fill !== 'function') fail('INVALID_OPTION', 'fill', 'must be a function of (row, column)', fill);
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
 * @throws {@link ModprecError} `INVALID_OPTION` naming `r` when it is not a range (as the kernels name a non-range operand)
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
  const out = new Float64Array(size.reduce((p, s) => p * s, 1));
  let k = 0;
  const walk = (idx: number[]): void => {
    if (idx.length === size.length) { out[k++] = ar.toNumber(a.get(...idx)); return; }
    for (let i = 0; i < size[idx.length]!; i++) walk([...idx, i]);
  };
  walk([]);
  return out;
}
