/**
 * A solve with `backend: 'gpu'` and double-double vectors reads b, x₀ and BiCGStab's shadow given as double-double
 * ranges in full, as the CPU does: they were uploaded as doubles (toArray), so b = 1 + 2^-80 (A = I) was solved as 1
 * and the result differed from the CPU's in the low word.
 */
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, matrix, vector, formats, type Range } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

function ddVector(values: readonly { hi: number; lo: number }[]): Range<1, any> {
  const v = vector(values.length, { storage: formats.dd });
  values.forEach((e, i) => v.set(i, e));
  return v;
}

describe("double-double inputs with backend: 'gpu'", () => {
  it('b = (1 + 2^-80, 3 − 2^-70), A = I: x = b on the GPU as on the CPU', async () => {
    await requireRuntime();
    const A = matrix(2, 2, (i, j) => (i === j ? 1 : 0));
    const entries = [{ hi: 1, lo: 2 ** -80 }, { hi: 3, lo: -(2 ** -70) }];
    const b = ddVector(entries);
    const dd = { storage: formats.dd, arithmetic: formats.dd, tolerance: 1e-30 };
    // x − b in double-double terms (the scalars α, ω are doubles, so BiCGStab's x is b to about 2^-104, not exactly)
    const error = (x: Range<1, any>, i: number): number => Math.abs((x.get(i).hi - entries[i]!.hi) + (x.get(i).lo - entries[i]!.lo));
    for (const solve of [cg, bicgstab, gmres]) {
      const cpu = solve(A, b, dd);
      const gpu = await solve(A, b, { ...dd, backend: 'gpu', strict: true });
      for (const r of [cpu, gpu]) {
        expect(r.status).toBe('converged');
        for (const i of [0, 1]) expect(error(r.x, i)).toBeLessThanOrEqual(2 ** -100 * entries[i]!.hi);
      }
    }
    // x₀ = b (a dd range): already the solution, 0 iterations on both
    const fromX0 = await cg(A, b, { ...dd, x0: b, backend: 'gpu', strict: true });
    expect([fromX0.status, fromX0.iterations]).toEqual(['converged', 0]);
  });
});
