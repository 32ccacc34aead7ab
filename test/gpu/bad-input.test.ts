/**
 * Bad input to the GPU entry points: typed ModprecErrors naming the parameter, raised before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { ModprecError } from '../../src/core/errors.js';
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { deviceView, setBindingLimitForTests, toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuEllSpmv, toDeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { requireRuntime } from './gpu-test-helpers.js';

async function rejects(p: Promise<unknown> | (() => unknown), code: string, parameter?: string): Promise<void> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(ModprecError);
    expect((e as ModprecError).code).toBe(code);
    if (parameter !== undefined) expect((e as ModprecError).parameter).toBe(parameter);
    return;
  }
  throw new Error(`expected ModprecError ${code}`);
}

describe('GPU bad input', () => {
  it('mismatched sizes', async () => {
    await requireRuntime();
    const x3 = await toDevice([1, 2, 3]);
    const x2 = await toDevice([1, 2]);
    await rejects(gpuDot(x3, x2), 'DIMENSION_MISMATCH', 'y');
    const A = deviceMatrix(await toDevice([1, 2, 3, 4, 5, 6]), 2, 3);
    await rejects(gpuGemv({ A, x: x2, y: x2 }), 'DIMENSION_MISMATCH', 'x');
    await rejects(gpuGemv({ A, x: x3, y: x3 }), 'DIMENSION_MISMATCH', 'y');
    await rejects(gpuGemv({ A, x: x3, y: x2 }, { chains: 0 }), 'INVALID_OPTION', 'options.chains');
    await rejects(gpuTrsv({ A, x: x2 }), 'DIMENSION_MISMATCH', 'A');
    const E = await toDeviceEll({ rows: 2, cols: 3, width: 1, stride: 2, colIndex: Int32Array.from([0, -1]), values: [1, 0] });
    await rejects(gpuEllSpmv({ A: E, x: x2, y: x2 }), 'DIMENSION_MISMATCH', 'x');
  });

  it('bad shapes, strides, indices and options', async () => {
    await requireRuntime();
    const data = await toDevice([1, 2, 3, 4]);
    await rejects(() => deviceMatrix(data, 2, 2, 1), 'INVALID_STRIDE', 'ld');
    await rejects(() => deviceMatrix(data, 3, 2), 'INVALID_STORAGE', 'data');
    await rejects(toDeviceEll({ rows: 2, cols: 2, width: 1, stride: 2, colIndex: Int32Array.from([0, 2]), values: [1, 1] }), 'INDEX_OUT_OF_RANGE', 'A.colIndex[1]');
    await rejects(toDeviceEll({ rows: 3, cols: 2, width: 1, stride: 2, colIndex: Int32Array.from([0, 1]), values: [1, 1] }), 'INVALID_STRIDE', 'A.stride');
    const A = deviceMatrix(data, 2, 2);
    const x = await toDevice([1, 1]);
    await rejects(gpuTrsv({ A, x, uplo: 'X' as 'L' }), 'INVALID_OPTION', 'uplo');
    await rejects(gpuTrsv({ A, x }, { blockSize: 100 }), 'INVALID_OPTION', 'options.blockSize');
    await rejects(gpuGemv({ A, x, y: await toDevice([0, 0]), trans: 'C' as 'N' }), 'INVALID_OPTION', 'trans');
    await rejects(gpuDot(x, x, { arithmetic: 'f64' as 'ff' }), 'INVALID_OPTION', 'options.arithmetic');
    await rejects(gpuGemv({ A, x, y: await toDevice([0, 0]), alpha: '1' as never }), 'INVALID_VALUE', 'alpha');
    await rejects(gpuGemv({ A, x, y: x }), 'INVALID_STORAGE', 'y');
    await rejects(gpuDot([1, 2] as never, x), 'INVALID_STORAGE', 'x');
  });

  it('formats: unknown names, outputs the GPU cannot write, non-finite values for scaled integers', async () => {
    await requireRuntime();
    await rejects(toDevice([1], { format: 'f8' as 'f32' }), 'INVALID_FORMAT', 'options.format');
    const A = deviceMatrix(await toDevice([1, 0, 0, 1]), 2, 2);
    const x = await toDevice([1, 1]);
    // Kernels write every format but scaled integers (whose scales gpuConvert computes first).
    await rejects(gpuGemv({ A, x, y: await toDevice([0, 0], { format: 'i8' }) }), 'INVALID_FORMAT', 'y');
    await rejects(gpuConvert(x, 'f8' as 'f32'), 'INVALID_FORMAT', 'format');
    await rejects(toDevice([1, Infinity], { format: 'i8' }), 'INVALID_VALUE', 'data[1]');
  });

  it('operands that cannot be split over storage bindings raise BACKEND_LIMIT naming the limit', async () => {
    await requireRuntime();
    setBindingLimitForTests(64 * 1024);
    try {
      const n = 20_000; // 80 kB in f32: over the lowered 64 KiB binding
      // GEMV N writes y whole (GEMV T's x runs in tiles over the limit: gemv-t-tiles.test.ts).
      const tall = deviceMatrix(await toDevice(new Float32Array(n)), n, 1);
      await rejects(gpuGemv({ A: tall, x: await toDevice([1]), y: await toDevice(new Float32Array(n)) }), 'BACKEND_LIMIT', 'maxStorageBufferBindingSize');
      // ELL SpMV splits x and y (ell-split-x-y.test.ts), a y view two of whose rows lie a binding apart included
      // (tiles of one row: ell-binding-limits.test.ts), and block-scaled values of any layout (ell-block-scaled-windows.test.ts).
      const ell = await toDeviceEll({ rows: 2, cols: 1, width: 1, stride: 2, colIndex: new Int32Array([0, 0]), values: [3, -2] });
      const far = deviceView(await toDevice(new Float32Array(n + 1)), 0, 2, n);
      await gpuEllSpmv({ A: ell, x: await toDevice([1.5]), y: far });
      expect([...(await far.toHost())]).toEqual([4.5, -3]);
      // Integer formats keep their scales in one binding, so they are never split.
      await rejects(toDevice(new Float32Array(4 * n), { format: 'i8' }), 'BACKEND_LIMIT', 'maxStorageBufferBindingSize');
      const wide = deviceMatrix(await toDevice(new Float32Array(2 * n)), 2, n);
      await rejects(gpuGemv({ A: wide, x: await toDevice(new Float32Array(n), { format: 'i16' }), y: await toDevice([0, 0]) }), 'BACKEND_LIMIT', 'maxStorageBufferBindingSize');
    } finally {
      setBindingLimitForTests(undefined);
    }
  });

  it('destroyed arrays are refused', async () => {
    await requireRuntime();
    const x = await toDevice([1, 2]);
    const y = await toDevice([1, 2]);
    y.destroy();
    await rejects(gpuDot(x, y), 'INVALID_STORAGE', 'y');
  });
});
