import { describe, expect, it } from 'vitest';
import { ModprecError } from '../../src/core/errors.js';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsAdd, rnsCompare, rnsFma, rnsMul, rnsSub } from '../../src/formats/rns/arithmetic.js';
import { rnsFromDoubleDouble, rnsFromNumber } from '../../src/formats/rns/convert-number.js';
import { rnsDiv, rnsFromDecimalString, rnsFromRational, rnsSqrt, rnsToDecimalString } from '../../src/formats/rns/convert-exact.js';

const set = rnsModuliSet(212);
const other = rnsModuliSet(106);
const num = (v: number, s = set) => { const z = new RnsNumber(s); rnsFromNumber(z, v); return z; };
const snapshot = (z: RnsNumber) => JSON.stringify([Array.from(z.digits), z.sign, z.exp, z.lf, z.le, z.uf, z.ue]);

function expectError(fn: () => void, code: string, parameter: string, untouched: RnsNumber): void {
  const before = snapshot(untouched);
  try { fn(); expect.unreachable('should throw'); } catch (e) {
    expect(e).toBeInstanceOf(ModprecError);
    expect((e as ModprecError).code).toBe(code);
    expect((e as ModprecError).parameter).toBe(parameter);
    expect((e as ModprecError).message).toContain(parameter);
  }
  expect(snapshot(untouched)).toBe(before);
}

describe('RNS bad input: typed errors, nothing written', () => {
  it('non-finite numbers', () => {
    const z = num(7);
    for (const v of [NaN, Infinity, -Infinity]) expectError(() => rnsFromNumber(z, v), 'INVALID_VALUE', 'value', z);
    expectError(() => rnsFromNumber(z, '1' as unknown as number), 'INVALID_VALUE', 'value', z);
    expectError(() => rnsFromDoubleDouble(z, 1, NaN), 'INVALID_VALUE', 'lo', z);
    expectError(() => rnsFromDoubleDouble(z, Infinity, 0), 'INVALID_VALUE', 'hi', z);
  });
  it('mixing moduli sets', () => {
    const z = num(7);
    expectError(() => rnsAdd(z, num(1), num(2, other)), 'INVALID_FORMAT', 'y', z);
    expectError(() => rnsMul(z, num(1, other), num(2)), 'INVALID_FORMAT', 'x', z);
    expectError(() => rnsSub(z, num(1), num(2, other)), 'INVALID_FORMAT', 'y', z);
    expectError(() => rnsFma(z, num(1), num(2), num(3, other)), 'INVALID_FORMAT', 'c', z);
    expectError(() => rnsDiv(z, num(1), num(2, other)), 'INVALID_FORMAT', 'y', z);
    expect(() => rnsCompare(num(1), num(2, other))).toThrow(ModprecError);
  });
  it('exponent overflow', () => {
    const z = num(7);
    const big = num(3);
    big.exp = 2 ** 29 + 1;
    expectError(() => rnsMul(z, big, big), 'INVALID_VALUE', 'result', z);
    const tiny = num(3);
    tiny.exp = -(2 ** 29) - 1;
    expectError(() => rnsMul(z, tiny, tiny), 'INVALID_VALUE', 'result', z);
    expectError(() => rnsFromDecimalString(z, '1e3000000'), 'INVALID_VALUE', 'text', z);
  });
  it('division by zero, square root of a negative, bad rationals and strings', () => {
    const z = num(7);
    expectError(() => rnsDiv(z, num(1), num(0)), 'INVALID_VALUE', 'y', z);
    expectError(() => rnsSqrt(z, num(-2)), 'INVALID_VALUE', 'x', z);
    expectError(() => rnsFromRational(z, 1n, 0n), 'INVALID_VALUE', 'den', z);
    for (const t of ['', 'abc', '1.2.3', 'Infinity', 'NaN', '1e', '--1', '.']) expectError(() => rnsFromDecimalString(z, t), 'PARSE_ERROR', 'text', z);
    expect(() => rnsToDecimalString(z, 0)).toThrow(/significantDigits/);
  });
});
