/**
 * The wide far update (`ddOverlapFarLanes`), the variants ./trsv-dd-overlap-far-lanes.test.ts leaves out (L N U, U T N;
 * the same far-update shaders as L N N and U T U, other inverses and redo): opt-in, MODPREC_SLOW_TESTS=1.
 * x within trsvBound (backend 'gpu', the same block size) of the exact rational solution (src/testing
 * exactTriangularSolve, ./trsv-dd-far-lanes-case.ts), for near/solve lanes W and far lanes F other than the default 16.
 */
import { afterEach, describe, it } from 'vitest';
import { setTrsvKernelSwitches, trsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { farLanesWithinBound } from './trsv-dd-far-lanes-case.js';

const initial = trsvKernelSwitches();
afterEach(() => {
  setTrsvKernelSwitches({ ddLanes: initial.ddLanes, ddOverlapLanes: initial.ddOverlapLanes, ddOverlapFarLanes: initial.ddOverlapFarLanes });
});

describe('double-double TRSV, overlapped lane solve with F far lanes a row (ddOverlapFarLanes)', () => {
  it.skipIf(process.env.MODPREC_SLOW_TESTS !== '1')('f64 storage, L N U (n = 150), W 16, F 64: within trsvBound', async () => {
    await farLanesWithinBound({ storage: 'f64', n: 150, variant: ['L', 'N', 'U'], W: 16, F: 64, blockSize: 64, A: 'packed', x: 'packed', seed: 23 });
  });

  it.skipIf(process.env.MODPREC_SLOW_TESTS !== '1')('dd storage, a row-major sub-range A, U T N (n = 140), W 64, F 256: within trsvBound', async () => {
    await farLanesWithinBound({ storage: 'dd', n: 140, variant: ['U', 'T', 'N'], W: 64, F: 256, blockSize: 64, A: 'sub', x: 'packed', seed: 29 });
  });
});
