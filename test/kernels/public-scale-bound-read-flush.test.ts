/**
 * y := β·y through GEMV with α = 0 and through ELL SpMV with no entries (width 0) — both bounded by scaleBound
 * (kernels/gemv/update-bound.ts) — in float-float arithmetic, which reads a value below 2^-126 as ±0 (it flushes as
 * the GPU does). The bound counted that read's underflow with η (2^-150) instead of the read's η, 2^-126, as the
 * general update bound (updateBound: yReadUnderflow) and SCAL's bound do: for y = −1.5·2^-149 and β = −1 the kernel
 * stores 0, an error of 1.5·2^-149 = 2.1019476964874714e-45, and the bound was 2.101947696487471e-45 — one ulp short.
 * (Fix, for the lead: scaleBound's `readUnderflow` takes `readEta` from arithmeticLimits, not `eta`.)
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellOperand, ellSpmv, ellSpmvBound, formats, gemv, gemvBound, matrix, range, rowMajor, vector } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, mulRational, subRational } from '../../src/testing/rational.js';

const within = (computed: number, beta: number, y: number, bound: number): boolean =>
  compareRational(absRational(subRational(exactOf(computed), mulRational(exactOf(beta), exactOf(y)))), exactOf(bound)) <= 0;

/** Doubles below binary32's normal range (down to its subnormals and below), either sign. */
const tiny = fc.tuple(fc.integer({ min: 1, max: 2 ** 20 }), fc.integer({ min: -175, max: -127 }), fc.boolean())
  .map(([m, e, s]) => (s ? -1 : 1) * m * 2 ** (e - 20));
const beta = fc.constantFrom(-1, 0.5, 3, -0.75);

describe('y := β·y bounds cover a read that flushes below 2^-126 (float-float)', () => {
  it('GEMV with α = 0 and ELL SpMV of width 0', () => {
    const cases: [number, number][] = [[-2.1019476964874714e-45, -1]];
    fc.assert(fc.property(fc.array(fc.tuple(tiny, beta), { minLength: 1, maxLength: 20 }), (more) => {
      for (const [v, b] of [...cases, ...more]) {
        for (const arithmetic of ['ff', 'f32'] as const) {
          const y = vector([v]);
          const g = { alpha: 0, A: matrix(1, 1, () => 3), x: vector([1]), beta: b, y };
          const gb = gemvBound(g, { arithmetic });
          gemv(g, { arithmetic });
          expect(within(y.get(0), b, v, gb[0]!), `gemv α = 0, β = ${b}, y = ${v}, ${arithmetic}: ${y.get(0)} ± ${gb[0]}`).toBe(true);

          const z = vector([v]);
          const A = ellOperand({ rows: 1, cols: 1, width: 0, stride: 1, colIndex: new Int32Array(0) }, range(rowMajor({ size: [1, 0], arithmetic: formats.f64 })));
          const e = { alpha: 0.5, A, x: vector([1]), beta: b, y: z };
          const eb = ellSpmvBound(e, { arithmetic });
          ellSpmv(e, { arithmetic });
          expect(within(z.get(0), b, v, eb[0]!), `ell width 0, β = ${b}, y = ${v}, ${arithmetic}: ${z.get(0)} ± ${eb[0]}`).toBe(true);
        }
      }
    }), { numRuns: 50 });
  });
});
