/**
 * GEMV N in one dispatch (`gemvFusedFinish`, kernels/gemv/gemv-fused-finish-source.ts): y's bits equal the two-pass
 * default's for f32 and float-float, A in f32/bf16/f16, y in f32/bf16/f16/ff/f64, odd m and n (partial row blocks, one-
 * column chunks), α and β (old y read), A with ld > m and a strided x, calls in a row, and the recomputation paths.
 *
 * DOT in one dispatch (the `dotFusedFinish` switch, kernels/dot/dot-fused-finish-source.ts): the last workgroup of each
 * block and of all sums the published partials in the tree passes' order, so the value has the two-pass default's
 * bits — for f32 and float-float arithmetic, f32/bf16/f16 storage, one and several blocks (a last block of fewer
 * workgroups), views with strides, empty and one-element operands, calls in a row (the counters reset, the slot
 * regions alternate) and the recomputation paths (every published partial treated as missing).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toDevice, viewOf, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDotResident } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv, lastGemvFusedMisses, type DeviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { compiledPrograms } from '../../src/backends/webgpu/program.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';
import { dotBothForms, expectSameBits } from './dot-switch-forms.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

// These tests mean dotFusedFinish against the three-dispatch tree (dotWorkgroupFinish, on by default, would take both).
beforeEach(() => {
  setGpuKernelSwitches({ dotWorkgroupFinish: false });
});
afterEach(() => {
  setGpuKernelSwitches(initial);
});

/** The value of the default (fused finish off) and `calls` values of the fused form, in order. */
async function bothForms(x: DeviceArray, y: DeviceArray, arithmetic: 'f32' | 'ff', calls: number, options: { maxThreads?: number; recompute?: boolean } = {}): Promise<{ base: number; fused: number[] }> {
  const switches = { base: { dotFusedFinish: false, fusedFinishRecompute: false }, form: { dotFusedFinish: true, fusedFinishRecompute: options.recompute ?? false } };
  const { base, form } = await dotBothForms(x, y, arithmetic, calls, switches, options.maxThreads ? { maxThreads: options.maxThreads } : {});
  return { base, fused: form };
}

describe('DOT in one dispatch (dotFusedFinish)', () => {
  // n → first-pass threads ⌈n/64⌉ (at most 2^17): 2, 130 (one block, one workgroup), 2100 (two blocks, the second of
  // one workgroup), 6145 (four blocks, 25 workgroups). Float-float takes fewer storage pairs (its programs compile slowly).
  const cases = {
    f32: [[65, 'f32', 'bf16'], [130 * 64 - 5, 'bf16', 'f16'], [2100 * 64 - 63, 'f16', 'f32'], [6145 * 64 - 1, 'f32', 'f32']],
    ff: [[130 * 64 - 5, 'f32', 'bf16'], [2100 * 64 - 63, 'f32', 'bf16'], [6145 * 64 - 1, 'bf16', 'f16']],
  } as const;
  for (const arithmetic of ['f32', 'ff'] as const) {
    it(`${arithmetic}: the default's bits for one block and for several, calls in a row`, async () => {
      await requireRuntime();
      for (const [n, xf, yf] of cases[arithmetic]) {
        const x = await toDevice(randomValues(n, n), { format: xf });
        const y = await toDevice(randomValues(n, n + 1), { format: yf });
        const { base, fused } = await bothForms(x, y, arithmetic, 3);
        expectSameBits(base, fused);
        x.destroy();
        y.destroy();
      }
    });
  }

  it('views with strides and offsets, and a first pass capped below ⌈n/64⌉ threads', async () => {
    await requireRuntime();
    const n = 3000 * 64 + 7;
    const xs = await toDevice(randomValues(3 * n + 5, 11), { format: 'bf16' });
    const ys = await toDevice(randomValues(2 * n + 4, 12), { format: 'f32' });
    const x = viewOf(xs, { length: n, offset: 5, stride: 3 });
    const y = viewOf(ys, { length: n, offset: 2 * n + 2, stride: -2 });
    for (const arithmetic of ['f32', 'ff'] as const) {
      const r = await bothForms(x, y, arithmetic, 2);
      expectSameBits(r.base, r.fused);
      const capped = await bothForms(x, y, arithmetic, 2, { maxThreads: 2049 });
      expectSameBits(capped.base, capped.fused);
    }
    xs.destroy();
    ys.destroy();
  });

  it('the recomputation paths (every partial read as missing) give the same bits', async () => {
    await requireRuntime();
    for (const [n, arithmetic] of [[2100 * 64 + 9, 'ff'], [700 * 64, 'f32']] as const) {
      const x = await toDevice(randomValues(n, 21), { format: 'f32' });
      const y = await toDevice(randomValues(n, 22), { format: 'bf16' });
      const { base, fused } = await bothForms(x, y, arithmetic, 2, { recompute: true });
      expectSameBits(base, fused);
      x.destroy();
      y.destroy();
    }
  });

  it('empty and one-element operands, non-finite values, and the resident result', async () => {
    await requireRuntime();
    for (const arithmetic of ['f32', 'ff'] as const) {
      for (const values of [[], [3], [2, -2]]) {
        const x = await toDevice(values, { format: 'f32' });
        const { base, fused } = await bothForms(x, x, arithmetic, 2);
        expectSameBits(base, fused);
        x.destroy();
      }
      const n = 2500 * 64;
      const hx = randomValues(n, 31);
      hx[n - 3] = Infinity;
      hx[17] = -Infinity;
      const x = await toDevice(hx, { format: 'f32' });
      const y = await toDevice(randomValues(n, 32), { format: 'f32' });
      const nan = await bothForms(x, y, arithmetic, 2);
      expect(Number.isNaN(nan.base) || !Number.isFinite(nan.base)).toBe(true);
      expectSameBits(nan.base, nan.fused);
      const ht = randomValues(n, 33);
      const t = await toDevice(ht, { format: 'f32' });
      setGpuKernelSwitches({ dotFusedFinish: false });
      const base = await (await gpuDotResident(t, y, { arithmetic })).result.toHost();
      setGpuKernelSwitches({ dotFusedFinish: true });
      const fused = await (await gpuDotResident(t, y, { arithmetic })).result.toHost();
      expect(Object.is(fused[0], base[0])).toBe(true);
      x.destroy();
      y.destroy();
      t.destroy();
    }
    // The one-dispatch program ran (its tickets and the storage barrier are in a compiled program).
    expect((await compiledPrograms()).some((p) => p.source.includes('mpStorageBarrier()') && p.source.includes('PAtomic'))).toBe(true);
  });
});

describe('GEMV N in one dispatch (gemvFusedFinish)', () => {
  /**
   * y after each of `calls` calls in a row (y ← α·A·x + β·y on the same y: one plan, so its counters and slot regions
   * are reused), for the default and for the fused form, each from the same starting y.
   */
  async function gemvBoth(args: { A: DeviceMatrix; x: DeviceArray; y0: readonly number[]; yFormat: 'f32' | 'bf16' | 'ff' | 'f64' | 'f16'; alpha: number; beta: number }, arithmetic: 'f32' | 'ff', calls: number, recompute = false): Promise<{ base: Float64Array[]; fused: Float64Array[] }> {
    const run = async (): Promise<Float64Array[]> => {
      const y = await toDevice(args.y0, { format: args.yFormat });
      const values: Float64Array[] = [];
      for (let k = 0; k < calls; k++) {
        await gpuGemv({ A: args.A, x: args.x, y, alpha: args.alpha, beta: args.beta }, { arithmetic });
        values.push(await y.toHost());
      }
      y.destroy();
      return values;
    };
    setGpuKernelSwitches({ gemvFusedFinish: false, fusedFinishRecompute: false });
    const base = await run();
    setGpuKernelSwitches({ gemvFusedFinish: true, fusedFinishRecompute: recompute });
    return { base, fused: await run() };
  }

  function expectSameArrays(base: readonly Float64Array[], fused: readonly Float64Array[]): void {
    expect(fused.length).toBe(base.length);
    fused.forEach((f, call) => {
      expect(f.length).toBe(base[call]!.length);
      base[call]!.forEach((v, k) => expect(Object.is(f[k], v), `call ${call}, row ${k}: ${f[k]} vs ${v}`).toBe(true));
    });
  }

  for (const arithmetic of ['f32', 'ff'] as const) {
    it(`${arithmetic}: y's bits for odd shapes, storages, α and β, calls in a row`, async () => {
      await requireRuntime();
      // m not a multiple of R or of a 64-group block; n giving many one-column chunks (small m) or wide ones.
      const shapes = arithmetic === 'f32'
        ? [[333, 37, 'bf16', 'f32', 'f32', 0], [130, 1000, 'f32', 'bf16', 'f32', 0.5], [1, 5, 'f16', 'f16', 'f32', -1]] as const
        : [[333, 37, 'f32', 'ff', 'bf16', -2], [261, 700, 'bf16', 'f64', 'f32', 0], [2, 1, 'f16', 'f32', 'f32', 1.5]] as const;
      for (const [m, n, aFormat, yFormat, xFormat, beta] of shapes) {
        const A = deviceMatrix(await toDevice(randomValues(m * n, m + n), { format: aFormat }), m, n);
        const x = await toDevice(randomValues(n, n), { format: xFormat });
        const y0 = Array.from(randomValues(m, m));
        const { base, fused } = await gemvBoth({ A, x, y0, yFormat, alpha: 1.25, beta }, arithmetic, 3);
        expectSameArrays(base, fused);
        A.data.destroy();
        x.destroy();
      }
    });
  }

  it('views of A and x (sub-matrix with ld > m, strided x), and the recomputation paths', async () => {
    await requireRuntime();
    const m = 150, n = 90, ld = 163;
    const data = await toDevice(randomValues(ld * n, 41), { format: 'bf16' });
    const A = deviceMatrix(data, m, n, ld);
    const xs = await toDevice(randomValues(3 * n + 2, 42), { format: 'f32' });
    const x = viewOf(xs, { length: n, offset: 2, stride: 3 });
    const y0 = Array.from(randomValues(m, 43));
    for (const arithmetic of ['f32', 'ff'] as const) {
      const r = await gemvBoth({ A, x, y0, yFormat: 'f32', alpha: -0.75, beta: 2 }, arithmetic, 2);
      expectSameArrays(r.base, r.fused);
      const again = await gemvBoth({ A, x, y0, yFormat: 'bf16', alpha: 1, beta: 0 }, arithmetic, 2, true);
      expectSameArrays(again.base, again.fused);
      // Every partial of those calls was recomputed, and counted.
      expect(await lastGemvFusedMisses()).toBeGreaterThanOrEqual(2 * m);
    }
    data.destroy();
    xs.destroy();
    expect((await compiledPrograms()).some((p) => p.source.includes('YAtomic') && p.source.includes('mpStorageBarrier()'))).toBe(true);
  });
});
