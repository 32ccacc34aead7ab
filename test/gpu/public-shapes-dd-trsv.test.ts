/**
 * TRSV in double-double on the GPU through the public API (dd ranges: dd arithmetic, 256-row blocks by default up to
 * 16384 rows, the lane solve): n across one block (256, 257), pairs of the solution checked against the exact
 * solution within `trsvBound(args, { backend: 'gpu' })`.
 */
import { describe, it } from 'vitest';
import { formats } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { runTrsvCase } from './public-shapes-trsv-case.js';

describe('trsv, backend gpu, double-double', () => {
  it('double-double over dd storage across its 256-row blocks', async () => {
    await requireRuntime();
    for (const [n, uplo, trans] of [[257, 'L', 'N'], [256, 'U', 'T']] as const) {
      await runTrsvCase({ n, uplo, trans, diag: 'N', layout: 'col', incX: 1, seed: n }, formats.dd, formats.dd);
    }
  });
});
