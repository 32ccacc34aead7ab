/**
 * The GPU side of public-narrow-residual.test.ts: fp16 vectors on the device hold b and measure the true residual in an f64 vector,
 * so a residual of 2^-30 (below fp16's smallest number, 2^-24) is not read as 0 and reported `converged`.
 */
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, formats, toArray, matrix, type SolverResult } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

describe("fp16 vectors with backend: 'gpu'", () => {
  it('A = (1 + 2^-30)·I: x = 1 in fp16 is not converged to 1e-12, and its true residual is reported as 2^-30', async () => {
    await requireRuntime();
    const n = 4, d = 1 + 2 ** -30;
    const A = matrix(n, n, (i, j) => (i === j ? d : 0));
    const b = [1, 1, 1, 1];
    const options = { backend: 'gpu' as const, strict: true, arithmetic: formats.ff, storage: formats.f16, tolerance: 1e-12 };
    const results: SolverResult[] = [await cg(A, b, options), await bicgstab(A, b, options), await gmres(A, b, options)];
    for (const r of results) {
      expect(Array.from(toArray(r.x))).toEqual([1, 1, 1, 1]);
      expect(r.status).not.toBe('converged');
      // float-float (about 48 bits) holds 1 + 2^-30 exactly: b − A·x is −2^-30 in every entry
      expect(Math.abs(r.trueResidualNorm - 2 ** -30)).toBeLessThanOrEqual(2 ** -40);
    }
  });
});
