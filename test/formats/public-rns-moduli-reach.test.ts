/**
 * rnsModuliSet(p, 'f32') refused p = 1866 and most precisions up to 2903 with INVALID_OPTION ("cannot be reached
 * with f32 residues"), although the 564 odd primes below 2^12 reach 2903 bits: near the end of the primes its
 * balanced search moved M by more than the two-bit window per step. A largest-primes-first fallback now takes them.
 * Every set, whichever search made it, must keep the documented invariants (odd pairwise-coprime moduli below the
 * residue bound, M in [2^(2p+2)(1 + 2^-18), 2^(2p+4)(1 − 2^-17)]) and compute: a product of two p-bit numbers is
 * the exact product rounded to p bits.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ModprecError, MODULUS_BITS, rnsFromRational, rnsModuliSet, rnsMul, rnsToRational, rnsZero, type ResidueArithmetic,
} from '../../src/index.js';
import { rational } from '../../src/testing/rational.js';
import { roundRationalExact } from '../../src/testing/round-rational.js';

/** log2 of the product of every odd prime below 2^bits, so the largest p any set of that arithmetic reaches. */
function largestReachable(bits: number): number {
  let log2 = 0;
  for (let c = 3; c < 2 ** bits; c += 2) {
    let prime = true;
    for (let d = 3; d * d <= c; d += 2) if (c % d === 0) { prime = false; break; }
    if (prime) log2 += Math.log2(c);
  }
  // M ≥ 2^(2p+2)(1 + 2^-18) needs 2p + 2 < log2 M (with a margin far wider than the margin's 2^-18).
  return Math.floor((log2 - 2.001) / 2);
}

function checkSet(p: number, arithmetic: ResidueArithmetic): void {
  const set = rnsModuliSet(p, arithmetic);
  const moduli = Array.from(set.moduli);
  let M = 1n;
  for (let i = 0; i < moduli.length; i++) {
    const m = moduli[i]!;
    expect(m % 2).toBe(1);
    expect(m).toBeLessThan(2 ** MODULUS_BITS[arithmetic]);
    if (i > 0) expect(m).toBeGreaterThan(moduli[i - 1]!);
    for (let d = 3; d * d <= m; d += 2) expect(m % d).not.toBe(0); // prime, so distinct primes are coprime
    M *= BigInt(m);
  }
  expect(set.M).toBe(M);
  const lower = 1n << BigInt(2 * p + 2), upper = 1n << BigInt(2 * p + 4);
  expect(M >= lower + (lower >> 18n)).toBe(true);
  expect(M <= upper - (upper >> 17n)).toBe(true);
}

describe('rnsModuliSet reaches every precision its primes allow', () => {
  const top = largestReachable(MODULUS_BITS.f32);

  it('f32 sets exist up to the last precision the primes below 2^12 reach, and not beyond', () => {
    expect(top).toBe(2903);
    for (const p of [1866, 2063, 2500, top]) checkSet(p, 'f32');
    try { rnsModuliSet(top + 1, 'f32'); expect.unreachable(); } catch (e) {
      expect(e).toBeInstanceOf(ModprecError);
      expect((e as ModprecError).code).toBe('INVALID_OPTION');
      expect((e as ModprecError).parameter).toBe('precision');
    }
  });

  it('f32 sets at random precisions keep the invariants', () => {
    fc.assert(fc.property(fc.integer({ min: 53, max: top }), (p) => { checkSet(p, 'f32'); }), { numRuns: 6 });
  });

  it('a set made by the fallback multiplies with one correct rounding', () => {
    const p = 2900, set = rnsModuliSet(p, 'f32');
    const operand = fc.tuple(fc.bigInt({ min: 1n, max: (1n << BigInt(p)) - 1n }), fc.integer({ min: -50, max: 50 }));
    fc.assert(fc.property(operand, operand, ([a, ea], [b, eb]) => {
      const x = rnsZero(set), y = rnsZero(set), z = rnsZero(set);
      rnsFromRational(x, a, 1n << BigInt(ea + 100));
      rnsFromRational(y, -b, 1n << BigInt(eb + 100));
      rnsMul(z, x, y);
      const exact = rational(-a * b, 1n << BigInt(ea + eb + 200));
      const got = rnsToRational(z);
      expect(rational(got.num, got.den)).toEqual(roundRationalExact(exact, { significandBits: p }));
    }), { numRuns: 10 });
  });
});
