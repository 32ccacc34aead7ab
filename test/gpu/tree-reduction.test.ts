/**
 * DOT's partials summed by tree passes (issue 19: 256-invocation workgroups, each invocation adding 8 partials, then
 * pairwise in workgroup memory): the plan covers every partial in whole workgroups, ending in one; the result is
 * reproducible and within the a-priori bound for sizes around the pass boundaries, as is the multi-pass reduction
 * (the `tree` switch off) it replaces.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { TREE_FAN_IN, TREE_WORKGROUP, treePlan } from '../../src/backends/webgpu/workgroup-reduction.js';
import { setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { accurateSum, gamma, opError, randomValues, requireRuntime } from './gpu-test-helpers.js';

afterEach(() => {
  setGpuKernelSwitches({ tree: true });
});

describe('tree reduction of partials', () => {
  it('plans whole workgroups that read every partial, down to one workgroup', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 2 ** 24 }), (count) => {
        const plan = treePlan(count);
        let left = count;
        plan.forEach((p, k) => {
          expect(p.count).toBe(left);
          expect(p.stride).toBe(k === 0 ? 1 : TREE_WORKGROUP);
          expect(p.threads % TREE_WORKGROUP).toBe(0);
          expect(p.threads * TREE_FAN_IN).toBeGreaterThanOrEqual(left);
          left = p.threads / TREE_WORKGROUP;
        });
        expect(left).toBe(1);
      }),
    );
    expect(treePlan(2 ** 17).map((p) => p.threads)).toEqual([64 * TREE_WORKGROUP, TREE_WORKGROUP]);
  });

  for (const arithmetic of ['f32', 'ff'] as const) {
    it(`DOT in ${arithmetic}: tree and multi-pass sums reproducible and within the bound`, async () => {
      await requireRuntime();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(65, 128, 129, 2047 * 64, 2048 * 64 + 1, 300_000), fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom(2 ** 17, 2 ** 11, 1000), async (n, seed, maxThreads) => {
          const x = await toDevice(randomValues(n, seed), { format: 'f32' });
          const y = await toDevice(randomValues(n, seed + 1), { format: 'bf16' });
          const [hx, hy] = [await x.toHost(), await y.toHost()];
          const terms = hx.map((v, k) => v * hy[k]!);
          const bound = gamma(2 * n + 3, opError(arithmetic)) * accurateSum(terms.map(Math.abs));
          for (const tree of [true, false]) {
            setGpuKernelSwitches({ tree });
            const a = await gpuDot(x, y, { arithmetic, maxThreads });
            const b = await gpuDot(x, y, { arithmetic, maxThreads });
            expect(b.value).toBe(a.value);
            expect(Math.abs(a.value - accurateSum(terms))).toBeLessThanOrEqual(bound);
          }
          x.destroy();
          y.destroy();
        }),
        { numRuns: 4 },
      );
    });
  }
});
