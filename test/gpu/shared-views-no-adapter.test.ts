/** Views sharing a span without an adapter (MODPREC_GPU_BACKEND=none, host-resident arrays): see shared-view-cases.ts. */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { siblingViewWrites, trsvSeesWritesThroughOtherViews, viewOfPackedOutput } from './shared-view-cases.js';

const saved = process.env.MODPREC_GPU_BACKEND;
beforeAll(() => { process.env.MODPREC_GPU_BACKEND = 'none'; });
afterAll(() => { if (saved === undefined) delete process.env.MODPREC_GPU_BACKEND; else process.env.MODPREC_GPU_BACKEND = saved; });

describe('views sharing a span without an adapter', () => {
  it('a write through one view is seen by the span and every other view', async () => {
    await siblingViewWrites(['f32', 'f16', 'bf16', 'f64']);
  });

  it('a view of a packed output sees the kernel write the array', async () => {
    await viewOfPackedOutput();
  });

  it('TRSV solves with A as changed through another view of its span', async () => {
    await trsvSeesWritesThroughOtherViews();
  });
});
