/**
 * The overlapped lane-split TRSV with a wider far update (`ddOverlapFarLanes`, kernels/trsv/trsv-lanes-overlap-source.ts):
 * x within trsvBound (backend 'gpu', the same block size) of the exact rational solution (src/testing
 * exactTriangularSolve, ./trsv-dd-far-lanes-case.ts), for near/solve lanes W and far lanes F (16 keeps the lane
 * update's layout; 32 is the default since session 21).
 * This file and ./trsv-dd-overlap-far-lanes-views.test.ts hold the four layouts the far update's shader depends on
 * (op(A) lower or upper, A or Aᵀ) with both diagonals, dd and f64 storage, n across block boundaries; the other four
 * variants are opt-in (./trsv-dd-overlap-far-lanes-slow.test.ts, …-slow2): each GPU case compiles its own shaders,
 * ≈ 13 s of CPU on llvmpipe, so two a file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setTrsvKernelSwitches, trsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { farLanesWithinBound } from './trsv-dd-far-lanes-case.js';

const initial = trsvKernelSwitches();
afterEach(() => {
  setTrsvKernelSwitches({ ddLanes: initial.ddLanes, ddOverlapLanes: initial.ddOverlapLanes, ddOverlapFarLanes: initial.ddOverlapFarLanes });
});

describe('double-double TRSV, overlapped lane solve with F far lanes a row (ddOverlapFarLanes)', () => {
  it('dd storage, L N N (n = 150: 64-row blocks 64, 64, 22), W 64, F 64: within trsvBound of the exact solution', async () => {
    await farLanesWithinBound({ storage: 'dd', n: 150, variant: ['L', 'N', 'N'], W: 64, F: 64, blockSize: 64, A: 'packed', x: 'packed', seed: 11 });
  });

  it('f64 storage, U T U (n = 200: 128-row blocks 128, 72), W 16, F 256: within trsvBound', async () => {
    await farLanesWithinBound({ storage: 'f64', n: 200, variant: ['U', 'T', 'U'], W: 16, F: 256, blockSize: 128, A: 'packed', x: 'packed', seed: 13 });
  });

  it('an unsupported far lane count is INVALID_OPTION naming ddOverlapFarLanes, and changes nothing', () => {
    for (const F of [0, 8, 48, 512]) {
      expect(() => setTrsvKernelSwitches({ ddOverlapFarLanes: F })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'ddOverlapFarLanes' }));
    }
    expect(trsvKernelSwitches().ddOverlapFarLanes).toBe(initial.ddOverlapFarLanes);
  });
});
