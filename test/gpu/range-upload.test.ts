/**
 * Uploading the core's ranges: a 1-D range becomes a vector, a 2-D range a column-major matrix, whatever
 * the range's own layout and storage; GPU results agree with the CPU values of the range.
 */
import { describe, expect, it } from 'vitest';
import { colMajor, rowMajor } from '../../accessors/index.js';
import { range } from '../../src/core/range.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

describe('toDevice with ranges', () => {
  it('uploads a row-major 2-D range column-major and a strided 1-D range', async () => {
    await requireRuntime();
    const m = 5;
    const n = 3;
    const A = range(rowMajor({ size: [m, n], data: randomValues(m * n, 1) }));
    const xData = randomValues(2 * n, 2);
    const x = range(colMajor({ size: n, stride: 2, data: xData }));
    const dA = await toDevice(A, { format: 'ff' });
    const hostA = await dA.toHost();
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) expect(hostA[i + j * m]).toBe(A.get(i, j));
    const dx = await toDevice(x, { format: 'ff' });
    expect([...(await dx.toHost())]).toEqual([0, 1, 2].map((k) => x.get(k)));
    const y = await toDevice(new Float64Array(m), { format: 'ff' });
    await gpuGemv({ A: deviceMatrix(dA, m, n), x: dx, y }, { arithmetic: 'ff' });
    const got = await y.toHost();
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += Number(A.get(i, j)) * Number(x.get(j));
      expect(Math.abs(got[i]! - s)).toBeLessThanOrEqual(1e-14);
    }
  });
});
