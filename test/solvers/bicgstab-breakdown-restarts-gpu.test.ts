/**
 * The GPU side of bicgstab-breakdown-restarts.test.ts: the same algorithm over resident device arrays restarts after
 * the same breakdowns, counts them, and reaches the tolerance.
 */
import { describe, expect, it } from 'vitest';
import { bicgstab, formats, laplacianEll, matrix, toArray } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

describe("BiCGStab breakdown restarts with backend: 'gpu'", () => {
  it('ρ₁ = 0 in exact arithmetic (A·x = e₃): rho-zero after one iteration without restarts, one restart and converged with them', async () => {
    await requireRuntime();
    const A = matrix(3, 3, (i, j) => [[-1, 2, 0], [1, 1, -1], [1, 0, 2]][i]![j]!);
    const gpu = { backend: 'gpu' as const, strict: true, arithmetic: formats.ff, tolerance: 1e-12 };
    const old = await bicgstab(A, [0, 0, 1], { ...gpu, breakdownRestarts: 0 });
    expect([old.status, old.breakdown, old.iterations, old.breakdownRestarts]).toEqual(['breakdown', 'rho-zero', 1, 0]);
    const r = await bicgstab(A, [0, 0, 1], gpu);
    expect([r.status, r.breakdownRestarts]).toEqual(['converged', 1]);
    expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-12);
    const x = toArray(r.x), exact = [1 / 4, 1 / 8, 3 / 8];
    for (let i = 0; i < 3; i++) expect(Math.abs(x[i]! - exact[i]!)).toBeLessThan(1e-12);
  });

  it('bf16 vectors on the 4-point 1-D Laplacian, b = (1, 2, 3, 4): rho-zero at 6.4e-3 without restarts, converged to 1e-8 with them', async () => {
    await requireRuntime();
    const gpu = { backend: 'gpu' as const, strict: true, arithmetic: formats.ff, storage: formats.bf16, tolerance: 1e-8 };
    const r = await bicgstab(laplacianEll([4]), [1, 2, 3, 4], gpu);
    const old = await bicgstab(laplacianEll([4]), [1, 2, 3, 4], { ...gpu, breakdownRestarts: 0 });
    // as on the CPU: without restarts the old rho-zero far from the tolerance
    expect([old.status, old.breakdown]).toEqual(['breakdown', 'rho-zero']);
    expect(old.trueResidualNorm).toBeGreaterThan(1e-3);
    expect(r.breakdownRestarts).toBeGreaterThanOrEqual(1);
    expect(r.status).toBe('converged');
    expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-8);
  });
});
