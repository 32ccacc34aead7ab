/**
 * Double-double TRSV with the update terms in GEMV's window (`ddTrsvWindow`, kernels/trsv/trsv-window-update-source.ts):
 * fast-check systems, well and ill conditioned, across blocks (n above the block size: the far update runs from the
 * third block on), x within trsvBound (backend 'gpu', the same block size) of the exact rational solution
 * (./trsv-dd-window-case.ts). One variant a test (each compiles its own shaders on llvmpipe); L N N and U T U here hold
 * the four layouts the update shaders depend on, op(A) lower or upper × A or Aᵀ, with both diagonals; the other six
 * variants are in ./trsv-dd-window-slow.test.ts (opt-in).
 */
import fc from 'fast-check';
import { afterEach, describe, it } from 'vitest';
import { setTrsvKernelSwitches, trsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { windowWithinBound } from './trsv-dd-window-case.js';

const initial = trsvKernelSwitches();
afterEach(() => {
  setTrsvKernelSwitches(initial);
});

describe('double-double TRSV, update terms in GEMV\'s window (ddTrsvWindow): within trsvBound of the exact solution', () => {
  it('dd storage, L N N, well and ill conditioned, n across 64-row blocks, default lanes (W 64, F 32)', async () => {
    await fc.assert(fc.asyncProperty(fc.record({
      n: fc.constantFrom(130, 150, 193),
      conditioning: fc.constantFrom<'well' | 'ill'>('well', 'ill'),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    }), async (c) => {
      await windowWithinBound({ ...c, storage: 'dd', uplo: 'L', trans: 'N', diag: 'N', layout: 'col', incX: 1, blockSize: 64, W: 64, F: 32 });
    }), { numRuns: 3 });
  });

  it('f64 storage, U T U, well and ill conditioned, 64-row blocks, W 16, F 16 (n_c = 4 terms a lane)', async () => {
    await fc.assert(fc.asyncProperty(fc.record({
      n: fc.constantFrom(129, 160),
      conditioning: fc.constantFrom<'well' | 'ill'>('well', 'ill'),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    }), async (c) => {
      await windowWithinBound({ ...c, storage: 'f64', uplo: 'U', trans: 'T', diag: 'U', layout: 'col', incX: 1, blockSize: 64, W: 16, F: 16 });
    }), { numRuns: 3 });
  });
});
