import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsModuliSet, rnsTables } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { RnsArray, rnsRef } from '../../src/formats/rns/rns-array.js';
import { runFusedLoop, runProductLoop } from '../../src/formats/rns/fused-loops.js';

/** x mod m in [0, m) for a BigInt. */
const mod = (x: bigint, m: bigint): bigint => ((x % m) + m) % m;

/** Where a factor's residues live: the register's own digits, or an mp_array element it is bound to. */
type Place = 'own' | 'bound';

/** A register holding `digits`, either in its own digits or bound to element 1 of a fresh 3-element array. */
function factor(set: ReturnType<typeof rnsModuliSet>, digits: readonly number[], place: Place): RnsNumber {
  const z = new RnsNumber(set);
  if (place === 'own') {
    z.digits.set(digits);
    return z;
  }
  const array = new RnsArray(set, 3);
  array.digits.set(digits, set.size);
  rnsRef(z, array, 1);
  return z;
}

// The residue loops run four residues per step and the rest one at a time: set sizes 5, 6, 7 and 8 leave
// every remainder mod 4 (53, 64, 77 and 90 bits), 33 is the 424-bit set.
describe.each([53, 64, 77, 90, 424])('residue loops of the %i-bit moduli set', (precision) => {
  const set = rnsModuliSet(precision);
  const n = set.size;
  const moduli = Array.from(set.moduli, (m) => BigInt(m));
  const canonicalDigits = fc.tuple(...moduli.map((m) => fc.integer({ min: 0, max: Number(m) - 1 })));
  // An open sum's residues lie in [−m, 2m).
  const openDigits = fc.tuple(...moduli.map((m) => fc.integer({ min: -Number(m), max: 2 * Number(m) - 1 })));
  const place = fc.constantFrom<Place>('own', 'bound');

  it(`has ${n} moduli`, () => expect(set.size).toBe(n));

  it('product loop: z_i = |a_i·b_i|_{m_i}, canonical, for own and bound factors', () => {
    fc.assert(fc.property(canonicalDigits, canonicalDigits, place, place, (ad, bd, pa, pb) => {
      const a = factor(set, ad, pa), b = factor(set, bd, pb);
      const z = new RnsNumber(set);
      runProductLoop(z, a, b);
      for (let i = 0; i < n; i++) expect(BigInt(z.digits[i]!)).toBe(mod(BigInt(ad[i]!) * BigInt(bd[i]!), moduli[i]!));
    }), { numRuns: 60 });
  });

  it('multiply-add loops: every variant gives the congruent residue, in [0, m) or [−m, 2m) as asked', () => {
    const maxShift = rnsTables(set).maxShift;
    fc.assert(fc.property(canonicalDigits, canonicalDigits, fc.boolean(), openDigits, canonicalDigits, place, place,
      fc.integer({ min: 0, max: maxShift }), fc.boolean(), fc.boolean(), fc.boolean(),
      (ad, bd, cOpen, od, cd, pa, pb, gamma, scaledFirst, same, canonical) => {
        // An open c only feeds open-sum (non-canonical) loops.
        const cDigits = cOpen && !canonical ? od : cd;
        const a = factor(set, ad, pa), b = factor(set, bd, pb), c = factor(set, cDigits, 'own');
        const z = new RnsNumber(set);
        runFusedLoop(z, a, b, c, gamma, scaledFirst, same, canonical);
        for (let i = 0; i < n; i++) {
          const m = moduli[i]!, g = 2n ** BigInt(gamma);
          const p = BigInt(ad[i]!) * BigInt(bd[i]!), ci = BigInt(cDigits[i]!);
          const expected = scaledFirst ? (same ? p * g + ci : p * g - ci) : (same ? ci * g + p : ci * g - p);
          const got = z.digits[i]!;
          expect(mod(BigInt(got), m)).toBe(mod(expected, m));
          if (canonical) expect(got >= 0 && got < Number(m)).toBe(true);
          else expect(got >= -Number(m) && got < 2 * Number(m)).toBe(true);
        }
      }), { numRuns: 80 });
  });

  it('multiply-add loops work in place (z aliasing c, then a)', () => {
    fc.assert(fc.property(canonicalDigits, canonicalDigits, canonicalDigits, (ad, bd, cd) => {
      const a = factor(set, ad, 'own'), b = factor(set, bd, 'bound'), c = factor(set, cd, 'own');
      runFusedLoop(c, a, b, c, 1, true, true, true);
      for (let i = 0; i < n; i++) expect(BigInt(c.digits[i]!)).toBe(mod(BigInt(ad[i]!) * BigInt(bd[i]!) * 2n + BigInt(cd[i]!), moduli[i]!));
      const c2 = factor(set, cd, 'own');
      runFusedLoop(a, a, b, c2, 0, true, false, true);
      for (let i = 0; i < n; i++) expect(BigInt(a.digits[i]!)).toBe(mod(BigInt(ad[i]!) * BigInt(bd[i]!) - BigInt(cd[i]!), moduli[i]!));
    }), { numRuns: 30 });
  });
});
