/**
 * Cross-check of the BigInt rounding oracle against GNU MPFR (through gmp-wasm): an independent,
 * widely used implementation of correctly rounded arbitrary-precision arithmetic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { init, type CalculateTypeWithDestroy } from 'gmp-wasm';
import { type Rational, rational, roundRationalExact } from '../../src/testing/index.js';

let ctx: CalculateTypeWithDestroy;
beforeAll(async () => {
  ctx = (await init()).getContext();
});
afterAll(() => ctx?.destroy());

/** The part of gmp-wasm's Float used here (its published typings lose methods on chained results). */
interface MpfrFloat {
  isZero(): boolean;
  exponent(): number;
  mul(value: MpfrFloat): MpfrFloat;
  pow(value: number): MpfrFloat;
  toInteger(): { toString(): string };
}

/** q rounded to nearest-even with p bits by MPFR (mpfr_set_q), read back exactly as a rational. */
function mpfrRound(q: Rational, p: number): Rational {
  const float = (value: unknown, precisionBits: number) => ctx.Float(value as never, { precisionBits, roundingMode: 0 }) as unknown as MpfrFloat;
  const f = float(ctx.Rational(q.num.toString(), q.den.toString()), p);
  if (f.isZero()) return rational(0n);
  const e = f.exponent(); // f = s·2^e with s in [1/2, 1): f·2^(p−e) is an integer of p bits
  const shift = p - e;
  // multiply by 2^shift (powers of two are exact at any precision)
  const scaled = f.mul(float(2, p).pow(Math.abs(shift)).pow(Math.sign(shift) || 1));
  const m = BigInt(scaled.toInteger().toString());
  return shift >= 0 ? rational(m, 1n << BigInt(shift)) : rational(m << BigInt(-shift));
}

describe('roundRationalExact agrees with MPFR', () => {
  const bigint = (bits: number) => fc.bigInt({ min: -(1n << BigInt(bits)), max: 1n << BigInt(bits) });
  const positive = (bits: number) => fc.bigInt({ min: 1n, max: 1n << BigInt(bits) });

  it('on random rationals at precisions 1…200 (the double-double case, 106 bits, included)', () => {
    fc.assert(fc.property(bigint(300), positive(300), fc.oneof(fc.integer({ min: 1, max: 200 }), fc.constantFrom(11, 24, 53, 106)), (num, den, p) => {
      const q = rational(num, den);
      expect(roundRationalExact(q, { significandBits: p })).toEqual(mpfrRound(q, p));
    }), { numRuns: 1500 });
  });

  it('on exact ties (odd multiples of half a quantum), where ties-to-even decides', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 120 }), fc.bigInt({ min: 0n, max: 1n << 120n }), fc.integer({ min: -300, max: 300 }), (p, raw, k) => {
      // m has exactly p bits; (2m + 1)·2^(k−1) is the midpoint of m·2^k and (m + 1)·2^k
      const m = (raw % (1n << BigInt(p - 1))) + (1n << BigInt(p - 1));
      const twice = 2n * m + 1n;
      const q = k - 1 >= 0 ? rational(twice << BigInt(k - 1)) : rational(twice, 1n << BigInt(1 - k));
      expect(roundRationalExact(q, { significandBits: p })).toEqual(mpfrRound(q, p));
    }), { numRuns: 1000 });
  });
});
