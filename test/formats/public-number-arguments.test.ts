/**
 * The exported number functions take numbers only: roundToF32/F16/Bf16, the f32/f16/bf16 bit encoders and decoders,
 * roundToInt8/16/32, roundToOddDd, nextUp, nextDown, ulp and gamma threw a TypeError for a Symbol or a BigInt ("Cannot
 * convert a Symbol value to a number", "Cannot mix BigInt and other types") and coerced a string ('1.5' rounded as
 * 1.5). Now INVALID_VALUE naming the parameter. denseLength threw for a Symbol and concatenated strings
 * (INVALID_SIZE / INVALID_STRIDE), checkBinaryFormatParameters threw for a Symbol name (INVALID_OPTION), and
 * new DdSplitArray(undefined) read `.hi` of undefined (INVALID_SIZE). Valid numbers give what they gave: the storage
 * codecs, which call the unchecked forms, agree with the checked functions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DdSplitArray, ModprecError, bf16BitsFromNumber, checkBinaryFormatParameters, denseLength, f16BitsFromNumber, f32FromBits,
  f32ToBits, formats, gamma, nextDown, nextUp, numberFromBf16Bits, numberFromF16Bits, roundToBf16, roundToF16,
  roundToF32, roundToInt16, roundToInt32, roundToInt8, roundToOddDd, ulp, vector,
} from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

type Call = (...args: unknown[]) => unknown;
/** [function, its parameter names]: every parameter must be a number. */
const NUMBER_FUNCTIONS: [Call, string[]][] = [
  [roundToF32 as Call, ['x']], [f32ToBits as Call, ['x']], [f32FromBits as Call, ['bits']],
  [roundToF16 as Call, ['x']], [f16BitsFromNumber as Call, ['x']], [numberFromF16Bits as Call, ['bits']],
  [roundToBf16 as Call, ['x']], [bf16BitsFromNumber as Call, ['x']], [numberFromBf16Bits as Call, ['bits']],
  [roundToInt8 as Call, ['x']], [roundToInt16 as Call, ['x']], [roundToInt32 as Call, ['x']],
  [roundToOddDd as Call, ['hi', 'lo']], [nextUp as Call, ['x']], [nextDown as Call, ['x']], [ulp as Call, ['x']],
];
const notANumber = fc.constantFrom<unknown>(Symbol('x'), 1n, '1.5', undefined, null, {}, [2], true);

describe('number functions: arguments that are not numbers', () => {
  it('every parameter that is not a number is INVALID_VALUE naming it', () => {
    fc.assert(fc.property(fc.constantFrom(...NUMBER_FUNCTIONS), fc.nat(), notANumber, fc.double(), ([f, names], at, bad, v) => {
      const i = at % names.length;
      const args: unknown[] = names.map(() => v);
      args[i] = bad;
      expect(errorOf(() => f(...args))).toEqual(['INVALID_VALUE', names[i]]);
    }));
  });

  it('gamma names a non-number n as a size and a non-number u as a value', () => {
    fc.assert(fc.property(notANumber, (bad) => {
      expect(errorOf(() => gamma(bad as number, 0.1))).toEqual(['INVALID_SIZE', 'n']);
      expect(errorOf(() => gamma(3, bad as number))).toEqual(['INVALID_VALUE', 'u']);
    }));
  });

  it('valid numbers: the checked codecs agree with the storages (which call the unchecked forms)', () => {
    fc.assert(fc.property(fc.array(fc.double(), { minLength: 1, maxLength: 8 }), (values) => {
      for (const [format, round] of [[formats.f16, roundToF16], [formats.bf16, roundToBf16], [formats.f32, roundToF32]] as const) {
        const x = vector(values, { storage: format, arithmetic: formats.f64 });
        values.forEach((v, k) => expect(Object.is(x.get(k), round(v))).toBe(true));
      }
      const h = vector(values, { storage: formats.f16, arithmetic: formats.f64 });
      values.forEach((v, k) => {
        const bits = f16BitsFromNumber(v);
        expect(numberFromF16Bits(bits)).toEqual(h.get(k));
        expect(numberFromBf16Bits(bf16BitsFromNumber(v))).toEqual(roundToBf16(v));
        expect(f32FromBits(f32ToBits(v))).toEqual(roundToF32(v));
        if (Number.isFinite(v)) expect(nextDown(nextUp(v))).toBe(v === 0 ? 0 : v);
      });
    }));
  });

  it('denseLength, checkBinaryFormatParameters and DdSplitArray name what they refuse', () => {
    fc.assert(fc.property(notANumber, fc.nat({ max: 9 }), fc.nat({ max: 9 }), (bad, rows, cols) => {
      const ld = Math.max(1, rows);
      expect(errorOf(() => denseLength(bad as number, cols, ld))).toEqual(['INVALID_SIZE', 'rows']);
      expect(errorOf(() => denseLength(rows, bad as number, ld))).toEqual(['INVALID_SIZE', 'cols']);
      expect(errorOf(() => denseLength(rows, cols, bad as number))).toEqual(['INVALID_STRIDE', 'ld']);
      expect(denseLength(rows, cols, ld)).toBe(rows === 0 || cols === 0 ? 0 : (cols - 1) * ld + rows);
    }));
    for (const bad of [Symbol('p'), undefined, 3]) {
      expect(errorOf(() => checkBinaryFormatParameters(bad as string, { significandBits: 10, minExponent: -14, maxExponent: 15 })))
        .toEqual(['INVALID_OPTION', 'parameter']);
    }
    for (const bad of [undefined, null, Symbol('n'), 'x', true]) {
      expect(errorOf(() => new DdSplitArray(bad as number))).toEqual(['INVALID_SIZE', 'length']);
    }
    expect(new DdSplitArray({ hi: new Float64Array(3), lo: new Float64Array(3) }).length).toBe(3);
  });
});
