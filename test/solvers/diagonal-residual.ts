/**
 * The oracle of the solver tests on diagonal systems: the relative residual of a returned x, each entry exact.
 */
import { exactDot, exactOf, roundRationalToDouble, subRational } from '../../src/testing/index.js';

/** ‖b − A·x‖₂/‖b‖₂ of A = diag(`diagonal`), each residual entry exact (BigInt rationals) before its one rounding to a double. */
export function exactRelativeResidual(diagonal: readonly number[], x: ArrayLike<number>, b: readonly number[]): number {
  let rr = 0, bb = 0;
  for (let i = 0; i < b.length; i++) {
    const r = roundRationalToDouble(subRational(exactOf(b[i]!), exactDot([diagonal[i]!], [x[i]!])));
    rr += r * r;
    bb += b[i]! * b[i]!;
  }
  return Math.sqrt(rr / bb);
}
