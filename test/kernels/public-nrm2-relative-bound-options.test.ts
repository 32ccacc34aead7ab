/**
 * nrm2RelativeBound refuses what NRM2 refuses for an fp64-stored x: for random option objects — valid and invalid
 * `backend`, `strict`, `threads`, `arithmetic`, `accumulation` — it throws exactly nrm2's typed error (code and
 * parameter), and where nrm2 runs it returns a positive relative bound no larger than nrm2Bound of x = (1, 0, …, 0)
 * (‖x‖ = 1: the relative part plus the read and underflow terms). Regression: it
 * checked arithmetic and accumulation only (`threads`, `backend: 'gpu'` with fp64 arithmetic or an accumulation,
 * `strict: 'x'`, `backend: 'GPU'` were accepted), and an n that is a Symbol threw a TypeError, -1 or 1.5 gave numbers.
 *
 * `backend: 'gpu'`: nrm2 checks everything synchronously before handing the call to the GPU runner, stubbed here (as
 * in public-bound-options.test.ts), so the comparison is with the kernel's own validation on every machine.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { BOUND_OPTION_VALUES, outcome, sometimesInvalidOptions } from './option-arbitraries.js';
import { nrm2, nrm2Bound, nrm2RelativeBound, vector } from '../../src/index.js';

vi.mock('../../src/backends/webgpu-bridge/gpu-dispatch.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/backends/webgpu-bridge/gpu-dispatch.js')>();
  return { ...actual, nrm2OnGpu: (): Promise<never> => Promise.resolve({} as never) };
});

const optionsArb = sometimesInvalidOptions(BOUND_OPTION_VALUES);

describe('nrm2RelativeBound options', () => {
  it('throws exactly what nrm2 throws for an fp64-stored x, and bounds the call where nrm2 runs', () => {
    fc.assert(fc.property(optionsArb, fc.integer({ min: 1, max: 40 }), (options, n) => {
      const x = vector(Array.from({ length: n }, (_, i) => (i === 0 ? 1 : 0)));
      const kernel = outcome(() => nrm2(x, options as never));
      const relative = outcome(() => nrm2RelativeBound(n, options as never));
      if (!kernel.ok) { expect(relative).toEqual(kernel); return; }
      expect(relative.ok).toBe(true);
      const r = (relative as { value: number }).value;
      // ‖x‖ = 1: nrm2Bound is the relative part plus the read and underflow terms, and never below it
      expect(r).toBeLessThanOrEqual(nrm2Bound(x, options as never));
      expect(r).toBeGreaterThan(0);
    }), { numRuns: 300 });
  });

  it('n must be a non-negative integer: INVALID_SIZE naming n', () => {
    for (const n of [-1, 1.5, NaN, Infinity, Symbol('n'), 1n, '3', undefined, null]) {
      expect(outcome(() => nrm2RelativeBound(n as number))).toEqual({ ok: false, error: 'INVALID_SIZE n' });
    }
    expect(nrm2RelativeBound(0)).toBeGreaterThan(0);
  });
});
