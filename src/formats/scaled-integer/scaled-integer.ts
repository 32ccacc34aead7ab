/**
 * Integer storage for scaled accessors: int8, int16, int32. A write rounds to the nearest integer (ties to
 * even) and saturates at the type's range (see the conversion functions for NaN). The error of a write is
 * absolute — half a unit — so it is relative to the scale, not to the value.
 * @module
 */
import { typedArrayStorage } from '../common/typed-array-storage.js';
import { i8GpuPart, i16GpuPart } from './scaled-integer-gpu-words.js';
import { roundToInt8, roundToInt16, roundToInt32 } from '../convert/integer.js';

/**
 * int8 storage (−128…127).
 * @group Formats
 */
export const i8Storage = typedArrayStorage<Int8Array>({
  name: 'i8', gpu: i8GpuPart, array: Int8Array, significandBits: 7, unitRoundoff: NaN, isInteger: true, maxValue: 127,
  encodeHelper: { name: 'i8Encode', fn: roundToInt8 },
});
/**
 * int16 storage (−32768…32767).
 * @group Formats
 */
export const i16Storage = typedArrayStorage<Int16Array>({
  name: 'i16', gpu: i16GpuPart, array: Int16Array, significandBits: 15, unitRoundoff: NaN, isInteger: true, maxValue: 32767,
  encodeHelper: { name: 'i16Encode', fn: roundToInt16 },
});
/**
 * int32 storage (−2^31…2^31−1).
 * @group Formats
 */
export const i32Storage = typedArrayStorage<Int32Array>({
  name: 'i32', array: Int32Array, significandBits: 31, unitRoundoff: NaN, isInteger: true, maxValue: 2147483647,
  encodeHelper: { name: 'i32Encode', fn: roundToInt32 },
});
