/** Exact oracles and generators for the RNS tests: every value is a dyadic rational, checked in BigInt. */
import fc from 'fast-check';
import type { RnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsFromNumber } from '../../src/formats/rns/convert-number.js';
import { rnsFromRational, rnsSignificand, rnsToRational } from '../../src/formats/rns/convert-exact.js';
import type { Rational } from '../../src/formats/rns/convert-exact.js';

/** An exact rational n/d (d > 0). */
export type Q = Rational;

export function q(num: bigint, den = 1n): Q {
  return den < 0n ? { num: -num, den: -den } : { num, den };
}

export function sub(a: Q, b: Q): Q { return q(a.num * b.den - b.num * a.den, a.den * b.den); }
export function add(a: Q, b: Q): Q { return q(a.num * b.den + b.num * a.den, a.den * b.den); }
export function mul(a: Q, b: Q): Q { return q(a.num * b.num, a.den * b.den); }
export function abs(a: Q): Q { return q(a.num < 0n ? -a.num : a.num, a.den); }
/** a < b */
export function lt(a: Q, b: Q): boolean { return a.num * b.den < b.num * a.den; }
export function eq(a: Q, b: Q): boolean { return a.num * b.den === b.num * a.den; }
export function le(a: Q, b: Q): boolean { return a.num * b.den <= b.num * a.den; }

/** Exact value of a double. */
export function ofNumber(x: number): Q {
  if (x === 0) return q(0n);
  let e = 0;
  let m = Math.abs(x);
  while (!Number.isInteger(m)) { m *= 2; e--; }
  const num = BigInt(m) * (x < 0 ? -1n : 1n);
  return e < 0 ? q(num, 1n << BigInt(-e)) : q(num);
}

/** f·2^e (f a double) exactly. */
export function ofExt(f: number, e: number): Q {
  const v = ofNumber(f);
  return e >= 0 ? q(v.num << BigInt(e), v.den) : q(v.num, v.den << BigInt(-e));
}

/** Exact value of an RNS number. */
export function ofRns(x: RnsNumber): Q {
  return rnsToRational(x);
}

/**
 * Whether computed c approximates exact e with |δ| < 4/√M, i.e. (c − e)²·M < 16·e² (exact, no square roots);
 * e = 0 requires c = 0.
 */
export function withinU(set: RnsModuliSet, c: Q, e: Q): boolean {
  const d = sub(c, e);
  if (e.num === 0n) return d.num === 0n;
  // d²·M < 16 e²  ⇔  dn²·M·ed² < 16·en²·dd²
  return d.num * d.num * set.M * e.den * e.den < 16n * e.num * e.num * d.den * d.den;
}

/** Integer square root (floor). */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length + 1) >> 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** A rational U ≥ u = 4/√M of the set (4/⌊√M⌋), for bounds checked exactly. */
export function unitBound(set: RnsModuliSet): Q {
  return q(4n, isqrt(set.M));
}

/** |c − e| ≤ bound (all exact). */
export function absErrorAtMost(c: Q, e: Q, bound: Q): boolean {
  return le(abs(sub(c, e)), bound);
}

/** Doubles over many binades, both signs, zeros and subnormals. */
export const anyDouble = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.constantFrom(0, -0, 1, -1, 2 ** -1074, -(2 ** -1074), Number.MAX_VALUE, 2 ** -1022, 0.1, 1 / 3),
);

/** A full-precision significand (p bits or fewer) with an exponent of moderate size, as a rational. */
export function fullPrecision(set: RnsModuliSet, expRange = 200): fc.Arbitrary<Q> {
  const p = set.precision;
  return fc.tuple(fc.bigInt({ min: -(1n << BigInt(p)), max: 1n << BigInt(p) }), fc.integer({ min: -expRange, max: expRange }))
    .map(([s, e]) => (e >= 0 ? q(s << BigInt(e)) : q(s, 1n << BigInt(-e))));
}

/** A specification of an operand: a double, or a rational rounded to the set's precision. */
export type OperandSpec = { kind: 'number'; value: number } | { kind: 'rational'; value: Q };

export function operandSpec(set: RnsModuliSet): fc.Arbitrary<OperandSpec> {
  return fc.oneof(
    anyDouble.map((value) => ({ kind: 'number' as const, value })),
    fullPrecision(set).map((value) => ({ kind: 'rational' as const, value })),
    fullPrecision(set, 4000).map((value) => ({ kind: 'rational' as const, value })),
  );
}

export function makeOperand(set: RnsModuliSet, spec: OperandSpec): RnsNumber {
  const z = new RnsNumber(set);
  if (spec.kind === 'number') rnsFromNumber(z, spec.value);
  else rnsFromRational(z, spec.value.num, spec.value.den);
  return z;
}

/** Checks the invariants of a number: X ≤ 2^p and lo ≤ X/M ≤ up (exactly, in BigInt). */
export function invariantsHold(x: RnsNumber): boolean {
  const set = x.set;
  const X = rnsSignificand(x);
  if (X > 1n << BigInt(set.precision)) return false;
  if (X === 0n) return x.uf === 0 && x.lf === 0;
  const ratio = q(X, set.M);
  return x.lf > 0 && le(ofExt(x.lf, x.le), ratio) && le(ratio, ofExt(x.uf, x.ue));
}
