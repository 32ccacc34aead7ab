/**
 * Exact oracle of the RNS device tests: values ±X·2^e as dyadic rationals in BigInt, sums and products exact,
 * rounding to p bits to nearest (ties to even).
 */
import type { RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';

/** A dyadic rational v·2^e (v signed). */
export interface Dyadic { v: bigint; e: number }

export function dyadic(x: RnsExactValue): Dyadic {
  return { v: x.sign ? -x.X : x.X, e: x.exp };
}

export function mul(a: Dyadic, b: Dyadic): Dyadic {
  return { v: a.v * b.v, e: a.e + b.e };
}

export function add(a: Dyadic, b: Dyadic): Dyadic {
  if (a.v === 0n) return b;
  if (b.v === 0n) return a;
  const e = Math.min(a.e, b.e);
  return { v: (a.v << BigInt(a.e - e)) + (b.v << BigInt(b.e - e)), e };
}

export function abs(a: Dyadic): Dyadic {
  return { v: a.v < 0n ? -a.v : a.v, e: a.e };
}

export function sum(terms: readonly Dyadic[]): Dyadic {
  return terms.reduce(add, { v: 0n, e: 0 });
}

/** Rounded to p bits, to nearest, ties to even. */
export function roundP(a: Dyadic, p: number): Dyadic {
  const neg = a.v < 0n;
  let m = neg ? -a.v : a.v;
  if (m === 0n) return { v: 0n, e: 0 };
  const k = m.toString(2).length - p;
  if (k <= 0) return a;
  const q = m >> BigInt(k);
  const r = m - (q << BigInt(k));
  const half = 1n << BigInt(k - 1);
  m = r > half || (r === half && (q & 1n) === 1n) ? q + 1n : q;
  return { v: neg ? -m : m, e: a.e + k };
}

/** a == b as numbers. */
export function same(a: Dyadic, b: Dyadic): boolean {
  return add(a, { v: -b.v, e: b.e }).v === 0n;
}

/** |a| ≤ c·|b|·2^-p (c a small integer), exactly. */
export function withinScaled(err: Dyadic, bound: Dyadic, c: bigint, p: number): boolean {
  // |err|·2^p ≤ c·|bound|
  const lhs = abs({ v: err.v, e: err.e + p });
  const rhs = abs({ v: bound.v * c, e: bound.e });
  return add(rhs, { v: -lhs.v, e: lhs.e }).v >= 0n;
}

/** Random exact p-bit values with exponents spread over ±spread (fast-check arbitraries are built from these). */
export function valueOf(X: bigint, exp: number, neg: boolean): RnsExactValue {
  return { sign: neg ? 1 : 0, X, exp };
}
