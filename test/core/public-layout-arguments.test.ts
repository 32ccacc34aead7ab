/**
 * Arguments of the accessor factories and range helpers that are not what they document are typed errors naming them,
 * not TypeErrors: an options argument that is not an object (rowMajor(undefined) and every other factory crashed on
 * `opts.size`), a stride that is neither a number nor a list (`stride: null` crashed; a string was split into its
 * characters), strided's `strides` that is not an array, fitScales' accessor and values, toArray of a non-range, and
 * nrm2RelativeBound's options. Valid strides, negative ones included, still view the values the oracle places.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ModprecError, blockColMajor, colMajor, fitScales, nrm2RelativeBound, range, reducedColMajor, reducedRowMajor, rowMajor,
  scaledReducedColMajor, scaledReducedRowMajor, strided, toArray, vector, formats,
} from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

const notAnObject = fc.constantFrom<unknown>(undefined, null, 3, 'size', true, Symbol('s'));

describe('accessor factories and range helpers refuse what they do not document', () => {
  it('opts that is not an object: INVALID_OPTION naming opts, for every factory', () => {
    const factories = [rowMajor, colMajor, reducedRowMajor, reducedColMajor, blockColMajor, strided, scaledReducedRowMajor, scaledReducedColMajor] as ((o: unknown) => unknown)[];
    fc.assert(fc.property(notAnObject, (bad) => {
      for (const f of factories) expect(errorOf(() => f(bad))).toEqual(['INVALID_OPTION', 'opts']);
    }), { numRuns: 20 });
  });

  it('a stride that is not a number or a list of numbers: INVALID_STRIDE', () => {
    for (const stride of [null, 'ab', '2', {}, true]) {
      expect(errorOf(() => rowMajor({ size: [2], stride: stride as never }))).toEqual(['INVALID_STRIDE', 'stride']);
      expect(errorOf(() => colMajor({ size: [2, 2], stride: stride as never }))).toEqual(['INVALID_STRIDE', 'stride']);
      expect(errorOf(() => vector([1, 2], { stride: stride as never }))).toEqual(['INVALID_STRIDE', 'stride']);
      expect(errorOf(() => strided({ size: [2], strides: stride as never }))).toEqual(['INVALID_STRIDE', 'strides']);
    }
  });

  it('fitScales, toArray and nrm2RelativeBound check their arguments', () => {
    const A = scaledReducedRowMajor({ size: [2], storage: formats.i8, arithmetic: formats.f64, scaleMask: [true] });
    expect(errorOf(() => fitScales(undefined as never, () => 1))).toEqual(['INVALID_STORAGE', 'accessor']);
    expect(errorOf(() => fitScales(A, 3 as never))).toEqual(['INVALID_OPTION', 'values']);
    for (const bad of [undefined, null, 5, {}, { accessor: null }, [1, 2]]) expect(errorOf(() => toArray(bad as never))).toEqual(['INVALID_OPTION', 'r']);
    for (const bad of [null, 5, 'f32']) expect(errorOf(() => nrm2RelativeBound(3, bad as never))).toEqual(['INVALID_OPTION', 'options']);
  });

  it('valid strides (negative, list or typed array) view the values the oracle places', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 3 }), fc.boolean(), fc.boolean(), (n, step, backwards, typed) => {
      const inc = backwards ? -step : step;
      const data = Float64Array.from({ length: Math.max(0, (n - 1) * step + 1) }, (_, k) => k + 0.5);
      const given = typed ? Int32Array.of(inc) : [inc];
      const x = range(rowMajor<1>({ size: [n], stride: given as never, data }));
      // BLAS's incX: a negative increment starts at the far end
      const oracle = Array.from({ length: n }, (_, i) => data[backwards ? (n - 1 - i) * step : i * step]!);
      expect(Array.from(toArray(x))).toEqual(oracle);
    }), { numRuns: 100 });
  });
});
