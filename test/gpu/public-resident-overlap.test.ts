/**
 * The resident kernels refuse an output that overlaps an input as the CPU kernels refuse overlapping ranges: the same
 * INVALID_STORAGE naming the output, decided by the same exact test on views of one span (any offsets, strides of
 * either sign, interleaved views that share no element run), and nothing written; AXPY's and WAXPBY's output may be
 * exactly an input. Regression: gpuUpdate({ alpha: 2, x: view(0, 4, 1), beta: 0, out: view(2, 4, 1) }) ran (reading x
 * from a copy taken before the write) where waxpby on ranges of the same span is INVALID_STORAGE naming w; likewise
 * gpuGemv's y over x or A, gpuTrsv's x over A and gpuEllSpmv's y over x.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellFromMatrix, ellMatrix, ellSpmv, formats, gemv, range, strided, trsv, waxpby, type Range } from '../../src/index.js';
import { deviceMatrixView, deviceView, gpuEllSpmv, gpuGemv, gpuTrsv, gpuUpdate, toDevice, toDeviceEll, type DeviceArray } from '../../src/backends/webgpu/index.js';
import { outcome } from '../kernels/kernel-calls.js';
import { requireRuntime } from './gpu-test-helpers.js';

const SPAN = 24;
const spanValues = Array.from({ length: SPAN }, (_, k) => (k % 5) + 1);
interface View { offset: number; length: number; stride: number }
/** A view of the span of `length` elements: any start, a stride of either sign. */
const view = (length: number): fc.Arbitrary<View> => fc.record({ start: fc.nat(SPAN - 1), stride: fc.constantFrom(1, 2, -1, -2, 3) })
  .filter(({ start, stride }) => start + (length - 1) * stride >= 0 && start + (length - 1) * stride < SPAN)
  .map(({ start, stride }) => ({ offset: start, length, stride }));

/** A CPU range over `data` with the view's elements. */
const cpuView = (data: Float32Array, v: View): Range<1, any> => range(strided<1>({ size: [v.length], strides: [v.stride], offset: v.offset, data, storage: formats.f32, arithmetic: formats.f32 }));
/** A CPU matrix over `data`: element (i, j) at offset + i·rs + j·cs. */
const cpuMatrix = (data: Float32Array, rows: number, cols: number, offset: number, rs: number, cs: number): Range<2, any> => range(strided<2>({ size: [rows, cols], strides: [rs, cs], offset, data, storage: formats.f32, arithmetic: formats.f32 }));

/** The resident call's outcome, and whether the span kept its values on a refusal. */
async function residentOutcome(run: (span: DeviceArray) => Promise<unknown>): Promise<[string, boolean]> {
  const span = await toDevice(spanValues, { format: 'f32' });
  const result = await outcome(() => run(span));
  const kept = result === 'ran' || JSON.stringify([...(await span.toHost())]) === JSON.stringify(spanValues);
  span.destroy();
  return [result, kept];
}

describe('the resident kernels refuse overlapping outputs as the CPU kernels do', () => {
  it('gpuUpdate (out over x or y; exactly x or y allowed) and gpuGemv (y over A or x): the CPU outcome on the same span', async () => {
    await requireRuntime();
    const n = 3;
    await fc.assert(fc.asyncProperty(view(n), view(n), view(n), fc.constantFrom('update', 'gemv'), async (x, y, out, kernel) => {
      const cpu = new Float32Array(spanValues);
      const cpuResult = kernel === 'update'
        ? await outcome(() => waxpby(2, cpuView(cpu, x), 3, cpuView(cpu, y), cpuView(cpu, out)))
        // A: the 3×3 matrix at offset 8 with row stride 1 and column stride 5 of the span.
        : await outcome(() => gemv({ alpha: 1, A: cpuMatrix(cpu, n, n, 8, 1, 5), x: cpuView(cpu, x), beta: 1, y: cpuView(cpu, out) }));
      const resident = await residentOutcome((span) => kernel === 'update'
        ? gpuUpdate({ alpha: 2, x: deviceView(span, x.offset, n, x.stride), beta: 3, y: deviceView(span, y.offset, n, y.stride), out: deviceView(span, out.offset, n, out.stride) })
        : gpuGemv({ A: deviceMatrixView(span, { rows: n, cols: n, offset: 8, rowStride: 1, colStride: 5 }), x: deviceView(span, x.offset, n, x.stride), y: deviceView(span, out.offset, n, out.stride), alpha: 1, beta: 1 }));
      // The CPU names WAXPBY's output w, the resident call its out.
      expect([kernel, x, y, out, ...resident]).toEqual([kernel, x, y, out, cpuResult.replace('INVALID_STORAGE w', 'INVALID_STORAGE out'), true]);
    }), { numRuns: 24 });
  });

  it('gpuTrsv (x over A) and gpuEllSpmv (y over x): the CPU outcome on the same span', async () => {
    await requireRuntime();
    const n = 2;
    await fc.assert(fc.asyncProperty(view(n), view(n), fc.constantFrom('trsv', 'ell'), async (x, y, kernel) => {
      const cpu = new Float32Array(spanValues);
      const parts = { rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.of(0, 1), values: Float64Array.of(2, 3) };
      const cpuResult = kernel === 'trsv'
        // A: the 2×2 matrix at offset 10, row stride 3, column stride 1 (diagonal 1, 4: every pivot non-zero).
        ? await outcome(() => trsv({ A: cpuMatrix(cpu, n, n, 10, 3, 1), x: cpuView(cpu, x) }))
        : await outcome(() => ellSpmv({ alpha: 1, A: ellFromMatrix(ellMatrix(parts), 'f32'), x: cpuView(cpu, x), beta: 0, y: cpuView(cpu, y) }));
      const resident = await residentOutcome(async (span) => kernel === 'trsv'
        ? gpuTrsv({ A: deviceMatrixView(span, { rows: n, cols: n, offset: 10, rowStride: 3, colStride: 1 }), x: deviceView(span, x.offset, n, x.stride) })
        : gpuEllSpmv({ A: await toDeviceEll(parts, { format: 'f32' }), x: deviceView(span, x.offset, n, x.stride), y: deviceView(span, y.offset, n, y.stride), alpha: 1, beta: 0 }));
      expect([kernel, x, y, ...resident]).toEqual([kernel, x, y, cpuResult, true]);
    }), { numRuns: 16 });
  });

  it('the example of the regression, and SCAL in place (out is x) still runs', async () => {
    await requireRuntime();
    expect(await residentOutcome((span) => gpuUpdate({ alpha: 2, x: deviceView(span, 0, 4, 1), beta: 0, out: deviceView(span, 2, 4, 1) }))).toEqual(['INVALID_STORAGE out', true]);
    expect(await residentOutcome((span) => gpuUpdate({ alpha: 2, x: deviceView(span, 0, 4, 2), beta: 0, out: deviceView(span, 1, 4, 2) }))).toEqual(['ran', true]);
    expect(await residentOutcome((span) => gpuUpdate({ alpha: 2, x: span, beta: 0, out: span }))).toEqual(['ran', true]);
  });
});
