/**
 * GEMV's two-pass form binds its partial sums whole in the finish pass. A split target (`targetThreads`) large enough
 * to make them pass the adapter's maxStorageBufferBindingSize used to end in a dispatch Dawn rejected: a validation
 * message, no exception, and y left as it was. The target now halves until the partials fit; the result must be the
 * exact product (small integers, stored exactly in f16: every partial sum is exact in float-float and in f32).
 */
import { describe, expect, it } from 'vitest';
import { bindingLimit, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gemvSplit, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { requireRuntime } from './gpu-test-helpers.js';

describe('GEMV partials past one storage binding', () => {
  it.each(['ff', 'f32'] as const)('a targetThreads whose partials exceed the binding limit still gives the exact y (%s)', async (arithmetic) => {
    const rt = await requireRuntime();
    const limit = bindingLimit(rt);
    const words = arithmetic === 'ff' ? 2 : 1;
    const m = 4096;
    // Enough columns that one partial per (row, column) passes the limit (by ~2 %), A (in f16) within it.
    const n = Math.ceil((1.02 * limit) / (4 * words * m));
    expect(m * n * 2).toBeLessThan(limit);
    expect(gemvSplit(m, n, m * n).splits * m * words * 4).toBeGreaterThan(limit);
    const a = new Float64Array(m * n);
    for (let k = 0; k < a.length; k++) a[k] = ((k * 7919) % 5) - 2;
    const hx = new Float64Array(n);
    for (let j = 0; j < n; j++) hx[j] = ((j * 104729) % 3) - 1;
    const exact = new Float64Array(m);
    for (let j = 0; j < n; j++) {
      if (hx[j] === 0) continue;
      for (let i = 0; i < m; i++) exact[i] += a[j * m + i]! * hx[j]!;
    }
    const A = deviceMatrix(await toDevice(a, { format: 'f16' }), m, n);
    const x = await toDevice(hx, { format: 'f32' });
    const y: DeviceArray = await toDevice(new Float64Array(m).fill(Number.NaN), { format: 'f32' });
    try {
      await gpuGemv({ A, x, y, alpha: 1, beta: 0 }, { arithmetic, targetThreads: m * n });
      const got = await y.toHost();
      let wrong = 0;
      for (let i = 0; i < m; i++) if (got[i] !== exact[i]) wrong++;
      expect(wrong).toBe(0);
    } finally {
      A.data.destroy();
      x.destroy();
      y.destroy();
    }
  });
});
