/**
 * RNS numbers at the ends of their exponent range (|e| up to 2^30) through the public scalar API: every failure is a
 * typed error naming its parameter. Regressions: rnsToDecimalString of 2^(2^29) (a number `rnsMul` builds by 29
 * squarings) built the exact 2^29-bit rational and threw a plain RangeError ("Invalid string length") after 0.4 s —
 * now `INVALID_VALUE` naming `x` beyond a decimal exponent of ±2·10^6 (the window rnsFromDecimalString parses), at
 * once; rnsDiv's exponent overflow named `value` where docs/rns.md promises `result` (as rnsMul's).
 */
import { describe, expect, it } from 'vitest';
import { ModprecError, rnsDiv, rnsFromDecimalString, rnsFromNumber, rnsFromRational, rnsModuliSet, rnsMul, rnsToDecimalString, rnsZero, type RnsNumber } from '../../src/index.js';

const set = rnsModuliSet(106);
/** 2^(±2^k) by k squarings of 2 or ½. */
function power(k: number, base: number): RnsNumber {
  const z = rnsZero(set);
  rnsFromNumber(z, base);
  for (let i = 0; i < k; i++) rnsMul(z, z, z);
  return z;
}
function expectError(f: () => unknown, code: string, parameter: string): void {
  let error: unknown;
  try { f(); } catch (e) { error = e; }
  expect(error).toBeInstanceOf(ModprecError);
  expect(`${(error as ModprecError).code} ${(error as ModprecError).parameter}`).toBe(`${code} ${parameter}`);
}

describe('RNS scalars at the ends of the exponent range', () => {
  it('rnsToDecimalString: a typed error beyond a decimal exponent of ±2e6, digits within it', () => {
    for (const k of [23, 25, 29]) {
      expectError(() => rnsToDecimalString(power(k, 2), 5), 'INVALID_VALUE', 'x');
      expectError(() => rnsToDecimalString(power(k, 0.5), 5), 'INVALID_VALUE', 'x');
    }
    // 2^21 squarings' worth stays printable: 2^(2^21) ≈ 10^631306.
    const x = power(21, 2);
    const text = rnsToDecimalString(x, 8);
    expect(text).toMatch(/^\d\.\d{7}e\+631305$/);
    const back = rnsZero(set);
    rnsFromDecimalString(back, text);
    const ratio = rnsZero(set);
    rnsDiv(ratio, back, x);
    expect(Math.abs(Number(rnsToDecimalString(ratio, 17)) - 1)).toBeLessThan(1e-7);
  });

  it('rnsDiv names the result on exponent overflow', () => {
    const tiny = power(29, 0.5), huge = power(29, 2);
    expectError(() => rnsDiv(rnsZero(set), tiny, huge), 'INVALID_VALUE', 'result');
    const q = rnsZero(set);
    rnsFromRational(q, 3n, 1n);
    expectError(() => rnsDiv(rnsZero(set), q, rnsZero(set)), 'INVALID_VALUE', 'y');
  });
});
