/**
 * The exported bound terms readRoundings, writeRelativeError and writeAbsoluteError name an argument that is not a
 * range (r), an arithmetic format (ar) or an index list: undefined crashed them with TypeErrors reading `.accessor`.
 * On valid ranges they still give the documented terms (the examples' values, and 0 for a storage that holds the
 * arithmetic exactly).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ModprecError, asArithmetic, formats, range, readRoundings, scaledReducedRowMajor, vector, writeAbsoluteError, writeRelativeError,
} from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

describe('bound terms arguments', () => {
  it('r, ar and index that are not what they document are typed errors naming them', () => {
    const x = vector([1, 2]);
    const f64 = asArithmetic(formats.f64);
    fc.assert(fc.property(fc.constantFrom<unknown>(undefined, null, 3, 'x', {}, [1, 2]), (bad) => {
      expect(errorOf(() => readRoundings(bad as never, f64))).toEqual(['INVALID_OPTION', 'r']);
      expect(errorOf(() => writeRelativeError(bad as never, f64))).toEqual(['INVALID_OPTION', 'r']);
      expect(errorOf(() => writeAbsoluteError(bad as never, [0]))).toEqual(['INVALID_OPTION', 'r']);
      if (!Array.isArray(bad)) {
        expect(errorOf(() => readRoundings(x, bad as never))).toEqual(['INVALID_FORMAT', 'ar']);
        expect(errorOf(() => writeRelativeError(x, bad as never))).toEqual(['INVALID_FORMAT', 'ar']);
        expect(errorOf(() => writeAbsoluteError(x, bad as never))).toEqual(['INDEX_OUT_OF_RANGE', 'index']);
      }
    }), { numRuns: 20 });
  });

  it('valid ranges: the documented terms', () => {
    const x = vector([1, 2]);
    expect([readRoundings(x, asArithmetic(formats.f32)), readRoundings(x, asArithmetic(formats.f64))]).toEqual([1, 0]);
    expect(writeRelativeError(vector([1], { storage: formats.f16 }), asArithmetic(formats.f64))).toBe(2 ** -11);
    expect(writeRelativeError(x, asArithmetic(formats.f32))).toBe(0);
    const y = range(scaledReducedRowMajor<1>({ size: [2], storage: formats.i8, arithmetic: formats.f64, scaleMask: [true] }));
    y.writeScale(1, 0.25);
    expect([writeAbsoluteError(y, [1]), writeAbsoluteError(x, [0])]).toEqual([0.125, 0]);
  });
});
