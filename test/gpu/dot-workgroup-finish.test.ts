/**
 * DOT in one dispatch with one ticket a workgroup (the `dotWorkgroupFinish` switch, kernels/dot/dot-workgroup-finish-source.ts):
 * the last workgroup sums the published workgroup sums as `dotFusedTree`'s one tree pass, so every value has
 * `dotFusedTree`'s bits — in f32 and float-float arithmetic, f32 and bf16 storage, 2 and many whole workgroups, calls in
 * a row (the counter resets, the slot regions alternate), a strided view, non-finite values, resident results read by a
 * later call, and the recomputation path (the odd workgroups' sums left unpublished: the last workgroup reads them as
 * the empty pattern, recomputes each and counts it). One workgroup or a first pass of no whole workgroups takes `dotFusedTree`'s path, with its
 * bits. Every finite value lies within dotBound of the exact rational sum.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dotBound, formats, vector } from '../../src/index.js';
import { toDevice, viewOf, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { dotWorkgroupFinishCalls, gpuDot, gpuDotResident } from '../../kernels/dot/dot-webgpu.js';
import { MISS_COUNTER } from '../../kernels/dot/dot-fused-finish-source.js';
import { readWords } from '../../src/backends/webgpu/runtime.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { absoluteError, exactDot, exactOf } from '../../src/testing/exact.js';
import { compareRational } from '../../src/testing/rational.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';
import { dotBothForms, expectSameBits } from './dot-switch-forms.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

/** dotFusedTree (the reference) and the one-ticket form (dotFusedTree off: the switch implies its order). */
const switches = (recompute = false) => ({
  base: { dotFusedTree: true, dotWorkgroupFinish: false, fusedFinishRecompute: false },
  form: { dotFusedTree: false, dotWorkgroupFinish: true, fusedFinishRecompute: recompute },
});

type Storage = 'f32' | 'bf16';
const FORMAT = { f32: formats.f32, bf16: formats.bf16 } as const;

/** `got` lies within dotBound of x·y, exactly (the stored operands as doubles). */
async function expectWithinBound(got: number, x: DeviceArray, y: DeviceArray, storage: readonly [Storage, Storage], arithmetic: 'f32' | 'ff'): Promise<void> {
  const [hx, hy] = [Float64Array.from(await x.toHost()), Float64Array.from(await y.toHost())];
  const fa = arithmetic === 'f32' ? formats.f32 : formats.ff;
  const bound = dotBound(vector(hx, { storage: FORMAT[storage[0]], arithmetic: fa }), vector(hy, { storage: FORMAT[storage[1]], arithmetic: fa }), { arithmetic: fa });
  expect(Number.isFinite(got) && compareRational(absoluteError(got, exactDot(hx, hy)), exactOf(bound)) <= 0, `${got} bound ${bound}`).toBe(true);
}

/** The miss counter of the one-ticket plan of x and y (word MISS_COUNTER of the buffer its resident result views; one call). */
async function missesAfterCall(x: DeviceArray, y: DeviceArray, arithmetic: 'f32' | 'ff', maxThreads: number): Promise<number> {
  const rt = await requireRuntime();
  const { result } = await gpuDotResident(x, y, { arithmetic, maxThreads });
  return (await readWords(rt.context, result.buffer!, 1, MISS_COUNTER))[0]!;
}

describe('DOT in one dispatch, one ticket a workgroup (dotWorkgroupFinish)', () => {
  // [n, maxThreads, x, y, whether the one-ticket path applies]: first-pass threads min(maxThreads, ⌈n/64⌉) = maxThreads.
  // 512: exactly 2 workgroups; 6144: 24; 256: one workgroup and 700: no whole workgroups (both dotFusedTree's path).
  // Float-float takes fewer storage pairs (its programs compile slowly).
  const cases = {
    f32: [[512 * 64 + 3, 512, 'f32', 'bf16', true], [6144 * 64 - 1, 6144, 'bf16', 'f32', true], [256 * 64 + 100, 256, 'f32', 'bf16', false], [700 * 64 + 5, 700, 'bf16', 'f32', false]],
    ff: [[512 * 64 + 3, 512, 'f32', 'f32', true], [6144 * 64 - 1, 6144, 'f32', 'f32', true], [700 * 64 + 5, 700, 'f32', 'f32', false]],
  } as const;
  for (const arithmetic of ['f32', 'ff'] as const) {
    it(`${arithmetic}: dotFusedTree's bits for 2 and many workgroups, calls in a row, its path elsewhere; within dotBound`, async () => {
      await requireRuntime();
      for (const [n, maxThreads, xf, yf, applies] of cases[arithmetic]) {
        const x = await toDevice(randomValues(n, n).map((v, k) => v * 2 ** ((k % 13) - 6)), { format: xf });
        const y = await toDevice(randomValues(n, n + 1), { format: yf });
        const before = dotWorkgroupFinishCalls();
        const { base, form } = await dotBothForms(x, y, arithmetic, 3, switches(), { maxThreads });
        expect(dotWorkgroupFinishCalls() - before, `n=${n} T=${maxThreads}`).toBe(applies ? 3 : 0);
        expectSameBits(base, form);
        await expectWithinBound(form[0]!, x, y, [xf, yf], arithmetic);
        x.destroy();
        y.destroy();
      }
    });
  }

  it('a strided view, ±∞ and the recomputation path (unpublished workgroup sums recomputed and counted)', async () => {
    await requireRuntime();
    const n = 1024 * 64 + 9;
    const xs = await toDevice(randomValues(2 * n + 1, 51), { format: 'bf16' });
    const x = viewOf(xs, { length: n, offset: 2 * n, stride: -2 });
    const y = await toDevice(randomValues(n, 52), { format: 'f32' });
    for (const arithmetic of ['f32', 'ff'] as const) {
      const before = dotWorkgroupFinishCalls();
      const r = await dotBothForms(x, y, arithmetic, 2, switches(), { maxThreads: 1024 });
      expectSameBits(r.base, r.form);
      await expectWithinBound(r.form[0]!, x, y, ['bf16', 'f32'], arithmetic);
      const again = await dotBothForms(x, y, arithmetic, 2, switches(true), { maxThreads: 1024 });
      expectSameBits(again.base, again.form);
      expect(dotWorkgroupFinishCalls() - before).toBe(4);
      // One more call with the odd workgroups' sums left unpublished: the last workgroup finds those 2 of the 4 as the
      // sentinel and recomputes each once.
      const misses = await missesAfterCall(x, y, arithmetic, 1024);
      expect((await missesAfterCall(x, y, arithmetic, 1024)) - misses).toBe(2);
    }
    const hx = randomValues(n, 53);
    hx[7] = Infinity;
    hx[n - 2] = -Infinity;
    const inf = await toDevice(hx, { format: 'f32' });
    for (const arithmetic of ['f32', 'ff'] as const) {
      const r = await dotBothForms(inf, y, arithmetic, 2, switches(), { maxThreads: 512 });
      expect(Number.isFinite(r.base)).toBe(false);
      expectSameBits(r.base, r.form);
    }
    for (const b of [xs, y, inf]) b.destroy();
  });

  it('resident results: two calls in a row, each read by a later DOT', async () => {
    await requireRuntime();
    const n = 512 * 64;
    const x = await toDevice(randomValues(n, 61), { format: 'f32' });
    const y = await toDevice(randomValues(n, 62), { format: 'bf16' });
    const z = await toDevice(randomValues(n, 63), { format: 'bf16' });
    const one = await toDevice([1], { format: 'f32' });
    for (const arithmetic of ['f32', 'ff'] as const) {
      const { base: xy } = await dotBothForms(x, y, arithmetic, 0, switches(), { maxThreads: 512 });
      const { base: xz } = await dotBothForms(x, z, arithmetic, 0, switches(), { maxThreads: 512 });
      setGpuKernelSwitches(switches().form);
      const before = dotWorkgroupFinishCalls();
      // Both calls on one plan (x, y), then one on another (x, z): each result read after the later calls were recorded.
      const first = await gpuDotResident(x, y, { arithmetic, maxThreads: 512 });
      const firstValue = (await gpuDot(first.result, one, { arithmetic })).value;
      const second = await gpuDotResident(x, y, { arithmetic, maxThreads: 512 });
      const other = await gpuDotResident(x, z, { arithmetic, maxThreads: 512 });
      const [secondValue, otherValue] = [(await gpuDot(second.result, one, { arithmetic })).value, (await gpuDot(other.result, one, { arithmetic })).value];
      expect(dotWorkgroupFinishCalls() - before).toBe(3);
      expectSameBits(xy, [firstValue, secondValue]);
      expectSameBits(xz, [otherValue]);
    }
    for (const b of [x, y, z, one]) b.destroy();
  });
});
