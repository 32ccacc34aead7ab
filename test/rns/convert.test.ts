import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsFromDoubleDouble, rnsFromNumber, rnsToDoubleDouble, rnsToNumber } from '../../src/formats/rns/convert-number.js';
import { rnsFromDecimalString, rnsFromRational, rnsToDecimalString, rnsToRational } from '../../src/formats/rns/convert-exact.js';
import { abs, add, anyDouble, eq, fullPrecision, invariantsHold, makeOperand, ofNumber, ofRns, operandSpec, q, sub, withinU, type Q } from './oracle.js';

/** The double nearest to v (ties to even), or to odd, computed in BigInt: the oracle for rnsToNumber. */
function roundToDouble(v: Q, odd = false): number {
  if (v.num === 0n) return 0;
  const neg = v.num < 0n;
  const N = neg ? -v.num : v.num;
  const bl = (x: bigint) => x.toString(2).length;
  // e with 2^52 ≤ N/(den·2^e) < 2^53, but e ≥ −1074 (subnormals)
  let e = bl(N) - bl(v.den) - 53;
  const quot = (s: number) => (s >= 0 ? [N, v.den << BigInt(s)] : [N << BigInt(-s), v.den]) as [bigint, bigint];
  let [a, b] = quot(e);
  if (a / b >= 1n << 53n) { e += 1; [a, b] = quot(e); }
  if (e < -1074) { e = -1074; [a, b] = quot(e); }
  let Qt = a / b;
  const r = a - Qt * b;
  if (odd) { if (r !== 0n && Qt % 2n === 0n) Qt += 1n; }
  else if (2n * r > b || (2n * r === b && Qt % 2n === 1n)) Qt += 1n;
  const mag = e > 1023 ? Infinity : Number(Qt) * 2 ** Math.max(e, -1022) * (e < -1022 ? 2 ** (e + 1022) : 1);
  return neg ? -mag : mag;
}

describe.each([106, 212, 424, 1696])('conversions at %i bits', (precision) => {
  const set = rnsModuliSet(precision);
  const z = new RnsNumber(set);
  const runs = precision >= 1696 ? 60 : 300;

  it('number → RNS → number is the identity (±0, subnormals, extremes)', () => {
    fc.assert(fc.property(anyDouble, (v) => {
      rnsFromNumber(z, v);
      expect(invariantsHold(z)).toBe(true);
      expect(eq(ofRns(z), ofNumber(v))).toBe(true);
      expect(Object.is(rnsToNumber(z), v)).toBe(true);
    }), { numRuns: runs });
  });

  it('RNS → number rounds correctly (to nearest even, and to odd)', () => {
    const spec = operandSpec(set);
    fc.assert(fc.property(spec, (s) => {
      const x = makeOperand(set, s);
      const exact = ofRns(x);
      // === : the rational oracle has no −0 (signed zeros are checked by the identity property)
      expect(rnsToNumber(x) === roundToDouble(exact)).toBe(true);
      expect(rnsToNumber(x, true) === roundToDouble(exact, true)).toBe(true);
    }), { numRuns: runs });
  });

  it('rationals: RNS → rational is exact, rational → RNS rounds with |δ| < u', () => {
    fc.assert(fc.property(fc.bigInt({ min: -(1n << 3000n), max: 1n << 3000n }), fc.bigInt({ min: 1n, max: 1n << 2000n }), (num, den) => {
      rnsFromRational(z, num, den);
      expect(withinU(set, ofRns(z), q(num, den))).toBe(true);
      const r = rnsToRational(z);
      expect(eq(r, ofRns(z))).toBe(true);
      rnsFromRational(z, r.num, r.den);
      expect(eq(ofRns(z), r)).toBe(true); // representable values convert exactly
    }), { numRuns: Math.ceil(runs / 3) });
  });

  it('RNS → decimal → RNS stays within u', () => {
    fc.assert(fc.property(operandSpec(set), (s) => {
      const x = makeOperand(set, s);
      const text = rnsToDecimalString(x);
      rnsFromDecimalString(z, text);
      expect(withinU(set, ofRns(z), ofRns(x))).toBe(true);
    }), { numRuns: Math.ceil(runs / 3) });
  });

  it('decimal strings parse exactly then round once', () => {
    rnsFromDecimalString(z, '0.1');
    expect(withinU(set, ofRns(z), q(1n, 10n))).toBe(true);
    rnsFromDecimalString(z, '-1.25e-3');
    expect(eq(ofRns(z), q(-125n, 100000n)) || withinU(set, ofRns(z), q(-125n, 100000n))).toBe(true);
    rnsFromDecimalString(z, '.5');
    expect(eq(ofRns(z), q(1n, 2n))).toBe(true);
    rnsFromDecimalString(z, '1234567890123456789012345678901234567890');
    expect(withinU(set, ofRns(z), q(1234567890123456789012345678901234567890n))).toBe(true);
    rnsFromNumber(z, 0.1);
    expect(rnsToDecimalString(z, 5)).toBe('1.0000e-1');
    rnsFromNumber(z, -2.5);
    expect(rnsToDecimalString(z, 1)).toBe('-2e+0'); // a decimal tie goes to the even digit (MPFR's RNDN)
  });

  it('double-double pairs: hi + lo converts within u (exactly when it fits); back as RN(x), RN(x − hi)', () => {
    fc.assert(fc.property(fc.double({ min: -1e300, max: 1e300, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), (hi, t) => {
      const lo = hi === 0 ? t : t * Math.abs(hi) * 2 ** -53;
      rnsFromDoubleDouble(z, hi, lo);
      const exact = add(ofNumber(hi), ofNumber(lo));
      expect(withinU(set, ofRns(z), exact)).toBe(true);
      const out = rnsToDoubleDouble(z, { hi: 0, lo: 0 });
      expect(out.hi === roundToDouble(ofRns(z))).toBe(true);
      const rest = sub(ofRns(z), ofNumber(out.hi));
      // lo is the nearest double to x − hi, up to one rounding of x − hi in RNS
      const errLo = abs(sub(ofNumber(out.lo), rest));
      // |lo − (x − hi)| ≤ 2^-50·|x − hi|
      expect(errLo.num * abs(rest).den * 2n ** 50n <= abs(rest).num * errLo.den).toBe(true);
    }), { numRuns: runs });
  });

  it('a signed zero stays signed through RNS → double-double (hi + lo is −0 for −0)', () => {
    // Regression: rnsToDoubleDouble gave (−0, +0) for −0, whose hi + lo is +0.
    for (const v of [-0, 0]) {
      rnsFromNumber(z, v);
      const out = rnsToDoubleDouble(z, { hi: 1, lo: 1 });
      expect(Object.is(out.hi + out.lo, v)).toBe(true);
    }
  });

  it('full-precision operands survive RNS → decimal → RNS at any binade', () => {
    fc.assert(fc.property(fullPrecision(set, 3000), (v) => {
      rnsFromRational(z, v.num, v.den);
      const y = new RnsNumber(set);
      rnsFromDecimalString(y, rnsToDecimalString(z));
      expect(withinU(set, ofRns(y), ofRns(z))).toBe(true);
    }), { numRuns: Math.ceil(runs / 5) });
  });
});
