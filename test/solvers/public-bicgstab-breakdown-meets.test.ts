/**
 * BiCGStab stopped at a vanishing ρ, σ or ω (no breakdown restart left) without asking whether x already solved the
 * system: with fp16 vectors, A = [[1, −2], [0, 1]] and b = (−2, 3), `breakdownRestarts: 0` broke down `rho-zero` after
 * 6 iterations with x exactly (4, 3), a true residual of 0. x's true residual is now checked at such a breakdown, and
 * one that meets the tolerance is `converged`; a breakdown is reported only where x does not solve the system.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bicgstab, formats, matrix, toArray } from '../../src/index.js';
import { exactResidual, residualRoundingBound } from './residual-oracle.js';

describe('BiCGStab: a breakdown whose x meets the tolerance is converged', () => {
  it('the reported case: fp16 vectors, [[1, −2], [0, 1]], b = (−2, 3), no restarts', () => {
    const A = [[1, -2], [0, 1]];
    const r = bicgstab(matrix(2, 2, (i, j) => A[i]![j]!), [-2, 3], { storage: formats.f16, breakdownRestarts: 0, tolerance: 1e-12 });
    expect(exactResidual(A, [-2, 3], toArray(r.x))).toBe(0);
    expect(r.status).toBe('converged');
    expect(r.breakdown).toBeUndefined();
  });

  it('small integer systems in every float storage: a rho-, sigma- or omega-zero breakdown leaves x short of the tolerance', () => {
    const system = fc.integer({ min: 1, max: 4 }).chain((n) => fc.record({
      A: fc.array(fc.array(fc.integer({ min: -2, max: 2 }), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }),
      b: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n, maxLength: n }).filter((b) => b.some((v) => v !== 0)),
    }));
    fc.assert(fc.property(system, fc.constantFrom(formats.f64, formats.f32, formats.f16, formats.bf16), fc.constantFrom(1e-12, 1e-6), ({ A, b }, storage, tolerance) => {
      const n = b.length;
      const r = bicgstab(matrix(n, n, (i, j) => A[i]![j]!), b, { storage, tolerance, breakdownRestarts: 0 });
      if (r.status === 'breakdown' && ['rho-zero', 'sigma-zero', 'omega-zero'].includes(r.breakdown!)) {
        // The check runs in fp64: x's true residual, rounded there, missed the tolerance.
        const x = toArray(r.x);
        expect(exactResidual(A, b, x)).toBeGreaterThan(tolerance - residualRoundingBound(A, b, x, 2 ** -53));
      }
    }), { numRuns: 300 });
  });
});
