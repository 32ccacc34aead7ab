/**
 * BiCGStab's breakdown restarts: a vanishing ρ, σ or ω after an iteration restarts from the true residual with the
 * shadow residual reset to it (r̂ = r), at most `breakdownRestarts` times, counted in the result; 0 is the old stop.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bicgstab, DEFAULT_BREAKDOWN_RESTARTS, matrix, toArray, formats, laplacianEll } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const dense = (rows: number[][]) => matrix(rows.length, rows.length, (i, j) => rows[i]![j]!);

// A·x = e₃ with r̂ = r₀ = e₃: σ = 2, α = 1/2, s = (0, 1/2, 0), t = A·s = (1, 1/2, 0), ω = 1/5, r₁ = (−1/5, 2/5, 0) — every
// third entry is exactly 0 in any arithmetic, so ρ₁ = r̂ᵀr₁ = 0: BiCG's breakdown in exact arithmetic, not rounding.
const A3 = dense([[-1, 2, 0], [1, 1, -1], [1, 0, 2]]);
const e3 = [0, 0, 1];
// x = A⁻¹·e₃ = (1/4, 1/8, 3/8): −x + 2y = 0, x + y − z = 0, x + 2z = 1
const x3 = [1 / 4, 1 / 8, 3 / 8];

describe('BiCGStab breakdown restarts', () => {
  it('ρ₁ = 0 in exact arithmetic: with breakdownRestarts 0 the old rho-zero after one iteration, by default one restart and convergence', () => {
    const old = bicgstab(A3, e3, { breakdownRestarts: 0, tolerance: 1e-14 });
    expect(old.status).toBe('breakdown');
    expect(old.breakdown).toBe('rho-zero');
    expect(old.iterations).toBe(1);
    expect(old.breakdownRestarts).toBe(0);
    const r = bicgstab(A3, e3, { tolerance: 1e-14 });
    expect(r.status).toBe('converged');
    expect(r.breakdownRestarts).toBe(1);
    expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-14);
    const x = toArray(r.x);
    for (let i = 0; i < 3; i++) expect(Math.abs(x[i]! - x3[i]!)).toBeLessThan(1e-14);
    // The iterations before the breakdown are the old ones.
    expect(r.history.slice(0, old.history.length)).toEqual(old.history);
  });

  it('a ρ within the DOT\'s rounding error (|ρ| ≤ γₙ‖r̂‖‖r‖) restarts too; one above it does not', () => {
    // r̂ = (δ, 0, 1): the same steps as r̂ = e₃ (σ = r̂ᵀ(0, −1, 2) = 2), and ρ₁ = r̂ᵀ(−1/5, 2/5, 0) = −δ/5, against
    // γ₃·‖r̂‖₂·‖r₁‖₂ ≈ 3·2^-53·0.447 ≈ 1.5e-16.
    const tiny = bicgstab(A3, e3, { shadow: [2 ** -60, 0, 1], tolerance: 1e-14 });   // |ρ₁| ≈ 1.7e-19
    expect([tiny.status, tiny.breakdownRestarts]).toEqual(['converged', 1]);
    expect(tiny.trueResidualNorm).toBeLessThanOrEqual(1e-14);
    // restarted at ρ₁, from the same x₁ as r̂ = e₃ (where ρ₁ = 0): the same solve from there on, bit for bit
    const exact = bicgstab(A3, e3, { tolerance: 1e-14 });
    expect(tiny.history).toEqual(exact.history);
    expect([...toArray(tiny.x)]).toEqual([...toArray(exact.x)]);
    const small = bicgstab(A3, e3, { shadow: [2 ** -40, 0, 1], tolerance: 1e-14 });  // |ρ₁| ≈ 1.8e-13
    expect(small.breakdownRestarts).toBe(0);
    // without restarts a nonzero ρ is no breakdown: the old solver goes on with it
    const old = bicgstab(A3, e3, { shadow: [2 ** -60, 0, 1], tolerance: 1e-14, breakdownRestarts: 0 });
    expect(old.breakdown).not.toBe('rho-zero');
    expect(old.iterations).toBeGreaterThan(1);
  });

  it('ω = 0: the restart (r̂ = r = s) meets σ = sᵀA·s = 0 at once, and the solve reports the breakdown that made it, omega-zero', () => {
    // r₀ = e₁, v = (1, 1), α = 1, s = (0, −1), t = A·s = (−1, 0): tᵀs = 0
    const A = dense([[1, 1], [1, 0]]);
    const old = bicgstab(A, [1, 0], { breakdownRestarts: 0 });
    const r = bicgstab(A, [1, 0]);
    for (const [res, restarts] of [[old, 0], [r, 1]] as const) {
      expect(res.status).toBe('breakdown');
      expect(res.breakdown).toBe('omega-zero');
      expect(res.iterations).toBe(1);
      expect(res.breakdownRestarts).toBe(restarts);
      expect([...toArray(res.x)]).toEqual([1, 0]);   // x = α·p = e₁, the half step kept
    }
  });

  it('a breakdown before any iteration is not restarted: a shadow orthogonal to r₀ is rho-zero, σ = r₀ᵀA·r₀ = 0 is sigma-zero', () => {
    const a = bicgstab(dense([[2, 1], [0, 3]]), [1, 0], { shadow: [0, 1] });
    expect([a.breakdown, a.breakdownRestarts, a.iterations]).toEqual(['rho-zero', 0, 0]);
    const b = bicgstab(dense([[0, 1], [1, 0]]), [1, 0]);
    expect([b.breakdown, b.breakdownRestarts, b.iterations]).toEqual(['sigma-zero', 0, 0]);
  });

  it('bf16 vectors on the 4-point 1-D Laplacian, b = (1, 2, 3, 4): rho-zero at a true residual of 6.4e-3 without restarts, converged to 1e-8 with them', () => {
    const A = laplacianEll([4]);
    const b = [1, 2, 3, 4];
    const old = bicgstab(A, b, { storage: formats.bf16, breakdownRestarts: 0 });
    expect(old.breakdown).toBe('rho-zero');
    expect(old.trueResidualNorm).toBeGreaterThan(1e-3);
    const r = bicgstab(A, b, { storage: formats.bf16 });
    expect(r.status).toBe('converged');
    expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-8);
    expect(r.breakdownRestarts).toBeGreaterThanOrEqual(1);
    expect(r.breakdownRestarts).toBeLessThanOrEqual(DEFAULT_BREAKDOWN_RESTARTS);
  });

  it('random nonsymmetric systems: at most breakdownRestarts restarts, and a solve that made none is the solve with breakdownRestarts 0, bit for bit', () => {
    const entry = fc.integer({ min: -4, max: 4 });
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 }).chain((n) => fc.tuple(
        fc.array(fc.array(entry, { minLength: n, maxLength: n }), { minLength: n, maxLength: n }),
        fc.array(entry, { minLength: n, maxLength: n }),
      )),
      fc.constantFrom(formats.f64, formats.f32, formats.bf16),
      fc.integer({ min: 0, max: 3 }),
      ([rows, b], storage, limit) => {
        const A = dense(rows);
        const r = bicgstab(A, b, { storage, breakdownRestarts: limit, maxIterations: 40 });
        expect(r.breakdownRestarts).toBeGreaterThanOrEqual(0);
        expect(r.breakdownRestarts).toBeLessThanOrEqual(limit);
        if (r.status === 'converged') expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-8);
        if (r.breakdownRestarts === 0) {
          const old = bicgstab(A, b, { storage, breakdownRestarts: 0, maxIterations: 40 });
          // The same iteration up to where a breakdown is checked: with restarts allowed, a ρ within its rounding error
          // of 0 (or an exact 0) sends the solver to the true residual, which may end the solve there (converged, or the
          // breakdown when it stagnates: not restarted, not counted), where the solver without restarts goes on or
          // stops with the breakdown unchecked.
          const common = Math.min(r.history.length, old.history.length);
          expect(r.history.slice(0, common)).toEqual(old.history.slice(0, common));
          const checked = (s: typeof r): boolean => s.status === 'converged' || (s.status === 'breakdown' && s.breakdown !== 'non-finite' && s.breakdown !== 'stagnation');
          if (!checked(r) && !checked(old)) {
            expect([r.status, r.breakdown, r.iterations]).toEqual([old.status, old.breakdown, old.iterations]);
            expect(r.history).toEqual(old.history);
            expect([...toArray(r.x)]).toEqual([...toArray(old.x)]);
          }
        }
      },
    ), { numRuns: 150, seed: 3411 });
  });

  it('options.breakdownRestarts must be an integer ≥ 0: INVALID_OPTION naming it, before any work, on CPU and GPU alike', () => {
    for (const bad of [-1, 1.5, NaN, Infinity, '2', 2 ** 53]) {
      expectModprec(() => bicgstab(A3, e3, { breakdownRestarts: bad as never }), 'INVALID_OPTION', 'options.breakdownRestarts');
      // thrown synchronously on the GPU path too (validation precedes the device)
      expectModprec(() => bicgstab(A3, e3, { breakdownRestarts: bad as never, backend: 'gpu', arithmetic: formats.ff }), 'INVALID_OPTION', 'options.breakdownRestarts');
    }
    expect(bicgstab(A3, e3, { breakdownRestarts: undefined }).breakdownRestarts).toBe(1);
  });
});
