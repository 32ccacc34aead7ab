/** IEEE binary64 storage in a Float64Array. @module */
import { typedArrayStorage } from '../common/typed-array-storage.js';
import { f64GpuPart } from './f64-gpu-words.js';

/**
 * fp64 storage: 8 bytes per value, exact for every double.
 * @group Formats
 */
export const f64Storage = typedArrayStorage<Float64Array>({
  name: 'f64', gpu: f64GpuPart, array: Float64Array, significandBits: 53, unitRoundoff: 2 ** -53, isInteger: false,
  maxValue: Number.MAX_VALUE,
});
