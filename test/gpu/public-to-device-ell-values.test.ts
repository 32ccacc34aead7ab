/**
 * toDeviceEll (modprec/gpu) takes ELL values as toDevice and vector take values: numbers only, anything else
 * INVALID_VALUE naming the element, before anything is uploaded. Regression: toDeviceEll({ …, values: ['2', 3] })
 * uploaded 2 (null as 0, undefined and {} as NaN, true as 1) where toDevice(['2', 3]) is INVALID_VALUE naming data[0],
 * and a bigint element threw a TypeError ("Cannot convert a BigInt value to a number"); toDevice(BigInt64Array.of(3n))
 * threw that TypeError too in every float format (f64, f32, f16, bf16, dd) where vector() says INVALID_VALUE.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellFromMatrix, ellMatrix, ellSpmv, formats, toArray, vector } from '../../src/index.js';
import { gpuEllSpmv, toDevice, toDeviceEll } from '../../src/backends/webgpu/index.js';
import { outcome } from '../kernels/kernel-calls.js';
import { requireRuntime } from './gpu-test-helpers.js';

/** A 3×3 diagonal ELL structure (one slot a row, no padding). */
const structure = { rows: 3, cols: 3, width: 1, stride: 3, colIndex: Int32Array.of(0, 1, 2) };

describe('toDeviceEll values', () => {
  it('an element that is not a number is INVALID_VALUE naming it, as toDevice names it', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.constantFrom<unknown>('2', null, undefined, {}, true, 2n, [1], Symbol('v')), fc.integer({ min: 0, max: 2 }),
      async (bad, k) => {
        const values: unknown[] = [1, -2, 3];
        values[k] = bad;
        expect(await outcome(() => toDeviceEll({ ...structure, values } as never))).toBe(`INVALID_VALUE A.values[${k}]`);
        expect(await outcome(() => toDevice(values as never))).toBe(`INVALID_VALUE data[${k}]`);
      },
    ), { numRuns: 12 });
    const big = BigInt64Array.of(1n, 2n, 3n);
    expect(await outcome(() => toDeviceEll({ ...structure, values: big } as never))).toBe('INVALID_VALUE A.values[0]');
  });

  it('toDevice of a bigint array is INVALID_VALUE naming data[0] in every format, as vector names values[0]', async () => {
    await requireRuntime();
    for (const data of [BigInt64Array.of(3n, -2n), BigUint64Array.of(7n)]) {
      for (const format of ['f64', 'f32', 'f16', 'bf16', 'dd', 'i8'] as const) {
        expect([format, await outcome(() => toDevice(data as never, { format }))]).toEqual([format, 'INVALID_VALUE data[0]']);
      }
      expect(await outcome(() => vector(data as never))).toBe('INVALID_VALUE values[0]');
    }
    expect([...(await (await toDevice(new BigInt64Array(0) as never)).toHost())]).toEqual([]);
  });

  it('numbers of any kind — NaN, ±∞, −0 — go up as they are: the device product is the CPU kernel\'s', async () => {
    await requireRuntime();
    const f32 = { storage: formats.f32, arithmetic: formats.f32 };
    for (const values of [[1, -2, 3], [NaN, Infinity, -0], [0.5, -Infinity, 7]]) {
      for (const array of [values, Float64Array.from(values), Float32Array.from(values)]) {
        const y = await toDevice([10, 20, 30], { format: 'f32' });
        await gpuEllSpmv({ A: await toDeviceEll({ ...structure, values: array as never }, { format: 'f32' }), x: await toDevice([1, 1, 1], { format: 'f32' }), y, alpha: 1, beta: 1 });
        const cpu = vector([10, 20, 30], f32);
        ellSpmv({ alpha: 1, A: ellFromMatrix(ellMatrix({ ...structure, values: Float64Array.from(values) }), 'f32'), x: vector([1, 1, 1], f32), beta: 1, y: cpu });
        expect([...(await y.toHost())]).toEqual([...toArray(cpu)]);
      }
    }
  });
});
