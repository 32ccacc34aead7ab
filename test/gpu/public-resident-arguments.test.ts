/**
 * The resident kernels of modprec/gpu check that their arguments are an object before reading a field, as the CPU
 * kernels do: INVALID_OPTION naming `arguments`. Regression: gpuUpdate(null) threw a TypeError ("reading 'alpha'"),
 * gpuGemv, gpuTrsv, gpuEllSpmv, rnsGpuGemv and rnsGpuEllSpmv(null) TypeErrors ("Cannot destructure property 'A'"), and
 * rnsGpuTrsv(null) likewise, and rnsGpuEllSpmv without an A one from reading its values (now INVALID_STORAGE naming A, as the others name theirs).
 */
import { describe, expect, it } from 'vitest';
import { gpuEllSpmv, gpuGemv, gpuTrsv, gpuUpdate, rnsGpuEllSpmv, rnsGpuGemv, rnsGpuTrsv } from '../../src/backends/webgpu/index.js';

async function codeOf(f: () => Promise<unknown>): Promise<string> {
  try { await f(); return 'ran'; } catch (e) { return `${(e as { code?: string }).code} ${(e as { parameter?: string }).parameter}`; }
}

describe('resident kernels: the arguments object', () => {
  it.each([['gpuUpdate', gpuUpdate], ['gpuGemv', gpuGemv], ['gpuTrsv', gpuTrsv], ['gpuEllSpmv', gpuEllSpmv], ['rnsGpuGemv', rnsGpuGemv], ['rnsGpuEllSpmv', rnsGpuEllSpmv], ['rnsGpuTrsv', rnsGpuTrsv]] as const)(
    '%s: not an object is INVALID_OPTION naming arguments', async (_, kernel) => {
      for (const args of [null, undefined, 5, 'x']) expect(await codeOf(() => (kernel as (a: unknown) => Promise<unknown>)(args))).toBe('INVALID_OPTION arguments');
    });

  it('rnsGpuEllSpmv without an A is INVALID_STORAGE naming A', async () => {
    for (const A of [undefined, null, 5, {}]) expect(await codeOf(() => rnsGpuEllSpmv({ A } as never))).toBe('INVALID_STORAGE A');
  });
});
