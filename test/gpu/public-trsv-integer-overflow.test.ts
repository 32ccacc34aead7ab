/**
 * TRSV on the GPU with a scaled i16 x in binary32 arithmetic (solved by substitution, x rounded to its storage between
 * rows, as on the CPU) where a row leaves the arithmetic's range: bᵢ read as +∞ (32767 under a scale of 1e35) less a
 * product that overflows binary32 is ∞ − ∞, a NaN the integer storage keeps as 0. The GPU must store the CPU's
 * integers, and trsvBound with the GPU's options (the CPU's substitution bound) must be +∞ there, as on the CPU
 * (test/kernels/public-trsv-integer-overflow.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { formats, range, rowMajor, scaledReducedRowMajor, trsv, trsvBound, type Range } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

function operands(arithmetic: 'f32' | 'ff'): { A: Range<2, any>; x: Range<1, any>; data: Int16Array } {
  const A = range(rowMajor<2>({ size: [2, 2], storage: formats.f32, arithmetic: formats[arithmetic] }));
  A.set(0, 0, 1); A.set(1, 0, 1e38); A.set(1, 1, 1);
  const data = Int16Array.of(100, 32767);
  const x = range(scaledReducedRowMajor<1>({ size: [2], storage: formats.i16, arithmetic: formats[arithmetic], data, scaleMask: [true], scale: Float64Array.of(1, 1e35) }));
  return { A, x, data };
}

describe('GPU TRSV into a scaled i16 x beyond binary32', () => {
  for (const arithmetic of ['f32', 'ff'] as const) {
    it(`${arithmetic}: the CPU's stored integers, and a bound of +∞ for the row that overflowed`, async () => {
      await requireRuntime();
      const stored: Record<string, number[]> = {};
      for (const backend of ['cpu', 'gpu'] as const) {
        const { A, x, data } = operands(arithmetic);
        const args = { A, x, uplo: 'L' as const, trans: 'N' as const, diag: 'U' as const };
        const options = backend === 'gpu' ? { backend: 'gpu', arithmetic: formats[arithmetic], strict: true } : { backend: 'js', arithmetic: formats[arithmetic] };
        await trsv(args, options as never);
        stored[backend] = [...data];
        const bound = trsvBound(args, options as never);
        expect(bound[0], backend).toBeLessThan(0.6); // half a unit: the write's rounding
        expect(bound[1], backend).toBe(Infinity);
      }
      expect(stored.gpu).toEqual(stored.cpu);
      expect(stored.cpu![0]).toBe(100);
    });
  }
});
