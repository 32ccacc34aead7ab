/**
 * An RNS arithmetic has no NaN or ±∞, while fp16, fp32 and fp64 vectors store an overflow as ±∞. A solve whose vectors
 * overflowed their storage then threw `INVALID_VALUE` naming an internal vector part-way through the solve, where the
 * same solve in fp64 arithmetic returns a result: cg(1e6·I, (1, 1)) with fp16 vectors and rns106 arithmetic threw
 * "y[0] must be finite for rns106 arithmetic" (A·p = 1e6 overflows fp16; fp64 arithmetic scales A·p down and ends in
 * `stagnation` at x = 1.01e-6), BiCGStab and GMRES threw where fp64 arithmetic breaks down `non-finite`, and
 * iterativeRefinement(10⁻³⁰⁰, 10³⁰) with an rns106 residual threw "x[0] must be finite" where fp64 breaks down
 * `non-finite`. Such reads are now NaN, as in IEEE arithmetic: the same verdicts, never a throw after validation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, formats, gmres, iterativeRefinement, jacobiCg, matrix, toArray, type OperatorLike, type SolverResult } from '../../src/index.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]];

const diagonal = (d: readonly number[]) => matrix(d.length, d.length, (i, j) => (i === j ? d[i]! : 0));

/** What a result says, x included (as doubles). */
const verdict = (r: SolverResult) => ({
  status: r.status, breakdown: r.breakdown, iterations: r.iterations, trueResidualNorm: r.trueResidualNorm, x: Array.from(toArray(r.x)),
});

describe('RNS arithmetic on vectors that overflow their storage', () => {
  it('the reported cases: every solver on 1e6·I and 1e-6·I with fp16 vectors gives the verdict of fp64 arithmetic', () => {
    for (const [, solve] of solvers) {
      for (const c of [1e6, 1e-6]) {
        const A = diagonal([c, c]);
        const inRns = solve(A, [1, 1], { storage: formats.f16, arithmetic: formats.rns106, maxIterations: 20 });
        const inF64 = solve(A, [1, 1], { storage: formats.f16, arithmetic: formats.f64, maxIterations: 20 });
        // (the exact products of 1e6·I and fp16 words are the same in both arithmetics; the true residual b − 2^e·A·x̃,
        // x̃ = x/2^e as stored, is one rounding in RNS and a few in fp64)
        expect({ ...verdict(inRns), trueResidualNorm: 0 }).toEqual({ ...verdict(inF64), trueResidualNorm: 0 });
        expect(Math.abs(inRns.trueResidualNorm - inF64.trueResidualNorm)).toBeLessThanOrEqual(1e-9 * inF64.trueResidualNorm);
      }
    }
    const r = cg(diagonal([1e6, 1e6]), [1, 1], { storage: formats.f16, arithmetic: formats.rns106 });
    expect([r.status, r.breakdown]).toEqual(['breakdown', 'stagnation']);
  });

  it('random diagonals spanning 10^±8 in fp16, bf16 and fp32 vectors: a result, never a throw, and finite x', () => {
    const entry = fc.integer({ min: -8, max: 8 }).chain((e) => fc.integer({ min: 1, max: 9 }).map((m) => m * 10 ** e));
    fc.assert(fc.property(
      fc.array(entry, { minLength: 1, maxLength: 4 }), fc.constantFrom(formats.f16, formats.bf16, formats.f32), fc.constantFrom(...solvers),
      (d, storage, [, solve]) => {
        const r = solve(diagonal(d), d.map((_, i) => 1 + i), { storage, arithmetic: formats.rns106, maxIterations: 8 });
        expect(toArray(r.x).every(Number.isFinite)).toBe(true);
        expect(Number.isNaN(r.trueResidualNorm)).toBe(false);
        expect(r.history.some(Number.isNaN)).toBe(false);
      }), { numRuns: 30, seed: 2711 });
  });

  it('iterative refinement with an RNS residual: a solution beyond the double range is non-finite with x = 0, as in fp64', () => {
    const A = { rows: 1, cols: 1, ld: 1, data: Float64Array.of(1e-300) };
    for (const residualArithmetic of [formats.rns106, formats.f64]) {
      const r = iterativeRefinement(A, [1e30], { residualArithmetic });
      expect([r.status, r.breakdown, Array.from(toArray(r.x)), r.trueResidualNorm]).toEqual(['breakdown', 'non-finite', [0], 1]);
    }
  });
});
