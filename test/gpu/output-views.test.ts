/**
 * Output views on the llvmpipe adapter: the device memory around every view (and the host storage around every
 * range) keeps its sentinel bits after each kernel; see output-view-cases.ts.
 */
import { describe, it } from 'vitest';
import { requireRuntime } from './gpu-test-helpers.js';
import { rangeOutputViews, residentOutputViews } from './output-view-cases.js';

describe('outputs written through device views', () => {
  it("resident API: outputs, TRSV's A, ELL's x and values as views of sentinel-filled spans equal the packed runs bit for bit", async () => {
    await requireRuntime();
    await residentOutputViews();
  });

  it("backend 'gpu': strided and negative-stride outputs in sentinel-filled storage change only their own elements", async () => {
    await requireRuntime();
    await rangeOutputViews('gpu');
  });
});
