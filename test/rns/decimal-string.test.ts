/**
 * rnsToDecimalString rounds to nearest with ties to even (MPFR's RNDN), checked against an exact decimal expansion:
 * a dyadic k/2^j is k·5^j/10^j, whose digits are rounded here by inspecting them (no division shared with the code).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsFromRational, rnsToDecimalString } from '../../src/formats/rns/convert-exact.js';

/** `[-]d.ddd…e±N` of k/2^j (k ≠ 0) to `D` significant digits, to nearest, ties to the even last digit. */
function decimalOracle(k: bigint, j: number, D: number): string {
  const sign = k < 0n ? '-' : '';
  const digits = ((k < 0n ? -k : k) * 5n ** BigInt(j)).toString(); // the value is digits·10^-j exactly
  let exponent = digits.length - 1 - j;
  const kept = digits.slice(0, D).padEnd(D, '0');
  const dropped = digits.slice(D);
  let lead = BigInt(kept);
  const first = dropped.length > 0 ? Number(dropped[0]) : 0;
  const restNonZero = /[1-9]/.test(dropped.slice(1));
  const odd = (lead & 1n) === 1n;
  if (first > 5 || (first === 5 && (restNonZero || odd))) lead += 1n;
  let text = lead.toString();
  if (text.length > D) { text = text.slice(0, D); exponent += 1; } // 99…9 rounded up to 10…0
  return `${sign}${text[0]}${D > 1 ? '.' + text.slice(1) : ''}e${exponent >= 0 ? '+' : ''}${exponent}`;
}

describe('rnsToDecimalString: to nearest, ties to even', () => {
  const set = rnsModuliSet(212);
  const x = new RnsNumber(set);
  // k < 2^120 and the denominator 2^j are exact in 212 bits. A tie needs the digits after the D-th to be 5 then zeros:
  // k odd and j ≥ 1 ends the expansion in 5, so D = (digit count − 1) is a tie; D drawn freely covers the rest.
  const numerator = fc.bigInt({ min: -(1n << 120n), max: 1n << 120n }).filter((k) => k !== 0n);
  const value = fc.record({ k: numerator, j: fc.integer({ min: 0, max: 80 }), tie: fc.boolean(), free: fc.integer({ min: 1, max: 60 }) });

  it('matches the exact decimal expansion rounded half to even, ties included', () => {
    fc.assert(fc.property(value, ({ k, j, tie, free }) => {
      const digitCount = ((k < 0n ? -k : k) * 5n ** BigInt(j)).toString().replace(/0+$/, '').length;
      const D = tie ? Math.max(1, digitCount - 1) : free;
      rnsFromRational(x, k, 1n << BigInt(j));
      expect(rnsToDecimalString(x, D)).toBe(decimalOracle(k, j, D));
    }), { numRuns: 400 });
  });

  it('rounds exact ties to the even digit in both directions and carries into a new exponent', () => {
    const cases: [bigint, number, number, string][] = [
      [5n, 1, 1, '2e+0'], // 2.5 → 2 (away from zero would give 3)
      [7n, 1, 1, '4e+0'], // 3.5 → 4
      [-5n, 1, 1, '-2e+0'],
      [1n, 3, 2, '1.2e-1'], // 0.125 → 0.12
      [3n, 3, 2, '3.8e-1'], // 0.375 → 0.38
      [19n, 1, 1, '1e+1'], // 9.5 → 10: the carry moves the exponent
      [25n, 0, 1, '2e+1'],
    ];
    for (const [k, j, D, text] of cases) {
      rnsFromRational(x, k, 1n << BigInt(j));
      expect(rnsToDecimalString(x, D)).toBe(text);
      expect(decimalOracle(k, j, D)).toBe(text);
    }
  });
});
