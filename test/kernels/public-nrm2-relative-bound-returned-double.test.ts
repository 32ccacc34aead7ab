/**
 * nrm2RelativeBound bounds the double nrm2 returns: for exactly read x without underflow,
 * |nrm2(x) − ‖x‖| ≤ nrm2RelativeBound(n)·‖x‖ in every arithmetic — also those wider than fp64, whose norm is rounded
 * once more to a double. Regression: in dd and RNS it returned ρ + u(1 + ρ) with u = 2^-104 (3.9e-31 for n = 2),
 * while nrm2([1, 1]) = fl(√2) is 6.3e-17 relative from √2.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { vector, nrm2, nrm2RelativeBound } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, compareRational, mulRational, subRational, ZERO, type Rational } from '../../src/testing/rational.js';

/** |r − √S| ≤ b·√S, decided exactly: r ≥ 0 and (r/(1 + b))² ≤ S ≤ (r/(1 − b))², i.e. r² ≤ S(1 + b)² and S(1 − b)² ≤ r². */
function withinRelative(r: number, squares: Rational, b: number): boolean {
  if (!(b >= 0) || !(r >= 0)) return false;
  const rr = mulRational(exactOf(r), exactOf(r));
  const up = addRational(exactOf(1), exactOf(b)), down = subRational(exactOf(1), exactOf(b));
  return compareRational(rr, mulRational(squares, mulRational(up, up))) <= 0
    && (down.num <= 0n || compareRational(mulRational(squares, mulRational(down, down)), rr) <= 0);
}

describe('nrm2RelativeBound holds for the returned double', () => {
  it('[1, 1] in dd and rns106: fl(√2) is within it', () => {
    for (const arithmetic of ['dd', 'rns106', 'f64', 'f32']) {
      const x = vector([1, 1]);
      expect(withinRelative(nrm2(x, { arithmetic } as never), exactOf(2), nrm2RelativeBound(2, { arithmetic } as never)), arithmetic).toBe(true);
    }
  });

  it('random integer vectors (read exactly, no underflow), every arithmetic and accumulation nrm2 takes', () => {
    const config = fc.constantFrom(['dd', undefined], ['dd', 'dd'], ['rns106', undefined], ['f64', 'dd'], ['f64', 'kahan'], ['f32', 'pairwise'], ['f64', undefined]);
    fc.assert(fc.property(fc.array(fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), { minLength: 1, maxLength: 30 }), config, (values, [arithmetic, accumulation]) => {
      const x = vector(values);
      const options = { arithmetic, ...(accumulation ? { accumulation } : {}) } as never;
      let squares: Rational = ZERO;
      for (const v of values) squares = addRational(squares, exactOf(v * v));
      const r = nrm2(x, options);
      return squares.num === 0n ? r === 0 : withinRelative(r, squares, nrm2RelativeBound(values.length, options));
    }), { numRuns: 300 });
  });
});
