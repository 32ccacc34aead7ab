import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { EVAL, evaluateSigned, evaluateUnsigned } from '../../src/formats/rns/interval-evaluation.js';
import { le, ofExt, q } from './oracle.js';

describe.each([106, 424, 1696, 3392])('interval evaluation at %i bits', (precision) => {
  const set = rnsModuliSet(precision);
  const M = set.M;
  const residues = (X: bigint) => Float64Array.from(set.moduli, (m) => Number(((X % BigInt(m)) + BigInt(m)) % BigInt(m)));
  const X = fc.oneof(
    fc.bigInt({ min: 0n, max: M - 1n }),
    fc.bigInt({ min: 0n, max: 1n << 64n }), // near 0
    fc.bigInt({ min: 1n, max: 1n << 64n }).map((d) => M - d), // near M
    fc.integer({ min: 1, max: set.bitsM - 1 }).chain((b) => fc.bigInt({ min: 1n << BigInt(b - 1), max: (1n << BigInt(b)) - 1n })), // every binade
  );
  const runs = precision >= 3392 ? 60 : 200;

  it('encloses X/M exactly: lo ≤ X/M ≤ up, with a tight interval', () => {
    fc.assert(fc.property(X, (x) => {
      evaluateUnsigned(set, residues(x), 0);
      const lo = ofExt(EVAL.lf, EVAL.le), up = ofExt(EVAL.uf, EVAL.ue);
      const exact = q(x, M);
      expect(le(lo, exact)).toBe(true);
      expect(le(exact, up)).toBe(true);
      // tight: absolute width ≤ 4E (E = n·2^-51, the bound of the fractional sum)
      const width = q(up.num * lo.den - lo.num * up.den, up.den * lo.den);
      expect(le(width, q(BigInt(set.size), 1n << 49n))).toBe(true);
    }), { numRuns: runs });
  });

  it('signed reading: sign and |X̃|/M for X̃ ∈ (−M/2, M/2)', () => {
    const signed = fc.oneof(
      fc.bigInt({ min: -(M / 4n), max: M / 4n }),
      fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }),
    );
    fc.assert(fc.property(signed, (x) => {
      evaluateSigned(set, residues(x), 0, 0, 0);
      if (x === 0n) { expect(EVAL.zero).toBe(true); return; }
      expect(EVAL.zero).toBe(false);
      expect(EVAL.negative).toBe(x < 0n);
      const mag = q(x < 0n ? -x : x, M);
      expect(le(ofExt(EVAL.lf, EVAL.le), mag)).toBe(true);
      expect(le(mag, ofExt(EVAL.uf, EVAL.ue))).toBe(true);
      // relatively tight whatever the magnitude (the extended exponent at work): up ≤ lo·(1 + 2^-30)
      const lo = ofExt(EVAL.lf, EVAL.le), up = ofExt(EVAL.uf, EVAL.ue);
      expect(le(up, q(lo.num * ((1n << 30n) + 1n), lo.den << 30n))).toBe(true);
    }), { numRuns: runs });
  });

  it('X = 0, 1, M − 1 exactly', () => {
    evaluateUnsigned(set, residues(0n), 0);
    expect(EVAL.lf).toBe(0);
    expect(EVAL.uf).toBe(0);
    for (const x of [1n, M - 1n]) {
      evaluateUnsigned(set, residues(x), 0);
      expect(le(ofExt(EVAL.lf, EVAL.le), q(x, M))).toBe(true);
      expect(le(q(x, M), ofExt(EVAL.uf, EVAL.ue))).toBe(true);
    }
  });
});
