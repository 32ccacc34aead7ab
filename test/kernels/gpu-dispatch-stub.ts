/**
 * The GPU dispatch module with every kernel entry resolving at once to an empty result: for tests of what the public
 * kernels and bounds check before any GPU work (with `backend: 'gpu'` and no adapter needed). Use it from a mock
 * factory, through a dynamic import (vi.mock is hoisted above the file's imports):
 *   vi.mock('../../src/backends/webgpu-bridge/gpu-dispatch.js', async (io) => (await import('./gpu-dispatch-stub.js')).stubGpuDispatch(io));
 */
type GpuDispatch = typeof import('../../src/backends/webgpu-bridge/gpu-dispatch.js');

/**
 * The module, its kernel entries stubbed.
 * @param importOriginal - vitest's import of the real module
 * @returns the stubbed module
 */
export async function stubGpuDispatch(importOriginal: <T>() => Promise<T>): Promise<GpuDispatch> {
  const actual = await importOriginal<GpuDispatch>();
  const stub = (): Promise<never> => Promise.resolve({} as never);
  return {
    ...actual, dotOnGpu: stub, gemvOnGpu: stub, trsvOnGpu: stub, ellSpmvOnGpu: stub, updateOnGpu: stub, asumOnGpu: stub, nrm2OnGpu: stub, quickReport: stub,
  };
}
