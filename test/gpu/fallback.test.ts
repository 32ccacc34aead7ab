/**
 * The CPU fallback: host-resident arrays (what toDevice returns where no adapter exists) run every entry
 * point on the CPU, report why, and agree with the GPU within the same bounds.
 */
import { describe, expect, it } from 'vitest';
import { DeviceArray, toDevice } from '../../src/backends/webgpu/device-array.js';
// The GPU entry hands the host fallback its CPU kernels (src/backends/webgpu/host-kernels.ts).
import '../../src/backends/webgpu/index.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuEllSpmv, type DeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { GPU_FORMATS, type GpuFormatName } from '../../src/backends/webgpu/formats.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { ModprecError } from '../../src/core/errors.js';
import { gamma, randomValues, requireRuntime } from './gpu-test-helpers.js';

const REASON = 'test: no adapter';

function hostArray(values: ArrayLike<number>, format: GpuFormatName = 'f32'): DeviceArray {
  const f = GPU_FORMATS[format];
  return new DeviceArray(undefined, f, values.length, 256, f.encode(values, 'data', 256), REASON);
}

describe('CPU fallback', () => {
  it('DOT, GEMV, ELL SpMV and TRSV run on host-resident arrays, say so, and match the GPU', async () => {
    await requireRuntime();
    const n = 40;
    const xv = randomValues(n, 1);
    const av = randomValues(n * n, 2);
    for (let i = 0; i < n; i++) av[i + i * n] = 3;

    const dHost = await gpuDot(hostArray(xv), hostArray(xv), { arithmetic: 'ff' });
    const dGpu = await gpuDot(await toDevice(xv), await toDevice(xv), { arithmetic: 'ff' });
    expect(dHost.backend).toBe('cpu');
    expect(dHost.fallbackReason).toBe(REASON);
    expect(dGpu.backend).toBe('gpu');
    expect(Math.abs(dHost.value - dGpu.value)).toBeLessThanOrEqual(gamma(2 * n, 2 ** -47) * n);

    const yHost = hostArray(new Float64Array(n), 'ff');
    const r = await gpuGemv({ A: deviceMatrix(hostArray(av), n, n), x: hostArray(xv), y: yHost }, { arithmetic: 'ff' });
    expect(r.backend).toBe('cpu');
    const yGpu = await toDevice(new Float64Array(n), { format: 'ff' });
    await gpuGemv({ A: deviceMatrix(await toDevice(av), n, n), x: await toDevice(xv), y: yGpu }, { arithmetic: 'ff' });
    const [h, g] = [await yHost.toHost(), await yGpu.toHost()];
    for (let i = 0; i < n; i++) expect(Math.abs(h[i]! - g[i]!)).toBeLessThanOrEqual(gamma(2 * n, 2 ** -47) * n);

    const ell: DeviceEll = { rows: 2, cols: 2, width: 2, stride: 2, values: hostArray([1, 2, 3, -1]), colIndex: undefined, hostColIndex: Int32Array.from([0, 1, 1, -1]) };
    const y2 = hostArray([0, 0]);
    expect((await gpuEllSpmv({ A: ell, x: hostArray([10, 100]), y: y2 })).backend).toBe('cpu');
    expect([...(await y2.toHost())]).toEqual([310, 200]);

    const xt = hostArray(xv, 'ff');
    expect((await gpuTrsv({ A: deviceMatrix(hostArray(av), n, n), x: xt, uplo: 'L' }, { arithmetic: 'ff' })).backend).toBe('cpu');
    const sol = await xt.toHost();
    for (let i = 0; i < n; i++) {
      let s = -xv[i]!;
      for (let j = 0; j <= i; j++) s += Math.fround(av[i + j * n]!) * sol[j]!;
      expect(Math.abs(s)).toBeLessThan(1e-12);
    }
  });

  it('strict turns the fallback into BACKEND_UNAVAILABLE', async () => {
    await requireRuntime();
    const x = hostArray([1, 2]);
    for (const run of [
      () => gpuDot(x, x, { strict: true }),
      () => gpuGemv({ A: deviceMatrix(hostArray([1, 0, 0, 1]), 2, 2), x, y: hostArray([0, 0]) }, { strict: true }),
      () => gpuTrsv({ A: deviceMatrix(hostArray([1, 0, 0, 1]), 2, 2), x }, { strict: true }),
    ]) {
      try {
        await run();
        throw new Error('expected an error');
      } catch (e) {
        expect((e as ModprecError).code).toBe('BACKEND_UNAVAILABLE');
        expect((e as ModprecError).message).toContain(REASON);
      }
    }
  });

  it('refuses to mix host-resident and device arrays', async () => {
    await requireRuntime();
    try {
      await gpuDot(hostArray([1, 2]), await toDevice([1, 2]));
      throw new Error('expected an error');
    } catch (e) {
      expect((e as ModprecError).code).toBe('INVALID_STORAGE');
    }
  });
});
