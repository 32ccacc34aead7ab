/**
 * Index arithmetic beyond 2^24 elements (where binary32 indices would go wrong): a GEMV, an ELL SpMV and
 * a TRSV whose matrices have more than 2^24 elements, checked row by row.
 */
import { describe, expect, it } from 'vitest';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuEllSpmv, toDeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { gamma, requireRuntime } from './gpu-test-helpers.js';

/** Small integers: every product and partial sum is exact in binary32, so results must match exactly. */
function smallIntegers(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed;
  for (let k = 0; k < n; k++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[k] = ((s >>> 16) % 7) - 3;
  }
  return out;
}

describe('GPU kernels beyond 2^24 elements', () => {
  it('GEMV N and T on a 4100 × 4100 matrix (16.8 M elements)', async () => {
    await requireRuntime();
    const n = 4100;
    expect(n * n).toBeGreaterThan(2 ** 24);
    const a = smallIntegers(n * n, 1);
    const xs = smallIntegers(n, 2);
    const A = deviceMatrix(await toDevice(a), n, n);
    const x = await toDevice(xs);
    for (const trans of ['N', 'T'] as const) {
      const y = await toDevice(new Float32Array(n));
      await gpuGemv({ A, x, y, trans });
      const got = await y.toHost();
      // |row sums| ≤ 9·4100 < 2^24: exact in f32, so any index error shows as a wrong value.
      for (const i of [0, 1, 2047, 2048, 4095, 4098, 4099]) {
        let s = 0;
        for (let j = 0; j < n; j++) s += (trans === 'N' ? a[i + j * n]! : a[j + i * n]!) * xs[j]!;
        expect(got[i]).toBe(s);
      }
      y.destroy();
    }
    A.data.destroy();
  });

  it('ELL SpMV on a 3-D Laplacian with 29 M stored entries', async () => {
    await requireRuntime();
    const L = laplacianEll([256, 128, 128], { strideMultiple: 64 });
    expect(L.stride * L.width).toBeGreaterThan(2 ** 24);
    const A = await toDeviceEll(L);
    const xs = smallIntegers(L.cols, 3);
    const x = await toDevice(xs);
    const y = await toDevice(new Float32Array(L.rows));
    await gpuEllSpmv({ A, x, y });
    const got = await y.toHost();
    for (let i = 0; i < L.rows; i += 997) {
      let s = 0;
      for (let k = 0; k < L.width; k++) {
        const c = L.colIndex[i + k * L.stride]!;
        if (c >= 0) s += L.values[i + k * L.stride]! * xs[c]!;
      }
      expect(got[i]).toBe(s);
    }
    A.values.destroy();
    A.colIndex?.destroy();
  });

  it('TRSV on a 4104 × 4104 lower triangle (16.8 M elements)', async () => {
    await requireRuntime();
    const n = 4104;
    const a = new Float32Array(n * n);
    const r = smallIntegers(n * n, 4);
    for (let j = 0; j < n; j++) for (let i = j; i < n; i++) a[i + j * n] = i === j ? 2 : r[i + j * n]! / n;
    const b = smallIntegers(n, 5);
    const A = deviceMatrix(await toDevice(a), n, n);
    const x = await toDevice(b, { format: 'ff' });
    await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'ff', blockSize: 128 });
    const sol = await x.toHost();
    for (const i of [0, 2100, 4097, 4103]) {
      let s = -b[i]!;
      let mag = Math.abs(b[i]!);
      for (let j = 0; j <= i; j++) {
        s += a[i + j * n]! * sol[j]!;
        mag += Math.abs(a[i + j * n]! * sol[j]!);
      }
      expect(Math.abs(s)).toBeLessThanOrEqual(gamma(8 * n, 2 ** -45) * mag);
    }
    A.data.destroy();
  });
});
