/**
 * Integer storage for scaled accessors: int8, int16, int32. A write rounds to the nearest integer (ties to
 * even) and saturates at the type's range (see the conversion functions for NaN). The error of a write is
 * absolute — half a unit — so it is relative to the scale, not to the value.
 * @module
 */
import { typedArrayStorage } from '../common/typed-array-storage.js';
import { builtinGpuStorage, BUILTIN_STORAGE_GPU_FACTS } from '../common/gpu-facts.js';
import { encodeInt8, encodeInt16, encodeInt32 } from '../convert/integer.js';

/**
 * int8 storage (−128…127).
 * @group Formats
 */
export const i8Storage = builtinGpuStorage(typedArrayStorage<Int8Array>({
  name: 'i8', array: Int8Array, significandBits: 7, unitRoundoff: NaN, isInteger: true, maxValue: 127,
  encodeHelper: { name: 'i8Encode', fn: encodeInt8 },
}), BUILTIN_STORAGE_GPU_FACTS.i8);
/**
 * int16 storage (−32768…32767).
 * @group Formats
 */
export const i16Storage = builtinGpuStorage(typedArrayStorage<Int16Array>({
  name: 'i16', array: Int16Array, significandBits: 15, unitRoundoff: NaN, isInteger: true, maxValue: 32767,
  encodeHelper: { name: 'i16Encode', fn: encodeInt16 },
}), BUILTIN_STORAGE_GPU_FACTS.i16);
/**
 * int32 storage (−2^31…2^31−1).
 * @group Formats
 */
export const i32Storage = typedArrayStorage<Int32Array>({
  name: 'i32', array: Int32Array, significandBits: 31, unitRoundoff: NaN, isInteger: true, maxValue: 2147483647,
  encodeHelper: { name: 'i32Encode', fn: encodeInt32 },
});
