/**
 * Every rounding of the CPU RNS numbers is to nearest with ties to even (MPFR's RNDN), on the way in as on the way
 * out: rnsFromRational, rnsFromDecimalString, rnsFromDoubleDouble, rnsConvert / rnsStore into a narrower set,
 * rnsSqrt, and the rounding of rnsAdd / rnsSub / rnsMul results. Checked against the exact value rounded half to
 * even in BigInt, on values drawn exactly at ties and one tiny step either side, near powers of two included
 * (where a rounding that misjudges the length keeps p − 1 bits). A wider set's number read into a narrower one is
 * the GPU bridge's read too (host-exact.ts `roundToPrecision`): both must give the same value.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  RnsArray, rnsAdd, rnsConvert, rnsFromDecimalString, rnsFromDoubleDouble, rnsFromRational, rnsLoad, rnsModuliSet,
  rnsMul, rnsSignificand, rnsSqrt, rnsStore, rnsSub, rnsToRational, rnsZero,
} from '../../src/index.js';
import { roundToPrecision } from '../../src/formats/rns/gpu/host-exact.js';
import type { Q } from './oracle.js';

const bits = (v: bigint): number => (v === 0n ? 0 : v.toString(2).length);

/** num/den (den > 0) rounded to a p-bit significand, to nearest, ties to even — the oracle. */
function roundHalfEven(num: bigint, den: bigint, p: number): Q {
  if (num === 0n) return { num: 0n, den: 1n };
  const negative = num < 0n;
  const N = negative ? -num : num;
  // s with 2^(p−1) ≤ N/(den·2^s) < 2^p: Q = ⌊N/(den·2^s)⌋, the rest compared with half a unit exactly.
  let s = bits(N) - bits(den) - p;
  for (;;) {
    const [a, b] = s >= 0 ? [N, den << BigInt(s)] : [N << BigInt(-s), den];
    const Qv = a / b;
    if (Qv >= 1n << BigInt(p)) { s += 1; continue; }
    if (Qv < 1n << BigInt(p - 1)) { s -= 1; continue; }
    const twice = 2n * (a - Qv * b);
    const R = twice > b || (twice === b && (Qv & 1n) === 1n) ? Qv + 1n : Qv;
    const signed = negative ? -R : R;
    return s >= 0 ? { num: signed << BigInt(s), den: 1n } : { num: signed, den: 1n << BigInt(-s) };
  }
}

const same = (a: Q, b: Q): boolean => a.num * b.den === b.num * a.den;
const exact = (sign: 0 | 1, X: bigint, exp: number): Q => {
  const n = sign ? -X : X;
  return exp >= 0 ? { num: n << BigInt(exp), den: 1n } : { num: n, den: 1n << BigInt(-exp) };
};

/**
 * (t + offset)·2^shift with t = 2m + 1 (m a p-bit significand, so t is a tie at p bits), offset 0 (the tie), or a
 * tiny ±2^-d either side (as a rational: t·2^d ± 1 over 2^d); significands next to 2^p, 2^(p−1) and random ones.
 */
function nearTie(p: number): fc.Arbitrary<{ num: bigint; den: bigint }> {
  const top = 1n << BigInt(p);
  const m = fc.oneof(
    fc.bigInt({ min: top >> 1n, max: top - 1n }),
    fc.constantFrom(top >> 1n, (top >> 1n) + 1n, top - 1n, top - 2n),
  );
  return fc.record({
    m, shift: fc.integer({ min: -400, max: 400 }), offset: fc.constantFrom(-1n, 0n, 0n, 1n), d: fc.integer({ min: 1, max: 90 }),
    negative: fc.boolean(),
  }).map(({ m, shift, offset, d, negative }) => {
    let num = ((2n * m + 1n) << BigInt(d)) + offset;
    let den = 1n << BigInt(d);
    if (shift >= 0) num <<= BigInt(shift); else den <<= BigInt(-shift);
    return { num: negative ? -num : num, den };
  });
}

describe.each([106, 212])('round to nearest, ties to even, at %i bits', (p) => {
  const set = rnsModuliSet(p);

  it('rnsFromRational: ties and their neighbours, with odd denominators too', () => {
    const odd = fc.bigInt({ min: 1n, max: (1n << 80n) - 1n }).map((v) => 2n * v + 1n);
    fc.assert(fc.property(nearTie(p), odd, fc.boolean(), ({ num, den }, f, scale) => {
      // Scaling num and den by the same odd f keeps the value and sends the quotient through a division with a rest.
      const [a, b] = scale ? [num * f, den * f] : [num, den];
      const z = rnsZero(set);
      rnsFromRational(z, a, b);
      expect(same(rnsToRational(z), roundHalfEven(a, b, p))).toBe(true);
    }), { numRuns: 300 });
  });

  it('rnsFromRational: the two exact ties next to an even and an odd significand go to the even one', () => {
    const z = rnsZero(set);
    const m = (1n << BigInt(p - 1)) + 6n; // even
    rnsFromRational(z, 2n * m + 1n, 2n);  // m + ½: down to m
    expect(rnsSignificand(z) << BigInt(z.exp + 1)).toBe(2n * m);
    rnsFromRational(z, -(2n * m + 3n), 2n); // −(m + 1 + ½): to −(m + 2)
    expect(z.sign).toBe(1);
    expect(rnsSignificand(z) << BigInt(z.exp + 1)).toBe(2n * (m + 2n));
  });

  it('rnsFromDecimalString: decimal ties (integers and exact fractions) and their neighbours', () => {
    const gen = fc.record({
      m: fc.bigInt({ min: 1n << BigInt(p - 1), max: (1n << BigInt(p)) - 1n }), k: fc.integer({ min: -60, max: 60 }),
      offset: fc.constantFrom(-1n, 0n, 1n),
    });
    fc.assert(fc.property(gen, ({ m, k, offset }) => {
      // (2m + 1)·2^(k−1) + offset·10^-J is exact in decimal: digits·10^-J with J = max(0, 1 − k) + 2.
      const J = Math.max(0, 1 - k) + 2;
      const t = (2n * m + 1n) * (k >= 1 ? (1n << BigInt(k - 1)) * 10n ** BigInt(J) : 5n ** BigInt(1 - k) * 10n ** BigInt(J - (1 - k)));
      const digits = t + offset;
      const z = rnsZero(set);
      rnsFromDecimalString(z, `${digits}e-${J}`);
      expect(same(rnsToRational(z), roundHalfEven(digits, 10n ** BigInt(J), p))).toBe(true);
    }), { numRuns: 200 });
  });

  it('rnsConvert and rnsStore into a narrower set round as the GPU bridge reads a wider set (roundToPrecision)', () => {
    const wide = rnsModuliSet(2 * p + 200);
    fc.assert(fc.property(nearTie(p), ({ num, den }) => {
      const w = rnsZero(wide);
      rnsFromRational(w, num, den); // exact in the wider set
      expect(same(rnsToRational(w), { num, den })).toBe(true);
      const z = rnsZero(set);
      rnsConvert(z, w);
      const want = roundHalfEven(num, den, p);
      expect(same(rnsToRational(z), want)).toBe(true);
      const a = new RnsArray(set, 1);
      rnsStore(a, 0, w);
      rnsLoad(z, a, 0);
      expect(same(rnsToRational(z), want)).toBe(true);
      const g = roundToPrecision({ sign: w.sign ? 1 : 0, X: rnsSignificand(w), exp: w.exp }, p);
      expect(same(exact(g.sign, g.X, g.exp), want)).toBe(true);
    }), { numRuns: 150 });
  });

  it('rnsFromDoubleDouble: pairs whose sum needs rounding, at and next to ties, below powers of two included', () => {
    // hi = H·2^a (53 bits), lo = ±L·2^b far below: hi + lo spans p − 2 … p + 40 bits, the tie at the lowest bit of lo.
    const gen = fc.record({
      H: fc.oneof(fc.bigInt({ min: 1n << 52n, max: (1n << 53n) - 1n }), fc.constant(1n << 52n)),
      L: fc.oneof(fc.bigInt({ min: 1n, max: (1n << 53n) - 1n }), fc.constant(1n)),
      gap: fc.integer({ min: p - 55, max: p + 40 }), a: fc.integer({ min: -200, max: 200 }), negative: fc.boolean(),
      loNegative: fc.boolean(),
    });
    fc.assert(fc.property(gen, ({ H, L, gap, a, negative, loNegative }) => {
      const b = a - gap;
      const hi = Number(H) * 2 ** a * (negative ? -1 : 1);
      const lo = Number(L) * 2 ** b * ((negative !== loNegative) ? -1 : 1);
      const D = 1n << BigInt(400);
      const num = ((negative ? -H : H) << BigInt(a + 400)) + ((negative !== loNegative ? -L : L) << BigInt(b + 400));
      const z = rnsZero(set);
      rnsFromDoubleDouble(z, hi, lo);
      expect(same(rnsToRational(z), roundHalfEven(num, D, p))).toBe(true);
    }), { numRuns: 300 });
  });

  it('rnsAdd, rnsSub and rnsMul round their exact results half to even (ties and neighbours, below powers of two)', () => {
    const top = 1n << BigInt(p);
    const sig = fc.oneof(fc.bigInt({ min: top >> 1n, max: top - 1n }), fc.constantFrom(top >> 1n, top - 1n, top - 2n));
    const gen = fc.record({ X: sig, e: fc.integer({ min: -300, max: 300 }), d: fc.integer({ min: 1, max: 40 }), Y: fc.bigInt({ min: 1n, max: (1n << 40n) - 1n }), op: fc.constantFrom('add', 'sub', 'mul') });
    fc.assert(fc.property(gen, ({ X, e, d, Y, op }) => {
      const x = rnsZero(set), y = rnsZero(set), z = rnsZero(set);
      rnsFromRational(x, ...toFraction(X, e));
      let want: Q;
      if (op === 'mul') {
        // X·Y has p + 40 bits at most: its low bits decide, a tie where they are 10…0 (Y = 2^j·3 and the like).
        rnsFromRational(y, Y, 1n);
        rnsMul(z, x, y);
        want = roundHalfEven(...toFraction(X * Y, e), p);
      } else {
        // y = 2^(e−1) ± 2^(e−1−d) (or exactly 2^(e−1)): X·2^e ± y is a tie at p bits or one step either side; for
        // X = 2^(p−1) the difference falls below a power of two.
        const yNum = (1n << BigInt(d)) + BigInt(Number(Y % 3n) - 1);
        rnsFromRational(y, ...toFraction(yNum, e - 1 - d));
        if (op === 'add') rnsAdd(z, x, y); else rnsSub(z, x, y);
        const sum = (X << BigInt(d + 1)) + (op === 'add' ? yNum : -yNum);
        want = roundHalfEven(...toFraction(sum, e - 1 - d), p);
      }
      expect(same(rnsToRational(z), want)).toBe(true);
    }), { numRuns: 300 });
  });

  it('rnsSqrt is correctly rounded: roots that truncate to a tie round up, exact roots stay', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: (1n << BigInt(p)) - 1n }), fc.integer({ min: -200, max: 200 }), (X, e) => {
      const x = rnsZero(set), z = rnsZero(set);
      rnsFromRational(x, ...toFraction(X, e));
      rnsSqrt(z, x);
      const r = rnsToRational(z);
      expect(isCorrectRoot(r, X, e, p)).toBe(true);
    }), { numRuns: 150 });
  });
});

function toFraction(X: bigint, e: number): [bigint, bigint] {
  return e >= 0 ? [X << BigInt(e), 1n] : [X, 1n << BigInt(-e)];
}

/** A·2^a ≤ B·2^b for non-negative integers A, B. */
function atMost(A: bigint, a: number, B: bigint, b: number): boolean {
  const m = Math.min(a, b);
  return A << BigInt(a - m) <= B << BigInt(b - m);
}

/**
 * Whether r is √(X·2^e) rounded to nearest at p bits: with r = R·2^f (2^(p−1) ≤ R < 2^p) the root lies between the
 * midpoints (R − ½)·2^f and (R + ½)·2^f — (R − ¼)·2^f below a power of two, whose lower neighbour is half a unit
 * away — compared squared, exactly.
 */
function isCorrectRoot(r: Q, X: bigint, e: number, p: number): boolean {
  if (r.num <= 0n) return false;
  let R = r.num, f = -(bits(r.den) - 1);
  while (bits(R) < p) { R <<= 1n; f -= 1; }
  while (bits(R) > p) { if ((R & 1n) !== 0n) return false; R >>= 1n; f += 1; }
  const atPowerOfTwo = R === 1n << BigInt(p - 1);
  const below = atPowerOfTwo ? atMost((4n * R - 1n) ** 2n, 2 * f - 4, X, e) : atMost((2n * R - 1n) ** 2n, 2 * f - 2, X, e);
  return below && atMost(X, e, (2n * R + 1n) ** 2n, 2 * f - 2);
}
