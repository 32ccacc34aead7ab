/**
 * The prefetching loops with two alternating register sets (the `prefetchPingPong` switch,
 * kernels/shared/prefetched-steps.ts `pingPongSteps`): the same loads and the same sums in the same order as the
 * prefetching loop that moves its registers, so GEMV N (two-row pair reads and row-by-row reads, chunks of an odd and
 * an even number of steps, with and without a tail, none at all) and DOT give the same bits — in f32 and float-float,
 * also with ffLongLazy's step counter running across the two halves of an iteration.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { compiledPrograms } from '../../src/backends/webgpu/program.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

const same = (a: ArrayLike<number>, b: ArrayLike<number>): boolean => a.length === b.length && Array.from(a).every((v, k) => Object.is(v, b[k]));

describe('prefetching loops with two register sets (prefetchPingPong)', () => {
  it('GEMV N, bf16 storage, f32 and ff: the bits of the loop that moves its registers', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(
        // m even (pair reads) or odd (row by row); n up to 200 columns in 1 to 3 chunks: 0 to 25 steps of 8 a thread.
        fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom<'f32' | 'ff'>('f32', 'ff'), fc.boolean(), fc.integer({ min: 1, max: 2 ** 30 }),
        async (m, n, splits, arithmetic, longLazy, seed) => {
          // bf16 only: the loop does not depend on the format (DOT below reads fp32 too).
          const storage = 'bf16';
          const A = deviceMatrix(await toDevice(randomValues(m * n, seed), { format: storage }), m, n);
          const x = await toDevice(randomValues(n, seed + 1), { format: 'f32' });
          const run = async (prefetchPingPong: boolean): Promise<Float64Array> => {
            setGpuKernelSwitches({ gemvPrefetch: true, ffLongLazy: longLazy, prefetchPingPong });
            const y = await toDevice(new Float64Array(m), { format: 'f64' });
            await gpuGemv({ A, x, y }, { arithmetic, targetThreads: m * splits });
            const out = await y.toHost();
            y.destroy();
            return out;
          };
          const [moved, alternating] = [await run(false), await run(true)];
          expect(same(alternating, moved), `m=${m} n=${n} splits=${splits} ${storage} ${arithmetic} longLazy=${longLazy}: ${alternating} vs ${moved}`).toBe(true);
          A.data.destroy();
          x.destroy();
        },
      ),
      { numRuns: 5 },
    );
    expect((await compiledPrograms()).some((p) => p.source.includes('kq = mpImin(') && p.source.includes('kp = mpImin('))).toBe(true);
  });

  it('DOT with dotPrefetch, bf16 and fp32 storage, f32 and ff: the same value', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 8 }), fc.constantFrom<'bf16' | 'f32'>('bf16', 'f32'), fc.constantFrom<'f32' | 'ff'>('f32', 'ff'), fc.integer({ min: 1, max: 2 ** 30 }), async (n, maxThreads, storage, arithmetic, seed) => {
        const x = await toDevice(randomValues(n, seed), { format: storage });
        const y = await toDevice(randomValues(n, seed + 1), { format: 'f32' });
        const dot = async (prefetchPingPong: boolean): Promise<number> => {
          setGpuKernelSwitches({ dotPrefetch: true, prefetchPingPong });
          return (await gpuDot(x, y, { arithmetic, maxThreads })).value;
        };
        const [moved, alternating] = [await dot(false), await dot(true)];
        expect(Object.is(alternating, moved), `n=${n} T≤${maxThreads} ${storage} ${arithmetic}: ${alternating} vs ${moved}`).toBe(true);
        x.destroy();
        y.destroy();
      }),
      { numRuns: 4 },
    );
  });
});
