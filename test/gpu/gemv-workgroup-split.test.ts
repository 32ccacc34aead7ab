/**
 * GEMV N with the reduction inside a workgroup (the `gemvWorkgroupSplit` switch of src/backends/webgpu/kernel-switches.ts):
 * the same chunks, the same partial-pass lines and the same chunk-order sum as the two-pass default, so y must be the
 * default's bit for bit — f32 and float-float, A in f32/bf16/f16 (vector, pair and scalar reads: m and lda multiples of
 * the rows per thread or not), float-float with four rows a thread, y in f32/f64/ff/f16 (two rows a word), α and β, NaN
 * and ±∞ among the values, a strided x, every workgroup size. The form must actually run where a workgroup holds every
 * chunk (the call counter), and leave the two passes where it does not. Likewise the partial pass in workgroups of 128 or
 * 256 invocations (`gemvPartialWorkgroup`, row groups padded to whole workgroups): the default's bits.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice, viewOf } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gemvWorkgroupSplitCalls } from '../../kernels/gemv/gemv-workgroup-split.js';
import { paddedPassCalls } from '../../kernels/gemv/gemv-partial-workgroup-source.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

const SPECIAL = [Infinity, -Infinity, NaN, 0, -0];

/** The same bits, or NaN for NaN. */
function sameValues(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((v, k) => Object.is(v, b[k]) || (Number.isNaN(v) && Number.isNaN(b[k]!)));
}

describe('GEMV N, reduction inside a workgroup (gemvWorkgroupSplit)', () => {
  it('the two-pass default\'s bits, in one dispatch where a workgroup holds every chunk', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          storage: fc.constantFrom('f32', 'bf16', 'f16'),
          arithmetic: fc.constantFrom('f32', 'ff'),
          yFormat: fc.constantFrom('f32', 'f64', 'ff', 'f16'),
          W: fc.constantFrom(64, 128, 256),
          fourRows: fc.boolean(),
          // m a multiple of 4 (one load of a column's rows) or not; lda = m or more; n and the target set the chunks.
          groups: fc.integer({ min: 1, max: 5 }), extra: fc.integer({ min: 0, max: 3 }), pad: fc.constantFrom(0, 0, 3, 4),
          n: fc.integer({ min: 1, max: 40 }), targetThreads: fc.integer({ min: 1, max: 2 ** 8 }),
          beta: fc.constantFrom(0, -0.5), special: fc.boolean(), xStride: fc.constantFrom(1, 1, 2), seed: fc.integer({ min: 1, max: 2 ** 30 }),
        }),
        async (c) => {
          const m = 4 * c.groups + c.extra;
          const lda = m + c.pad;
          const values = randomValues(lda * c.n, c.seed).map((v, k) => (c.special && Math.abs(v) < 0.05 ? SPECIAL[k % SPECIAL.length]! : v));
          const A = deviceMatrix(await toDevice(values, { format: c.storage }), m, c.n, lda);
          const xSpan = await toDevice(randomValues(c.xStride === 1 ? c.n : c.n * c.xStride + 1, c.seed + 1), { format: 'f32' });
          const x = c.xStride === 1 ? xSpan : viewOf(xSpan, { offset: 1, length: c.n, stride: c.xStride });
          const y0 = randomValues(m, c.seed + 2);
          const run = async (W: GpuKernelSwitches['gemvWorkgroupSplit']): Promise<{ y: Float64Array; ran: number }> => {
            setGpuKernelSwitches({ gemvWorkgroupSplit: W, gemvFfFourRows: c.fourRows });
            const y = await toDevice(y0, { format: c.yFormat });
            const before = gemvWorkgroupSplitCalls();
            await gpuGemv({ A, x, y, alpha: 1.25, beta: c.beta }, { arithmetic: c.arithmetic, targetThreads: c.targetThreads });
            const out = await y.toHost();
            y.destroy();
            return { y: out, ran: gemvWorkgroupSplitCalls() - before };
          };
          const two = await run(0);
          const one = await run(c.W as GpuKernelSwitches['gemvWorkgroupSplit']);
          expect(two.ran).toBe(0);
          // n ≤ 40 chunks ≤ 64 invocations: a workgroup always holds every chunk here.
          expect(one.ran, JSON.stringify(c)).toBe(1);
          expect(sameValues(one.y, two.y), `${JSON.stringify(c)}: ${one.y} vs ${two.y}`).toBe(true);
          A.data.destroy();
          xSpan.destroy();
        },
      ),
      { numRuns: 6 },
    );
  });

  it('leaves the two passes where the chunks outnumber a workgroup\'s invocations', async () => {
    await requireRuntime();
    const m = 8, n = 100;
    const A = deviceMatrix(await toDevice(randomValues(m * n, 5), { format: 'f32' }), m, n);
    const x = await toDevice(randomValues(n, 6), { format: 'f32' });
    const outs: Float64Array[] = [];
    const ran: number[] = [];
    for (const W of [0, 64] as const) {
      setGpuKernelSwitches({ gemvWorkgroupSplit: W });
      const y = await toDevice(new Float64Array(m), { format: 'f32' });
      const before = gemvWorkgroupSplitCalls();
      // A target of m·n threads: one column a chunk, 100 chunks > 64 invocations.
      await gpuGemv({ A, x, y }, { arithmetic: 'ff', targetThreads: m * n });
      ran.push(gemvWorkgroupSplitCalls() - before);
      outs.push(await y.toHost());
      y.destroy();
    }
    expect(ran).toEqual([0, 0]);
    expect(sameValues(outs[1]!, outs[0]!)).toBe(true);
  });

  it('several workgroups with fewer chunks than rows a thread: every row of y finished (the GPU GMRES shape that broke)', async () => {
    await requireRuntime();
    // 512 rows, 1 and 3 columns: ⌊W/S⌋ row groups of 2 float-float rows would be more rows than a workgroup's invocations.
    for (const n of [1, 3]) {
      const m = 512;
      const A = deviceMatrix(await toDevice(randomValues(m * n, 3 + n), { format: 'f16' }), m, n);
      const x = await toDevice(randomValues(n, 5), { format: 'f64' });
      const y0 = randomValues(m, 7);
      const outs: Float64Array[] = [];
      for (const W of [0, 256] as const) {
        setGpuKernelSwitches({ gemvWorkgroupSplit: W });
        const y = await toDevice(y0, { format: 'f64' });
        const before = gemvWorkgroupSplitCalls();
        await gpuGemv({ A, x, y, alpha: -1, beta: 1 }, { arithmetic: 'ff' });
        expect(gemvWorkgroupSplitCalls() - before).toBe(W === 0 ? 0 : 1);
        outs.push(await y.toHost());
        y.destroy();
      }
      expect(sameValues(outs[1]!, outs[0]!), `n = ${n}`).toBe(true);
      A.data.destroy();
      x.destroy();
    }
  });
});

describe('GEMV N, partial pass in wider workgroups (gemvPartialWorkgroup)', () => {
  it('the default\'s bits with 128 and 256 invocations a workgroup (row groups padded to whole workgroups)', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          storage: fc.constantFrom('f32', 'bf16', 'f16'),
          arithmetic: fc.constantFrom('f32', 'ff'),
          W: fc.constantFrom(128, 256),
          // Row groups from a few (mostly padding) to more than a workgroup of 128 (m up to 4·150 + 3).
          groups: fc.integer({ min: 1, max: 150 }), extra: fc.integer({ min: 0, max: 3 }), pad: fc.constantFrom(0, 4),
          n: fc.integer({ min: 1, max: 24 }), targetThreads: fc.integer({ min: 1, max: 2 ** 12 }),
          beta: fc.constantFrom(0, 2), special: fc.boolean(), seed: fc.integer({ min: 1, max: 2 ** 30 }),
        }),
        async (c) => {
          const m = 4 * c.groups + c.extra;
          const lda = m + c.pad;
          const values = randomValues(lda * c.n, c.seed).map((v, k) => (c.special && Math.abs(v) < 0.05 ? SPECIAL[k % SPECIAL.length]! : v));
          const A = deviceMatrix(await toDevice(values, { format: c.storage }), m, c.n, lda);
          const x = await toDevice(randomValues(c.n, c.seed + 1), { format: 'f32' });
          const y0 = randomValues(m, c.seed + 2);
          const run = async (W: GpuKernelSwitches['gemvPartialWorkgroup']): Promise<Float64Array> => {
            // The two-pass form with threads that return their partials (not the split, nor four float-float rows).
            setGpuKernelSwitches({ gemvPartialWorkgroup: W, gemvWorkgroupSplit: 0, gemvFfFourRows: false });
            const y = await toDevice(y0, { format: 'f32' });
            await gpuGemv({ A, x, y, alpha: -0.75, beta: c.beta }, { arithmetic: c.arithmetic, targetThreads: c.targetThreads });
            const out = await y.toHost();
            y.destroy();
            return out;
          };
          const base = await run(64);
          const before = paddedPassCalls();
          const wide = await run(c.W as GpuKernelSwitches['gemvPartialWorkgroup']);
          expect(paddedPassCalls() - before, JSON.stringify(c)).toBe(1);
          expect(sameValues(wide, base), `${JSON.stringify(c)}: ${wide} vs ${base}`).toBe(true);
          A.data.destroy();
          x.destroy();
        },
      ),
      { numRuns: 8 },
    );
  });
});
