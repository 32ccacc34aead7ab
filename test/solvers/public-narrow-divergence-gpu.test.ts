/**
 * The GPU side of public-narrow-divergence.test.ts: the guard lives in the solver iterations the CPU and GPU spaces
 * share, so fp16 vectors on the device (float-float arithmetic) stop short of an unattainable tolerance with a finite x,
 * the true residual of the x returned, and never worse than x₀ — as on the CPU.
 */
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, jacobiCg, formats, toArray, matrix, type SolverResult } from '../../src/index.js';
import { exactDot, exactOf, roundRationalToDouble, subRational } from '../../src/testing/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

describe("fp16 vectors with backend: 'gpu' do not diverge to ±∞", () => {
  it('diag(1/2 + 2^-21, 1, 1/4 + 2^-23), b = (1, 2, 4), tolerance 1e-8: x finite, its true residual reported', async () => {
    await requireRuntime();
    const d = [0.5 + 2 ** -21, 1, 0.25 + 2 ** -23];
    const A = matrix(3, 3, (i, j) => (i === j ? d[i]! : 0));
    const b = [1, 2, 4];
    const options = { backend: 'gpu' as const, strict: true, arithmetic: formats.ff, storage: formats.f16, tolerance: 1e-8 };
    const results: SolverResult[] = [await cg(A, b, options), await jacobiCg(A, b, options), await bicgstab(A, b, options)];
    for (const r of results) {
      const x = toArray(r.x);
      expect(x.every(Number.isFinite)).toBe(true);
      expect(r.status).not.toBe('converged');
      let rr = 0;
      for (let i = 0; i < 3; i++) {
        const ri = roundRationalToDouble(subRational(exactOf(b[i]!), exactDot([d[i]!], [x[i]!])));
        rr += ri * ri;
      }
      const exact = Math.sqrt(rr / 21);
      expect(exact).toBeLessThanOrEqual(1);
      // float-float (about 48 bits) rounds b − A·x and its norm within about 2^-44 of ‖b‖
      expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(2 ** -40);
    }
  });
});
