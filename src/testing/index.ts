/**
 * `modprec/testing`: the property-test kit modprec tests itself with, for users' own formats,
 * accessors and kernels.
 *
 * - an exact oracle: doubles as BigInt rationals, exact sums and dot products, correct rounding
 *   of a rational to any binary format;
 * - fast-check arbitraries aimed at each format's hard cases, and vectors/matrices of them;
 * - laws (correct rounding, round trip, monotonicity, ties to even, no double rounding,
 *   overflow, underflow, specials) runnable on any conversion.
 *
 * Requires `fast-check` (v4) as a peer dependency.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { createBinaryRounder, gamma } from 'modprec';
 * import { exactDot, roundRationalToDouble, vectorIn, checkStorageConversionLaws } from 'modprec/testing';
 *
 * // 1. A custom storage format's conversion obeys every law (throws naming the law and a counterexample if not).
 * const params = { significandBits: 4, minExponent: -6, maxExponent: 7 };
 * checkStorageConversionLaws({ name: 'e4m3-ieee', ...params, round: createBinaryRounder(params) }, { numRuns: 500 });
 *
 * // 2. Recursive summation in fp64 of a dot product of fp16 data stays within Higham's γ_n·Σ|x_i·y_i|.
 * fc.assert(fc.property(vectorIn('f16', 64), vectorIn('f16', 64), (x, y) => {
 *   let s = 0, magnitude = 0;
 *   for (let i = 0; i < 64; i++) { s += x[i]! * y[i]!; magnitude += Math.abs(x[i]! * y[i]!); }
 *   const u = 2 ** -53, gamma = (64 * u) / (1 - 64 * u);
 *   const exact = roundRationalToDouble(exactDot(x, y)); // the exact value, rounded once
 *   return Math.abs(s - exact) <= gamma * magnitude * (1 + 4 * u) + Math.abs(exact) * u; // slack for the check's own roundings
 * }));
 * ```
 *
 * @module modprec/testing
 */
export type { Rational } from './rational.js';
export {
  rational, ZERO, addRational, subRational, mulRational, divRational, negRational, absRational,
  compareRational, signRational, powerOfTwo, rationalToString,
} from './rational.js';
export { exactOf, exactSum, exactDot, exactTriangularSolve, absoluteError, relativeError, oracleRoundToFormat } from './exact.js';
export type { RoundingPrecision } from './round-rational.js';
export { roundRationalExact, roundRationalToFormat, roundRationalToDouble, roundRationalToInteger } from './round-rational.js';
export type { BinaryFormatDescriptor, IntegerFormatDescriptor, BinaryFormatName, BinaryFormatLike } from './format-descriptors.js';
export {
  F64_DESCRIPTOR, F32_DESCRIPTOR, F16_DESCRIPTOR, BF16_DESCRIPTOR, I8_DESCRIPTOR, I16_DESCRIPTOR, I32_DESCRIPTOR,
  resolveBinaryFormat, checkBinaryFormatDescriptor,
} from './format-descriptors.js';
export type { MidpointCase, DoubleRoundingCase } from './arbitraries.js';
export {
  representableIn, midpointCasesOf, midpointsOf, nearMidpointsOf, doubleRoundingCasesOf, nearOverflowOf,
  nearUnderflowOf, acrossBinadesOf, specialValuesOf, interestingDoublesFor,
} from './arbitraries.js';
export type { SizeSpec, MatrixSample } from './data-arbitraries.js';
export { vectorOf, matrixOf, vectorIn, uniformUnit, uniformUnitRounded } from './data-arbitraries.js';
export type { Law, LawRunOptions } from './law-runner.js';
export { lawOf, checkLaws } from './law-runner.js';
export type { StorageConversionLawOptions, ExactOperation } from './float-laws.js';
export {
  lawCorrectRounding, lawRoundTrip, lawCodec, lawMonotonic, lawTiesToEven, lawNoDoubleRounding, lawOverflow,
  lawGradualUnderflow, lawSpecialsAndSymmetry, lawInnocuousDoubleRounding, storageConversionLaws, checkStorageConversionLaws,
} from './float-laws.js';
export type { DoubleDoubleSample } from './double-double-laws.js';
export { doubleDoubles, doubleDoublesNearTiesOf, lawDoubleDoubleExport } from './double-double-laws.js';
export { oracleRoundToInteger, interestingDoublesForInteger, integerConversionLaws, checkIntegerConversionLaws } from './integer-laws.js';
export type { RangeLike, AccessorLawSubject } from './accessor-laws.js';
export { accessorLaws, checkAccessorLaws } from './accessor-laws.js';
export { ModprecError, type ModprecErrorCode } from '../core/errors.js';
