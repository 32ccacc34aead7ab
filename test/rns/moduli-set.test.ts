import { describe, expect, it } from 'vitest';
import { ModprecError } from '../../src/core/errors.js';
import { rnsModuliSet, rnsTables, type ResidueArithmetic } from '../../src/formats/rns/moduli-set.js';
import { ofExt, ofNumber, le, q } from './oracle.js';

const cases: [number, ResidueArithmetic][] = [
  [53, 'f64'], [106, 'f64'], [212, 'f64'], [424, 'f64'], [848, 'f64'], [1696, 'f64'], [3392, 'f64'],
  [106, 'u32'], [424, 'u32'], [3392, 'u32'], [106, 'f32'], [1696, 'f32'],
];
const bound: Record<ResidueArithmetic, number> = { f64: 2 ** 26, u32: 2 ** 16, f32: 2 ** 12 };

function gcd(a: bigint, b: bigint): bigint { while (b) [a, b] = [b, a % b]; return a; }

describe.each(cases)('moduli set for %i bits (%s residues)', (precision, arithmetic) => {
  const set = rnsModuliSet(precision, arithmetic);
  it('has pairwise-coprime odd moduli below the residue bound, product M', () => {
    const ms = Array.from(set.moduli, BigInt);
    for (let i = 0; i < ms.length; i++) {
      expect(ms[i]! % 2n).toBe(1n);
      expect(Number(ms[i]!)).toBeLessThan(bound[arithmetic]);
      for (let j = i + 1; j < ms.length; j++) expect(gcd(ms[i]!, ms[j]!)).toBe(1n);
    }
    expect(ms.reduce((a, b) => a * b, 1n)).toBe(set.M);
    expect(set.size).toBe(ms.length);
  });
  it('residue products are exact in the named arithmetic', () => {
    const mMax = Math.max(...set.moduli) - 1;
    expect(mMax * mMax).toBeLessThan(arithmetic === 'f64' ? 2 ** 53 : arithmetic === 'u32' ? 2 ** 32 : 2 ** 24);
  });
  it('sits in the precision window 2^(2p+2) < M < 2^(2p+4) and u ≥ 4/√M', () => {
    const p = BigInt(set.precision);
    expect(set.precision).toBe(precision);
    expect(set.M > 1n << (2n * p + 2n)).toBe(true);
    expect(set.M < 1n << (2n * p + 4n)).toBe(true);
    // u ≥ 4/√M ⇔ u²·M ≥ 16 (exact), where representable
    if (set.unitRoundoff > Number.MIN_VALUE) {
      const u = ofNumber(set.unitRoundoff);
      expect(u.num * u.num * set.M >= 16n * u.den * u.den).toBe(true);
    }
    expect(set.unitRoundoffLog2).toBeGreaterThanOrEqual(2 - Math.log2(Number(set.M >> BigInt(set.bitsM - 53))) / 2 - (set.bitsM - 53) / 2 - 1e-9);
  });
  it('CRT constants: M_i = M/m_i and M_i·w_i ≡ 1 (mod m_i); M enclosed by its extended image', () => {
    for (let i = 0; i < set.size; i++) {
      const m = BigInt(set.moduli[i]!);
      expect(set.Mi[i]! * m).toBe(set.M);
      expect((set.Mi[i]! * BigInt(set.w[i]!)) % m).toBe(1n);
      expect(set.inverseModuli[i]).toBe(1 / set.moduli[i]!);
    }
    expect(le(ofExt(set.MfLo, set.Me), q(set.M))).toBe(true);
    expect(le(q(set.M), ofExt(set.MfUp, set.Me))).toBe(true);
  });
  if (arithmetic === 'f64' && precision <= 1696) {
    it('tables: powers of two and limb images are exact', () => {
      const t = rnsTables(set);
      for (const k of [0, 1, 52, t.maxShift]) for (const i of [0, set.size - 1]) {
        const m = BigInt(set.moduli[i]!);
        const two = (1n << BigInt(k)) % m;
        expect(BigInt(t.pow2[k * set.size + i]!)).toBe(two);
        expect((BigInt(t.invPow2[k * set.size + i]!) * two) % m).toBe(1n);
      }
      const T = ofExt(t.roundThresholdF, t.roundThresholdE);
      expect(le(T, q(1n << BigInt(set.precision), set.M))).toBe(true);
      expect(le(q(1n, 2n * set.M), ofExt(t.halfInvMf, t.halfInvMe))).toBe(true);
    });
  }
});

describe('moduli set cache and bad input', () => {
  it('returns the same object for the same request', () => {
    expect(rnsModuliSet(212)).toBe(rnsModuliSet(212));
    expect(rnsModuliSet(212, 'u32')).not.toBe(rnsModuliSet(212));
  });
  it.each([52, 4097, 100.5, NaN, Infinity, -1, '106' as unknown as number])('rejects precision %s', (p) => {
    try { rnsModuliSet(p); expect.unreachable(); } catch (e) {
      expect(e).toBeInstanceOf(ModprecError);
      expect((e as ModprecError).code).toBe('INVALID_SIZE');
      expect((e as ModprecError).parameter).toBe('precision');
    }
  });
  it('rejects an unknown residue arithmetic and an unreachable precision', () => {
    expect(() => rnsModuliSet(106, 'i64' as ResidueArithmetic)).toThrow(/residueArithmetic/);
    try { rnsModuliSet(4000, 'f32'); expect.unreachable(); } catch (e) {
      expect((e as ModprecError).code).toBe('INVALID_OPTION');
    }
  });
});
