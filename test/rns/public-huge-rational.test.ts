/**
 * Exact conversions from BigInt rationals of any size the engine holds: rnsFromRational, roundRationalToNumber and
 * ddFromRational take a 2^29-bit numerator (they threw an untyped RangeError: the bit length was read from
 * `toString(2)`, a string past the engine's length limit), and rnsFromRational rounds num/den to nearest (ties to
 * even) through its shifted-numerator path exactly as the plain BigInt quotient does. The one limit left — a den so long
 * that num/den's exact quotient needs more bits than a BigInt holds — is a typed INVALID_VALUE naming den.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ModprecError, ddFromRational, rnsFromRational, rnsModuliSet, rnsSignificand, rnsToRational, rnsZero, roundRationalToNumber,
} from '../../src/index.js';

const HUGE = 2n ** 29n;

/** num/den rounded to p bits, to nearest, ties to even — by the plain BigInt quotient (the oracle). */
function roundedPlain(num: bigint, den: bigint, p: number): { num: bigint; den: bigint } {
  const negative = (num < 0n) !== (den < 0n);
  const [N, D] = [num < 0n ? -num : num, den < 0n ? -den : den];
  let s = N.toString(2).length - D.toString(2).length - p;
  let q = 0n, rest = 0n, unit = 0n;
  for (;;) {
    const [a, b] = s >= 0 ? [N, D << BigInt(s)] : [N << BigInt(-s), D];
    q = a / b; rest = a - q * b; unit = b;
    if (q < 1n << BigInt(p)) break;
    s += 1;
  }
  if (2n * rest > unit || (2n * rest === unit && (q & 1n) === 1n)) q += 1n;
  const signed = negative ? -q : q;
  return s >= 0 ? { num: signed << BigInt(s), den: 1n } : { num: signed, den: 1n << BigInt(-s) };
}

const same = (a: { num: bigint; den: bigint }, b: { num: bigint; den: bigint }): boolean => a.num * b.den === b.num * a.den;

describe('rational conversions of any size', () => {
  it('rnsFromRational rounds num/den to nearest, ties to even, as the plain BigInt quotient does', () => {
    const set = rnsModuliSet(106);
    const big = fc.bigInt({ min: 1n, max: (1n << 400n) - 1n });
    // Ties: num = (2m + 1)·den·2^(k − 1) has a rest of exactly half a unit at the right k.
    const tie = fc.tuple(fc.bigInt({ min: 1n << 106n, max: (1n << 108n) - 1n }), big, fc.integer({ min: 1, max: 300 }))
      .map(([m, den, k]) => [(2n * m + 1n) * den << BigInt(k - 1), den] as const);
    fc.assert(fc.property(fc.oneof(fc.tuple(big, big), tie), fc.boolean(), ([num, den], negative) => {
      const z = rnsZero(set);
      rnsFromRational(z, negative ? -num : num, den);
      expect(same(rnsToRational(z), roundedPlain(negative ? -num : num, den, 106))).toBe(true);
    }), { numRuns: 400 });
  });

  it('a 2^29-bit numerator: the quotient scaled by 2^(2^29), no RangeError', () => {
    const set = rnsModuliSet(212);
    const z = rnsZero(set), small = rnsZero(set);
    rnsFromRational(z, -(5n << HUGE), 3n);
    rnsFromRational(small, -5n, 3n);
    expect(rnsSignificand(z)).toBe(rnsSignificand(small));
    expect(z.exp - small.exp).toBe(Number(HUGE));
    expect(roundRationalToNumber(1n << HUGE, 3n)).toBe(Infinity);
    expect(roundRationalToNumber(-3n, 1n << HUGE)).toBe(-0);
    const out = new Float64Array(2);
    ddFromRational(out, 3n, 1n << HUGE);
    expect([...out]).toEqual([0, 0]);
  });

  it('a den too long for the exact quotient: INVALID_VALUE naming den, z untouched', () => {
    const set = rnsModuliSet(106);
    const z = rnsZero(set);
    rnsFromRational(z, 7n, 1n);
    const den = 1n << (2n ** 30n - 64n); // near V8's largest BigInt (2^30 bits): den·2^106 does not fit
    let error: unknown;
    try { rnsFromRational(z, 1n << 200n, den); } catch (e) { error = e; }
    // An engine whose BigInts are larger computes it (a value of about 2^-(2^30)).
    if (error !== undefined) {
      expect(error).toBeInstanceOf(ModprecError);
      expect([(error as ModprecError).code, (error as ModprecError).parameter]).toEqual(['INVALID_VALUE', 'den']);
      expect(same(rnsToRational(z), { num: 7n, den: 1n })).toBe(true);
    }
    expect(roundRationalToNumber(1n << 200n, den)).toBe(0);
  });
});
