/**
 * docs/rns.md promises more than |δ| < u for the RNS operations: rnsAdd, rnsSub and rnsMul are "exact then correctly
 * rounded once (to nearest, ties to even)", rnsDiv and rnsSqrt "correctly rounded", rnsToNumber rounds to nearest even
 * (or to odd) into binary64 with its subnormals and overflow, and rnsToDoubleDouble gives (RN(x), RN(x − RN(x))).
 * Checked bit for bit against the exact BigInt value rounded to p significant bits (modprec/testing's
 * roundRationalExact) at several precisions, with operands biased to the hard cases: exact ties, operands whose
 * exponents differ by about p (where rnsAdd drops the smaller one), powers of two and all-ones significands.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  rnsAdd, rnsDiv, rnsFromNumber, rnsFromRational, rnsModuliSet, rnsMul, rnsSqrt, rnsSub, rnsToDoubleDouble, rnsToNumber,
  rnsToRational, rnsZero, type ResidueArithmetic, type RnsModuliSet, type RnsNumber,
} from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, divRational, mulRational, rational, subRational, type Rational } from '../../src/testing/rational.js';
import { numberOf, valueOf } from './rns-rationals.js';
import { roundRationalExact, roundRationalToDouble } from '../../src/testing/round-rational.js';

/** Precisions and residue arithmetics: the GPU's sets (smaller moduli, many more of them) also run on the CPU. */
const PRECISIONS: [number, ResidueArithmetic][] = [
  [53, 'f64'], [54, 'f64'], [106, 'f64'], [200, 'f64'], [1000, 'f64'], [1100, 'f64'], [106, 'u32'], [300, 'f32'], [2000, 'f32'],
];

/** A significand of at most `bits` bits biased to powers of two, all ones and one-off-a-power values. */
function significand(bits: number): fc.Arbitrary<bigint> {
  const top = 1n << BigInt(bits);
  return fc.oneof(
    fc.bigInt({ min: 1n, max: top - 1n }),
    fc.integer({ min: 0, max: bits - 1 }).map((k) => 1n << BigInt(k)),
    fc.integer({ min: 1, max: bits }).map((k) => (1n << BigInt(k)) - 1n),
    fc.integer({ min: 1, max: bits - 1 }).map((k) => (1n << BigInt(k)) + 1n),
    fc.bigInt({ min: 1n, max: 1n << 20n }),
  );
}

/** ±S·2^e as a rational. */
function scaled(negative: boolean, s: bigint, e: number): Rational {
  const n = negative ? -s : s;
  return e >= 0 ? rational(n << BigInt(e)) : rational(n, 1n << BigInt(-e));
}

/** Two p-bit operands whose exponents differ by up to ~p + 8 (the drop boundary of rnsAdd), both signs. */
function operandPair(p: number): fc.Arbitrary<[Rational, Rational]> {
  return fc.record({
    sx: fc.boolean(), sy: fc.boolean(), x: significand(p), y: significand(p),
    ex: fc.integer({ min: -300, max: 300 }),
    gap: fc.oneof(fc.integer({ min: -p - 8, max: p + 8 }), fc.integer({ min: p - 3, max: p + 3 }), fc.integer({ min: -3, max: 3 })),
  }).map(({ sx, sy, x, y, ex, gap }) => [scaled(sx, x, ex), scaled(sy, y, ex - gap)]);
}

/** An exact tie of the sum: x has p bits at the top, y is ± half its last unit (possibly with more bits below). */
function tiePair(p: number): fc.Arbitrary<[Rational, Rational]> {
  return fc.record({ sx: fc.boolean(), sy: fc.boolean(), x: significand(p), ex: fc.integer({ min: -200, max: 200 }), extra: fc.boolean() })
    .map(({ sx, sy, x, ex, extra }) => {
      const full = x | (1n << BigInt(p - 1)); // p significant bits
      const half = extra ? 3n : 1n;           // 1: the tie itself; 3 (with one bit lower): just above it
      return [scaled(sx, full, ex), scaled(sy, half, ex - (extra ? 2 : 1))];
    });
}

/** √v (v ≥ 0 dyadic) rounded to p bits, ties to even: an integer root of v·2^(2j) with at least p + 3 bits and a sticky bit. */
function sqrtRounded(v: Rational, p: number): Rational {
  if (v.num === 0n) return v;
  const len = (b: bigint) => b.toString(2).length;
  const d = len(v.den) - 1; // v.den = 2^d
  const j = Math.max(Math.ceil(d / 2), Math.ceil((2 * p + 6 - len(v.num) + d) / 2));
  const A = v.num << BigInt(2 * j - d);
  let s = BigInt(Math.floor(Math.sqrt(Number(A >> BigInt(Math.max(0, len(A) - 100))))));
  s <<= BigInt(Math.max(0, len(A) - 100) >> 1);
  for (let t = 0; t < 400; t++) { const n = (s + A / s) >> 1n; if (n === s || n === s + 1n) break; s = n; }
  while (s * s > A) s -= 1n;
  while ((s + 1n) * (s + 1n) <= A) s += 1n;
  const sticky = s * s !== A;
  const k = BigInt(len(s) - p);
  let q = s >> k;
  const rest = s - (q << k), half = 1n << (k - 1n);
  if (rest > half || (rest === half && (sticky || (q & 1n) === 1n))) q += 1n;
  return mulRational(rational(q << k), rational(1n, 1n << BigInt(j)));
}

/** |v| compared with the integer t. */
function compareAbs(v: Rational, t: bigint): number {
  const n = v.num < 0n ? -v.num : v.num;
  return n < t * v.den ? -1 : n > t * v.den ? 1 : 0;
}

/** v (non-zero, |v| < 2^1024) rounded to odd on the binary64 grid (subnormals included): truncated, last bit set if inexact. */
function roundToOdd(v: Rational): number {
  const n = v.num < 0n ? -v.num : v.num, len = (b: bigint) => b.toString(2).length;
  let e = len(n) - len(v.den);
  while (e >= 0 ? n < v.den << BigInt(e) : n << BigInt(-e) < v.den) e -= 1; // now 2^e ≤ |v| < 2^(e+1)
  const k = Math.max(e, -1022) - 52;
  const num = k >= 0 ? n : n << BigInt(-k), den = k >= 0 ? v.den << BigInt(k) : v.den;
  let m = num / den;
  if (m * den !== num && (m & 1n) === 0n) m += 1n;
  const r = Number(m) * 2 ** k; // m < 2^53, a power of two: exact
  return v.num < 0n ? -r : r;
}

const eq = (a: Rational, b: Rational) => a.num === b.num && a.den === b.den;

describe.each(PRECISIONS)('RNS at %i bits (%s residues) rounds correctly', (p, arithmetic) => {
  const set = rnsModuliSet(p, arithmetic);
  const round = (v: Rational) => roundRationalExact(v, { significandBits: p });
  const runs = p >= 1000 ? 40 : arithmetic === 'f64' ? 150 : 60;

  it('the operands are exact (p-bit rationals convert without rounding)', () => {
    fc.assert(fc.property(operandPair(p), ([a]) => eq(valueOf(numberOf(set, a)), a)), { numRuns: 50 });
  });

  it('rnsAdd and rnsSub give the exact sum rounded to p bits, ties to even', () => {
    fc.assert(fc.property(fc.oneof(operandPair(p), tiePair(p)), ([a, b]) => {
      const x = numberOf(set, a), y = numberOf(set, b), z = rnsZero(set);
      rnsAdd(z, x, y);
      expect(valueOf(z)).toEqual(round(addRational(a, b)));
      rnsSub(z, x, y);
      expect(valueOf(z)).toEqual(round(subRational(a, b)));
    }), { numRuns: runs });
  });

  it('rnsMul gives the exact product rounded to p bits', () => {
    fc.assert(fc.property(operandPair(p), ([a, b]) => {
      const z = rnsZero(set);
      rnsMul(z, numberOf(set, a), numberOf(set, b));
      expect(valueOf(z)).toEqual(round(mulRational(a, b)));
    }), { numRuns: runs });
  });

  it('rnsDiv gives the exact quotient rounded to p bits', () => {
    fc.assert(fc.property(operandPair(p), ([a, b]) => {
      const z = rnsZero(set);
      rnsDiv(z, numberOf(set, a), numberOf(set, b));
      expect(valueOf(z)).toEqual(round(divRational(a, b)));
    }), { numRuns: runs });
  });

  it('rnsSqrt gives the exact root rounded to p bits', () => {
    fc.assert(fc.property(operandPair(p), ([a]) => {
      const v = a.num < 0n ? rational(-a.num, a.den) : a, z = rnsZero(set);
      rnsSqrt(z, numberOf(set, v));
      expect(valueOf(z)).toEqual(sqrtRounded(v, p));
    }), { numRuns: runs });
  });

  it('rnsToNumber rounds to the nearest double (ties to even) or to odd, subnormals and overflow included', () => {
    const wide = fc.record({ s: fc.boolean(), x: significand(p), e: fc.oneof(fc.integer({ min: -1200, max: 1100 }), fc.integer({ min: -1080 - p, max: -1070 }), fc.integer({ min: 1020 - p, max: 1026 - p })) })
      .map(({ s, x, e }) => scaled(s, x, e));
    fc.assert(fc.property(wide, (a) => {
      const x = numberOf(set, a);
      expect(Object.is(rnsToNumber(x), roundRationalToDouble(a))).toBe(true);
      if (a.num !== 0n && compareAbs(a, 1n << 1024n) < 0) expect(Object.is(rnsToNumber(x, true), roundToOdd(a))).toBe(true);
      const dd = rnsToDoubleDouble(x, { hi: 0, lo: 0 });
      expect(Object.is(dd.hi, roundRationalToDouble(a))).toBe(true);
      if (Number.isFinite(dd.hi) && dd.hi !== 0) expect(Object.is(dd.lo, roundRationalToDouble(subRational(a, exactOf(dd.hi))))).toBe(true);
    }), { numRuns: runs });
  });

  it('every double converts exactly and back (±0, subnormals, extremes)', () => {
    const doubles = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, -0, 2 ** -1074, -(2 ** -1074), 2 ** -1022, 2 ** -1022 - 2 ** -1074, Number.MAX_VALUE, -Number.MAX_VALUE, 1, 2 ** 1023));
    fc.assert(fc.property(doubles, (d) => {
      const x = rnsZero(set);
      rnsFromNumber(x, d);
      expect(Object.is(rnsToNumber(x), d)).toBe(true);
      expect(eq(valueOf(x), exactOf(d))).toBe(true);
    }), { numRuns: runs });
  });
});
