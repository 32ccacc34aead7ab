/**
 * CG calls a matrix 'indefinite' only where pᵀAp is not positive at working precision. Its floor for that test used
 * ‖p‖² from a recurrence that assumes pᵀr = 0; with fp16 vectors the recurrence drifted to 5·10¹⁵ (‖p‖² was near 2)
 * and CG stopped 'indefinite' on a diagonal matrix with positive entries — an SPD matrix.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cg, matrix, formats } from '../../src/index.js';

/** A positive diagonal system: every pᵀAp of a nonzero p is positive, so 'indefinite' is never true. */
function diagonalSystem(diagonal: readonly number[]) {
  const n = diagonal.length;
  return { A: matrix(n, n, (i, j) => (i === j ? diagonal[i]! : 0)), b: diagonal.map((_, i) => 2 ** (i % 3)) };
}

describe("CG on an SPD matrix never reports 'indefinite'", () => {
  it('fp16 vectors on diag(1, 1/4, 1/2 + 2^-21, 4, 2, 1/4) (stopped indefinite after 121 iterations)', () => {
    const { A, b } = diagonalSystem([1, 0.25, 0.5000004768371582, 4, 2, 0.25]);
    const r = cg(A, b, { storage: formats.f16, arithmetic: formats.f64, tolerance: 1e-8 });
    expect(r.breakdown).not.toBe('indefinite');
    expect(r.history.every(Number.isFinite)).toBe(true);
  });

  it('random positive diagonals, fp16 and bf16 vectors', () => {
    const entry = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 3, max: 30 }), fc.integer({ min: -3, max: 3 }))
      .map(([k, m, e]) => 2 ** e * (1 + k * 2 ** -m));
    fc.assert(fc.property(fc.array(entry, { minLength: 1, maxLength: 8 }), fc.constantFrom(formats.f16, formats.bf16), fc.constantFrom(1e-8, 1e-12), (diagonal, storage, tolerance) => {
      const { A, b } = diagonalSystem(diagonal);
      expect(cg(A, b, { storage, arithmetic: formats.f64, tolerance, maxIterations: 300 }).breakdown).not.toBe('indefinite');
    }), { numRuns: 80 });
  });
});
