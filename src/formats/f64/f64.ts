/** IEEE binary64 storage in a Float64Array. @module */
import { typedArrayStorage } from '../common/typed-array-storage.js';
import { builtinGpuStorage, BUILTIN_STORAGE_GPU_FACTS } from '../common/gpu-facts.js';

/**
 * fp64 storage: 8 bytes per value, exact for every double.
 * @group Formats
 */
export const f64Storage = builtinGpuStorage(typedArrayStorage<Float64Array>({
  name: 'f64', array: Float64Array, significandBits: 53, unitRoundoff: 2 ** -53, isInteger: false,
  maxValue: Number.MAX_VALUE,
}), BUILTIN_STORAGE_GPU_FACTS.f64);
