/**
 * GMRES on an inconsistent singular system with fp16 vectors: a coarse basis leaves rounding noise that a cycle can
 * take for a pivot, and its correction sent x along A's null space past fp16's 65504. The solve then broke down
 * 'non-finite' — diag(0, 0.5, 1.87), b = (−2, −4, −2), fp16 vectors and basis, restart 2, after 4 iterations —
 * although the x it returned (its best iterate) was finite, at the least-squares residual 2/√24. Such a correction
 * (one that raises the true residual, see public-gmres-raised-residual) is now cut to fewer columns: the solve goes on
 * or ends in 'stagnation', and 'non-finite' is never reported with a finite x whose true residual is finite.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, gmres, matrix, toArray } from '../../src/index.js';
import { exactResidual, residualRoundingBound } from './residual-oracle.js';

/** diag(d) with a zero on the diagonal and b with a nonzero entry there: no solution; least-squares residual known. */
const inconsistent = fc.integer({ min: 2, max: 6 }).chain((n) => fc.record({
  d: fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0.5, max: 4, noNaN: true })), { minLength: n, maxLength: n }).filter((d) => d.includes(0)),
  b: fc.array(fc.integer({ min: -4, max: 4 }), { minLength: n, maxLength: n }),
})).map(({ d, b }) => ({ d, b: b.map((v, i) => (d[i] === 0 && d.indexOf(0) === i && v === 0 ? 1 : v)) }));

/** ‖b restricted to A's zero rows‖/‖b‖: the least residual any x attains. */
const leastSquares = (d: readonly number[], b: readonly number[]) =>
  Math.hypot(...b.filter((_, i) => d[i] === 0)) / Math.hypot(...b);

function solve(d: readonly number[], b: readonly number[], basisStorage: object, restart: number) {
  const A = d.map((di, i) => d.map((_, j) => (i === j ? di : 0)));
  const r = gmres(matrix(d.length, d.length, (i, j) => A[i]![j]!), b, { storage: formats.f16, basisStorage: basisStorage as never, restart, tolerance: 1e-8, maxIterations: 200 });
  return { A, r, x: Array.from(toArray(r.x)) };
}

describe('GMRES whose correction overflows fp16 vectors on an inconsistent system', () => {
  it('the reported case ends in stagnation at the least-squares residual, with the x it returns', () => {
    const d = [0, 0.5, 1.869573266252132], b = [-2, -4, -2];
    const { A, r, x } = solve(d, b, formats.f16, 2);
    expect([r.status, r.breakdown]).toEqual(['breakdown', 'stagnation']);
    expect(x.every(Number.isFinite)).toBe(true);
    const exact = exactResidual(A, b, x);
    expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(residualRoundingBound(A, b, x, 2 ** -52));
    // x holds fp16's 11 bits: its residual lies within a few of its roundings of the least-squares one
    expect(exact - leastSquares(d, b)).toBeLessThanOrEqual(2 ** -8);
  });

  it('never non-finite with a finite x and residual; the residual reported is the exact one of the x returned', () => {
    fc.assert(fc.property(inconsistent, fc.constantFrom(formats.f16, formats.f32), fc.integer({ min: 1, max: 8 }), ({ d, b }, basis, restart) => {
      const { A, r, x } = solve(d, b, basis, restart);
      expect(x.every(Number.isFinite)).toBe(true);
      expect(Number.isFinite(r.trueResidualNorm)).toBe(true);
      expect(r.breakdown).not.toBe('non-finite');
      expect(r.status === 'iteration-limit' || r.breakdown === 'stagnation').toBe(true);
      const exact = exactResidual(A, b, x), bound = residualRoundingBound(A, b, x, 2 ** -52);
      expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(bound);
      expect(exact).toBeGreaterThanOrEqual(leastSquares(d, b) - bound);
      expect(exact).toBeLessThanOrEqual(1 + bound);
    }), { numRuns: 300, seed: 2811 });
  });
});
