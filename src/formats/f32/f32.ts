/**
 * IEEE binary32 storage in a Float32Array: 4 bytes per value. The typed array's own conversion rounds to
 * nearest, ties to even, with subnormals and overflow to ±Inf (ECMAScript's NumberToRawBytes), so no helper.
 * @module
 */
import { typedArrayStorage } from '../common/typed-array-storage.js';
import { builtinGpuStorage, BUILTIN_STORAGE_GPU_FACTS } from '../common/gpu-facts.js';

/**
 * fp32 storage (u = 2^-24).
 * @group Formats
 */
export const f32Storage = builtinGpuStorage(typedArrayStorage<Float32Array>({
  name: 'f32', array: Float32Array, significandBits: 24, unitRoundoff: 2 ** -24, isInteger: false,
  maxValue: 3.4028234663852886e38,
}), BUILTIN_STORAGE_GPU_FACTS.f32);
