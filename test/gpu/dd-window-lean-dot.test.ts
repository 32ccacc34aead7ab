/**
 * DOT's lean windowed dd multiply-adds (ddGpuArithmeticWindowLeanOf(K), src/formats/dd/dd-gpu-window-lean-wgsl.ts)
 * against the exact BigInt oracle, on llvmpipe: the properties of dd-window-dot-cases.ts for the lean term form
 * (genuine double-doubles over a wide exponent range, every alignment of lo against the signed limbs, zeros, subnormal
 * and unnormalised pairs, ill-conditioned DOTs to cond 1e30, f64 and mixed operands, runs of maximal significands —
 * every finite result within γ_{2n}(2^-110)·Σ|x_i·y_i| and the CPU dd dotBound; ±∞ and NaN as the unfused
 * multiply-adds), windows of 2 terms in DOT steps of two terms (4 and 8: `MODPREC_SLOW_TESTS=1`); and its own: an
 * exact cancellation gives +0, as the unfused multiply-adds do.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { ddGpuArithmeticWindowLeanOf } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { describeWindowedDot } from './dd-window-dot-cases.js';

describeWindowedDot({ title: 'lean windowed dd DOT on the GPU', name: (terms) => `dd-lean${terms}`, gpu: (terms) => ddGpuArithmeticWindowLeanOf(terms), windowsOfOne: false }, ({ windowed, unfused, pairs, dotOf }) => {
  it('exact cancellation (x_i·y_i then −x_i·y_i): +0, as the unfused multiply-adds and fp64 give, with lo of either sign', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(pairs, pairs), { minLength: 1, maxLength: 12 }), async (terms) => {
      // Pairs of adjacent terms: one window (two terms a step) holds a product and its negation.
      const xs = terms.flatMap(([x]) => [x, { hi: -x.hi, lo: -x.lo }]);
      const ys = terms.flatMap(([, y]) => [y, y]);
      const got = await dotOf(xs, ys, windowed);
      const before = await dotOf(xs, ys, unfused);
      if (Number.isNaN(before)) expect(got).toBeNaN();
      else expect(Object.is(got, before) && Object.is(got, 0), `got ${got}, unfused ${before}`).toBe(true);
    }), { numRuns: 12 });
  });
});
