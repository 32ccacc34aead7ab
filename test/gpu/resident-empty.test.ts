/**
 * The resident API on empty operands behaves as the kernels on ranges do: an empty product leaves y untouched (NaN
 * included), reductions of nothing are 0. Regression: `deviceMatrix(data, 0, n)` defaulted its leading dimension to
 * rows = 0 and then refused it (INVALID_STRIDE ld: "must be at least max(1, rows) = 1"), so `gpuGemv` and `gpuTrsv`
 * could not take a matrix with no rows unless ld was given.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { gemv, matrix, vector, toArray, formats } from '../../src/index.js';
import { toDevice, deviceMatrix, gpuGemv, gpuTrsv, gpuDot, gpuAsum, gpuNrm2 } from '../../src/backends/webgpu/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

const bits = (a: ArrayLike<number>): string[] => Array.from(a, (v) => (Object.is(v, -0) ? '-0' : String(v)));

describe('resident kernels on empty operands', () => {
  it('GEMV with m = 0 or n = 0 (default ld): y as the range kernel leaves it, for every α, β and trans', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.constantFrom([0, 0], [0, 3], [3, 0]), fc.constantFrom('N', 'T' as const), fc.constantFrom(0, 1, 2, NaN), fc.constantFrom(0, 1, -1, NaN),
      async ([m, n], trans, alpha, beta) => {
        const rows = trans === 'N' ? m! : n!, cols = trans === 'N' ? n! : m!;
        const y0 = Array.from({ length: rows }, (_, i) => (i === 0 ? NaN : -i));
        const A = deviceMatrix(await toDevice(new Float64Array(m! * n!), { format: 'f32' }), m!, n!);
        expect(A.ld).toBe(Math.max(1, m!));
        const y = await toDevice(y0, { format: 'f32' });
        await gpuGemv({ A, x: await toDevice(new Float64Array(cols).fill(1), { format: 'f32' }), y, alpha, beta, trans });
        const f32 = { storage: formats.f32, arithmetic: formats.f32 };
        const yr = vector(y0, f32);
        gemv({ alpha, A: matrix(m!, n!, () => 0, f32), x: vector(new Array(cols).fill(1), f32), beta, y: yr, trans });
        expect(bits(await y.toHost())).toEqual(bits(toArray(yr)));
      },
    ), { numRuns: 12, seed: 7 });
  });

  it('TRSV of order 0, and reductions of nothing', async () => {
    await requireRuntime();
    const x = await toDevice([], { format: 'f32' });
    await gpuTrsv({ A: deviceMatrix(await toDevice([], { format: 'f32' }), 0, 0), x });
    expect(x.length).toBe(0);
    const e = await toDevice([], { format: 'f32' });
    expect([(await gpuDot(e, e)).value, (await gpuAsum(e)).value, (await gpuNrm2(e)).value]).toEqual([0, 0, 0]);
  });
});
