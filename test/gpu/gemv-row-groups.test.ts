/**
 * GEMV N with R adjacent rows per thread (issue 19): the same y bit for bit as one row per thread (same columns,
 * same accumulators, same order) for every R the arithmetic allows — rows not a multiple of R, leading dimensions
 * that break vector alignment, strided and row-major views, 16-bit and two-word formats, several chains — and
 * within the a-priori bound; bad values of the option are typed errors.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice, viewOf } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, deviceMatrixView, gpuGemv, type DeviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { maxRowsPerThread, rowRunRead } from '../../kernels/gemv/gemv-row-group-source.js';
import { gpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { accurateSum, gamma, opError, randomValues, readError, requireRuntime } from './gpu-test-helpers.js';

const STORAGES = ['f32', 'bf16', 'f16', 'f64', 'i8'] as const;

/** y for every R the arithmetic allows, from fresh copies of y0 (f64 output: holds every result exactly). */
async function yForEachRows(A: DeviceMatrix, x: Awaited<ReturnType<typeof toDevice>>, y0: Float64Array, arithmetic: 'f32' | 'ff', chains: number): Promise<Float64Array[]> {
  const out: Float64Array[] = [];
  for (const rowsPerThread of [1, 2, 4] as const) {
    if (rowsPerThread > maxRowsPerThread(gpuArithmetic(arithmetic))) continue;
    const y = await toDevice(y0, { format: 'f64' });
    const r = await gpuGemv({ A, x, y, alpha: 1.25, beta: -0.5 }, { arithmetic, chains, rowsPerThread });
    expect(r.backend).toBe('gpu');
    out.push(await y.toHost());
    y.destroy();
  }
  return out;
}


const initialSwitches = gpuKernelSwitches();
afterEach(() => {
  setGpuKernelSwitches(initialSwitches);
});

describe('gpuGemv N, rows per thread', () => {
  for (const storage of STORAGES) {
    for (const arithmetic of ['f32', 'ff'] as const) {
      it(`${storage} storage, ${arithmetic}: every R gives the one-row result bit for bit, within the bound`, async () => {
        await requireRuntime();
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 1, max: 37 }), fc.integer({ min: 1, max: 45 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 1, max: 3 }), fc.boolean(), async (m, n, pad, seed, chains, rowMajor) => {
            // Column-major with lda = m + pad, or a row-major view (rowStride = n + pad, colStride 1) of a span.
            const lda = rowMajor ? n + pad : m + pad;
            const span = await toDevice(randomValues(rowMajor ? m * lda : lda * n, seed), { format: storage, scaleBlock: 16 });
            const A = rowMajor ? deviceMatrixView(span, { rows: m, cols: n, offset: 0, rowStride: lda, colStride: 1 }) : deviceMatrix(span, m, n, lda);
            const x = await toDevice(randomValues(n, seed + 1), { format: storage, scaleBlock: 16 });
            const y0 = randomValues(m, seed + 2);
            const ys = await yForEachRows(A, x, y0, arithmetic, chains);
            for (const y of ys.slice(1)) expect([...y]).toEqual([...ys[0]!]);
            const [ha, hx] = [await span.toHost(), await x.toHost()];
            for (let i = 0; i < m; i++) {
              const terms = Array.from({ length: n }, (_, j) => ha[rowMajor ? i * lda + j : i + j * lda]! * hx[j]!);
              const exact = 1.25 * accurateSum(terms) - 0.5 * y0[i]!;
              const mag = 1.25 * accurateSum(terms.map(Math.abs)) + Math.abs(0.5 * y0[i]!);
              expect(Math.abs(ys[0]![i]! - exact)).toBeLessThanOrEqual((gamma(2 * n + 3, opError(arithmetic)) + 2.01 * readError(storage, arithmetic)) * mag);
            }
            span.destroy();
            x.destroy();
          }),
          { numRuns: 3 },
        );
      });
    }
  }

  it('rows in one vector or pair load (packed, rows and lda multiples of R) give the one-row result bit for bit', async () => {
    await requireRuntime();
    for (const storage of STORAGES) {
      for (const [m, n, lda] of [[12, 11, 16], [8, 19, 8], [4, 1, 4], [6, 9, 10]] as const) {
        const data = await toDevice(randomValues(lda * n, m + n), { format: storage, scaleBlock: 16 });
        const A = deviceMatrix(data, m, n, lda);
        const x = await toDevice(randomValues(n, 7), { format: storage, scaleBlock: 16 });
        for (const arithmetic of ['f32', 'ff'] as const) {
          const ys = await yForEachRows(A, x, randomValues(m, 8), arithmetic, 2);
          // 1, 2 and 4 rows a thread; float-float takes 4 only with gemvFfFourRows (on by default since session 20).
          expect(ys).toHaveLength(arithmetic === 'f32' || gpuKernelSwitches().gemvFfFourRows ? 3 : 2);
          for (const y of ys.slice(1)) expect([...y]).toEqual([...ys[0]!]);
        }
        data.destroy();
        x.destroy();
      }
    }
  });

  it('takes the one-load reads only for packed, unscaled matrices with rows and lda multiples of R', async () => {
    await requireRuntime();
    const data = await toDevice(randomValues(64, 3), { format: 'bf16' });
    expect(rowRunRead(data, 8, 8, 4)).toBe('vector');
    expect(rowRunRead(data, 6, 8, 4)).toBe(undefined);
    expect(rowRunRead(data, 8, 10, 4)).toBe(undefined);
    expect(rowRunRead(data, 6, 10, 2)).toBe('pair');
    expect(rowRunRead(data, 7, 10, 2)).toBe(undefined);
    expect(rowRunRead(data, 6, 9, 2)).toBe(undefined);
    expect(rowRunRead(await toDevice(randomValues(64, 3), { format: 'f32' }), 6, 10, 2)).toBe('pair');
    expect(rowRunRead(await toDevice(randomValues(64, 3), { format: 'f64' }), 6, 10, 2)).toBe(undefined);
    expect(rowRunRead(await toDevice(randomValues(64, 3), { format: 'i8' }), 8, 8, 4)).toBe(undefined);
    const view = deviceMatrixView(data, { rows: 8, cols: 4, offset: 0, rowStride: 8, colStride: 1 });
    expect(rowRunRead(view.data, 8, 8, 4)).toBe(undefined);
  });

  it('a strided view of x and an offset view of A read right with every R (16-bit words split across rows)', async () => {
    await requireRuntime();
    const m = 9, n = 7;
    const span = await toDevice(randomValues(3 + 2 * m * n + 2 * m, 5), { format: 'bf16' });
    // Element (i, j) at 3 + 2i + 2m·j: odd offset, row stride 2 — every 16-bit word holds one element of two rows' worth.
    const A = deviceMatrixView(span, { rows: m, cols: n, offset: 3, rowStride: 2, colStride: 2 * m });
    const xs = await toDevice(randomValues(3 * n, 6), { format: 'f16' });
    const x = viewOf(xs, { length: n, offset: n - 1, stride: -1 });
    const [ha, hx] = [await span.toHost(), await xs.toHost()];
    for (const arithmetic of ['f32', 'ff'] as const) {
      const ys = await yForEachRows(A, x, new Float64Array(m), arithmetic, 2);
      for (const y of ys.slice(1)) expect([...y]).toEqual([...ys[0]!]);
      for (let i = 0; i < m; i++) {
        const terms = Array.from({ length: n }, (_, j) => ha[3 + 2 * i + 2 * m * j]! * hx[n - 1 - j]!);
        const mag = 1.25 * accurateSum(terms.map(Math.abs));
        expect(Math.abs(ys[0]![i]! - 1.25 * accurateSum(terms))).toBeLessThanOrEqual(gamma(2 * n + 3, opError(arithmetic)) * mag);
      }
    }
  });

  it('refuses rowsPerThread other than 1, 2, 4 and more rows than the arithmetic returns', async () => {
    await requireRuntime();
    const A = deviceMatrix(await toDevice([1, 2, 3, 4]), 2, 2);
    const x = await toDevice([1, 1]);
    const y = await toDevice([0, 0]);
    await expect(gpuGemv({ A, x, y }, { rowsPerThread: 3 as 2 })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.rowsPerThread' });
    // Float-float returns two rows a thread unless gemvFfFourRows stores four itself.
    setGpuKernelSwitches({ gemvFfFourRows: false });
    await expect(gpuGemv({ A, x, y }, { arithmetic: 'ff', rowsPerThread: 4 })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.rowsPerThread' });
    expect(maxRowsPerThread(gpuArithmetic('ff'))).toBe(2);
    expect(maxRowsPerThread(gpuArithmetic('f32'))).toBe(4);
  });
});
