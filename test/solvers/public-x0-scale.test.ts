/**
 * The Krylov solvers scale b and x₀ by a power of two chosen from b alone, so an x₀ far larger than b (r₀ = b − A·x₀
 * far larger than b) overflowed the recurrences' squares: with fp32 arithmetic on fp64 or dd vectors, cg, jacobiCg and
 * bicgstab on laplacianEll([5]), b = (1, −2, 3, 0.5, 1) and x₀ = 2^70·(0.5, 0, −1, 2, 1) broke down 'non-finite' at 0
 * iterations, and at x₀ = 2^130 every solver returned x = ±∞ (x read through the fp32 arithmetic); in fp64 arithmetic
 * an x₀ of 2^600 did the same. A large r₀ now scales the solve further (‖r₀‖₂ to 2^32, b not below 2^-32 in fp32 or
 * float-float arithmetic, 2^-255 in fp64), and x reads in its storage's own arithmetic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, formats, gmres, jacobiCg, laplacianEll, toArray, type OperatorLike, type SolverResult } from '../../src/index.js';
import { relativeError, spdSystem } from './solver-fixtures.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]];
const unit = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);

/** x's stored words as doubles: fp64 one per element, dd two (hi, lo). */
function words(r: SolverResult): number[] {
  const { data, offset } = r.x.accessor as unknown as { data: Float64Array; offset: number };
  const per = r.x.accessor.storage.name === 'dd' ? 2 : 1;
  return Array.from(data.subarray(offset * per, (offset + r.x.length()) * per));
}

describe('an x0 far larger than b', () => {
  it.each(solvers)('%s: the reported case (fp32 arithmetic, fp64 and dd vectors, x0 = 2^70 and 2^88) converges', (_, solve) => {
    const A = laplacianEll([5]);
    const b = [1, -2, 3, 0.5, 1];
    const exact = [4 / 3, 5 / 3, 4, 10 / 3, 13 / 6];
    for (const storage of [formats.f64, formats.dd]) for (const e of [70, 88]) {
      const r = solve(A, b, { storage, arithmetic: formats.f32, x0: [0.5, 0, -1, 2, 1].map((v) => v * 2 ** e), tolerance: 1e-5 });
      expect(r.status).toBe('converged');
      // κ(A) < 14: the relative error is at most κ times the relative residual
      expect(relativeError(toArray(r.x), exact)).toBeLessThanOrEqual(14 * r.trueResidualNorm + 1e-15);
    }
  });

  it('on the GPU too (fp32 arithmetic, fp64 vectors, x0 = 2^70): the same scale, converged', async () => {
    await requireRuntime();
    const b = [1, -2, 3, 0.5, 1];
    const x0 = [0.5, 0, -1, 2, 1].map((v) => v * 2 ** 70);
    const r = await cg(laplacianEll([5]), b, { storage: formats.f64, arithmetic: formats.f32, x0, tolerance: 1e-5, backend: 'gpu', strict: true });
    expect(r.status).toBe('converged');
    expect(relativeError(toArray(r.x), [4 / 3, 5 / 3, 4, 10 / 3, 13 / 6])).toBeLessThanOrEqual(14 * 1e-5);
  });

  it.each(solvers)('%s: random SPD systems at random scales converge within κ·tolerance from x0 up to 2^80 (fp32) / 2^700 (fp64) times x', (_, solve) => {
    fc.assert(fc.property(
      spdSystem, fc.array(unit, { minLength: 12, maxLength: 12 }).filter((v) => v.some((c) => c !== 0)),
      fc.constantFrom(formats.f64, formats.dd), fc.boolean(), fc.integer({ min: -200, max: 200 }), fc.integer({ min: 0, max: 700 }),
      (s, guess, storage, narrow, eb, e) => {
        const ex = narrow ? Math.min(e, 80) : e;
        const tolerance = narrow ? 1e-5 : 1e-10;
        const b = Array.from(s.b, (v) => v * 2 ** eb);
        const x0 = guess.slice(0, s.n).map((v) => v * 2 ** (eb + ex));
        const r = solve(s.A, b, { storage, ...(narrow ? { arithmetic: formats.f32 } : {}), x0, tolerance });
        const x = toArray(r.x);
        expect(Array.from(x).every(Number.isFinite)).toBe(true);
        expect(r.status).toBe('converged');
        expect(r.trueResidualNorm).toBeLessThanOrEqual(tolerance);
        // A = BᵀB + n·I with |bᵢⱼ| ≤ 1: κ ≤ 1 + n; the reference is an fp64 LU solve
        const reference = Array.from(s.reference, (v) => v * 2 ** eb);
        expect(relativeError(x, reference)).toBeLessThanOrEqual((1 + s.n) * tolerance * 1.01 + 1e-13);
      },
    ), { numRuns: 15, seed: 26, examples: [] });
  });

  it.each(solvers)('%s: 2^j·b and 2^j·x0 give exactly 2^j·x (the further scale is a power of two)', (_, solve) => {
    const A = laplacianEll([5]);
    const b = [1 / 3, -2 / 7, 1, 4 / 3, 0.1];
    fc.assert(fc.property(
      fc.constantFrom(formats.f64, formats.dd), fc.constantFrom(formats.f32, undefined), fc.integer({ min: 40, max: 80 }), fc.integer({ min: -600, max: 600 }),
      (storage, arithmetic, e, j) => {
        const x0 = [0.5, 0.25, -1, 2, 1].map((v) => v * 2 ** e);
        const options = (k: number) => ({ storage, ...(arithmetic ? { arithmetic } : {}), tolerance: 1e-6, x0: x0.map((v) => v * 2 ** k) });
        const base = solve(A, b, options(0));
        const scaled = solve(A, b.map((v) => v * 2 ** j), options(j));
        expect([scaled.status, scaled.iterations, scaled.history]).toEqual([base.status, base.iterations, base.history]);
        expect(words(scaled)).toEqual(words(base).map((v) => v * 2 ** j));
      },
    ), { numRuns: 12, seed: 7, examples: [[formats.f64, formats.f32, 70, 0], [formats.dd, formats.f32, 80, -500]] });
  });
});
