/**
 * The exact oracle of the GPU dd GEMV tests (dd-gpu-fused.test.ts, dd-gemv-long.test.ts): a row's exact value and
 * magnitude as BigInt rationals (every double is a dyadic rational, a dd pair the sum of two), and the check of a row
 * against the windowed partial pass's bound and that bound against the CPU dd gemvBound.
 */
import { expect } from 'vitest';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, rational, subRational, type Rational } from '../../src/testing/rational.js';

/** A double-double value as its two parts (a double is a pair with lo 0). */
export type Pair = { hi: number; lo: number };

/** A pair's exact value, or a double's. */
export const exactPair = (p: Pair | number): Rational => (typeof p === 'number' ? exactOf(p) : addRational(exactOf(p.hi), exactOf(p.lo)));

/**
 * The exact sum Σ a_k·x_k of a row of op(A)·x and its magnitude Σ|a_k·x_k|.
 * @param n - the row's length (the summed dimension)
 * @param term - a_k and x_k (doubles or pairs), k = 0 … n − 1
 * @returns the exact sum and magnitude
 */
export function exactRow(n: number, term: (k: number) => readonly [Pair | number, Pair | number]): { exact: Rational; mag: Rational } {
  let exact = rational(0n);
  let mag = rational(0n);
  for (let k = 0; k < n; k++) {
    const [a, x] = term(k);
    const t = mulRational(exactPair(a), exactPair(x));
    exact = addRational(exact, t);
    mag = addRational(mag, absRational(t));
  }
  return { exact, mag };
}

/**
 * A GPU dd GEMV row against its exact value: within γ_{2n+2}(2^-110)·Σ|a·x| + n·2^-1074 + 2^-104·|exact| — the
 * partial pass's windows (per step or long: γ_{2n}, γ_{2n+1}), the finish pass (α = 1) and the dd store's roundings, and
 * 2^-1074 a subnormal slow-path product — and that limit inside the CPU dd gemvBound's γ_{n+2}(2^-102)·Σ|a·x| with
 * the same store and subnormal terms.
 * @param got - the row as the GPU stored it
 * @param exact - its exact value
 * @param mag - Σ|a·x|
 * @param n - the row's length
 * @param what - the row's name in a failure
 */
export function expectRowWithin(got: Pair, exact: Rational, mag: Rational, n: number, what: string): void {
  const gamma = (k: number, u: number): number => (k * u) / (1 - k * u);
  const err = absRational(subRational(exactPair(got), exact));
  const store = mulRational(exactOf(2 ** -104), absRational(exact));
  const windowLimit = addRational(addRational(mulRational(exactOf(gamma(2 * n + 2, 2 ** -110)), mag), exactOf(n * 2 ** -1074)), store);
  expect(compareRational(err, windowLimit), `${what}: got ${got.hi} + ${got.lo}`).toBeLessThanOrEqual(0);
  const cpuLimit = addRational(addRational(mulRational(exactOf(gamma(n + 2, 2 ** -102)), mag), exactOf(n * 2 ** -1074)), store);
  expect(compareRational(windowLimit, cpuLimit)).toBeLessThanOrEqual(0);
}
