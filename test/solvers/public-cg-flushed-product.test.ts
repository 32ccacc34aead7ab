/**
 * CG tells a vanishing pᵀA·p of a singular A from an underflow by the curvature met so far — and before the first step
 * there is none: a q = A·p that flushed to zero in the vectors' storage was taken for A·p = 0. fp32 vectors with fp64
 * arithmetic on A = 1e-300·I, b = 1e-300·(1, 2), stopped 'singular' at 0 iterations (the docs' meaning: a semidefinite
 * A and b outside its range, an inconsistent system); fp16 vectors on 1e-9·I the same. That first q is now measured
 * again where true residuals are (fp64 for narrow vectors): not zero there, it flushed — an underflow, checked against
 * the true residual as later ones are ('stagnation': the storage cannot hold A·p) — and zero there, A·p = 0. Since
 * A·p is stored scaled by the power of two of ‖A·p‖/‖p‖ (public-solution-scale), the fp16 and fp32 vectors hold it and
 * those solves converge; with fp32 arithmetic A·p underflows in the arithmetic itself and the verdict is 'stagnation'.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cg, formats, jacobiCg, matrix, toArray } from '../../src/index.js';

const diagonal = (d: readonly number[]) => matrix(d.length, d.length, (i, j) => (i === j ? d[i]! : 0));

describe('CG: a first q = A·p that flushed in the vectors\' storage is not singular', () => {
  it('the reported cases: fp32 vectors on 1e-300·I (fp64 and fp32 arithmetic), fp16 vectors on 1e-9·I', () => {
    for (const [d, storage, arithmetic] of [[1e-300, formats.f32, formats.f64], [1e-9, formats.f16, formats.f64]] as const) {
      const r = cg(diagonal([d, d]), [d, 2 * d], { storage, arithmetic });
      expect([r.status, r.breakdown, Array.from(toArray(r.x))]).toEqual(['converged', undefined, [1, 2]]);
    }
    const r = cg(diagonal([1e-300, 1e-300]), [1e-300, 2e-300], { storage: formats.f32, arithmetic: formats.f32 });
    expect([r.status, r.breakdown]).toEqual(['breakdown', 'stagnation']);
    expect([Array.from(toArray(r.x)), r.trueResidualNorm]).toEqual([[0, 0], 1]);
  });

  it('SPD diagonals whose A·p flushes in fp16 or fp32 vectors: never singular or indefinite', () => {
    fc.assert(fc.property(
      fc.constantFrom([formats.f16, -60, -30] as const, [formats.f32, -400, -160] as const),
      fc.array(fc.tuple(fc.double({ min: 1, max: 2, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 5 }),
      fc.constantFrom(cg, jacobiCg),
      ([storage, low, high], entries, solve) => {
        const d = entries.map(([m, t]) => m * 2 ** Math.round(low + t * (high - low)));
        const r = solve(diagonal(d), d.map((v, i) => v * (1 + i)), { storage, arithmetic: formats.f64, maxIterations: 20 });
        expect(['singular', 'indefinite']).not.toContain(r.breakdown);
      }), { numRuns: 60, seed: 3211 });
  });

  it('A·p = 0 itself is still singular: the zero matrix, and b in the null space', () => {
    expect(cg(diagonal([0, 0]), [1, 1], { storage: formats.f16 }).breakdown).toBe('singular');
    expect(cg(diagonal([1, 0]), [0, 1], { storage: formats.f32 }).breakdown).toBe('singular');
  });
});
