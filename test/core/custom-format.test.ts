/**
 * The worked example of docs/guide.md §4: a user-defined E5M2 fp8 storage format, built from the public API,
 * passes the storage laws of modprec/testing and runs through the kernels.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  typedArrayStorage, registerFormat, createBinaryRounder, f16BitsFromNumber, numberFromF16Bits,
  range, rowMajor, dot, asum,
} from '../../src/index.js';
import { checkStorageConversionLaws, exactDot, roundRationalToDouble } from '../../src/testing/index.js';

const roundE5M2 = createBinaryRounder({ significandBits: 3, minExponent: -14, maxExponent: 15 });
const encodeE5M2 = (x: number) => f16BitsFromNumber(roundE5M2(x)) >>> 8;
const decodeE5M2 = (bits: number) => numberFromF16Bits(bits << 8);
const e5m2Storage = typedArrayStorage<Uint8Array>({
  name: 'e5m2', array: Uint8Array, significandBits: 3, unitRoundoff: 2 ** -3, isInteger: false, maxValue: 57344,
  encodeHelper: { name: 'e5m2Encode', fn: encodeE5M2 },
  decodeHelper: { name: 'e5m2Decode', fn: decodeE5M2 },
});
const e5m2 = registerFormat({ name: 'e5m2', storage: e5m2Storage });

describe('a user-defined E5M2 storage format (docs/guide.md §4)', () => {
  it('satisfies every storage conversion law against the exact oracle', () => {
    checkStorageConversionLaws(
      { name: 'e5m2', significandBits: 3, minExponent: -14, maxExponent: 15, round: (x) => decodeE5M2(encodeE5M2(x)) },
      { numRuns: 300 },
    );
  });

  it('is caught by the laws when its encoder truncates instead of rounding', () => {
    const truncating = (x: number) => numberFromF16Bits(f16BitsFromNumber(x) & 0xff00);
    expect(() => checkStorageConversionLaws(
      { name: 'e5m2-truncating', significandBits: 3, minExponent: -14, maxExponent: 15, round: truncating },
      { numRuns: 300 },
    )).toThrow(/law/);
  });

  it('runs through DOT in fp32 arithmetic within γ_n of the exact dot of the stored values', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { maxLength: 64 }), (values) => {
      const n = values.length;
      const x = range(rowMajor<1>({ size: [n], storage: e5m2, arithmetic: 'f32' }));
      values.forEach((v, i) => x.set(i, v));
      const stored = values.map((_, i) => x.get(i));
      stored.forEach((v, i) => expect(v).toBe(decodeE5M2(encodeE5M2(values[i]!))));
      const exact = roundRationalToDouble(exactDot(stored, stored));
      const u = 2 ** -24;
      const gamma = (n * u) / (1 - n * u);
      const absSum = stored.reduce((s, v) => s + v * v, 0);
      expect(Math.abs(dot(x, x) - exact)).toBeLessThanOrEqual(gamma * absSum * (1 + 1e-12) + 1e-300);
      expect(asum(x)).toBeCloseTo(stored.reduce((s, v) => s + Math.abs(v), 0), 0);
    }), { numRuns: 200 });
  });

  it('registers under its name and refuses a different codec under the same name', () => {
    expect(e5m2.storage).toBe(e5m2Storage);
    expect(() => registerFormat({ name: 'e5m2', storage: { ...e5m2Storage } })).toThrow(/must not redefine/);
  });
});
