/**
 * bfloat16 storage: the upper 16 bits of a binary32, in a Uint16Array. 8 significand bits, fp32's exponent
 * range. Reads through a 65536-entry table, writes correctly rounded from the double (no double rounding
 * through fp32).
 * @module
 */
import { typedArrayStorage } from '../common/typed-array-storage.js';
import { builtinGpuStorage, BUILTIN_STORAGE_GPU_FACTS } from '../common/gpu-facts.js';
import { decodeBf16, encodeBf16 } from '../convert/bf16.js';
import { decodeTable } from '../f16/f16.js';

/**
 * bf16 storage (u = 2^-8, max ≈ 3.39e38).
 * @group Formats
 */
export const bf16Storage = builtinGpuStorage(typedArrayStorage<Uint16Array>({
  name: 'bf16', array: Uint16Array, significandBits: 8, unitRoundoff: 2 ** -8, isInteger: false,
  maxValue: 3.3895313892515355e38,
  encodeHelper: { name: 'bf16Encode', fn: encodeBf16 },
  decodeHelper: { name: 'bf16Table', fn: decodeBf16, table: decodeTable(decodeBf16) },
}), BUILTIN_STORAGE_GPU_FACTS.bf16);
