import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { RnsArray, rnsRef } from '../../src/formats/rns/rns-array.js';
import { rnsStore } from '../../src/formats/rns/array-store.js';
import { rnsMulAdd2 } from '../../src/formats/rns/arithmetic.js';
import { rnsFromNumber } from '../../src/formats/rns/convert-number.js';
import { abs, add, invariantsHold, le, makeOperand, mul, ofRns, operandSpec, q, sub, unitBound, withinU, type Q } from './oracle.js';

/** Doubles whose products stay short (the one-pass case), with zeros and both signs. */
const moderateDouble = fc.oneof(
  fc.double({ min: -1e3, max: 1e3, noNaN: true }).filter((v) => v === 0 || Math.abs(v) >= 1e-30),
  fc.constantFrom(0, -0, 1, -1, 0.1, -3.25, 2 ** -40),
);

/** Where an operand lives: its own register, or an mp_array element a register is bound to. */
const place = fc.constantFrom<'own' | 'bound'>('own', 'bound');

/** A register holding `x`'s value, bound to a fresh array element when asked. */
function placed(x: RnsNumber, where: 'own' | 'bound'): RnsNumber {
  if (where === 'own') return x;
  const array = new RnsArray(x.set, 2);
  rnsStore(array, 1, x);
  const r = new RnsNumber(x.set);
  rnsRef(r, array, 1);
  return r;
}

describe.each([106, 424, 1696])('rnsMulAdd2 at %i bits', (precision) => {
  const set = rnsModuliSet(precision);
  const spec = operandSpec(set);
  const U = unitBound(set);

  it('double operands: a·x + b·y rounded once (|δ| < u), own or bound factors, any order of exponents', () => {
    fc.assert(fc.property(fc.tuple(moderateDouble, moderateDouble, moderateDouble, moderateDouble), fc.tuple(place, place, place, place),
      ([av, xv, bv, yv], [pa, px, pb, py]) => {
        const reg = (v: number) => { const r = new RnsNumber(set); rnsFromNumber(r, v); return r; };
        const a = placed(reg(av), pa), x = placed(reg(xv), px), b = placed(reg(bv), pb), y = placed(reg(yv), py);
        const z = new RnsNumber(set);
        rnsMulAdd2(z, a, x, b, y);
        const exact = add(mul(ofRns(a), ofRns(x)), mul(ofRns(b), ofRns(y)));
        expect(withinU(set, ofRns(z), exact)).toBe(true);
        expect(invariantsHold(z)).toBe(true);
      }), { numRuns: precision >= 1696 ? 60 : 200 });
  });

  it('any operands (full precision, far exponents, zeros): within the bound of a multiply then a multiply-add', () => {
    fc.assert(fc.property(spec, spec, spec, spec, (sa, sx, sb, sy) => {
      const a = makeOperand(set, sa), x = makeOperand(set, sx), b = makeOperand(set, sb), y = makeOperand(set, sy);
      const z = new RnsNumber(set);
      rnsMulAdd2(z, a, x, b, y);
      const ax = mul(ofRns(a), ofRns(x));
      const exact = add(ax, mul(ofRns(b), ofRns(y)));
      // t = ax(1 + δ1), z = (by + t)(1 + δ2): |z − exact| ≤ U·|ax|·(1 + U) + U·|exact|.
      const bound = add(mul(mul(U, abs(ax)), add(q(1n), U)), mul(U, abs(exact)));
      expect(le(abs(sub(ofRns(z), exact)), bound)).toBe(true);
      expect(invariantsHold(z)).toBe(true);
    }), { numRuns: precision >= 1696 ? 40 : 120 });
  });

  it('exact cancellation a·x = −b·y gives zero; the destination may be any operand', () => {
    fc.assert(fc.property(moderateDouble, moderateDouble, fc.integer({ min: 0, max: 3 }), (av, xv, which) => {
      const reg = (v: number) => { const r = new RnsNumber(set); rnsFromNumber(r, v); return r; };
      const a = reg(av), x = reg(xv), b = reg(-av), y = reg(xv);
      const exact: Q = q(0n);
      rnsMulAdd2(a, a, x, b, y); // z = a
      expect(withinU(set, ofRns(a), exact)).toBe(true);
      const a2 = reg(av), x2 = reg(xv), b2 = reg(2), y2 = reg(xv * 0.5);
      const operands = [a2, x2, b2, y2];
      const expected = add(mul(ofRns(a2), ofRns(x2)), mul(ofRns(b2), ofRns(y2)));
      const z = operands[which]!;
      rnsMulAdd2(z, a2, x2, b2, y2);
      expect(withinU(set, ofRns(z), expected)).toBe(true);
    }), { numRuns: 60 });
  });
});
