/**
 * The `ddGemvDecodedX` switch (src/backends/webgpu/kernel-switches.ts): dd's GEMV N with x in f64 decodes x once a
 * call (mpDwOfF64: its kind and 14-bit limbs next to its words) and the row pass reads that instead of decoding x_j in
 * every row. The limbs are the ones the plain read makes, so the output words must be the same with the switch on and
 * off — over f64 matrices and a packed x (dd matrices and a strided view of x opt-in: MODPREC_SLOW_TESTS=1), values with zeros, signed zeros, subnormals,
 * huge magnitudes, ±∞ and NaN (the slow path reads the decoded x's f64 words), full eight-column steps and a tail.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice, viewOf } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gemvDecodedXPassCount, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { doubleDoubles } from '../../src/testing/double-double-laws.js';
import { ddRange } from './dd-ranges.js';
import { requireRuntime } from './gpu-test-helpers.js';

const initial = gpuKernelSwitches();
const slowTests = process.env.MODPREC_SLOW_TESTS === '1';
afterEach(() => {
  setGpuKernelSwitches(initial);
});

const doubles = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -4, max: 4, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(0, -0, 5e-324, -2.5e-308, 1e300, -1e-300, 3) },
  { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity, NaN) },
);

describe('dd GEMV N with x decoded once a call (ddGemvDecodedX)', () => {
  /** The property for A in `storage` and x packed or (`strided`) a stride-2 view. */
  const sameWords = async (storage: 'f64' | 'dd', strided: boolean, numRuns: number): Promise<void> => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 20 }),
      fc.array(doubles, { minLength: 100, maxLength: 100 }), fc.array(doubleDoubles({ minExponent: -300, maxExponent: 300 }), { minLength: 60, maxLength: 60 }),
      async (m, n, values, pairs) => {
        const A = deviceMatrix(storage === 'dd' ? await toDevice(ddRange(pairs.slice(0, m * n)) as never) : await toDevice(Float64Array.from(values.slice(0, m * n)), { format: 'f64' }), m, n);
        const xs = Float64Array.from(values.slice(60, 60 + 2 * n));
        // The view: every second element of a 2n-element span (x_j at 2j).
        const x = strided ? viewOf(await toDevice(xs, { format: 'f64' }), { length: n, offset: 0, stride: 2, alwaysView: true }) : await toDevice(xs.slice(0, n), { format: 'f64' });
        const outs: number[][] = [];
        for (const on of [false, true]) {
          // The pre-pass feeds the windows of 8 (the long f64 window, the default since session 19, decodes its own limbs).
          setGpuKernelSwitches({ ddGemvDecodedX: on, ddGemvLong: false });
          const y = await toDevice(new Float64Array(m), { format: 'dd' });
          const before = gemvDecodedXPassCount();
          // One thread a row: whole eight-column steps (the windows) and the tail.
          await gpuGemv({ A, x, y, alpha: 1, beta: 0 }, { arithmetic: 'dd', strict: true, targetThreads: 1 });
          // The switch takes the pre-pass (one a call), and only the switch.
          expect(gemvDecodedXPassCount() - before).toBe(on ? 1 : 0);
          outs.push(Array.from((await y.encoded()).words));
        }
        expect(outs[1]).toEqual(outs[0]);
      },
    ), { numRuns });
  };

  it('A in f64, x in f64 (packed): the same words with the switch on and off', async () => {
    await sameWords('f64', false, 6);
  });

  // Two more pairs of shaders (dd·f64x, and a view's reads): minutes on a loaded llvmpipe, opt-in.
  it.skipIf(!slowTests)('A in dd, x in f64 (a stride-2 view): the same words with the switch on and off', async () => {
    await sameWords('dd', true, 5);
  });
});
