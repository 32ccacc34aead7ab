/**
 * rnsEllToDevice (modprec/gpu) takes its fp64 values as ellMatrix does — a Float64Array (or an RNS device array) —
 * and anything else is INVALID_STORAGE naming `values`, before anything is uploaded. Regression: a plain array of
 * numbers went up as zeros (it has no buffer to view), so `rnsGpuEllSpmv` computed y = 0·x without an error where the
 * CPU kernel on the same entries computes A·x; a Float32Array or Int32Array threw a RangeError ("Invalid typed array
 * length").
 */
import { describe, expect, it } from 'vitest';
import { ellMatrix, ellStructure } from '../../src/index.js';
import { rnsDeviceSet, rnsEllToDevice, rnsGpuEllSpmv, rnsToDevice } from '../../src/backends/webgpu/index.js';
import { outcome } from '../kernels/kernel-calls.js';
import { requireRuntime } from './gpu-test-helpers.js';

const parts = { rows: 2, cols: 2, width: 1, stride: 2, colIndex: Int32Array.of(0, 1) };

describe('rnsEllToDevice values', () => {
  it('anything but a Float64Array or an RNS device array is INVALID_STORAGE naming values; a Float64Array gives A·x', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    const structure = ellStructure(ellMatrix({ ...parts, values: Float64Array.of(2, 3) }));
    const x = await rnsToDevice([5, -7], set);
    for (const values of [[2, 3], Float32Array.of(2, 3), Int32Array.of(2, 3), BigInt64Array.of(2n, 3n), ['2', 3], null, undefined, 'ab', { length: 2 }]) {
      expect([values, await outcome(() => rnsEllToDevice(structure, values as never, x))]).toEqual([values, 'INVALID_STORAGE values']);
    }
    const y = await rnsToDevice([0, 0], set);
    await rnsGpuEllSpmv({ A: await rnsEllToDevice(structure, Float64Array.of(2, 3), x), x, y });
    expect((await y.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp)).toEqual([10, -21]);
  });
});
