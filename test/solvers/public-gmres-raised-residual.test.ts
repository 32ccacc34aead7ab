/**
 * A GMRES correction minimises the residual over a space that holds 0, so in exact arithmetic it never raises the true
 * residual. A coarse basis on an inconsistent singular system leaves rounding noise that a cycle took for a pivot:
 * diag(1, 0), b = (4, 4), fp64 vectors, an fp32 basis, restart 6 sent x₂ to −6·10¹¹ and alternated between the
 * least-squares residual 1/√2 and 1.5…3.0 until the iteration limit (each rise lowered the smallest residual a little,
 * so the stagnation test never fired). A correction that raises the true residual is now cut to fewer columns until it
 * does not (none: x unchanged, a check that did not lower the residual), and the solve ends in 'stagnation'.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, gmres, matrix, toArray } from '../../src/index.js';
import { exactResidual, residualRoundingBound } from './residual-oracle.js';

/** diag(d) with a zero on the diagonal and b with a nonzero entry there: no solution; least-squares residual known. */
const inconsistent = fc.integer({ min: 2, max: 6 }).chain((n) => fc.record({
  d: fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0.5, max: 4, noNaN: true })), { minLength: n, maxLength: n }).filter((d) => d.includes(0)),
  b: fc.array(fc.integer({ min: -4, max: 4 }), { minLength: n, maxLength: n }),
})).map(({ d, b }) => ({ d, b: b.map((v, i) => (d.indexOf(0) === i && v === 0 ? 1 : v)) }));

const leastSquares = (d: readonly number[], b: readonly number[]) =>
  Math.hypot(...b.filter((_, i) => d[i] === 0)) / Math.hypot(...b);

describe('GMRES corrections that would raise the true residual', () => {
  it('the reported case ends in stagnation at the least-squares residual, x not grown along the null space', () => {
    const d = [1, 0], b = [4, 4];
    const A = [[1, 0], [0, 0]];
    const r = gmres(matrix(2, 2, (i, j) => A[i]![j]!), b, { basisStorage: formats.f32, restart: 6, tolerance: 1e-6, maxIterations: 120 });
    expect([r.status, r.breakdown]).toEqual(['breakdown', 'stagnation']);
    expect(r.iterations).toBeLessThan(120);
    const x = Array.from(toArray(r.x));
    // x₂ grows only by the null-space part of the corrections: at most ‖b‖-sized here (it was −6·10¹¹)
    expect(Math.hypot(...x)).toBeLessThanOrEqual(2 * Math.hypot(...b));
    const exact = exactResidual(A, b, x);
    expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(residualRoundingBound(A, b, x, 2 ** -52));
    expect(exact - leastSquares(d, b)).toBeLessThanOrEqual(2 ** -20);
  });

  it('inconsistent diagonal systems with a coarse basis end in stagnation within the limit, at the residual reported', () => {
    fc.assert(fc.property(inconsistent, fc.constantFrom(formats.f64, formats.f32, formats.f16), fc.constantFrom(formats.f32, formats.f16),
      fc.integer({ min: 1, max: 8 }), ({ d, b }, storage, basisStorage, restart) => {
        const A = d.map((di, i) => d.map((_, j) => (i === j ? di : 0)));
        const r = gmres(matrix(d.length, d.length, (i, j) => A[i]![j]!), b, { storage, basisStorage, restart, tolerance: 1e-8, maxIterations: 200 });
        expect([r.status, r.breakdown]).toEqual(['breakdown', 'stagnation']);
        const x = Array.from(toArray(r.x));
        const exact = exactResidual(A, b, x), bound = residualRoundingBound(A, b, x, 2 ** -52);
        expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(bound);
        expect(exact).toBeGreaterThanOrEqual(leastSquares(d, b) - bound);
        expect(exact).toBeLessThanOrEqual(1 + bound);
      }), { numRuns: 200, seed: 9 });
  });
});
