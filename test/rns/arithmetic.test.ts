import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsAdd, rnsCompare, rnsFma, rnsMul, rnsSign, rnsSub } from '../../src/formats/rns/arithmetic.js';
import { rnsFromNumber } from '../../src/formats/rns/convert-number.js';
import { rnsDiv, rnsFromRational, rnsSqrt } from '../../src/formats/rns/convert-exact.js';
import { add, eq, invariantsHold, lt, makeOperand, mul, ofRns, operandSpec, q, sub, withinU } from './oracle.js';

const precisions = [106, 212, 424, 1696];
const runs = (p: number) => (p >= 1696 ? 40 : 150);

describe.each(precisions)('RNS arithmetic at %i bits', (precision) => {
  const set = rnsModuliSet(precision);
  const spec = operandSpec(set);

  it('add, sub, mul: |δ| < 4/√M against exact rationals', () => {
    fc.assert(fc.property(spec, spec, (a, b) => {
      const x = makeOperand(set, a), y = makeOperand(set, b), z = new RnsNumber(set);
      const ex = ofRns(x), ey = ofRns(y);
      rnsAdd(z, x, y);
      expect(withinU(set, ofRns(z), add(ex, ey))).toBe(true);
      expect(invariantsHold(z)).toBe(true);
      rnsSub(z, x, y);
      expect(withinU(set, ofRns(z), sub(ex, ey))).toBe(true);
      expect(invariantsHold(z)).toBe(true);
      rnsMul(z, x, y);
      expect(withinU(set, ofRns(z), mul(ex, ey))).toBe(true);
      expect(invariantsHold(z)).toBe(true);
    }), { numRuns: runs(precision) });
  });

  it('cancellation: x − (x + tiny) and near-equal operands keep |δ| < u', () => {
    fc.assert(fc.property(spec, fc.bigInt({ min: -(1n << 60n), max: 1n << 60n }), fc.integer({ min: 0, max: 3 * precision }), (a, t, shift) => {
      const x = makeOperand(set, a);
      const ex = ofRns(x);
      // y = x·(1 + t·2^-shift') built exactly then rounded
      const pert = q(ex.num * t, ex.den << BigInt(shift + 60));
      const yv = add(ex, pert);
      const y = new RnsNumber(set);
      rnsFromRational(y, yv.num, yv.den);
      const z = new RnsNumber(set);
      rnsSub(z, x, y);
      expect(withinU(set, ofRns(z), sub(ex, ofRns(y)))).toBe(true);
      expect(invariantsHold(z)).toBe(true);
      rnsAdd(z, y, makeNeg(x));
      expect(withinU(set, ofRns(z), sub(ofRns(y), ex))).toBe(true);
    }), { numRuns: runs(precision) });
  });

  it('results stay within u through chains (operands that are themselves results)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(spec, fc.constantFrom('add', 'sub', 'mul', 'fma')), { minLength: 1, maxLength: 12 }), (steps) => {
      const acc = new RnsNumber(set);
      rnsFromNumber(acc, 1);
      for (const [s, op] of steps) {
        const y = makeOperand(set, s);
        const before = ofRns(acc), ey = ofRns(y);
        if (op === 'add') { rnsAdd(acc, acc, y); expect(withinU(set, ofRns(acc), add(before, ey))).toBe(true); }
        else if (op === 'sub') { rnsSub(acc, y, acc); expect(withinU(set, ofRns(acc), sub(ey, before))).toBe(true); }
        else if (op === 'mul') {
          if (Math.abs(acc.exp + y.exp) > 2 ** 29) continue;
          rnsMul(acc, acc, y); expect(withinU(set, ofRns(acc), mul(before, ey))).toBe(true);
        } else {
          if (Math.abs(2 * y.exp) > 2 ** 29) continue;
          // fma rounds a·b + c once when the aligned exact sum fits, else rounds the product first: either way
          // the result is within u of a value between the exact and the rounded product plus c; check the
          // exact one when it is representable in one rounding, else the two-rounding bound.
          const exactProd = mul(ey, ey);
          const prod = new RnsNumber(set);
          rnsMul(prod, y, y);
          rnsFma(acc, y, y, acc);
          const r = ofRns(acc);
          expect(withinU(set, r, add(exactProd, before)) || withinU(set, r, add(ofRns(prod), before))).toBe(true);
        }
        expect(invariantsHold(acc)).toBe(true);
      }
    }), { numRuns: Math.ceil(runs(precision) / 3) });
  });

  it('div and sqrt are rounded once: |δ| < u', () => {
    fc.assert(fc.property(spec, spec, (a, b) => {
      const x = makeOperand(set, a), y = makeOperand(set, b), z = new RnsNumber(set);
      if (y.isZero()) return;
      rnsDiv(z, x, y);
      const ex = ofRns(x), ey = ofRns(y), ez = ofRns(z);
      // z = x/y·(1+δ) ⇔ z·y = x·(1+δ)
      expect(withinU(set, mul(ez, ey), ex)).toBe(true);
      if (rnsSign(x) > 0) {
        rnsSqrt(z, x);
        const r = ofRns(z);
        // √x(1+δ) = r ⇔ r² = x(1+δ)² ; check |r² − x| < (2u + u²)·x via (r²−x)²·M < (8+16/√M)²x² ⇐ (r²−x)²·M < 64 x²
        const d = sub(mul(r, r), ex);
        expect(d.num * d.num * set.M * ex.den * ex.den < 64n * ex.num * ex.num * d.den * d.den).toBe(true);
      }
    }), { numRuns: Math.ceil(runs(precision) / 3) });
  });

  it('compare and sign are exact', () => {
    fc.assert(fc.property(spec, spec, fc.boolean(), (a, b, same) => {
      const x = makeOperand(set, a), y = same ? makeOperand(set, a) : makeOperand(set, b);
      const ex = ofRns(x), ey = ofRns(y);
      const expected = lt(ex, ey) ? -1 : lt(ey, ex) ? 1 : 0;
      expect(rnsCompare(x, y)).toBe(expected);
      expect(rnsSign(x)).toBe(ex.num > 0n ? 1 : ex.num < 0n ? -1 : 0);
    }), { numRuns: runs(precision) });
  });
});

function makeNeg(x: RnsNumber): RnsNumber {
  const z = new RnsNumber(x.set);
  z.digits.set(x.digits);
  z.sign = x.sign ^ 1; z.exp = x.exp; z.lf = x.lf; z.le = x.le; z.uf = x.uf; z.ue = x.ue;
  return z;
}

describe('RNS arithmetic edge cases', () => {
  const set = rnsModuliSet(212);
  const num = (v: number) => { const z = new RnsNumber(set); rnsFromNumber(z, v); return z; };
  it('x − x is +0, (−0) + (−0) is −0, products of zeros carry the sign', () => {
    const z = new RnsNumber(set);
    rnsSub(z, num(0.1), num(0.1));
    expect(z.isZero()).toBe(true);
    expect(z.sign).toBe(0);
    rnsAdd(z, num(-0), num(-0));
    expect(z.isZero() && z.sign === 1).toBe(true);
    rnsMul(z, num(-0), num(3));
    expect(z.isZero() && z.sign === 1).toBe(true);
  });
  it('aliasing: z = x op x', () => {
    const x = num(3);
    rnsMul(x, x, x);
    rnsAdd(x, x, x);
    expect(eq(ofRns(x), q(18n))).toBe(true);
  });
  it('a negligible addend leaves the larger operand unchanged (still within u)', () => {
    const x = num(1), y = num(2 ** -500), z = new RnsNumber(set);
    rnsAdd(z, x, y);
    expect(withinU(set, ofRns(z), add(q(1n), ofRns(y)))).toBe(true);
  });
});
