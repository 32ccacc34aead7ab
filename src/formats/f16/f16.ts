/**
 * IEEE binary16 (fp16) storage: the bit patterns in a Uint16Array, 2 bytes per value.
 * Reads go through a 65536-entry table (exact; faster than bit decoding in V8), writes through the
 * correctly rounded encoder (ties to even, subnormals, overflow to ±Inf, NaN kept).
 * @module
 */
import { typedArrayStorage } from '../common/typed-array-storage.js';
import { builtinGpuStorage, BUILTIN_STORAGE_GPU_FACTS } from '../common/gpu-facts.js';
import { decodeF16, encodeF16 } from '../convert/f16.js';

/** Decodes every binary16 bit pattern once. */
function decodeTable(decode: (bits: number) => number): Float64Array {
  const t = new Float64Array(65536);
  for (let b = 0; b < 65536; b++) t[b] = decode(b);
  return t;
}

/**
 * fp16 storage (u = 2^-11, max 65504).
 * @group Formats
 */
export const f16Storage = builtinGpuStorage(typedArrayStorage<Uint16Array>({
  name: 'f16', array: Uint16Array, significandBits: 11, unitRoundoff: 2 ** -11, isInteger: false, maxValue: 65504,
  encodeHelper: { name: 'f16Encode', fn: encodeF16 },
  decodeHelper: { name: 'f16Table', fn: decodeF16, table: decodeTable(decodeF16) },
}), BUILTIN_STORAGE_GPU_FACTS.f16);

export { decodeTable };
