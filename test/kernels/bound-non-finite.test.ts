/**
 * One rule for non-finite values in every bound function: a NaN or ±∞ among the values a result depends on makes
 * that result's bound +∞ (never NaN, never a finite number), in every arithmetic.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  asumBound, axpyBound, dotBound, ellSpmvBound, formats, gemvBound, matrix, nrm2Bound, scalBound, trsvBound, vector,
  waxpbyBound,
} from '../../src/index.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import type { FormatLike } from '../../src/formats/common/registry.js';

const arithmetics: [string, FormatLike][] = [['f64', formats.f64], ['f32', formats.f32], ['dd', formats.dd]];
const nonFinite = fc.constantFrom(NaN, Infinity, -Infinity);
/** A length, a position in it and a non-finite value to put there. */
const placed = fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n - 1 }), nonFinite));
const ones = (n: number, at = -1, v = 0): number[] => Array.from({ length: n }, (_, i) => (i === at ? v : 1 + i / 8));

describe.each(arithmetics)('bounds with a NaN or ±∞ operand in %s arithmetic are +∞', (_name, arithmetic) => {
  const options = { arithmetic };

  it('DOT, ASUM, NRM2', () => {
    fc.assert(fc.property(placed, ([n, k, v]) => {
      const x = vector(ones(n, k, v)), y = vector(ones(n));
      expect(dotBound(x, y, options)).toBe(Infinity);
      expect(dotBound(y, x, options)).toBe(Infinity);
      expect(asumBound(x, options)).toBe(Infinity);
      expect(nrm2Bound(x, options)).toBe(Infinity);
    }));
  });

  it('AXPY, WAXPBY, SCAL: the component that reads it', () => {
    fc.assert(fc.property(placed, ([n, k, v]) => {
      const x = vector(ones(n, k, v)), y = vector(ones(n)), w = vector(n);
      expect(axpyBound(1.5, x, y, options)[k]).toBe(Infinity);
      expect(axpyBound(1.5, y, x, options)[k]).toBe(Infinity);
      expect(waxpbyBound(1, x, -1, y, w, options)[k]).toBe(Infinity);
      expect(scalBound(3, x, options)[k]).toBe(Infinity);
    }));
  });

  it('GEMV: a non-finite entry of A, x or y makes the rows that read it +∞', () => {
    fc.assert(fc.property(placed, fc.constantFrom('A', 'x', 'y'), ([n, k, v], where) => {
      const A = matrix(n, n, (i, j) => (where === 'A' && i === k && j === 0 ? v : 1 / (1 + i + j)));
      const x = vector(where === 'x' ? ones(n, 0, v) : ones(n));
      const y = vector(where === 'y' ? ones(n, k, v) : ones(n));
      const bound = gemvBound({ alpha: 1, A, x, beta: 1, y }, options);
      if (where === 'x') bound.forEach((b) => expect(b).toBe(Infinity));
      else expect(bound[k]).toBe(Infinity);
      bound.forEach((b) => expect(Number.isNaN(b)).toBe(false));
    }));
  });

  it('ELL SpMV: a row holding a non-finite stored value is +∞', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 6 }), nonFinite, (n, v) => {
      const A = laplacianEll([n]);
      A.values[0] = v; // row 0's first slot
      const bound = ellSpmvBound({ alpha: 1, A, x: vector(ones(n)), beta: 0, y: vector(n) }, options);
      expect(bound[0]).toBe(Infinity);
      bound.forEach((b) => expect(Number.isNaN(b)).toBe(false));
    }));
  });

  it('TRSV: a non-finite solution component or matrix entry makes its bound +∞', () => {
    fc.assert(fc.property(placed, fc.boolean(), ([n, k, v], inMatrix) => {
      const U = matrix(n, n, (i, j) => (j < i ? 0 : inMatrix && i === k && j === k ? v : 1 + (i === j ? n : 0)));
      const x = vector(inMatrix ? ones(n) : ones(n, k, v));
      const bound = trsvBound({ A: U, x, uplo: 'U' }, options);
      expect(bound[k]).toBe(Infinity);
      bound.forEach((b) => expect(Number.isNaN(b)).toBe(false));
    }));
  });
});
