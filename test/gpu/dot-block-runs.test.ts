/**
 * DOT's first pass with block runs (the `dotBlockRuns` switch of src/backends/webgpu/kernel-switches.ts): each
 * workgroup's runs of a step as one contiguous block. Another fixed order: the value must lie within the DOT bound
 * (γ_{2n+3} of the arithmetic's unit times Σ|x·y|) of the exact rational result, repeat bit for bit, and be the same
 * through the one-dispatch finish (which runs the same first-pass lines); thread counts that are no multiple of 64
 * keep the default runs (the default's bits). Lengths leave partial last steps and runs; f32 and float-float; fp32 and
 * bf16 storage; strided views (scalar reads).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice, viewOf } from '../../src/backends/webgpu/device-array.js';
import { dotBlockRunCalls, gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { exactDot, exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, subRational } from '../../src/testing/rational.js';
import { gamma, opError, randomValues, requireRuntime } from './gpu-test-helpers.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

describe('DOT, block runs (dotBlockRuns)', () => {
  it('within the bound of the exact result, reproducible, the same through the one-dispatch finish', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          storage: fc.constantFrom('f32', 'bf16'),
          arithmetic: fc.constantFrom('f32', 'ff'),
          // Thread counts: multiples of 64 (block runs) or not (the default runs); lengths with partial last steps.
          threads: fc.constantFrom(64, 128, 192, 100), groups: fc.integer({ min: 1, max: 4 }),
          n: fc.integer({ min: 1, max: 12000 }), stride: fc.constantFrom(1, 1, 2), seed: fc.integer({ min: 1, max: 2 ** 30 }),
        }),
        async (c) => {
          const xv = randomValues(c.n * c.stride, c.seed);
          const yv = randomValues(c.n, c.seed + 1);
          const xs = await toDevice(xv, { format: c.storage });
          const x = c.stride === 1 ? xs : viewOf(xs, { offset: 0, length: c.n, stride: c.stride });
          const y = await toDevice(yv, { format: c.storage });
          const options = { arithmetic: c.arithmetic, maxThreads: c.threads, groups: c.groups, chains: 1 };
          const dot = async (switches: Partial<GpuKernelSwitches>): Promise<{ value: number; ran: number }> => {
            setGpuKernelSwitches(switches);
            const before = dotBlockRunCalls();
            const { value } = await gpuDot(x, y, options);
            return { value, ran: dotBlockRunCalls() - before };
          };
          const plain = await dot({ dotBlockRuns: false, dotFusedFinish: false });
          const block = await dot({ dotBlockRuns: true, dotFusedFinish: false });
          const again = await dot({ dotBlockRuns: true, dotFusedFinish: false });
          const fused = await dot({ dotBlockRuns: true, dotFusedFinish: true });
          // The first pass's threads (dot-webgpu.ts firstPassThreads: at least 64 elements a thread).
          const tiled = Math.max(1, Math.min(c.threads, Math.ceil(c.n / 64))) % 64 === 0;
          expect(plain.ran).toBe(0);
          if (tiled) expect(block.ran, JSON.stringify(c)).toBe(1);
          else expect(Object.is(block.value, plain.value), JSON.stringify(c)).toBe(true);
          expect(Object.is(again.value, block.value)).toBe(true);
          expect(Object.is(fused.value, block.value), `${JSON.stringify(c)}: ${fused.value} vs ${block.value}`).toBe(true);
          // The stored values read back exactly; the bound of the kernels' DOT tests.
          const sx = await x.toHost();
          const sy = await y.toHost();
          const exact = exactDot(sx, sy);
          const magnitude = sx.reduce((s, a, k) => s + Math.abs(a * sy[k]!), 0);
          const bound = gamma(2 * c.n + 3, opError(c.arithmetic)) * magnitude;
          expect(compareRational(absRational(subRational(exactOf(block.value), exact)), exactOf(bound)) <= 0, `${JSON.stringify(c)}: ${block.value}`).toBe(true);
          xs.destroy();
          y.destroy();
        },
      ),
      { numRuns: 5 },
    );
  });
});
