/**
 * BiCGStab's shadow residual r̂ only sets directions: ρ = r̂ᵀr and σ = r̂ᵀA·p scale with it, α and β do not. It was stored
 * as given, so with fp16 vectors a shadow of 1e5 became ±∞ (breakdown 'non-finite' at 0 iterations) and one of 1e-9
 * flushed to zero ('rho-zero'), where the shadow of 1 converges. It is now stored scaled by the power of two that brings
 * its largest |r̂ᵢ| into [1, 2): the same iteration bit for bit as the shadow of that size, at every magnitude.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, formats, laplacianEll, matrix, toArray } from '../../src/index.js';

describe('the shadow residual’s magnitude', () => {
  it('the reported cases: fp16 vectors, shadows of 1e5 and 1e-9 converge as the shadow of 1 does', () => {
    const A = laplacianEll([4]), b = [1, 2, 3, 4];
    const one = bicgstab(A, b, { storage: formats.f16, shadow: [1, 1, 1, 1], tolerance: 1e-3 });
    expect(one.status).toBe('converged');
    for (const c of [1e5, 1e-9]) {
      const r = bicgstab(A, b, { storage: formats.f16, shadow: [c, c, c, c], tolerance: 1e-3 });
      expect([r.status, r.iterations]).toEqual([one.status, one.iterations]);
    }
  });

  it('2^k·r̂ gives exactly the solve of r̂, for every k and storage', () => {
    const n = 5;
    const A = matrix(n, n, (i, j) => (i === j ? 3 : j === i + 1 ? -1.25 : j === i - 1 ? -0.5 : 0));   // nonsymmetric
    fc.assert(fc.property(
      fc.array(fc.integer({ min: -64, max: 64 }), { minLength: n, maxLength: n }).filter((c) => c.some((v) => Math.abs(v) >= 32)),
      fc.array(fc.integer({ min: -9, max: 9 }), { minLength: n, maxLength: n }).filter((c) => c.some((v) => v !== 0)),
      fc.integer({ min: -1060, max: 1000 }), fc.constantFrom(formats.f64, formats.f32, formats.bf16, formats.f16, formats.dd),
      (shadow, b, k, storage) => {
        // the shadow with its largest entry in [32, 64]·2^-5 = [1, 2): the size the solver stores it at
        const base = shadow.map((v) => v / 32);
        const options = { storage, tolerance: 1e-4, maxIterations: 30 };
        const want = bicgstab(A, b, { ...options, shadow: base });
        const got = bicgstab(A, b, { ...options, shadow: base.map((v) => v * 2 ** k) });
        expect([got.status, got.breakdown, got.iterations, got.breakdownRestarts, got.history]).toEqual([want.status, want.breakdown, want.iterations, want.breakdownRestarts, want.history]);
        expect(Array.from(toArray(got.x))).toEqual(Array.from(toArray(want.x)));
      },
    ), { numRuns: 60, seed: 17, examples: [[[64, 1, 0, 0, 0], [1, 2, 3, 4, 5], 20, formats.f16], [[40, 0, 0, 0, 2], [1, 0, 0, 0, 0], -40, formats.f16]] });
  });
});
