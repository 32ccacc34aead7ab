/**
 * Jacobi CG on an SPD matrix does not report 'indefinite' when ρ = rᵀz underflows: with a tolerance it cannot meet (0,
 * "run to the limit") in fp32 its recurrence residual falls on to about 1e-23, the products of rᵀz underflow to 0
 * while ‖r‖ does not, and ρ = 0 read as 'rᵀz ≤ 0: the matrix is not SPD'.
 */
import { describe, expect, it } from 'vitest';
import { jacobiCg, matrix, formats } from '../../src/index.js';

describe("Jacobi CG: an underflowing rᵀz is not 'indefinite'", () => {
  it('an SPD 3×3 system in fp32 with tolerance 0 ends in stagnation (was indefinite)', () => {
    // column-major; symmetric, diagonally dominant with a positive diagonal: SPD
    const data = [4.298077, -0.323836, -0.280761, -0.323836, 4.405501, -0.083871, -0.280761, -0.083871, 3.177586];
    const A = matrix(3, 3, (i, j) => data[i + 3 * j]!);
    const r = jacobiCg(A, [0.008, 0.522, -0.6], { storage: formats.f32, tolerance: 0, maxIterations: 60 });
    expect(r.breakdown).not.toBe('indefinite');
    expect(r.status).not.toBe('converged');
    expect(r.trueResidualNorm).toBeLessThan(1e-6);   // fp32's attainable accuracy, reached before the recurrence underflowed
  });
});
