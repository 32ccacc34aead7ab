/**
 * A solve with ‖b‖₂ beyond 2^32 runs on b scaled down by 2^-k and scales x back by 2^k at the end. An x that is finite
 * in the scaled solve can overflow there: GMRES on the singular diag(1, 2, 0) with b = 2^1000·(1, 1, 1) (inconsistent)
 * returned status 'stagnation' with x₃ = ∞ — its best iterate had grown along the null space — and a finite true
 * residual of 0.577 (measured before the scaling); A = 2^-100·I with b = 2^1000·(1, 1) reported 'converged' with
 * x = (∞, ∞). A solution that overflows at b's own scale is now the breakdown 'non-finite' with x = x₀ (as given, finite)
 * and x₀'s true residual — never a silent ±∞ in x.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, formats, gmres, jacobiCg, matrix, toArray, vector, type OperatorLike, type SolverResult } from '../../src/index.js';
import { exactRelativeResidual } from './dense-residual.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]];

/** A diagonal system as the dense pieces the exact residual reads. */
function diagonal(d: readonly number[]) {
  const n = d.length;
  const data = new Float64Array(n * n);
  d.forEach((v, i) => { data[i + i * n] = v; });
  return { n, dense: { rows: n, cols: n, ld: n, data }, A: matrix(n, n, (i, j) => (i === j ? d[i]! : 0)) };
}

describe('a solution that overflows when scaled back', () => {
  it('the reported cases: GMRES on diag(1, 2, 0), CG on diag(1, 2^-40, 0), and every solver on 2^-100·I, at b = 2^1000', () => {
    // GMRES no longer grows x along the null space there (public-gmres-singular): the least-squares residual, x finite
    const s = diagonal([1, 2, 0]);
    const r = gmres(s.A, [1, 1, 1].map((v) => v * 2 ** 1000), { tolerance: 1e-12, maxIterations: 200 });
    expect([r.status, r.breakdown]).toEqual(['breakdown', 'stagnation']);
    expect(r.trueResidualNorm).toBeCloseTo(1 / Math.sqrt(3), 12);
    const x = Array.from(toArray(r.x), (v) => v * 2 ** -1000);
    expect(Math.abs(x[0]! - 1) + Math.abs(x[1]! - 0.5)).toBeLessThan(1e-12);
    // CG's 'singular' (a semidefinite A, b outside its range) whose least-squares iterate lies beyond the double range
    const semi = cg(diagonal([1, 2 ** -40, 0]).A, [1, 1, 1].map((v) => v * 2 ** 1000), { tolerance: 1e-12 });
    expect([semi.status, semi.breakdown, Array.from(toArray(semi.x)), semi.trueResidualNorm]).toEqual(['breakdown', 'non-finite', [0, 0, 0], 1]);
    const tiny = diagonal([2 ** -100, 2 ** -100]);
    for (const [, solve] of solvers) {
      const t = solve(tiny.A, [2 ** 1000, 2 ** 1000], { x0: [3, -1] });
      expect([t.status, t.breakdown, Array.from(toArray(t.x))]).toEqual(['breakdown', 'non-finite', [3, -1]]);
      expect(t.trueResidualNorm).toBeCloseTo(1, 12);   // (2^1000 − 3·2^-100)/2^1000 and its neighbour
    }
    // An RNS x holds 2^1100 (its exponent range is wider than a double's): converged, the value kept
    const rns = cg(tiny.A, [2 ** 1000, 2 ** 1000], { storage: formats.rns212, arithmetic: formats.f64 });
    expect(rns.status).toBe('converged');
    const ar = formats.rns212.arithmetic;
    expect(ar.toNumber(ar.mul(rns.x.get(0), ar.fromNumber(2 ** -200)))).toBe(2 ** 900);
  });

  // jacobiCg refuses a zero diagonal (INVALID_VALUE naming it)
  it.each(solvers.filter(([name]) => name !== 'jacobiCg'))('%s: diagonal systems, some singular, at scales near the top of the double range: x finite, its residual the one reported', (_, solve) => {
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 64 }).map((k) => k / 16)), { minLength: 2, maxLength: 5 }),
      fc.array(fc.integer({ min: -8, max: 8 }), { minLength: 5, maxLength: 5 }).filter((v) => v.some((c) => c !== 0)),
      fc.integer({ min: -160, max: 0 }), fc.integer({ min: 900, max: 1016 }), fc.constantFrom(formats.f64, formats.f32, formats.dd),
      (d, rhs, a, e, storage) => {
        const s = diagonal(d.map((v) => v * 2 ** a));
        const b0 = rhs.slice(0, s.n);
        fc.pre(b0.some((v) => v !== 0));
        const r = solve(s.A, b0.map((v) => v * 2 ** e), { storage, tolerance: 1e-12, maxIterations: 60 });
        const x = Array.from(toArray(r.x));
        expect(x.every(Number.isFinite)).toBe(true);
        // The residual is scale-free: that of x·2^-e against b0 (exact powers of two, in range).
        const exact = exactRelativeResidual({ n: s.n, b: Float64Array.from(b0), dense: s.dense }, vector(x.map((v) => v * 2 ** -e)));
        expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(1e-6 * exact + 1e-12);
      },
    ), { numRuns: 25, seed: 1126, examples: [[[1, 2, 0], [1, 1, 1, 0, 0], 0, 1000, formats.f64]] });
  });
});
