/**
 * Every exported RNS function answers a missing or foreign operand — null, undefined, a number, a string, a plain
 * object where an RnsNumber, an RnsArray or a moduli set goes — with a typed ModprecError naming that parameter,
 * and writes nothing (its other operands keep their values). Regression: rnsToNumber(null) and rnsSign(null) threw
 * TypeErrors, as did a missing destination z of the arithmetic and conversions, rnsCompare(null, null),
 * rnsLoad / rnsStore / rnsResolve / rnsConvert with a missing operand, and rnsZero(null).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ModprecError, RnsArray, RnsNumber, rnsAbs, rnsAdd, rnsArithmeticFormat, rnsCompare, rnsConvert, rnsDiv, rnsFma, rnsFromDecimalString,
  rnsFromDouble, rnsFromDoubleDouble, rnsFromNumber, rnsFromRational, rnsFromString, rnsLoad, rnsModuliSet, rnsMul, rnsMulAdd2,
  rnsNeg, rnsResolve, rnsSet, rnsSign, rnsSignificand, rnsSqrt, rnsStorageFormat, rnsStore, rnsSub, rnsTables, rnsToDecimalString,
  rnsToDoubleDouble, rnsToNumber, rnsToRational, rnsZero,
} from '../../src/index.js';

const set = rnsModuliSet(106);

/** A fresh valid argument of each kind. */
const fresh = {
  number: (v = 1.5): RnsNumber => { const x = rnsZero(set); rnsFromNumber(x, v); return x; },
  array: (): RnsArray => { const a = new RnsArray(set, 3); const x = fresh.number(2.25); rnsStore(a, 1, x); return a; },
};
type Kind = 'number' | 'array' | 'set' | 'out';

/** A function, its parameters (name and kind; other parameters get the given value), and how to call it. */
interface Case {
  readonly name: string;
  readonly params: readonly (readonly [string, Kind | { value: unknown }])[];
  readonly call: (...args: any[]) => unknown;
}
const num = (name: string): readonly [string, Kind] => [name, 'number'];
const cases: Case[] = [
  { name: 'rnsAdd', params: [num('z'), num('x'), num('y')], call: rnsAdd },
  { name: 'rnsSub', params: [num('z'), num('x'), num('y')], call: rnsSub },
  { name: 'rnsMul', params: [num('z'), num('x'), num('y')], call: rnsMul },
  { name: 'rnsFma', params: [num('z'), num('a'), num('b'), num('c')], call: rnsFma },
  { name: 'rnsMulAdd2', params: [num('z'), num('a'), num('x'), num('b'), num('y')], call: rnsMulAdd2 },
  { name: 'rnsNeg', params: [num('z'), num('x')], call: rnsNeg },
  { name: 'rnsAbs', params: [num('z'), num('x')], call: rnsAbs },
  { name: 'rnsSet', params: [num('z'), num('x')], call: rnsSet },
  { name: 'rnsSign', params: [num('x')], call: rnsSign },
  { name: 'rnsCompare', params: [num('x'), num('y')], call: rnsCompare },
  { name: 'rnsFromNumber', params: [num('z'), ['value', { value: 3 }]], call: rnsFromNumber },
  { name: 'rnsToNumber', params: [num('x')], call: rnsToNumber },
  { name: 'rnsFromDoubleDouble', params: [num('z'), ['hi', { value: 1 }], ['lo', { value: 2 ** -60 }]], call: rnsFromDoubleDouble },
  { name: 'rnsToDoubleDouble', params: [num('x'), ['out', 'out']], call: rnsToDoubleDouble },
  { name: 'rnsSignificand', params: [num('x')], call: rnsSignificand },
  { name: 'rnsToRational', params: [num('x')], call: rnsToRational },
  { name: 'rnsFromRational', params: [num('z'), ['num', { value: 1n }], ['den', { value: 3n }]], call: rnsFromRational },
  { name: 'rnsDiv', params: [num('z'), num('x'), num('y')], call: rnsDiv },
  { name: 'rnsSqrt', params: [num('z'), num('x')], call: rnsSqrt },
  { name: 'rnsFromDecimalString', params: [num('z'), ['text', { value: '0.1' }]], call: rnsFromDecimalString },
  { name: 'rnsToDecimalString', params: [num('x'), ['significantDigits', { value: 10 }]], call: rnsToDecimalString },
  { name: 'rnsResolve', params: [num('z')], call: rnsResolve },
  { name: 'rnsConvert', params: [num('z'), num('x')], call: rnsConvert },
  { name: 'rnsLoad', params: [num('z'), ['a', 'array'], ['k', { value: 1 }]], call: rnsLoad },
  { name: 'rnsStore', params: [['a', 'array'], ['k', { value: 1 }], num('x')], call: rnsStore },
  { name: 'rnsZero', params: [['set', 'set']], call: rnsZero },
  { name: 'rnsFromDouble', params: [['set', 'set'], ['value', { value: 2 }]], call: rnsFromDouble },
  { name: 'rnsFromString', params: [['set', 'set'], ['text', { value: '2' }]], call: rnsFromString },
  { name: 'rnsTables', params: [['set', 'set']], call: rnsTables },
  { name: 'rnsStorageFormat', params: [['set', 'set']], call: rnsStorageFormat },
  { name: 'rnsArithmeticFormat', params: [['set', 'set']], call: rnsArithmeticFormat },
  { name: 'new RnsArray', params: [['set', 'set'], ['length', { value: 2 }]], call: (s, n) => new RnsArray(s, n) },
  { name: 'new RnsNumber', params: [['set', 'set']], call: (s) => new RnsNumber(s) },
];

/** What a valid argument holds, to see that nothing was written. */
function snapshot(v: unknown): string {
  if (v instanceof RnsNumber) { const r = rnsToRational(v); return `${v.sign}:${r.num}/${r.den}`; }
  if (v instanceof RnsArray) return `${[...v.digits]}|${[...v.sign]}|${[...v.exp]}`;
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
}

// (An impostor object carrying the real moduli set is not among them: the arithmetic's per-element check compares sets.)
const bad = fc.constantFrom<unknown>(null, undefined, 0, 7, 'x', {}, [], { digits: [] }, { set: null });

describe('RNS functions with a missing or foreign operand', () => {
  it('a typed error naming the operand, nothing written', () => {
    const slots = cases.flatMap((c) => c.params.flatMap(([name, kind], at) => (typeof kind === 'string' ? [{ c, name, at }] : [])));
    fc.assert(fc.property(fc.constantFrom(...slots), bad, ({ c, name, at }, value) => {
      // out takes any object (it receives hi and lo), or undefined (the shared buffer).
      if (name === 'out' && (value === undefined || (typeof value === 'object' && value !== null))) return;
      const args = c.params.map(([, kind]) => (typeof kind !== 'string' ? kind.value
        : kind === 'number' ? fresh.number() : kind === 'array' ? fresh.array() : kind === 'set' ? set : { hi: 0, lo: 0 }));
      args[at] = value;
      const before = args.map(snapshot);
      let error: unknown;
      try { c.call(...args); } catch (e) { error = e; }
      const label = `${c.name} with ${name} = ${String(value)}`;
      expect(error, label).toBeInstanceOf(ModprecError);
      expect((error as ModprecError).parameter, label).toBe(name);
      expect(args.map(snapshot), label).toEqual(before);
    }), { numRuns: 600 });
  });

  it('each slot with null or undefined (every case, whatever the property draws)', () => {
    const wrong: string[] = [];
    for (const c of cases) for (const missing of [null, undefined]) {
      c.params.forEach(([name, kind], at) => {
        if (typeof kind !== 'string' || (kind === 'out' && missing === undefined)) return;
        const args = c.params.map(([, k]) => (typeof k !== 'string' ? k.value : k === 'number' ? fresh.number() : k === 'array' ? fresh.array() : k === 'set' ? set : { hi: 0, lo: 0 }));
        args[at] = missing;
        let error: unknown;
        try { c.call(...args); } catch (e) { error = e; }
        const got = error instanceof ModprecError ? error.parameter : String(error).slice(0, 60);
        if (got !== name) wrong.push(`${c.name}(${name} = ${missing}): ${got}`);
      });
    }
    expect(wrong).toEqual([]);
  });

  it('rnsLoad / rnsStore: an index outside the array is INDEX_OUT_OF_RANGE naming k, nothing written', () => {
    fc.assert(fc.property(fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: 3 }), fc.double().filter((v) => !Number.isInteger(v))), (k) => {
      const a = fresh.array(), z = fresh.number(), before = [snapshot(a), snapshot(z)];
      for (const call of [() => rnsLoad(z, a, k), () => rnsStore(a, k, z)]) {
        let error: unknown;
        try { call(); } catch (e) { error = e; }
        expect([(error as ModprecError).code, (error as ModprecError).parameter]).toEqual(['INDEX_OUT_OF_RANGE', 'k']);
      }
      expect([snapshot(a), snapshot(z)]).toEqual(before);
    }));
    // A number of another set cannot take an element's residues as they are.
    expect(() => rnsLoad(rnsZero(rnsModuliSet(212)), fresh.array(), 0)).toThrow(/z must use the moduli set/);
  });

  it('the valid calls still run (the table is right)', () => {
    for (const c of cases) {
      const args = c.params.map(([, k]) => (typeof k !== 'string' ? k.value : k === 'number' ? fresh.number() : k === 'array' ? fresh.array() : k === 'set' ? set : { hi: 0, lo: 0 }));
      expect(() => c.call(...args), c.name).not.toThrow();
    }
  });
});
