/** Views sharing a span on the llvmpipe adapter: see shared-view-cases.ts. */
import { describe, it } from 'vitest';
import { requireRuntime } from './gpu-test-helpers.js';
import { siblingViewWrites, trsvSeesWritesThroughOtherViews, viewOfPackedOutput } from './shared-view-cases.js';

describe('views sharing a span on the device', () => {
  it('a write through one view is seen by the span and every other view (f32, f16, bf16, f64; strides of either sign)', async () => {
    await requireRuntime();
    await siblingViewWrites(['f32', 'f16', 'bf16', 'f64']);
  });

  it('a view of a packed output sees the kernel write the array', async () => {
    await requireRuntime();
    await viewOfPackedOutput();
  });

  it('TRSV solves with A as changed through another view of its span', async () => {
    await requireRuntime();
    await trsvSeesWritesThroughOtherViews();
  });
});
