/**
 * The oracle of the solver property tests on small dense systems given as rows: the exact relative residual of a
 * returned x, and the rounding error a solver's computed true residual may carry.
 */
import { exactOf, mulRational, roundRationalToDouble, subRational, type Rational } from '../../src/testing/index.js';

/** ‖b − A·x‖₂/‖b‖₂ with every entry of b − A·x exact (BigInt rationals) before its one rounding to a double. */
export function exactResidual(A: readonly (readonly number[])[], b: readonly number[], x: ArrayLike<number>): number {
  let rr = 0, bb = 0;
  for (let i = 0; i < b.length; i++) {
    let t: Rational = exactOf(b[i]!);
    for (let j = 0; j < b.length; j++) t = subRational(t, mulRational(exactOf(A[i]![j]!), exactOf(x[j]!)));
    const r = roundRationalToDouble(t);
    rr += r * r;
    bb += b[i]! * b[i]!;
  }
  return Math.sqrt(rr / bb);
}

/**
 * γₙ₊₁·‖|b| + |A|·|x|‖₂/‖b‖₂ (γₖ = ku/(1 − ku)), doubled for the norm's own rounding: how far a relative residual
 * b − A·x computed in an arithmetic of unit roundoff u may lie from the exact one (Higham, §7.1).
 */
export function residualRoundingBound(A: readonly (readonly number[])[], b: readonly number[], x: ArrayLike<number>, u: number): number {
  const n = b.length;
  const gamma = ((n + 1) * u) / (1 - (n + 1) * u);
  let ss = 0, bb = 0;
  for (let i = 0; i < n; i++) {
    let s = Math.abs(b[i]!);
    for (let j = 0; j < n; j++) s += Math.abs(A[i]![j]! * x[j]!);
    ss += s * s;
    bb += b[i]! * b[i]!;
  }
  return 2 * gamma * Math.sqrt(ss / bb);
}
