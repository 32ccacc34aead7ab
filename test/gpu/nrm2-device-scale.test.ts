/**
 * GPU NRM2 picks its scale 2^e on the device, from the bits of the binary32 maximum, in the same submission as the
 * sum of squares (one wait instead of two). The scale must be the one the CPU kernel picks from the maximum's value,
 * over the whole binary32 range — subnormal maxima, powers of two, values just below a power of two, the largest
 * finite — or the result is off by a power of two: for vectors of up to four elements (one summation order on both
 * backends) the GPU's value must equal the CPU's exactly (or, on a device that flushes binary32 subnormals, the CPU's
 * on the values with subnormals flushed).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, nrm2, vector } from '../../src/index.js';
import { flushedBinary32, requireRuntime } from './gpu-test-helpers.js';

/** A binary32 of any exponent (subnormals included), any sign. */
const f32Value = fc.tuple(fc.integer({ min: 1, max: 2 ** 24 - 1 }), fc.integer({ min: -149 - 23, max: 127 - 23 }), fc.boolean()).map(([m, k, neg]) => {
  const v = Math.fround(m * 2 ** k);
  return neg ? -v : v;
});
const edge = fc.constantFrom(2 ** -149, 3 * 2 ** -149, 2 ** -126, 2 ** -126 - 2 ** -149, 1, Math.fround(1 - 2 ** -24), 2 ** 127, 3.4028234663852886e38, 0, -0);

describe('GPU NRM2: the scale chosen on the device is the CPU kernel\'s', () => {
  it('equals the CPU value exactly for up to four elements, every exponent, f32 and ff arithmetic', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(fc.oneof(f32Value, edge), { minLength: 1, maxLength: 4 }), fc.constantFrom(formats.f32, formats.ff), async (values, arithmetic) => {
      const x = vector(values, { storage: formats.f32 });
      const cpu = nrm2(x, { arithmetic });
      // A device that flushes binary32 subnormals (WGSL allows it) computes on them as ±0.
      const flushed = nrm2(vector(values.map(flushedBinary32), { storage: formats.f32 }), { arithmetic });
      const gpu = await nrm2(x, { backend: 'gpu', arithmetic });
      expect(gpu.backend).toBe('gpu');
      expect(Object.is(gpu.value, cpu) || Object.is(gpu.value, flushed), `${arithmetic.name} [${values.join(', ')}]: gpu ${gpu.value}, cpu ${cpu} (${flushed} flushed)`).toBe(true);
    }), { numRuns: 150 });
  });
});
