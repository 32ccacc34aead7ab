/**
 * TRSV through the public API with `backend: 'gpu'` and default options (f32 ranges: f32 arithmetic, 64-row blocks),
 * all 8 variants (uplo × trans × diag), n across the block size (1, 2, 63, 64, 65, 127, 129, 200), column-major
 * with lda > n, row-major and sub-range matrices, x strided with an offset among sentinels. The triangle the solve
 * does not reference — and the diagonal of a unit solve — holds NaN (BLAS: not referenced). Diagonals are powers of
 * two, so the exact solution is dyadic; x̂ is checked against it within `trsvBound(args, { backend: 'gpu' })`.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { formats } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { runTrsvCase, trsvCases } from './public-shapes-trsv-case.js';

describe('trsv, backend gpu, default options (f32): n across the 64-row blocks', () => {
  it('all 8 variants, every layout', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(trsvCases([1, 2, 63, 64, 65, 127, 129, 200]), (c) => runTrsvCase(c, formats.f32, undefined)), { numRuns: 30 });
  });

  it('each variant once at n = 129 (three blocks, the last one row)', async () => {
    await requireRuntime();
    for (const uplo of ['L', 'U'] as const) for (const trans of ['N', 'T'] as const) for (const diag of ['N', 'U'] as const) {
      await runTrsvCase({ n: 129, uplo, trans, diag, layout: 'col', incX: 1, seed: 11 }, formats.f32, undefined);
    }
  });
});
