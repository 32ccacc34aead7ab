/** RNS numbers to and from the exact rationals the RNS property tests compare against. */
import { rnsFromRational, rnsToRational, rnsZero, type RnsModuliSet, type RnsNumber } from '../../src/index.js';
import { rational, type Rational } from '../../src/testing/rational.js';

/** v in the RNS format of `set`, rounded once by rnsFromRational. */
export function numberOf(set: RnsModuliSet, v: Rational): RnsNumber {
  const z = rnsZero(set);
  rnsFromRational(z, v.num, v.den);
  return z;
}

/** The exact value of x. */
export function valueOf(x: RnsNumber): Rational {
  const r = rnsToRational(x);
  return rational(r.num, r.den);
}
