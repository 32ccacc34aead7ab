/**
 * Correctly rounded conversions between JavaScript numbers and storage formats.
 *
 * @module
 */
export { BINARY16, BFLOAT16, BINARY32, BINARY64, binaryFormatLimits, checkBinaryFormatParameters } from './binary-parameters.js';
export type { BinaryFormatParameters, BinaryFormatLimits } from './binary-parameters.js';
export { nextUp, nextDown, ulp } from './double-neighbours.js';
export { createBinaryRounder } from './round-to-binary.js';
export { roundToF32, f32ToBits, f32FromBits, F32_QUIET_NAN_BITS } from './f32.js';
export { roundToF16, f16BitsFromNumber, numberFromF16Bits, F16_QUIET_NAN_BITS } from './f16.js';
export { roundToBf16, bf16BitsFromNumber, numberFromBf16Bits, BF16_QUIET_NAN_BITS } from './bf16.js';
export { roundToInt8, roundToInt16, roundToInt32 } from './integer.js';
export { roundToOddDd } from './round-to-odd.js';
