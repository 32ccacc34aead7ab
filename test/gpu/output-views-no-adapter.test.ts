/**
 * Output views where no adapter exists (MODPREC_GPU_BACKEND=none): host-resident views are spliced into their
 * spans the way the device writes them, and `backend: 'gpu'` runs the CPU kernels on the ranges themselves; the
 * sentinels around every view stay (see output-view-cases.ts).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { rangeOutputViews, residentOutputViews } from './output-view-cases.js';

const saved = process.env.MODPREC_GPU_BACKEND;
beforeAll(() => { process.env.MODPREC_GPU_BACKEND = 'none'; });
afterAll(() => { if (saved === undefined) delete process.env.MODPREC_GPU_BACKEND; else process.env.MODPREC_GPU_BACKEND = saved; });

describe('outputs written through views without an adapter', () => {
  it('resident API on host-resident views equals the packed runs bit for bit, sentinels kept', async () => {
    await residentOutputViews();
  });

  it("backend 'gpu' on strided ranges leaves the storage around them alone", async () => {
    await rangeOutputViews('cpu');
  });
});
