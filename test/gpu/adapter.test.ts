import { describe, expect, it } from 'vitest';
import { gpuDevice, requireGpu } from '../../src/backends/webgpu/backend.js';
import { requireRuntime } from './gpu-test-helpers.js';

describe('GPU backend layer', () => {
  it('brings up a WebGPU adapter and reports name, backend and limits', async () => {
    const rt = await requireRuntime();
    const a = rt.context.adapter;
    expect(a.name.length).toBeGreaterThan(0);
    expect(['default', 'vulkan', 'opengl', 'browser']).toContain(a.backend);
    expect(a.tried.at(-1)).toMatch(new RegExp(`^${a.backend}: adapter`));
    expect(['core', 'compatibility']).toContain(a.featureLevel);
    expect(a.limits.maxStorageBufferBindingSize).toBeGreaterThanOrEqual(2 ** 27);
    expect(a.limits.minStorageBufferOffsetAlignment).toBeGreaterThan(0);
    // One device for the whole process, shared with gpu.js.
    expect(await gpuDevice()).toBe(rt.context);
    expect(await requireGpu()).toBe(rt.context);
  });

  it('probes whether fma is fused and whether float-float needs optimisation barriers', async () => {
    const rt = await requireRuntime();
    expect(typeof rt.fusedFma).toBe('boolean');
    // When the compiler simplifies (a + b) − a, barriers must be on.
    if (rt.simplifiesFloats) expect(rt.barriers).toBe(true);
  });
});
