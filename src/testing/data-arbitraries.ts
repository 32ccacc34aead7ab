/**
 * fast-check arbitraries of vectors, matrices and uniform data for kernel tests.
 *
 * @module
 */
import fc from 'fast-check';
import { fail } from '../core/errors.js';
import { type BinaryFormatLike } from './format-descriptors.js';
import { representableIn } from './arbitraries.js';

/**
 * A length: a fixed size, or bounds to draw from.
 * @group Testing
 */
export type SizeSpec = number | { readonly min: number; readonly max: number };

/**
 * A dense matrix drawn by {@link matrixOf}: `data[i·cols + j]` is entry (i, j) (row-major).
 * @group Testing
 */
export interface MatrixSample<T> {
  readonly rows: number;
  readonly cols: number;
  readonly data: T[];
}

function sizeArbitrary(parameter: string, size: SizeSpec): fc.Arbitrary<number> {
  if (typeof size === 'number') {
    if (!Number.isSafeInteger(size) || size < 0) fail('INVALID_SIZE', parameter, 'must be a non-negative integer', size);
    return fc.constant(size);
  }
  const { min, max } = size ?? ({} as { min: number; max: number });
  if (!Number.isSafeInteger(min) || min < 0) fail('INVALID_SIZE', `${parameter}.min`, 'must be a non-negative integer', min);
  if (!Number.isSafeInteger(max) || max < min) fail('INVALID_SIZE', `${parameter}.max`, `must be an integer ≥ min (${min})`, max);
  return fc.integer({ min, max });
}

/**
 * Arrays of values with a fixed or bounded length.
 *
 * @param values - arbitrary of one element
 * @param length - a fixed length, or `{ min, max }`
 * @returns an arbitrary of arrays
 * @throws {@link ModprecError} `INVALID_SIZE` for a negative or non-integer length
 * @example
 * ```ts
 * import { representableIn, vectorOf } from 'modprec/testing';
 *
 * vectorOf(representableIn('f16'), { min: 0, max: 64 });
 * ```
 * @group Testing
 */
export function vectorOf<T>(values: fc.Arbitrary<T>, length: SizeSpec): fc.Arbitrary<T[]> {
  if (typeof length === 'number') {
    sizeArbitrary('length', length);
    return fc.array(values, { minLength: length, maxLength: length });
  }
  sizeArbitrary('length', length);
  return fc.array(values, { minLength: length.min, maxLength: length.max });
}

/**
 * Dense row-major matrices with fixed or bounded dimensions.
 *
 * @param values - arbitrary of one entry
 * @param shape - rows and cols, each a fixed size or `{ min, max }`
 * @returns an arbitrary of {@link MatrixSample}
 * @throws {@link ModprecError} `INVALID_SIZE` for a negative or non-integer size
 * @example
 * ```ts
 * import { matrixOf, uniformUnit } from 'modprec/testing';
 *
 * matrixOf(uniformUnit(), { rows: 3, cols: { min: 1, max: 8 } });
 * ```
 * @group Testing
 */
export function matrixOf<T>(values: fc.Arbitrary<T>, shape: { rows: SizeSpec; cols: SizeSpec }): fc.Arbitrary<MatrixSample<T>> {
  const rows = sizeArbitrary('shape.rows', shape?.rows);
  const cols = sizeArbitrary('shape.cols', shape?.cols);
  return fc.tuple(rows, cols).chain(([r, c]) =>
    fc.array(values, { minLength: r * c, maxLength: r * c }).map((data) => ({ rows: r, cols: c, data })),
  );
}

/**
 * Vectors of values exactly representable in a format (see {@link representableIn}).
 *
 * @param format - a built-in name or format parameters
 * @param length - a fixed length, or `{ min, max }`
 * @returns an arbitrary of arrays
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { vector, formats } from 'modprec';
 * import { vectorIn } from 'modprec/testing';
 *
 * // fp16 data is held exactly by an fp16 vector
 * fc.assert(fc.property(vectorIn('f16', { min: 1, max: 8 }), (xs) => {
 *   const x = vector(xs, { storage: formats.f16 });
 *   return xs.every((v, i) => Object.is(x.get(i), v));
 * }));
 * ```
 * @group Testing
 */
export function vectorIn(format: BinaryFormatLike, length: SizeSpec): fc.Arbitrary<number[]> {
  return vectorOf(representableIn(format), length);
}

/**
 * Uniformly distributed doubles in [−1, 1]: k·2^−53 for an unbiased integer k in [−2^53, 2^53]
 * (fast-check's own `double()` favours special and extreme values; this is the typical data of
 * error-bound experiments).
 *
 * @returns an arbitrary of doubles in [−1, 1]
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { uniformUnit } from 'modprec/testing';
 *
 * fc.sample(uniformUnit(), 3); // e.g. [0.318…, −0.774…, 0.052…]
 * ```
 * @group Testing
 */
export function uniformUnit(): fc.Arbitrary<number> {
  return fc.noBias(fc.bigInt({ min: -(1n << 53n), max: 1n << 53n })).map((k) => Number(k) * 2 ** -53);
}

/**
 * Uniform [−1, 1] data rounded to a storage format: what a matrix stored in that format holds.
 *
 * @param round - the storage conversion, e.g. `roundToF16`
 * @returns an arbitrary of rounded values
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { uniformUnitRounded } from 'modprec/testing';
 *
 * fc.assert(fc.property(uniformUnitRounded(Math.fround), (x) => Math.abs(x) <= 1 && Math.fround(x) === x));
 * ```
 * @group Testing
 */
export function uniformUnitRounded(round: (x: number) => number): fc.Arbitrary<number> {
  return uniformUnit().map(round);
}
