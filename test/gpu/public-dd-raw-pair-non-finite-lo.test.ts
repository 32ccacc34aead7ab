/**
 * A raw double-double pair whose low part is ±∞ or NaN stands for hi + lo on the GPU as on the CPU
 * (test/dd/public-raw-pair-non-finite-lo.test.ts): DOT, NRM2, ASUM, SCAL, AXPY, GEMV N/T and TRSV in dd arithmetic on
 * dd and dd-split storage give with the raw pair in x, y or A what they give with (hi + lo, 0) stored there, and
 * what the CPU gives.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { outcomes, rawPairCase } from '../dd/raw-pair-cases.js';
import { requireRuntime } from './gpu-test-helpers.js';

describe('a raw dd pair with a non-finite low part stands for hi + lo (GPU)', () => {
  it('dd arithmetic: every kernel\'s outcome is the stored value\'s, and the CPU\'s', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(rawPairCase(), async (c) => {
      const gpu = { backend: 'gpu', strict: true };
      const [raw, stored, cpu] = [await outcomes(c, 'dd', gpu, true), await outcomes(c, 'dd', gpu, false), await outcomes(c, 'dd', { backend: 'js' }, true)];
      expect(raw).toEqual(stored);
      expect(raw).toEqual(cpu);
    }), { numRuns: 8 });
  });
});
