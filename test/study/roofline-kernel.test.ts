/**
 * The roofline loops compute what they claim: k multiply-adds v ← v·a + b per element, in the stated
 * arithmetic, every element of every chain written once — checked against a scalar loop.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { accessorRooflineLoop, plainRooflineLoop, ROOFLINE_A, ROOFLINE_B, ROOFLINE_CHAINS } from '../../app/study/roofline-kernel.js';
import { vector, toArray, formats } from '../../src/index.js';
import { ModprecError } from '../../src/core/errors.js';

const iterate = (v: number, k: number, round: (x: number) => number): number => {
  for (let r = 0; r < k; r++) v = round(round(v * ROOFLINE_A) + ROOFLINE_B);
  return v;
};
const id = (x: number): number => x;
const values = (n: number) => fc.float64Array({ minLength: n, maxLength: n, noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });

describe('roofline loops', () => {
  it('plain fp64 and fp32 loops match the scalar iteration in their arithmetic', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).chain((q) => values(q * ROOFLINE_CHAINS)), fc.integer({ min: 1, max: 9 }), (x, k) => {
      const y64 = new Float64Array(x.length);
      plainRooflineLoop('f64', k, x, y64)();
      expect([...y64]).toEqual([...x].map((v) => iterate(v, k, id)));
      const x32 = Float32Array.from(x);
      const y32 = new Float32Array(x.length);
      plainRooflineLoop('f32', k, x32, y32)();
      expect([...y32]).toEqual([...x32].map((v) => iterate(v, k, Math.fround)));
    }), { numRuns: 100 });
  });

  it('the accessor loop reads the storage, computes in the arithmetic, writes rounded to the storage', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).chain((q) => values(q * ROOFLINE_CHAINS)), fc.integer({ min: 1, max: 9 }), (x, k) => {
      const opts = { storage: formats.f32, arithmetic: formats.f64 };
      const xr = vector(x, opts);
      const yr = vector(x.length, opts);
      accessorRooflineLoop(k, xr, yr, formats.f64.arithmetic!)();
      // fp32 storage read exactly into fp64, k fp64 multiply-adds, one rounding to fp32 on the write.
      expect([...toArray(yr)]).toEqual([...x].map((v) => Math.fround(iterate(Math.fround(v), k, id))));
    }), { numRuns: 100 });
  });

  it('refuses lengths that are not a multiple of the chains and non-positive intensities', () => {
    expect(() => plainRooflineLoop('f64', 1, new Float64Array(6), new Float64Array(6))).toThrow(ModprecError);
    expect(() => plainRooflineLoop('f64', 0, new Float64Array(8), new Float64Array(8))).toThrow(ModprecError);
  });
});
