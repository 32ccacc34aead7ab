/**
 * The same bad option is the same typed error on every backend — 'cpu', 'js', 'wasm' and 'gpu' (llvmpipe) — with
 * the same code and parameter, raised before anything is written. Regression: AXPY, WAXPBY and SCAL ignored
 * `accumulation` on the CPU (`axpy(2, x, y, { accumulation: 'bogus' })` ran) while `backend: 'gpu'` refused it
 * (INVALID_OPTION); a `strict` that is not a boolean was refused by 'gpu' and ignored by the CPU backends.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { formats } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { KERNEL_CALLS as kernels, kernelOperands as operands, outcome, rangeBits, type KernelOperands as Operands } from '../kernels/kernel-calls.js';

const badOptions = fc.constantFrom<Record<string, unknown>>(
  { accumulation: 'bogus' }, { accumulation: 17 }, { arithmetic: 'bogus' }, { arithmetic: 3 }, { arithmetic: formats.i8 },
  { backend: 'GPU' }, { accumulation: 'bogus', arithmetic: 'bogus' }, { strict: 'yes' }, { strict: 1 },
);

const bits = (o: Operands): string => rangeBits([o.x, o.y, o.w]);

describe('a bad option is one error on every backend', () => {
  it.each(kernels)('%s', async (_, kernel) => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(badOptions, async (bad) => {
      const seen = new Set<string>();
      for (const backend of [undefined, 'cpu', 'js', 'wasm', 'gpu']) {
        const o = operands();
        const before = bits(o);
        const options = backend === undefined || bad.backend !== undefined ? bad : { ...bad, backend };
        const result = await outcome(() => kernel(o, options));
        expect(result).not.toBe('ran');
        expect(bits(o)).toBe(before);
        seen.add(result);
      }
      expect([...seen]).toHaveLength(1);
    }), { numRuns: 9 });
  });
});
