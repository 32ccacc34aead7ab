/**
 * Jacobi CG stores z = M⁻¹·r in the vectors' storage, and M⁻¹ = c·D⁻¹ kept c = 1 while every 1/|aᵢᵢ| fit fp32's range:
 * with fp16 vectors (65504 at most) a diagonal entry below 2^-16 made z ±∞ — jacobiCg([[2^-29]], [−4]) broke down
 * 'non-finite' at 0 iterations, where cg converges to −2^31. Where the storage is narrower than fp32's range the
 * inverses are now always centred on 1 (c a power of two, which preconditioned CG does not depend on).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, jacobiCg, matrix, toArray } from '../../src/index.js';
import { exactResidual } from './residual-oracle.js';

describe('Jacobi CG with a diagonal whose inverses leave a narrow storage', () => {
  it('the reported case: [[2^-29]], b = (−4), fp16 vectors: x = −2^31', () => {
    const r = jacobiCg(matrix(1, 1, () => 2 ** -29), [-4], { storage: formats.f16 });
    expect([r.status, r.breakdown, Array.from(toArray(r.x))]).toEqual(['converged', undefined, [-(2 ** 31)]]);
  });

  it('SPD diagonals of entries m·2^(e+k) (e in [−40, 40], k in [−4, 4]), fp16 and bf16 vectors: converged within the tolerance by the exact residual', () => {
    // (a spread of 2^±4 within one x: fp16 holds such an x to 11 bits wherever its scale puts it)
    fc.assert(fc.property(
      fc.integer({ min: -40, max: 40 }),
      fc.array(fc.tuple(fc.integer({ min: 8, max: 15 }), fc.integer({ min: -4, max: 4 })), { minLength: 1, maxLength: 4 }),
      fc.array(fc.integer({ min: -8, max: 8 }), { minLength: 4, maxLength: 4 }), fc.constantFrom(formats.f16, formats.bf16),
      (e, spread, rhs, storage) => {
        const entries = spread.map(([m, k]) => [m, e + k] as const);
        const n = entries.length;
        const b = rhs.slice(0, n);
        if (b.every((v) => v === 0)) return;
        const rows = entries.map(([m, k], i) => entries.map((_, j) => (i === j ? (m / 8) * 2 ** k : 0)));
        const r = jacobiCg(matrix(n, n, (i, j) => rows[i]![j]!), b, { storage, tolerance: 1e-2 });
        expect([r.status, r.breakdown]).toEqual(['converged', undefined]);
        expect(exactResidual(rows, b, toArray(r.x))).toBeLessThanOrEqual(1e-2);
      }), { numRuns: 60 });
  });
});
