/**
 * The RNS entry points that take a moduli set accept only a set made by rnsModuliSet. An object that only looked like
 * one passed the former shape test ({ size, precision, moduli }): { size: 3, precision: 106, moduli: 1 } threw a
 * TypeError in the tables, a copy with zero moduli a RangeError (BigInt division by zero), and a copy of a real set
 * made numbers that no operation of the set accepted. Now INVALID_VALUE naming `set`, before anything is made.
 * evaluateUnsigned also checks its residues: an undefined x threw a TypeError, a short x or a residue out of [0, m_i)
 * gave an enclosure of NaN or of another X. Valid calls still enclose X/M.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ModprecError, RNS_EVAL, RnsArray, RnsNumber, evaluateUnsigned, rns106, rnsArithmeticFormat, rnsFromDouble, rnsFromString,
  rnsModuliSet, rnsStorageFormat, rnsTables, rnsToNumber, rnsZero, type RnsModuliSet,
} from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

const precision = fc.constantFrom(53, 106, 212, 424);
/** Things that are not a moduli set made by rnsModuliSet, built from a real one. */
const notASet = (set: RnsModuliSet): (() => unknown)[] => [
  () => undefined, () => null, () => ({}), () => Symbol('set'), () => set.precision, () => set.name, () => rns106,
  () => ({ size: set.size, precision: set.precision, moduli: 1 }),
  () => ({ ...set }),
  () => ({ ...set, moduli: new Float64Array(set.size) }),
  () => Object.create(set) as unknown,
  () => [set],
];

describe('RNS moduli set arguments', () => {
  it('every entry point taking a set refuses one rnsModuliSet did not make: INVALID_VALUE naming set', () => {
    fc.assert(fc.property(precision, fc.nat(), (p, pick) => {
      const set = rnsModuliSet(p);
      const makers = notASet(set);
      const bad = makers[pick % makers.length]!() as RnsModuliSet;
      const entries: (() => unknown)[] = [
        () => rnsZero(bad), () => new RnsNumber(bad), () => rnsFromDouble(bad, 1.5), () => rnsFromString(bad, '1.5'),
        () => rnsTables(bad), () => rnsStorageFormat(bad), () => rnsArithmeticFormat(bad), () => new RnsArray(bad, 4),
        () => evaluateUnsigned(bad, new Float64Array(set.size), 0),
      ];
      for (const f of entries) expect(errorOf(f)).toEqual(['INVALID_VALUE', 'set']);
      // the real set still works
      expect(rnsToNumber(rnsFromDouble(set, 1.5))).toBe(1.5);
    }), { numRuns: 40 });
  });

  it('evaluateUnsigned names an x without set.size residues from offset, a bad offset and a residue out of range', () => {
    fc.assert(fc.property(precision, fc.nat({ max: 3 }), fc.nat(), (p, offset, at) => {
      const set = rnsModuliSet(p);
      const n = set.size;
      const x = new Float64Array(offset + n);
      expect(errorOf(() => evaluateUnsigned(set, undefined as unknown as Float64Array, offset))).toEqual(['INVALID_STORAGE', 'x']);
      expect(errorOf(() => evaluateUnsigned(set, x.subarray(1), offset))).toEqual(['INVALID_STORAGE', 'x']);
      expect(errorOf(() => evaluateUnsigned(set, x, offset + 1))).toEqual(['INVALID_STORAGE', 'x']);
      for (const o of [-1, 0.5, NaN, Symbol('o'), undefined]) {
        expect(errorOf(() => evaluateUnsigned(set, x, o as number))).toEqual(['INVALID_SIZE', 'offset']);
      }
      const i = at % n;
      for (const r of [set.moduli[i]!, -1, 0.5, NaN, '1' as unknown as number]) {
        const y: unknown[] = Array.from(x);
        y[offset + i] = r;
        expect(errorOf(() => evaluateUnsigned(set, y as number[], offset))).toEqual(['INVALID_VALUE', `x[${offset + i}]`]);
      }
    }), { numRuns: 40 });
  });

  it('evaluateUnsigned with valid residues at any offset encloses X/M', () => {
    fc.assert(fc.property(precision.chain((p) => fc.tuple(fc.constant(p), fc.bigInt({ min: 0n, max: rnsModuliSet(p).M - 1n }))),
      fc.nat({ max: 3 }), ([p, X], offset) => {
        const set = rnsModuliSet(p);
        const x = new Float64Array(offset + set.size).fill(0);
        set.moduli.forEach((m, i) => { x[offset + i] = Number(X % BigInt(m)); });
        evaluateUnsigned(set, x, offset);
        // lf·2^le ≤ X/M ≤ uf·2^ue, compared exactly: a double times a power of two is a dyadic rational
        const atMost = (f: number, e: number, num: bigint, den: bigint, lower: boolean): boolean => {
          const scaled = BigInt(Math.round(f * 2 ** 60)); // f has ≤ 53 bits, so f·2^60 is an integer
          const lhs = scaled * den, rhs = num << 60n;
          const [l, r] = e >= 0 ? [lhs << BigInt(e), rhs] : [lhs, rhs << BigInt(-e)];
          return lower ? l <= r : l >= r;
        };
        if (X === 0n) { expect(RNS_EVAL.uf).toBe(0); return; }
        expect(atMost(RNS_EVAL.lf, RNS_EVAL.le, X, set.M, true)).toBe(true);
        expect(atMost(RNS_EVAL.uf, RNS_EVAL.ue, X, set.M, false)).toBe(true);
      }), { numRuns: 60 });
  });
});
