/**
 * RNS arithmetic through the public API: a missing operand (null, undefined, a plain object) is a typed error
 * naming that operand, raised before z is written — rnsAdd(z, null, y) and rnsCompare(x, null) threw TypeErrors
 * reading `.set` — and rnsFma / rnsMulAdd2 name their own parameters (a, b, c / a, x, b, y), not the x and y of the
 * shared check.
 */
import { describe, expect, it } from 'vitest';
import { ModprecError, rnsAdd, rnsAbs, rnsCompare, rnsFma, rnsFromNumber, rnsModuliSet, rnsMul, rnsMulAdd2, rnsNeg, rnsSet, rnsSub, rnsToNumber, rnsZero } from '../../src/index.js';

function errorOf(f: () => unknown): ModprecError {
  try { f(); } catch (e) { if (e instanceof ModprecError) return e; throw e; }
  throw new Error('no error');
}

describe('RNS arithmetic operands', () => {
  const set = rnsModuliSet(106);
  const other = rnsZero(rnsModuliSet(212));
  const one = rnsZero(set);
  rnsFromNumber(one, 1);

  it('null, undefined or a non-number operand: INVALID_VALUE naming it, z untouched', () => {
    for (const bad of [null, undefined, {}]) {
      const cases: [string, (z: ReturnType<typeof rnsZero>) => unknown][] = [
        ['x', (z) => rnsAdd(z, bad as never, one)], ['y', (z) => rnsAdd(z, one, bad as never)],
        ['x', (z) => rnsSub(z, bad as never, one)], ['y', (z) => rnsMul(z, one, bad as never)],
        ['a', (z) => rnsFma(z, bad as never, one, one)], ['b', (z) => rnsFma(z, one, bad as never, one)], ['c', (z) => rnsFma(z, one, one, bad as never)],
        ['a', (z) => rnsMulAdd2(z, bad as never, one, one, one)], ['x', (z) => rnsMulAdd2(z, one, bad as never, one, one)],
        ['b', (z) => rnsMulAdd2(z, one, one, bad as never, one)], ['y', (z) => rnsMulAdd2(z, one, one, one, bad as never)],
        ['x', (z) => rnsNeg(z, bad as never)], ['x', (z) => rnsAbs(z, bad as never)], ['x', (z) => rnsSet(z, bad as never)],
        ['x', () => rnsCompare(bad as never, one)], ['y', () => rnsCompare(one, bad as never)],
      ];
      for (const [parameter, call] of cases) {
        const z = rnsZero(set);
        rnsFromNumber(z, 7);
        const e = errorOf(() => call(z));
        expect(e.code, `${String(call)} with ${JSON.stringify(bad)}`).toBe('INVALID_VALUE');
        expect(e.parameter, String(call)).toBe(parameter);
        expect(rnsToNumber(z)).toBe(7);
      }
    }
  });

  it('an operand of another moduli set: INVALID_FORMAT naming it (rnsFma and rnsMulAdd2 by their own names)', () => {
    const z = rnsZero(set);
    expect(errorOf(() => rnsFma(z, other, one, one)).parameter).toBe('a');
    expect(errorOf(() => rnsFma(z, one, other, one)).parameter).toBe('b');
    expect(errorOf(() => rnsMulAdd2(z, one, one, other, one)).parameter).toBe('b');
    expect(errorOf(() => rnsMulAdd2(z, one, other, one, one)).code).toBe('INVALID_FORMAT');
    expect(errorOf(() => rnsCompare(one, other)).parameter).toBe('y');
  });
});
