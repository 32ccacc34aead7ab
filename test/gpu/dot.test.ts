/**
 * GPU DOT for every storage format and both arithmetics against an accurate sum of the stored values,
 * within γ_{n+8}(u) Σ|x_k y_k| plus the read error of the storage; bit-for-bit reproducibility.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuDot, gpuDotResident } from '../../kernels/dot/dot-webgpu.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { accurateSum, gamma, opError, randomValues, readError, requireRuntime } from './gpu-test-helpers.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';

const initialSwitches = gpuKernelSwitches();
afterEach(() => void setGpuKernelSwitches(initialSwitches));

const STORAGES = ['f32', 'f16', 'bf16', 'f64', 'ff', 'i8', 'i16'] as const;

describe('gpuDot', () => {
  for (const storage of STORAGES) {
    for (const arithmetic of ['f32', 'ff'] as const) {
      it(`${storage} storage, ${arithmetic} arithmetic, within the a-priori bound`, async () => {
        await requireRuntime();
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 2 ** 30 }), async (n, seed) => {
            const x = await toDevice(randomValues(n, seed), { format: storage, scaleBlock: 64 });
            const y = await toDevice(randomValues(n, seed + 1, 3), { format: storage, scaleBlock: 64 });
            const hx = await x.toHost();
            const hy = await y.toHost();
            const terms = hx.map((v, k) => v * hy[k]!);
            const exact = accurateSum(terms);
            const mag = accurateSum(terms.map(Math.abs));
            const r = await gpuDot(x, y, { arithmetic });
            expect(r.backend).toBe('gpu');
            expect(r.arithmetic).toBe(arithmetic);
            const bound = (gamma(n + 8, opError(arithmetic)) + 2.01 * readError(storage, arithmetic)) * mag;
            expect(Math.abs(r.value - exact)).toBeLessThanOrEqual(bound);
          }),
          { numRuns: 3 },
        );
      });
    }
  }

  it('is bit-for-bit reproducible from run to run (multi-pass, fixed order)', async () => {
    await requireRuntime();
    const n = 300_000; // three reduction passes
    const x = await toDevice(randomValues(n, 5));
    const y = await toDevice(randomValues(n, 6));
    for (const arithmetic of ['f32', 'ff'] as const) {
      const first = (await gpuDot(x, y, { arithmetic })).value;
      for (let r = 0; r < 5; r++) expect(Object.is((await gpuDot(x, y, { arithmetic })).value, first)).toBe(true);
    }
  });

  it('maxThreads, groupWidth, groups and chains pick the first-pass split: each setting reproducible and within the bound; bad values are typed errors', async () => {
    await requireRuntime();
    const n = 50_000;
    const x = await toDevice(randomValues(n, 7));
    const y = await toDevice(randomValues(n, 8));
    const hx = await x.toHost();
    const hy = await y.toHost();
    const terms = hx.map((v, k) => v * hy[k]!);
    const exact = accurateSum(terms);
    const mag = accurateSum(terms.map(Math.abs));
    for (const maxThreads of [1, 7, 256, 2 ** 20]) {
      for (const shape of [{ groupWidth: 1 }, { groupWidth: 2 }, { groupWidth: 4 }, { groupWidth: 4, groups: 3, chains: 2 }, { groupWidth: 1, groups: 5, chains: 3 }] as const) {
        const a = (await gpuDot(x, y, { arithmetic: 'ff', maxThreads, ...shape })).value;
        expect(Object.is((await gpuDot(x, y, { arithmetic: 'ff', maxThreads, ...shape })).value, a)).toBe(true);
        expect(Math.abs(a - exact)).toBeLessThanOrEqual(gamma(n + 8, opError('ff')) * mag);
      }
    }
    await expect(gpuDot(x, y, { maxThreads: 0 })).rejects.toMatchObject({ code: 'INVALID_SIZE', parameter: 'options.maxThreads' });
    await expect(gpuDot(x, y, { groupWidth: 3 as 1 })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.groupWidth' });
    await expect(gpuDot(x, y, { groups: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.groups' });
    await expect(gpuDot(x, y, { chains: 9 })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.chains' });
  });

  it('vector loads (runs of four read as vec4/vec2) give bit-for-bit the result of scalar loads, tails included', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...STORAGES), fc.integer({ min: 1, max: 700 }), fc.constantFrom(1, 3, 64), fc.integer({ min: 1, max: 2 ** 30 }), async (storage, n, maxThreads, seed) => {
        const x = await toDevice(randomValues(n, seed), { format: storage, scaleBlock: 64 });
        const y = await toDevice(randomValues(n, seed + 1, 3), { format: storage === 'i8' ? 'f16' : storage, scaleBlock: 64 });
        // Runs of four either way: the runs of eight of two packed 16-bit vectors (dotOctetRuns) are another order.
        setGpuKernelSwitches({ dotOctetRuns: false });
        for (const arithmetic of ['f32', 'ff'] as const) {
          const vector = (await gpuDot(x, y, { arithmetic, maxThreads })).value;
          const scalar = (await gpuDot(x, y, { arithmetic, maxThreads, vectorLoads: false })).value;
          expect(Object.is(vector, scalar)).toBe(true);
        }
        x.destroy();
        y.destroy();
      }),
      { numRuns: 14 },
    );
    const x = await toDevice([1, 2, 3]);
    await expect(gpuDot(x, x, { vectorLoads: 'yes' as unknown as boolean })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.vectorLoads' });
  });

  it('float-float is far more accurate than f32 on an ill-conditioned sum', async () => {
    await requireRuntime();
    // x·y = 1 + 2^-20 − 1 (cancellation): f32 loses it, float-float keeps it.
    const x = await toDevice([1, 2 ** -20, -1]);
    const y = await toDevice([1, 1, 1]);
    expect((await gpuDot(x, y, { arithmetic: 'ff' })).value).toBe(2 ** -20);
    const big = await toDevice([2 ** 25, 1, -(2 ** 25)]);
    expect((await gpuDot(big, y, { arithmetic: 'ff' })).value).toBe(1);
    expect((await gpuDot(big, y, { arithmetic: 'f32' })).value).toBe(0);
  });

  it('gpuDotResident: destroying the result releases the view only, and later DOTs on the same operands still run', async () => {
    await requireRuntime();
    for (const arithmetic of ['f32', 'ff', 'dd'] as const) {
      const format = arithmetic === 'dd' ? 'f64' : 'f32';
      const x = await toDevice([1, 2, 3], { format }), y = await toDevice([4, 5, 6], { format });
      const first = await gpuDotResident(x, y, { arithmetic });
      expect([...(await first.result.toHost())], arithmetic).toEqual([32]);
      first.result.destroy();
      // The result is a view of the plan's buffer; destroying it once destroyed that buffer, and every later DOT on
      // these operands submitted a destroyed buffer and returned 0.
      expect((await gpuDot(x, y, { arithmetic })).value, arithmetic).toBe(32);
      const again = await gpuDotResident(x, y, { arithmetic });
      expect([...(await again.result.toHost())], arithmetic).toEqual([32]);
      // Written by a kernel, the view's buffer would move into that kernel's plan (outputs ping-pong): refused.
      await expect(gpuUpdate({ alpha: 1, x: again.result, beta: 0, out: again.result }, { arithmetic })).rejects.toMatchObject({ code: 'INVALID_STORAGE', parameter: 'out' });
      for (const a of [x, y]) a.destroy();
    }
  });

  it('handles length 1 and signed zeros', async () => {
    await requireRuntime();
    expect((await gpuDot(await toDevice([3]), await toDevice([-2]))).value).toBe(-6);
    expect((await gpuDot(await toDevice([-0]), await toDevice([5]), { arithmetic: 'ff' })).value).toBe(0);
  });
});
