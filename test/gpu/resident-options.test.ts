/**
 * The resident API (modprec/gpu) checks its options as `backend: 'gpu'` does: not an object is INVALID_OPTION naming
 * `options`, a `strict` that is not a boolean INVALID_OPTION naming `options.strict`, before anything runs or is
 * written. Regression: `gpuDot(x, y, null)` threw a TypeError ("reading 'maxThreads'"), `toDevice(v, null)` too, and
 * `gpuDot(x, y, { strict: 'yes' })` ran (taken as strict) where `dot(x, y, { backend: 'gpu', strict: 'yes' })` refuses.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { dot, vector, formats } from '../../src/index.js';
import {
  toDevice, deviceMatrix, toDeviceEll, gpuDot, gpuDotResident, gpuGemv, gpuTrsv, gpuEllSpmv, gpuUpdate, gpuAsum, gpuNrm2, gpuConvert,
} from '../../src/backends/webgpu/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { outcome } from '../kernels/kernel-calls.js';


describe('resident API options', () => {
  it('every entry point: not an object, or a non-boolean strict, is a typed error; y is left as it was', async () => {
    await requireRuntime();
    const f = { format: 'f32' as const };
    const x = await toDevice([1, 2], f), A = deviceMatrix(await toDevice([2, 0, 1, 2], f), 2, 2);
    const E = await toDeviceEll({ rows: 2, cols: 2, width: 1, stride: 2, colIndex: Int32Array.of(0, 1), values: Float64Array.of(1, 2) }, f);
    const calls: [string, (y: any, o: any) => unknown][] = [
      ['toDevice', (_y, o) => toDevice([1, 2], o)],
      ['gpuDot', (y, o) => gpuDot(x, y, o)], ['gpuDotResident', (y, o) => gpuDotResident(x, y, o)],
      ['gpuAsum', (y, o) => gpuAsum(y, o)], ['gpuNrm2', (y, o) => gpuNrm2(y, o)], ['gpuConvert', (y, o) => gpuConvert(y, 'f16', o)],
      ['gpuGemv', (y, o) => gpuGemv({ A, x, y, alpha: 1, beta: 1 }, o)], ['gpuTrsv', (y, o) => gpuTrsv({ A, x: y }, o)],
      ['gpuEllSpmv', (y, o) => gpuEllSpmv({ A: E, x, y, alpha: 1, beta: 1 }, o)], ['gpuUpdate', (y, o) => gpuUpdate({ alpha: 2, x, beta: 1, y, out: y }, o)],
    ];
    await fc.assert(fc.asyncProperty(
      fc.constantFrom<[unknown, string]>([null, 'options'], [5, 'options'], ['gpu', 'options'], [{ strict: 'yes' }, 'options.strict'], [{ strict: 1 }, 'options.strict']),
      async ([options, parameter]) => {
        for (const [name, call] of calls) {
          const y = await toDevice([3, 4], f);
          expect([name, await outcome(() => call(y, options))]).toEqual([name, `INVALID_OPTION ${parameter}`]);
          expect([...(await y.toHost())]).toEqual([3, 4]);
        }
      },
    ), { numRuns: 5 });
  });

  it("strict that is not a boolean: the same error as backend 'gpu'", async () => {
    await requireRuntime();
    const v = vector([1, 2], { storage: formats.f32, arithmetic: formats.f32 });
    const onRanges = await outcome(() => dot(v, v, { backend: 'gpu', strict: 'yes' } as never));
    const d = await toDevice([1, 2], { format: 'f32' });
    expect(await outcome(() => gpuDot(d, d, { strict: 'yes' } as never))).toBe(onRanges);
  });
});
