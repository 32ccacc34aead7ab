/**
 * A raw double-double pair whose low part is ±∞ or NaN stands for hi + lo on the CPU backends, in every arithmetic
 * that reads dd storage (docs/double-double.md, "Special values"): DOT, NRM2, ASUM, SCAL, AXPY, GEMV N/T and TRSV give
 * with (1, NaN) in x, y or A what they give with NaN stored there. Regression: dd, f32 and ff arithmetic read (1, NaN)
 * as 1 (the dd kernels' special-value repair took the fp64 operation on the high parts alone, f32's round-to-odd read
 * stepped hi towards lo's "side", ff's read kept the head), and dd ASUM took |(1, −∞)| as −∞ (hi's sign), while fp64
 * arithmetic and the GPU gave NaN and ∞.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asum, dot, formats, range, rowMajor, vector, scal, toArray } from '../../src/index.js';
import { outcomes, rawPairCase } from './raw-pair-cases.js';

describe('a raw dd pair with a non-finite low part stands for hi + lo (CPU)', () => {
  it('regressions: (1, NaN) is NaN in dd, f32 and ff arithmetic; |(1, −∞)| is +∞', () => {
    const raw = (pairs: number[], arithmetic: object) => range(rowMajor<1, any>({ size: pairs.length / 2, storage: 'dd', arithmetic, data: Float64Array.from(pairs) } as never));
    for (const arithmetic of [formats.dd, formats.f32, formats.ff, formats.f64]) {
      expect([arithmetic.name, dot(raw([2, 0, 1, NaN], arithmetic), vector([1, 1]))]).toEqual([arithmetic.name, NaN]);
    }
    expect(asum(raw([2, 0, 1, -Infinity], formats.dd))).toBe(Infinity);
    const x = raw([1, NaN, 3, 0], formats.dd);
    scal(2, x);
    expect([...toArray(x)]).toEqual([NaN, 6]);
  });

  it('an ff result of ±∞ written to dd storage is (±∞, 0), not (±∞, NaN)', () => {
    const x = vector([Infinity, -3e38], { storage: formats.dd, arithmetic: formats.ff } as never);
    scal(2, x);
    expect(Array.from(x.accessor.data as Float64Array)).toEqual([Infinity, 0, -Infinity, 0]);
  });

  for (const arithmetic of ['f64', 'dd', 'f32', 'ff'] as const) {
    // WebAssembly refuses float-float arithmetic (a typed error): ff runs on the JavaScript kernels only.
    const backends = arithmetic === 'ff' ? ['js', 'cpu'] : ['js', 'cpu', 'wasm'];
    it(`${arithmetic} arithmetic, backends ${backends.join(', ')}: every kernel's outcome is the stored value's`, async () => {
      await fc.assert(fc.asyncProperty(rawPairCase(), async (c) => {
        for (const backend of backends) {
          const [raw, stored] = [await outcomes(c, arithmetic, { backend }, true), await outcomes(c, arithmetic, { backend }, false)];
          expect({ backend, ...raw }).toEqual({ backend, ...stored });
        }
      }), { numRuns: 60 });
    });
  }
});
