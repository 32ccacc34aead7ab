/**
 * Float-float arithmetic gives binary32's special values on the CPU: for binary32 operands drawn from ±0, ±∞, NaN,
 * ±MAX32, subnormals and ordinary numbers, every kernel's result (or output vector) in ff arithmetic is NaN, ±∞ or a
 * signed zero exactly where the same kernel in f32 arithmetic gives it (docs/double-double.md, "Special values").
 *
 * Regressions: the pair's error terms (∞ − ∞) turned an ∞ head into NaN — asum([−∞, 1]) and dot([∞], [∞]) gave NaN
 * (f32: ∞) — and zero error terms turned −0 into +0: scal(−1, [+0]) gave +0 (f32: −0).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { asum, dot, scal, vector, formats, toArray } from '../../src/index.js';
import { F32_COEFFICIENTS, F32_VALUES, SPECIAL_KERNELS, sameSpecials, show, specialCase } from '../dd/special-value-cases.js';

const ff = { storage: formats.f32, arithmetic: formats.ff } as const;
const bits = (r: Parameters<typeof toArray>[0]) => [...toArray(r)].map((v) => show(v as number));

describe('float-float special values are binary32’s', () => {
  it('regressions: ∞ stays ∞, an overflow is ±∞, −0 stays −0', () => {
    expect(show(asum(vector([-Infinity, 1], ff)))).toBe('Infinity');
    expect(show(dot(vector([Infinity], ff), vector([Infinity], ff)))).toBe('Infinity');
    expect(show(dot(vector([1e30, 1e30], ff), vector([1e30, 1e30], ff)))).toBe('Infinity');
    const a = vector([0, -0, Infinity], ff);
    scal(-1, a);
    expect(bits(a)).toEqual(['-0', '0', '-Infinity']);
  });

  it('every kernel, ff arithmetic on f32 storage: the special values of the f32 kernel', async () => {
    await fc.assert(fc.asyncProperty(specialCase(F32_VALUES, F32_COEFFICIENTS), async (c) => {
      for (const [name, run] of Object.entries(SPECIAL_KERNELS)) {
        const reference = await run(c, { arithmetic: 'f32', storage: 'f32' }, { backend: 'js' });
        const got = await run(c, { arithmetic: 'ff', storage: 'f32' }, { backend: 'js' });
        if (!sameSpecials(got, reference)) expect({ kernel: name, case: c, got }).toEqual({ kernel: name, case: c, got: reference });
      }
    }), { numRuns: 300, seed: 2613 });
  });
});
