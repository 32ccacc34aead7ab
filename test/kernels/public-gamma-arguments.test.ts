/**
 * γ_n (`gamma`) and `nrm2RelativeBound` take a count: a negative, NaN or non-number n (and for γ a unit roundoff
 * outside [0, 1)) is a typed error naming it — never a negative "bound". Valid arguments give a non-negative
 * result, monotone in n. Regression: gamma(−5, 2^-53) returned −5.6e-16 and nrm2RelativeBound(−5) −1.7e-16;
 * nrm2RelativeBound('10') and gamma(null, u) coerced their argument.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { gamma, nrm2RelativeBound, ModprecError } from '../../src/index.js';

const refusal = (f: () => unknown): string => {
  try { f(); } catch (e) { if (e instanceof ModprecError) return `${e.code} ${e.parameter}`; throw e; }
  return 'ran';
};
const badCount = fc.oneof(fc.integer({ max: -1 }), fc.double({ max: -Number.MIN_VALUE, noNaN: true }), fc.constantFrom<unknown>(NaN, '10', null, undefined, 1n, {}));

describe('gamma and nrm2RelativeBound arguments', () => {
  it('refuse a count that is negative, NaN or not a number', () => {
    fc.assert(fc.property(badCount, (n) => {
      expect(refusal(() => gamma(n as number, 2 ** -53))).toBe('INVALID_SIZE n');
      expect(refusal(() => nrm2RelativeBound(n as number))).toBe('INVALID_SIZE n');
    }));
    expect(refusal(() => nrm2RelativeBound(2.5))).toBe('INVALID_SIZE n');
  });

  it('gamma refuses a unit roundoff outside [0, 1)', () => {
    fc.assert(fc.property(fc.oneof(fc.double({ max: -Number.MIN_VALUE, noNaN: true }), fc.double({ min: 1, noNaN: true }), fc.constantFrom<unknown>(NaN, '0.5', null)), (u) => {
      expect(refusal(() => gamma(10, u as number))).toBe('INVALID_VALUE u');
    }));
  });

  it('valid arguments: non-negative, monotone in n, ∞ once n·u ≥ 1', () => {
    fc.assert(fc.property(fc.nat({ max: 2 ** 30 }), fc.nat({ max: 2 ** 30 }), fc.constantFrom(2 ** -53, 2 ** -24, 2 ** -11, 0), (a, b, u) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      expect(gamma(lo, u)).toBeGreaterThanOrEqual(0);
      expect(gamma(hi, u)).toBeGreaterThanOrEqual(gamma(lo, u));
      expect(nrm2RelativeBound(hi, { arithmetic: u === 2 ** -24 ? 'f32' : 'f64' })).toBeGreaterThanOrEqual(nrm2RelativeBound(lo, { arithmetic: u === 2 ** -24 ? 'f32' : 'f64' }));
    }));
    expect(gamma(2 ** 24, 2 ** -24)).toBe(Infinity);
    expect(gamma(Infinity, 2 ** -53)).toBe(Infinity);
  });
});
