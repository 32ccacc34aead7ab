import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber, OPEN_AFTER } from '../../src/formats/rns/rns-number.js';
import { RnsArray, rnsLoad, rnsRef } from '../../src/formats/rns/rns-array.js';
import { rnsStore } from '../../src/formats/rns/array-store.js';
import { rnsFma, rnsSign } from '../../src/formats/rns/arithmetic.js';
import { rnsFromNumber, rnsToNumber } from '../../src/formats/rns/convert-number.js';
import { abs, add, anyDouble, invariantsHold, le, makeOperand, mul, ofNumber, ofRns, operandSpec, q, sub, unitBound, withinU, type Q } from './oracle.js';

/** Doubles of moderate range (products and sums stay short: the case open sums are for). */
const shortDouble = fc.oneof(
  fc.double({ min: -1e3, max: 1e3, noNaN: true }).filter((v) => v === 0 || Math.abs(v) >= 1e-30),
  fc.constantFrom(0, -0, 1, -1, 0.1, 2 ** -40),
);

describe.each([106, 424, 1696])('open sums of in-place multiply-adds (%i bits)', (precision) => {
  const set = rnsModuliSet(precision);
  const spec = operandSpec(set);
  // γ_k(U) = kU/(1 − kU) (Higham's γ for k roundings of at most U each), U ≥ u.
  const U = unitBound(set);
  const gamma = (k: number): Q => {
    const kU = mul(q(BigInt(k)), U);
    return q(kU.num * 1n, kU.den - kU.num);
  };

  it('a chain of a·b + s keeps |ŝ − s| ≤ γ_2k(U)·(|s0| + Σ|a_i b_i|), with reads and long operands mixed in', () => {
    const step = fc.record({
      a: fc.oneof({ weight: 4, arbitrary: shortDouble.map((value) => ({ kind: 'number' as const, value })) }, { weight: 1, arbitrary: spec }),
      b: fc.oneof({ weight: 4, arbitrary: shortDouble.map((value) => ({ kind: 'number' as const, value })) }, { weight: 1, arbitrary: spec }),
      read: fc.integer({ min: 0, max: 15 }),
    });
    fc.assert(fc.property(anyDouble, fc.array(step, { maxLength: 40 }), (s0, steps) => {
      const acc = new RnsNumber(set);
      rnsFromNumber(acc, s0);
      let exact = ofNumber(s0);
      let magnitude = abs(exact);
      for (const { a, b, read } of steps) {
        const x = makeOperand(set, a), y = makeOperand(set, b);
        rnsFma(acc, x, y, acc);
        const p = mul(ofRns(x), ofRns(y));
        exact = add(exact, p);
        magnitude = add(magnitude, abs(p));
        if (read === 0) rnsToNumber(acc); // a read closes the sum; the chain goes on
      }
      const got = ofRns(acc);
      expect(acc.open).toBe(0);
      expect(invariantsHold(acc)).toBe(true);
      const bound = mul(gamma(2 * steps.length + 1), magnitude);
      expect(le(abs(sub(got, exact)), bound)).toBe(true);
    }), { numRuns: precision >= 1696 ? 60 : 200 });
  });

  it('short terms accumulate exactly while open: the result is the exact sum rounded once (|δ| < u)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(shortDouble, shortDouble), { minLength: OPEN_AFTER + 2, maxLength: 60 }), (terms) => {
      const arr = new RnsArray(set, 2 * terms.length);
      terms.forEach(([a, b], k) => {
        const t = new RnsNumber(set);
        rnsFromNumber(t, a); rnsStore(arr, 2 * k, t);
        rnsFromNumber(t, b); rnsStore(arr, 2 * k + 1, t);
      });
      const acc = new RnsNumber(set), x = new RnsNumber(set), y = new RnsNumber(set);
      let exact = q(0n);
      let opened = false;
      terms.forEach(([a, b], k) => {
        // Factors bound to array elements, as the kernels read them.
        rnsRef(x, arr, 2 * k); rnsRef(y, arr, 2 * k + 1);
        rnsFma(acc, x, y, acc);
        exact = add(exact, mul(ofNumber(a), ofNumber(b)));
        opened ||= acc.open === 1;
      });
      // A sum opens at the first non-zero term after OPEN_AFTER in-place steps (at 106 bits a 106-bit product
      // leaves no room: it may stay ordinary).
      if (precision >= 424 && terms.slice(OPEN_AFTER).some(([a, b]) => a !== 0 && b !== 0)) expect(opened).toBe(true);
      const value = ofRns(acc); // closes
      if (precision >= 424) expect(withinU(set, value, exact)).toBe(true);
      expect(invariantsHold(acc)).toBe(true);
    }), { numRuns: precision >= 1696 ? 40 : 150 });
  });

  it('an exact cancellation closes to +0; the sign of a negative sum is found on closing', () => {
    const acc = new RnsNumber(set), x = new RnsNumber(set), y = new RnsNumber(set);
    rnsFromNumber(acc, 0);
    for (let k = 1; k <= OPEN_AFTER + 5; k++) { rnsFromNumber(x, k); rnsFromNumber(y, 0.5); rnsFma(acc, x, y, acc); }
    expect(acc.open).toBe(1);
    for (let k = 1; k <= OPEN_AFTER + 5; k++) { rnsFromNumber(x, -k); rnsFromNumber(y, 0.5); rnsFma(acc, x, y, acc); }
    expect(rnsSign(acc)).toBe(0);
    expect(Object.is(rnsToNumber(acc), 0)).toBe(true);
    for (let k = 1; k <= OPEN_AFTER + 5; k++) { rnsFromNumber(x, -k); rnsFromNumber(y, 3); rnsFma(acc, x, y, acc); }
    expect(rnsSign(acc)).toBe(-1);
    const n = OPEN_AFTER + 5;
    expect(rnsToNumber(acc)).toBe(-1.5 * n * (n + 1));
  });

  it('a term too large for an open sum closes it and is added the ordinary way', () => {
    fc.assert(fc.property(fc.array(shortDouble, { minLength: OPEN_AFTER + 1, maxLength: 20 }), spec, spec, (xs, sa, sb) => {
      const acc = new RnsNumber(set), x = new RnsNumber(set), one = new RnsNumber(set);
      rnsFromNumber(one, 1);
      let exact = q(0n), magnitude = q(0n);
      for (const v of xs) {
        rnsFromNumber(x, v); rnsFma(acc, x, one, acc);
        exact = add(exact, ofNumber(v)); magnitude = add(magnitude, abs(ofNumber(v)));
      }
      const a = makeOperand(set, sa), b = makeOperand(set, sb);
      rnsFma(acc, a, b, acc);
      const p = mul(ofRns(a), ofRns(b));
      exact = add(exact, p); magnitude = add(magnitude, abs(p));
      const bound = mul(gamma(2 * xs.length + 3), magnitude);
      expect(le(abs(sub(ofRns(acc), exact)), bound)).toBe(true);
      expect(invariantsHold(acc)).toBe(true);
    }), { numRuns: 100 });
  });

  it('a full-precision sum opened by a far smaller term keeps a valid eval (the bound is kept in the sum\'s unit)', () => {
    // A p-bit significand (1/3 rounded) sits near M while a product of doubles sits near 2^106: their bounds are
    // ~p bits apart, beyond the double range if both were kept in the term's unit.
    fc.assert(fc.property(fc.array(fc.tuple(shortDouble, shortDouble), { minLength: 1, maxLength: 12 }), fc.integer({ min: -60, max: 60 }), (terms, e) => {
      const acc = new RnsNumber(set);
      const third = makeOperand(set, { kind: 'rational', value: q(1n, 3n) });
      const scale = new RnsNumber(set); rnsFromNumber(scale, 2 ** e);
      rnsFromNumber(acc, 0);
      rnsFma(acc, third, scale, acc);
      let exact = mul(ofRns(third), ofNumber(2 ** e));
      let magnitude = abs(exact);
      const x = new RnsNumber(set), y = new RnsNumber(set);
      for (let k = 0; k < OPEN_AFTER; k++) { rnsFromNumber(x, 0); rnsFma(acc, x, x, acc); }
      for (const [a, b] of terms) {
        rnsFromNumber(x, a); rnsFromNumber(y, b);
        rnsFma(acc, x, y, acc);
        const p = mul(ofNumber(a), ofNumber(b));
        exact = add(exact, p); magnitude = add(magnitude, abs(p));
      }
      const got = ofRns(acc);
      expect(invariantsHold(acc)).toBe(true);
      expect(le(abs(sub(got, exact)), mul(gamma(2 * terms.length + 2), magnitude))).toBe(true);
    }), { numRuns: precision >= 1696 ? 20 : 60 });
  });

  it('storing an open sum into an mp_array closes it first (the stored element is the closed sum, within the chain bound)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(shortDouble, shortDouble), { minLength: OPEN_AFTER + 2, maxLength: 30 }), (terms) => {
      const acc = new RnsNumber(set), x = new RnsNumber(set), y = new RnsNumber(set);
      rnsFromNumber(acc, 0);
      let exact = q(0n), magnitude = q(0n);
      for (const [a, b] of terms) {
        rnsFromNumber(x, a); rnsFromNumber(y, b);
        rnsFma(acc, x, y, acc);
        const p = mul(ofNumber(a), ofNumber(b));
        exact = add(exact, p); magnitude = add(magnitude, abs(p));
      }
      const arr = new RnsArray(set, 1);
      rnsStore(arr, 0, acc);
      const back = new RnsNumber(set);
      rnsLoad(back, arr, 0);
      expect(invariantsHold(back)).toBe(true);
      expect(le(abs(sub(ofRns(back), exact)), mul(gamma(2 * terms.length), magnitude))).toBe(true);
    }), { numRuns: precision >= 1696 ? 20 : 60 });
  });
});
