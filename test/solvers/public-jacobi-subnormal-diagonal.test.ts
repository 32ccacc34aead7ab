/**
 * The Jacobi preconditioner stored 1/dᵢ, which overflows for a diagonal entry among the subnormals (below 2^-1024), and
 * beyond fp32's range for fp32 arithmetic: jacobiCg(diag(1e-310, 1), (1e-310, 1)) broke down 'non-finite' at 0
 * iterations with x = 0 (plain CG converges), and so did fp32 arithmetic on diag(1e-39, 1). M⁻¹ is now c·D⁻¹ with a
 * power of two c that centres the inverses on 1 where they leave fp32's range (c = 1 otherwise: the same iteration);
 * preconditioned CG does not depend on c. A diagonal so wide that no one scale holds every inverse (5e-324 and 1e300)
 * is an INVALID_VALUE naming the entry, before the operator is applied.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, functionOperator, jacobiCg, matrix, toArray, vector, ModprecError } from '../../src/index.js';
import { exactRelativeResidual } from './dense-residual.js';

function diagonalSystem(d: readonly number[], b: readonly number[]) {
  const n = d.length;
  const data = new Float64Array(n * n);
  d.forEach((v, i) => { data[i + i * n] = v; });
  return { n, b: Float64Array.from(b), dense: { rows: n, cols: n, ld: n, data }, A: matrix(n, n, (i, j) => (i === j ? d[i]! : 0)) };
}

describe('Jacobi CG on a diagonal beyond the range of its inverses', () => {
  it('the reported cases: diag(1e-310, 1) in fp64 and dd, diag(1e-39, 1) in fp32 arithmetic, converge', () => {
    const s = diagonalSystem([1e-310, 1], [1e-310, 1]);
    for (const storage of [formats.f64, formats.dd]) {
      const r = jacobiCg(s.A, s.b, { storage });
      expect([r.status, Array.from(toArray(r.x))]).toEqual(['converged', [1, 1]]);
    }
    const f = diagonalSystem([1e-39, 1], [1e-39, 1]);
    const r = jacobiCg(f.A, f.b, { arithmetic: formats.f32, tolerance: 1e-6 });
    expect(r.status).toBe('converged');
    expect(exactRelativeResidual(f, vector(Array.from(toArray(r.x))))).toBeLessThanOrEqual(1e-6);
  });

  it('random diagonals and b = D·y (|y| ≤ 1) from 2^-1070 to 2^20 (fp64) and 2^-140 to 2^20 (fp32 arithmetic): converged means the exact residual meets the tolerance', () => {
    fc.assert(fc.property(
      fc.boolean(),
      fc.array(fc.tuple(fc.double({ min: 1, max: 2, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 6 }),
      fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
      (fp32, entries, rhs) => {
        const lowest = fp32 ? -140 : -1070;
        // d₀ ≥ 1 and b = D·y with y₀ = 1, |y| ≤ 1: the solution y is a double, and ‖b‖₂ ≥ 1 is not rescaled (a tiny b
        // is solved scaled up to ‖b‖₂ in [1, 2), where a subnormal A's solution overflows: a limit of that scaling)
        const d = entries.map(([m, t], i) => m * 2 ** Math.round(i === 0 ? t * 20 : lowest + t * (20 - lowest)));
        const s = diagonalSystem(d, d.map((v, i) => v * (i === 0 ? 1 : rhs[i]!)));
        const tolerance = fp32 ? 1e-5 : 1e-12;
        const r = jacobiCg(s.A, s.b, { tolerance, arithmetic: fp32 ? formats.f32 : formats.f64, maxIterations: 50 });
        expect(r.breakdown).not.toBe('non-finite');
        if (r.status === 'converged') expect(exactRelativeResidual(s, vector(Array.from(toArray(r.x))))).toBeLessThanOrEqual(tolerance);
      }), { numRuns: 60, seed: 2911 });
  });

  it('a diagonal no one scale holds: INVALID_VALUE naming the entry, before the operator is applied', () => {
    let applied = 0;
    const A = functionOperator({
      size: 2,
      apply: (x, y) => { applied++; y.set(0, 5e-324 * x.get(0)); y.set(1, 1e300 * x.get(1)); },
      diagonal: () => Float64Array.of(5e-324, 1e300),
    });
    let error: unknown;
    try { jacobiCg(A, [1, 1]); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(ModprecError);
    expect(error).toMatchObject({ code: 'INVALID_VALUE', parameter: 'A[0, 0]' });
    expect(applied).toBe(0);
  });
});
