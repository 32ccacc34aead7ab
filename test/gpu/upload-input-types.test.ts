/**
 * Uploads refuse what is not an array of values with a typed error naming the parameter. Regression: `toDevice(null)`
 * and `rnsToDevice(null, set)` threw TypeErrors ("reading 'get'", "reading 'length'"), `rnsToDevice(['1'], set)` one
 * from inside its encoder, and `rnsToDevice(3, set)` / `rnsToDevice({}, set)` uploaded an empty array.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { toDevice, rnsToDevice, rnsDeviceSet } from '../../src/backends/webgpu/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { outcome } from '../kernels/kernel-calls.js';


describe('uploads of values that are not arrays of numbers', () => {
  it('toDevice and rnsToDevice: INVALID_STORAGE for a non-array, INVALID_VALUE naming the element for a wrong element', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    await fc.assert(fc.asyncProperty(fc.constantFrom<unknown>(null, undefined, 3, 'abc', {}, true), async (bad) => {
      expect(await outcome(() => toDevice(bad as never))).toBe('INVALID_STORAGE data');
      expect(await outcome(() => rnsToDevice(bad as never, set))).toBe('INVALID_STORAGE x');
    }), { numRuns: 6 });
    expect(await outcome(() => rnsToDevice(['1'] as never, set))).toBe('INVALID_VALUE x[0]');
    expect(await outcome(() => rnsToDevice([1, {}] as never, set))).toBe('INVALID_VALUE x[1]');
    expect(await outcome(() => rnsToDevice([1, 2], set))).toBe('ran');
  });
});
