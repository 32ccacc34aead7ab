/**
 * Float-float arithmetic on the GPU (llvmpipe) gives binary32's special values: for binary32 operands drawn from ±0,
 * ±∞, NaN, ±MAX32, subnormals and ordinary numbers, every kernel's result (or output vector) with `arithmetic: 'ff'`
 * over f32 storage is NaN, ±∞ or a signed zero exactly where the same GPU kernel in f32 arithmetic gives it (the
 * CPU's ff against the CPU's f32: test/formats/ff-special-values.test.ts). The reference is the GPU's own f32 kernel
 * because some GPU kernels order their operations differently from the CPU's in every arithmetic (TRSV multiplies by
 * inverted diagonal blocks; see test/gpu/dd-special-values.test.ts) — except TRSV here: over an f32 x in ff it
 * substitutes and rounds x between rows as the CPU does, so its reference is the CPU's ff solve.
 *
 * Regressions: the pair's error terms (∞ − ∞) turned an ∞ head into NaN — asum([−∞, 1]), dot([∞], [∞]) and the
 * overflowing dot([1e30, 1e30], [1e30, 1e30]) gave NaN (f32: ∞) — and zero error terms turned −0 into +0:
 * scal(−1, [+0]) gave +0 (f32: −0).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { asum, dot, scal, vector, formats, toArray } from '../../src/index.js';
import { gpuFlushesSubnormals, requireRuntime } from './gpu-test-helpers.js';
import { F32_COEFFICIENTS, F32_VALUES, SPECIAL_KERNELS, sameSpecials, show, specialCase } from '../dd/special-value-cases.js';

const gpu = { backend: 'gpu', arithmetic: 'ff', strict: true } as const;
const ff = { storage: formats.f32, arithmetic: formats.ff } as const;
const bits = (r: Parameters<typeof toArray>[0]) => [...toArray(r)].map((v) => show(v as number));

describe('float-float on the GPU: the CPU’s special values', () => {
  it('regressions: ∞ stays ∞, an overflow is ±∞, −0 stays −0', async () => {
    await requireRuntime();
    expect(show((await asum(vector([-Infinity, 1], ff), gpu)).value)).toBe('Infinity');
    expect(show((await dot(vector([Infinity], ff), vector([Infinity], ff), gpu)).value)).toBe('Infinity');
    expect(show((await dot(vector([1e30, 1e30], ff), vector([1e30, 1e30], ff), gpu)).value)).toBe('Infinity');
    const a = vector([0, -0, Infinity], ff);
    await scal(-1, a, gpu);
    expect(bits(a)).toEqual(['-0', '0', '-Infinity']);
  });

  it('every kernel, ff arithmetic on f32 storage: the special values of the GPU’s f32 kernel', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(specialCase(F32_VALUES, F32_COEFFICIENTS), async (c) => {
      for (const [name, run] of Object.entries(SPECIAL_KERNELS)) {
        // TRSV over an f32 x in ff rounds x to binary32 between rows, as the CPU does, by substitution (not the f32
        // kernel's inverted blocks): its reference is the CPU's ff solve.
        const reference = name === 'trsv'
          ? await run(c, { arithmetic: 'ff', storage: 'f32' }, { backend: 'cpu', arithmetic: 'ff' })
          : await run(c, { arithmetic: 'f32', storage: 'f32' }, { backend: 'gpu', arithmetic: 'f32', strict: true });
        const got = await run(c, { arithmetic: 'ff', storage: 'f32' }, gpu);
        // On a device that flushes binary32 subnormals, TRSV's reference (the CPU's solve, which keeps them) does not
        // hold: subnormals arise mid-solve (2^-126 / MAX32) and flushed ones cascade (0/0 where the CPU has ±∞).
        if (name === 'trsv' && (await gpuFlushesSubnormals())) continue;
        if (!sameSpecials(got, reference)) expect({ kernel: name, case: c, got }).toEqual({ kernel: name, case: c, got: reference });
      }
    }), { numRuns: 150, seed: 2614 });
  });
});
