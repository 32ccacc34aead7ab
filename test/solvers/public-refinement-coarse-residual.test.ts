/**
 * Iterative refinement with a residual arithmetic coarser than fp64 (fp32, float-float) computed b − A·x with x read
 * rounded to that arithmetic, and judged and reported that: A = [[3]], b = [1] with an fp32 residual and a double-double
 * x was 'converged' to tolerance 1e-14 with trueResidualNorm 0 where the exact backward error is about 1e-8, and a
 * float-float residual claimed the default tolerance √n·2^-53 with a true residual of 0 that was 2·10⁻¹⁶ and more. The
 * tolerance is now met only where fp64 says so too, and the final residual (trueResidualNorm) is fp64's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, iterativeRefinement, toArray, type SolverResult } from '../../src/index.js';
import { exactOf, mulRational, roundRationalToDouble, subRational, addRational, type Rational } from '../../src/testing/index.js';

/** x's entries as exact rationals (a double-double x: both words). */
function exactX(r: SolverResult, n: number): Rational[] {
  return Array.from({ length: n }, (_, j) => {
    const v = r.x.get(j) as number | { hi: number; lo: number };
    return typeof v === 'number' ? exactOf(v) : addRational(exactOf(v.hi), exactOf(v.lo));
  });
}

/** The exact ‖b − A·x‖∞/(‖A‖∞·‖x‖∞) and ‖b − A·x‖₂/‖b‖₂, each entry of b − A·x exact before one rounding. */
function exactErrors(data: Float64Array, n: number, b: readonly number[], r: SolverResult): { backward: number; relative: number } {
  const x = exactX(r, n);
  let rInf = 0, aInf = 0, xInf = 0, rr = 0, bb = 0;
  for (let i = 0; i < n; i++) {
    let t: Rational = exactOf(b[i]!);
    let row = 0;
    for (let j = 0; j < n; j++) { t = subRational(t, mulRational(exactOf(data[i + j * n]!), x[j]!)); row += Math.abs(data[i + j * n]!); }
    const ri = roundRationalToDouble(t);
    rInf = Math.max(rInf, Math.abs(ri)); aInf = Math.max(aInf, row); rr += ri * ri; bb += b[i]! * b[i]!;
  }
  for (const xj of x) xInf = Math.max(xInf, Math.abs(roundRationalToDouble(xj)));
  return { backward: rInf / (aInf * xInf), relative: Math.sqrt(rr / bb) };
}

// Entries k/1000 + random low bits: no subnormal b, whose solution an fp32 residual cannot see at all.
const unit = fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: 0, max: 1e-3, noNaN: true })).map(([k, t]) => k / 1000 + (k === 0 ? 0 : t));

describe('iterative refinement with an fp32 or float-float residual', () => {
  it('the reported case: A = [[3]], b = [1], fp32 residual, double-double x, tolerance 1e-14 is not converged', () => {
    const data = Float64Array.of(3);
    const r = iterativeRefinement({ rows: 1, cols: 1, ld: 1, data }, [1], { residualArithmetic: formats.f32, storage: formats.dd, tolerance: 1e-14 });
    const exact = exactErrors(data, 1, [1], r);
    expect(r.status).not.toBe('converged');
    expect(r.trueResidualNorm).toBeGreaterThan(0);
    expect(Math.abs(r.trueResidualNorm - exact.relative)).toBeLessThanOrEqual(2 ** -52 * 4);
  });

  it('converged means the exact backward error meets the tolerance (up to fp64\'s own residual rounding), and the residual reported is fp64\'s', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(
        fc.constant(n),
        fc.array(unit, { minLength: n * n, maxLength: n * n }),
        fc.array(unit, { minLength: n, maxLength: n }).filter((b) => b.some((v) => v !== 0)),
      )),
      fc.constantFrom(formats.f32, formats.ff), fc.constantFrom(formats.f64, formats.dd), fc.constantFrom(undefined, 1e-12, 1e-14),
      ([n, entries, b], residualArithmetic, storage, tolerance) => {
        const data = Float64Array.from(entries, (v, k) => (k % (n + 1) === 0 ? v + n + 1 : v));   // diagonally dominant
        const r = iterativeRefinement({ rows: n, cols: n, ld: n, data }, b, { residualArithmetic, storage, tolerance });
        const exact = exactErrors(data, n, b, r);
        const slack = (n + 1) * 2 ** -53;   // fp64's b − A·x: each entry within γₙ₊₁·(|b| + |A|·|x|) ≤ γₙ₊₁·2‖A‖∞‖x‖∞ here
        if (r.status === 'converged') expect(exact.backward).toBeLessThanOrEqual((tolerance ?? Math.sqrt(n) * 2 ** (storage === formats.dd ? -104 : -53)) + 2 * slack);
        expect(Math.abs(r.trueResidualNorm - exact.relative)).toBeLessThanOrEqual(4 * slack * (1 + exact.relative) * n);
      }), { numRuns: 60, seed: 3111 });
  });
});
