import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { RnsArray, rnsLoad, rnsRef } from '../../src/formats/rns/rns-array.js';
import { rnsStore } from '../../src/formats/rns/array-store.js';
import { rnsAdd, rnsFma, rnsMul, rnsNeg, rnsSet } from '../../src/formats/rns/arithmetic.js';
import { rnsConvert } from '../../src/formats/rns/rns-formats.js';
import { rnsToNumber } from '../../src/formats/rns/convert-number.js';
import { makeOperand, operandSpec } from './oracle.js';

/** Everything a number holds, for bit-for-bit comparisons. */
const state = (z: RnsNumber) => [Array.from(z.digits), z.sign, z.exp, z.lf, z.le, z.uf, z.ue];

describe.each([106, 424])('numbers bound lazily to mp_array elements (%i bits)', (precision) => {
  const set = rnsModuliSet(precision);
  const spec = operandSpec(set);

  it('multiply-add with bound factors and addend is bit for bit the one with loaded operands', () => {
    // Every combination of bound (read in place) and own factors, including the swap of a bound a with an
    // own b, and an addend that is bound too; the product is scaled or not and the signs agree or not.
    fc.assert(fc.property(spec, spec, spec, fc.boolean(), fc.boolean(), fc.boolean(), (sa, sb, sc, bindA, bindB, bindC) => {
      const arr = new RnsArray(set, 3);
      const values = [makeOperand(set, sa), makeOperand(set, sb), makeOperand(set, sc)];
      values.forEach((v, k) => rnsStore(arr, k, v));
      const operand = (k: number, bind: boolean) => {
        const r = new RnsNumber(set);
        if (bind) rnsRef(r, arr, k); else rnsLoad(r, arr, k);
        return r;
      };
      const expected = new RnsNumber(set);
      rnsFma(expected, values[0]!, values[1]!, values[2]!);
      const z = new RnsNumber(set);
      rnsFma(z, operand(0, bindA), operand(1, bindB), operand(2, bindC));
      expect(state(z)).toEqual(state(expected));
      // The destination may be a bound number: the result is its own afterwards.
      const c = operand(2, true);
      rnsFma(c, operand(0, bindA), operand(1, bindB), c);
      expect(state(c)).toEqual(state(expected));
      expect(c.refArray).toBeNull();
      // The array is untouched.
      const back = new RnsNumber(set);
      rnsLoad(back, arr, 2);
      expect(state(back)).toEqual(state(values[2]!));
    }), { numRuns: 200 });
  });

  it('conversion passes the binding on; copies, negation, add and multiply read the residues from the array', () => {
    fc.assert(fc.property(spec, spec, (sx, sy) => {
      const arr = new RnsArray(set, 2);
      const x = makeOperand(set, sx), y = makeOperand(set, sy);
      rnsStore(arr, 0, x);
      rnsStore(arr, 1, y);
      const t = new RnsNumber(set), u = new RnsNumber(set), v = new RnsNumber(set);
      rnsRef(t, arr, 0);
      rnsConvert(u, t);
      expect(u.refArray).toBe(arr);
      rnsRef(v, arr, 1);
      const want = new RnsNumber(set), got = new RnsNumber(set);
      rnsAdd(want, x, y); rnsAdd(got, u, v);
      expect(state(got)).toEqual(state(want));
      rnsMul(want, x, y); rnsMul(got, u, v);
      expect(state(got)).toEqual(state(want));
      rnsNeg(want, x); rnsNeg(got, u);
      expect(state(got)).toEqual(state(want));
      rnsSet(got, v);
      expect(state(got)).toEqual(state(y));
      expect(rnsToNumber(u)).toBe(rnsToNumber(x));
    }), { numRuns: 100 });
  });

  it('a write to the element a number is bound to makes a later read fail loudly, not read the new value', () => {
    const arr = new RnsArray(set, 2);
    const one = new RnsNumber(set), two = new RnsNumber(set);
    one.setNumber(1); two.setNumber(2);
    rnsStore(arr, 0, one);
    const bound = new RnsNumber(set);
    rnsRef(bound, arr, 0);
    rnsStore(arr, 1, two); // another element: the binding stays valid
    const z = new RnsNumber(set);
    rnsMul(z, bound, bound);
    expect(rnsToNumber(z)).toBe(1);
    rnsRef(bound, arr, 0);
    rnsStore(arr, 0, two);
    expect(() => rnsMul(z, bound, bound)).toThrow(/overwritten/);
    // Writing a bound number unbinds it.
    rnsRef(bound, arr, 0);
    bound.setNumber(3);
    rnsStore(arr, 0, one);
    expect(rnsToNumber(bound)).toBe(3);
  });
});
