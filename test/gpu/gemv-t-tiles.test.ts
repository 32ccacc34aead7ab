/**
 * GEMV T whose x is larger than one storage binding (a lowered limit, so llvmpipe takes the path with small arrays):
 * A is read in tiles of rows × columns and x in the same windows of rows. Column-major matrices (A's columns over the
 * limit too), sub-ranges, and row-major views with trans N (which run as T on their transpose), x packed or a view of
 * either stride sign; small integers, so every sum is exact in both arithmetics and the result must equal the exact one
 * (which is also the CPU kernel's). The span around a strided x is not written.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deviceView, setBindingLimitForTests, toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrixView, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import type { GpuFormatName } from '../../src/backends/webgpu/formats.js';
import { requireRuntime } from './gpu-test-helpers.js';

function ints(n: number, seed: number, lo: number, hi: number): Float64Array {
  let s = seed >>> 0 || 1;
  return Float64Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return lo + ((s >>> 16) % (hi - lo + 1));
  });
}

describe('GEMV T with x over one storage binding', () => {
  it('reads A in tiles of rows × columns and x in windows of rows: the exact result, for either layout and x a view', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.constantFrom<GpuFormatName>('f32', 'f16', 'f64'),
      fc.constantFrom<GpuFormatName>('f32', 'f64', 'ff'),
      fc.integer({ min: 1100, max: 2600 }), fc.integer({ min: 1, max: 6 }),
      fc.boolean(), fc.constantFrom(1, 2, -3), fc.constantFrom<'f32' | 'ff'>('f32', 'ff'), fc.constantFrom(0, 1), fc.integer({ min: 1, max: 1000 }),
      async (aFormat, xFormat, m, n, rowMajor, xStride, arithmetic, beta, seed) => {
        // op(A) = Aᵀ of an m × n matrix: column-major with ld m + 3 at offset 5 and trans T, or the n × m row-major view
        // of the same span (row stride m + 3) with trans N — the kernel's T on its transpose either way.
        const ld = m + 3;
        const span = ints(5 + ld * n, seed, -3, 3);
        const A = await toDevice(span, { format: aFormat });
        const mat = rowMajor
          ? deviceMatrixView(A, { rows: n, cols: m, offset: 5, rowStride: ld, colStride: 1 })
          : deviceMatrixView(A, { rows: m, cols: n, offset: 5, rowStride: 1, colStride: ld });
        const xs = ints(m, seed + 1, -2, 2);
        const xSpan = new Float64Array(2 + (m - 1) * Math.abs(xStride) + 1).fill(1000);
        const xOff = 1 + (xStride < 0 ? (m - 1) * -xStride : 0);
        for (let i = 0; i < m; i++) xSpan[xOff + i * xStride] = xs[i]!;
        const xArray = await toDevice(xSpan, { format: xFormat });
        const x = xStride === 1 ? await toDevice(xs, { format: xFormat }) : deviceView(xArray, xOff, m, xStride);
        const y0 = ints(n, seed + 2, -5, 5);
        const y = await toDevice(y0, { format: 'f64' });
        setBindingLimitForTests(4096);
        try {
          await gpuGemv({ A: mat, x, y, alpha: 2, beta, trans: rowMajor ? 'N' : 'T' }, { arithmetic });
        } finally {
          setBindingLimitForTests(undefined);
        }
        const got = await y.toHost();
        for (let j = 0; j < n; j++) {
          let sum = 0;
          for (let i = 0; i < m; i++) sum += span[5 + i + j * ld]! * xs[i]!;
          expect(got[j], `column ${j}`).toBe(2 * sum + beta * y0[j]!);
        }
        if (xStride !== 1) expect(Array.from(await deviceView(xArray, 0, xSpan.length, 1).toHost())).toEqual(Array.from(xSpan));
        for (const d of [A, xArray, x, y]) d.destroy();
      },
    ), { numRuns: 25 });
  });
});
