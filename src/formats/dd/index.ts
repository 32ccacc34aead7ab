/**
 * Double-double (double-word) arithmetic: about 106 significant bits from a pair of doubles.
 * Allocation-free functions write into a caller-owned `Float64Array(2)`; {@link DD} is the
 * immutable convenience type. See docs/double-double.md.
 * @module
 */
export { twoSum, fastTwoSum, split, twoProd, twoProdError, SPLIT_LIMIT, type DdBuffer } from './eft.js';
export { ddAdd, ddSub, ddAddSloppy, ddAddNumber } from './add.js';
export { ddMul, ddMulNumber, ddMulAdd, ddMulAccumulate } from './mul.js';
export { ddTwoProdAccumulate } from './two-prod-accumulate.js';
export { ddDiv } from './div.js';
export { ddSqrt } from './sqrt.js';
export { ddCompare, ddAbs, ddNeg } from './compare.js';
export { ddNormalize, isNormalizedDd } from './normalize.js';
export { ddFromNumber, ddToNumber } from './number.js';
export { ddFromDecimal, ddToDecimal } from './decimal.js';
export { ddFromRational, ddToRational, numberToRational, roundRationalToNumber, type Rational } from './rational.js';
export * from './bounds.js';
export { DD, type DDLike } from './dd-value.js';
export { ddArithmetic, DD_UNIT_ROUNDOFF, type DdValue } from './dd-arithmetic.js';
export { ddStorage, ddSplitStorage, DdSplitArray } from './dd-storage.js';
export { dd, ddSplit } from './register.js';
export { pairwiseAccumulation } from './pairwise-accumulation.js';
export { neumaierAccumulation } from './neumaier-accumulation.js';
export { dot2Accumulation } from './dot2-accumulation.js';
export { ddAccumulation } from './dd-accumulation.js';
