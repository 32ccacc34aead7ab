/**
 * Validation helpers shared by the sparse matrix constructors and conversions.
 *
 * Index arrays are `Int32Array`, so every dimension, index and entry count must fit in a signed
 * 32-bit integer; these helpers check that once, at the public boundary, and name the parameter.
 *
 * @module
 */
import { checkSize, fail } from '../core/errors.js';

/**
 * Largest dimension or entry count a sparse matrix may have: indices are stored in `Int32Array`s.
 * @group Sparse & IO
 */
export const MAX_SPARSE_INDEX = 2 ** 31 - 1;

/**
 * Asserts that `value` is a matrix dimension: an integer in `0 … 2^31 − 1`.
 * @param parameter - name used in the error message
 * @param value - the dimension to check
 * @returns the dimension
 * @throws {@link ModprecError} `INVALID_SIZE` when it is not
 */
export function checkDimension(parameter: string, value: unknown): number {
  const size = checkSize(parameter, value);
  if (size > MAX_SPARSE_INDEX) fail('INVALID_SIZE', parameter, `must be at most 2^31 - 1 (indices are Int32)`, size);
  return size;
}

/**
 * Asserts that a count of stored entries fits the `Int32Array` row pointers and positions that hold it.
 * @param parameter - name used in the error message
 * @param count - the number of entries
 * @throws {@link ModprecError} `INVALID_SIZE` when it exceeds 2^31 − 1
 */
export function checkEntryCount(parameter: string, count: number): void {
  if (count > MAX_SPARSE_INDEX) fail('INVALID_SIZE', parameter, `holds ${count} entries, more than 2^31 - 1 (row pointers are Int32)`, count);
}

/**
 * Asserts that `value` is an `Int32Array`.
 * @param parameter - name used in the error message
 * @param value - the array to check
 * @returns the array
 * @throws {@link ModprecError} `INVALID_STORAGE` when it is not
 */
export function checkInt32Array(parameter: string, value: unknown): Int32Array {
  if (!(value instanceof Int32Array)) fail('INVALID_STORAGE', parameter, 'must be an Int32Array', value);
  return value;
}

/**
 * Asserts that `value` is a `Float64Array`.
 * @param parameter - name used in the error message
 * @param value - the array to check
 * @returns the array
 * @throws {@link ModprecError} `INVALID_STORAGE` when it is not
 */
export function checkFloat64Array(parameter: string, value: unknown): Float64Array {
  if (!(value instanceof Float64Array)) fail('INVALID_STORAGE', parameter, 'must be a Float64Array', value);
  return value;
}

/**
 * Asserts that an array has exactly the expected length.
 * @param parameter - name used in the error message (e.g. `"values.length"`)
 * @param actual - the length found
 * @param expected - the length required
 * @param why - what the expected length is, in words (e.g. `"colIndex.length"`)
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` when they differ
 */
export function checkLength(parameter: string, actual: number, expected: number, why: string): void {
  if (actual !== expected) fail('DIMENSION_MISMATCH', parameter, `must equal ${why} = ${expected}`, actual);
}

/**
 * Asserts that every entry of `indices` lies in `0 … bound − 1`.
 * @param parameter - name of the array; the message names the first bad position, e.g. `colIndex[7]`
 * @param indices - the indices to check
 * @param bound - exclusive upper bound
 * @throws {@link ModprecError} `INDEX_OUT_OF_RANGE` at the first index outside
 */
export function checkIndices(parameter: string, indices: Int32Array, bound: number): void {
  for (let k = 0; k < indices.length; k++) {
    const index = indices[k]!;
    if (index < 0 || index >= bound) fail('INDEX_OUT_OF_RANGE', `${parameter}[${k}]`, `must lie in 0..${bound - 1}`, index);
  }
}

/**
 * Allocates an `Int32Array`, turning an allocation failure into a typed error.
 * @param parameter - what the array is for, named in the error
 * @param length - number of elements
 * @returns a zero-filled array
 * @throws {@link ModprecError} `INVALID_SIZE` when the length is too large to allocate
 */
export function allocateInt32(parameter: string, length: number): Int32Array {
  try {
    return new Int32Array(length);
  } catch {
    return fail('INVALID_SIZE', parameter, 'is too large to allocate', length);
  }
}

/**
 * Allocates a `Float64Array`, turning an allocation failure into a typed error.
 * @param parameter - what the array is for, named in the error
 * @param length - number of elements
 * @returns a zero-filled array
 * @throws {@link ModprecError} `INVALID_SIZE` when the length is too large to allocate
 */
export function allocateFloat64(parameter: string, length: number): Float64Array {
  try {
    return new Float64Array(length);
  } catch {
    return fail('INVALID_SIZE', parameter, 'is too large to allocate', length);
  }
}

/**
 * Asserts that `value` is a plain object (the argument holding a matrix's parts or options).
 * @param parameter - name used in the error message
 * @param value - the value to check
 * @returns the value, typed as a record
 * @throws {@link ModprecError} `INVALID_VALUE` when it is not an object
 */
export function checkObject(parameter: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) fail('INVALID_VALUE', parameter, 'must be an object', value);
  return value as Record<string, unknown>;
}

/**
 * Asserts that an optional `options` argument is an object or omitted (a number or `null` would otherwise be read as
 * no options at all, or fail with a TypeError), as the kernels check theirs.
 * @param options - the argument
 * @returns the options, `{}` when omitted
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options`
 */
export function checkOptions(options: unknown): Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) fail('INVALID_OPTION', 'options', 'must be an object', options);
  return options as Record<string, unknown>;
}

/**
 * Reads an optional boolean option: `undefined` gives the default, anything but a boolean is refused (`1` would
 * otherwise count as true in one place and as false in another).
 * @param parameter - the option's name in errors, e.g. `options.includeDiagonal`
 * @param value - the option's value
 * @param fallback - the default
 * @returns the option
 * @throws {@link ModprecError} `INVALID_OPTION` naming `parameter`
 */
export function booleanOption(parameter: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail('INVALID_OPTION', parameter, 'must be a boolean', value);
  return value;
}
