/**
 * Exact arithmetic on dyadic rationals num/2^k — all the exact references of the multiple-precision
 * sweep need: doubles, double-doubles and RNS values are dyadic, and so are their sums, differences and
 * products. Kept in the application (not modprec/testing, whose fast-check dependency an installed CLI
 * does not have); the library's `numberToRational` and `rnsToRational` give the inputs.
 * @module
 */
import type { Rational } from '../modprec.js';

/** 0 as a rational. */
export const ZERO: Rational = { num: 0n, den: 1n };

function trailingZeros(x: bigint): number {
  let n = 0;
  let v = x < 0n ? -x : x;
  while ((v & 0xffffffffn) === 0n) { v >>= 32n; n += 32; }
  while ((v & 1n) === 0n) { v >>= 1n; n++; }
  return n;
}

/** num/den reduced, for den a positive power of two (throws otherwise: a non-dyadic value here is a bug). */
function dyadic(num: bigint, den: bigint): Rational {
  if (den <= 0n || (den & (den - 1n)) !== 0n) throw new Error(`dyadic: denominator ${den} is not a positive power of two`);
  if (num === 0n) return ZERO;
  const shift = Math.min(trailingZeros(num), trailingZeros(den));
  return shift === 0 ? { num, den } : { num: num >> BigInt(shift), den: den >> BigInt(shift) };
}

/** Exact a + b. */
export function addRational(a: Rational, b: Rational): Rational {
  if (a.den === b.den) return dyadic(a.num + b.num, a.den);
  // Both denominators are powers of two: the larger one is a multiple of the smaller.
  return a.den > b.den ? dyadic(a.num + b.num * (a.den / b.den), a.den) : dyadic(a.num * (b.den / a.den) + b.num, b.den);
}

/** Exact a − b. */
export function subRational(a: Rational, b: Rational): Rational {
  return addRational(a, { num: -b.num, den: b.den });
}

/** Exact a·b. */
export function mulRational(a: Rational, b: Rational): Rational {
  return dyadic(a.num * b.num, a.den * b.den);
}
