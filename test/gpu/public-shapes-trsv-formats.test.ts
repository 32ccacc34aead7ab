/**
 * TRSV through the public API with `backend: 'gpu'`: storage × arithmetic and block sizes over n across the blocks —
 * float-float over f32 (x rounded to f32 between rows: the substitution) and f64 (block inverses), f32 over f16 and
 * bf16 x (substitution), `blockSize` 128 and 256 in f32 (the blocked, chained solve). Every variant and layout, each x̂ against the exact solution within
 * `trsvBound(args, { backend: 'gpu', … })`.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { formats } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { runTrsvCase, trsvCases } from './public-shapes-trsv-case.js';

describe('trsv, backend gpu: storage × arithmetic, block sizes', () => {
  it('float-float over f32 and f64 storage', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(trsvCases([1, 63, 65, 130]), fc.constantFrom(formats.f32, formats.f64), (c, s) =>
      runTrsvCase(c, s, formats.ff, { arithmetic: formats.ff })), { numRuns: 8 });
  });

  it('f32 arithmetic, A in f32/f16/bf16, x in f16 or bf16', async () => {
    await requireRuntime();
    const st = fc.constantFrom(formats.f32, formats.f16, formats.bf16);
    await fc.assert(fc.asyncProperty(trsvCases([2, 64, 65, 100]), st, fc.constantFrom(formats.f16, formats.bf16), (c, a, x) =>
      runTrsvCase(c, a, formats.f32, { arithmetic: formats.f32 }, x)), { numRuns: 12 });
  });

  it('blockSize 128 and 256 (f32)', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(trsvCases([127, 129, 255, 257, 300]), fc.constantFrom(128, 256), (c, blockSize) =>
      runTrsvCase(c, formats.f32, undefined, { blockSize })), { numRuns: 6 });
  });
});
