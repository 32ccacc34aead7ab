/**
 * The RNS scalar functions name a destination z, and the lone operand x of the readers, that is not an RnsNumber:
 * rnsAdd(undefined, x, y), rnsDiv(z, undefined, y), rnsSign(null), rnsToNumber({}) … threw TypeErrors reading `.set`,
 * `.open` or `.refArray` (round 3 covered the operands of the binary functions, not these). Now INVALID_VALUE naming
 * the parameter, before anything is written; valid calls still give the exact results.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ModprecError, rnsAbs, rnsAdd, rnsCompare, rnsDiv, rnsFma, rnsFromDecimalString, rnsFromDoubleDouble, rnsFromNumber,
  rnsFromRational, rnsModuliSet, rnsMul, rnsMulAdd2, rnsNeg, rnsSet, rnsSign, rnsSignificand, rnsSqrt, rnsSub,
  rnsToDecimalString, rnsToDoubleDouble, rnsToNumber, rnsToRational, rnsZero, type RnsNumber,
} from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

describe('RNS destinations and lone operands', () => {
  const set = rnsModuliSet(106);
  const num = (v: number): RnsNumber => { const z = rnsZero(set); rnsFromNumber(z, v); return z; };

  it('a z or x that is not an RnsNumber is INVALID_VALUE naming it; the operands are left as they were', () => {
    fc.assert(fc.property(fc.constantFrom<unknown>(undefined, null, {}, 3, 'z', [1]), fc.double({ min: 0.25, max: 8, noNaN: true }), (bad, v) => {
      const x = num(v), y = num(2);
      const z = bad as RnsNumber;
      const cases: [string, () => unknown][] = [
        ['z', () => rnsAdd(z, x, y)], ['z', () => rnsSub(z, x, y)], ['z', () => rnsMul(z, x, y)], ['z', () => rnsFma(z, x, y, x)],
        ['z', () => rnsMulAdd2(z, x, y, x, y)], ['z', () => rnsNeg(z, x)], ['z', () => rnsAbs(z, x)], ['z', () => rnsSet(z, x)],
        ['z', () => rnsDiv(z, x, y)], ['z', () => rnsSqrt(z, x)], ['z', () => rnsFromNumber(z, 1)], ['z', () => rnsFromDoubleDouble(z, 1, 0)],
        ['z', () => rnsFromRational(z, 1n, 3n)], ['z', () => rnsFromDecimalString(z, '1.5')],
        ['x', () => rnsDiv(x, z, y)], ['y', () => rnsDiv(x, x, z)], ['x', () => rnsSqrt(x, z)],
        ['x', () => rnsSign(z)], ['x', () => rnsCompare(z, z)], ['x', () => rnsToNumber(z)], ['x', () => rnsToDoubleDouble(z)],
        ['x', () => rnsSignificand(z)], ['x', () => rnsToRational(z)], ['x', () => rnsToDecimalString(z)],
      ];
      for (const [name, f] of cases) expect(errorOf(f)).toEqual(['INVALID_VALUE', name]);
      expect([rnsToNumber(x), rnsToNumber(y)]).toEqual([v, 2]);
      // valid calls: v/2 and √4 are exact
      const q = rnsZero(set);
      rnsDiv(q, x, y);
      expect(rnsToNumber(q)).toBe(v / 2);
      rnsSqrt(q, num(4));
      expect([rnsToNumber(q), rnsSign(q), rnsCompare(q, y)]).toEqual([2, 1, 0]);
    }), { numRuns: 30 });
  });
});
