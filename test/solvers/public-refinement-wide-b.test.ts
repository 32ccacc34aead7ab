/**
 * Iterative refinement with a b stored in double-double keeps all of b in its residual, as the Krylov solvers do: it
 * rounded b to doubles first, so b = 1 + 2^-80 (A = I, dd residuals, dd x) was solved as 1 and reported `converged`
 * with a true residual of 0. Checked against the exact residual of the returned x (BigInt rationals).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iterativeRefinement, matrix, vector, formats, type Range } from '../../src/index.js';
import { addRational, exactOf, mulRational, roundRationalToDouble, subRational, ZERO, type Rational } from '../../src/testing/index.js';

type DdPair = { hi: number; lo: number };
const exactDd = (v: DdPair): Rational => addRational(exactOf(v.hi), exactOf(v.lo));

/** ‖b − A·x‖₂/‖b‖₂, every entry exact before its one rounding to a double. */
function exactRelativeResidual(A: (i: number, j: number) => number, b: Range<1, any>, x: Range<1, any>): number {
  const n = b.length();
  let rr = 0, bb = 0;
  for (let i = 0; i < n; i++) {
    let r = exactDd(b.get(i) as DdPair);
    for (let j = 0; j < n; j++) r = subRational(r, mulRational(exactOf(A(i, j)), exactDd(x.get(j) as DdPair)));
    const ri = roundRationalToDouble(r), bi = roundRationalToDouble(exactDd(b.get(i) as DdPair));
    rr += ri * ri;
    bb += bi * bi;
  }
  return Math.sqrt(rr / bb);
}

function ddVector(values: readonly DdPair[]): Range<1, any> {
  const b = vector(values.length, { storage: formats.dd });
  values.forEach((v, i) => b.set(i, v));
  return b;
}

const dd = { residualArithmetic: formats.dd, storage: formats.dd };

describe('iterative refinement reads a double-double b in full', () => {
  it('A = I, b = 1 + 2^-80: x = b, not 1', () => {
    const b = ddVector([{ hi: 1, lo: 2 ** -80 }, { hi: 1, lo: 0 }]);
    const r = iterativeRefinement(matrix(2, 2, (i, j) => (i === j ? 1 : 0)), b, dd);
    expect(r.x.get(0)).toEqual({ hi: 1, lo: 2 ** -80 });
    expect(r.status).toBe('converged');
    expect(exactRelativeResidual((i, j) => (i === j ? 1 : 0), b, r.x)).toBe(0);
  });

  it('random well-conditioned A and dd b: converged means the exact residual is at dd level, and it is the one reported', () => {
    const ddEntry = fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }))
      // normalised: |lo| ≤ |hi|·2^-55 (and lo = 0 where hi = 0)
      .map(([h, l]) => ({ hi: h / 64, lo: (Math.abs(h) / 64) * l * 2 ** -95 }));
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(fc.constant(n), fc.array(ddEntry, { minLength: n, maxLength: n }))), ([n, values]) => {
      fc.pre(values.some((v) => v.hi !== 0 || v.lo !== 0));
      const a = (i: number, j: number) => 1 / (i + j + 1) + (i === j ? 2 : 0);
      const b = ddVector(values);
      // a backward error of 1e-30 (the default, √n·u of dd, is at x's own rounding and may end in 'stagnation')
      const r = iterativeRefinement(matrix(n, n, a), b, { ...dd, tolerance: 1e-30 });
      const exact = exactRelativeResidual(a, b, r.x);
      expect(r.status).toBe('converged');
      expect(exact).toBeLessThan(1e-29);
      // the reported residual is the rounded exact one, up to the dd arithmetic's own rounding
      expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(1e-3 * exact + 1e-31);
    }), { numRuns: 60 });
  });
});
