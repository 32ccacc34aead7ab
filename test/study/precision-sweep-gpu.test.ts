/**
 * The precision sweep's GPU RNS rows (app/study/precision-sweep-gpu.ts) on the llvmpipe adapter, at small sizes:
 * measured exactly against rational arithmetic, at least the bits the a-priori bound promises, backend 'gpu'.
 */
import { describe, expect, it } from 'vitest';
import { gpuRnsSweepSteps } from '../../app/study/precision-sweep-gpu.js';
import { openGpu } from '../../app/study/gpu-backend.js';
import { tinyOptions } from './study-fixture.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

describe('precision sweep: GPU RNS rows', () => {
  it('gemv and waxpby at 106 and 424 bits on the GPU, exact accuracy within the bound', async () => {
    await requireRuntime();
    const gpu = await openGpu();
    if ('reason' in gpu) throw new Error(gpu.reason);
    const notes: string[] = [];
    const steps = gpuRnsSweepSteps({ ...tinyOptions(), mode: 'full' }, { adapter: gpu.adapter }, notes, gpu, { gemv: 6, waxpby: 20 }, ['rns106', 'rns424']);
    expect(steps.map((s) => s.label)).toEqual(['precision sweep rns106 on the GPU', 'precision sweep rns424 on the GPU']);
    const rows = (await Promise.all(steps.map((s) => s.run()))).flat();
    expect(rows.map((m) => `${m.kernel} ${m.storage} ${m.backend}`)).toEqual(['waxpby rns106 gpu', 'gemv rns106 gpu', 'waxpby rns424 gpu', 'gemv rns424 gpu']);
    for (const m of rows) {
      expect(m.gflops! > 0 && Number.isFinite(m.gflops!)).toBe(true);
      expect(m.accuracyBits!, `${m.kernel} ${m.storage}`).toBeGreaterThanOrEqual(m.boundBits!);
      expect(m.boundBits!).toBeGreaterThan(m.precisionBits! - 16);
    }
    const none: string[] = [];
    expect(gpuRnsSweepSteps(tinyOptions(), { adapter: '' }, none, undefined)).toEqual([]);
    expect(none[0]).toContain('no GPU RNS rows');
  });
});
