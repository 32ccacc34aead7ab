/**
 * Jacobi CG on an SPD matrix never reports 'indefinite': with a tolerance it cannot meet (0, or below what fp32 vectors
 * attain) its recurrence residual falls on to about 1e-23, the products of ρ = rᵀz underflow to 0 while ‖r‖ does not,
 * and ρ = 0 read as 'rᵀz ≤ 0: the matrix is not SPD'.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jacobiCg, formats } from '../../src/index.js';
import { spdSystem } from './solver-fixtures.js';

describe("Jacobi CG: an underflowing rᵀz is not 'indefinite'", () => {
  it('SPD systems run to their limit in fp32, bf16 and fp16 vectors (tolerance 0 or 1e-30)', () => {
    fc.assert(fc.property(spdSystem, fc.constantFrom(formats.f32, formats.bf16, formats.f16), fc.constantFrom(0, 1e-30), (s, storage, tolerance) => {
      const r = jacobiCg(s.A, s.b, { storage, tolerance, maxIterations: 60 });
      expect(r.breakdown).not.toBe('indefinite');
      if (r.status === 'converged') expect(r.trueResidualNorm).toBeLessThanOrEqual(tolerance);
    }), { numRuns: 60 });
  });
});
