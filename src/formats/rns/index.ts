/**
 * RNS multiple-precision arithmetic (MPRES-BLAS number format ⟨s, X, e, I(X/M)⟩): moduli sets, the
 * scalar type and its operations, conversions.
 * @module
 */
export { rnsModuliSet, rnsTables, MIN_PRECISION, MAX_PRECISION, MODULUS_BITS } from './moduli-set.js';
export type { RnsModuliSet, RnsTables, ResidueArithmetic } from './moduli-set.js';
export { RnsNumber, rnsZero, MAX_EXPONENT } from './rns-number.js';
export { rnsAdd, rnsSub, rnsMul, rnsFma, rnsMulAdd2, rnsNeg, rnsAbs, rnsSet, rnsSign, rnsCompare } from './arithmetic.js';
export { rnsFromNumber, rnsFromDouble, rnsToNumber, rnsFromDoubleDouble, rnsToDoubleDouble } from './convert-number.js';
export {
  rnsSignificand, rnsToRational, rnsFromRational, rnsDiv, rnsSqrt, rnsFromDecimalString, rnsToDecimalString, rnsFromString,
} from './convert-exact.js';
export type { Rational as RnsRational } from './convert-exact.js';
export { evaluateUnsigned, EVAL as RNS_EVAL } from './interval-evaluation.js';
export { RnsArray, rnsLoad } from './rns-array.js';
export { rnsResolve } from './resolve.js';
export { rnsStore } from './array-store.js';
export { rnsStorageFormat, rnsArithmeticFormat, rnsFormatPair, rnsConvert } from './rns-formats.js';
export { rnsFormat, rns106, rns212, rns424, rns848, rns1696 } from './register.js';
export { RNS_STATS, resetRnsStats } from './stats.js';
