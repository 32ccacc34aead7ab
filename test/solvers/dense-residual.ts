/**
 * The exact relative residual of a dense system, the oracle of the solver tests that read what a solve reports.
 */
import type { Range } from '../../src/index.js';
import { exactOf, mulRational, roundRationalToDouble, subRational, type Rational } from '../../src/testing/index.js';
import type { DenseSystem } from './solver-fixtures.js';

/** ‖b − A·x‖₂/‖b‖₂, every entry of b − A·x exact before its one rounding to a double. */
export function exactRelativeResidual(s: Pick<DenseSystem, 'n' | 'b' | 'dense'>, x: Range<1, any>): number {
  let rr = 0, bb = 0;
  for (let i = 0; i < s.n; i++) {
    let t: Rational = exactOf(s.b[i]!);
    for (let j = 0; j < s.n; j++) t = subRational(t, mulRational(exactOf(s.dense.data[i + j * s.n]!), exactOf(x.get(j))));
    const r = roundRationalToDouble(t);
    rr += r * r;
    bb += s.b[i]! * s.b[i]!;
  }
  return Math.sqrt(rr / bb);
}
