/**
 * The wide far update (`ddOverlapFarLanes`), the variants L T N and U N U (the same far-update shaders as L T U and U N N,
 * other inverses and redo): opt-in, MODPREC_SLOW_TESTS=1.
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
  it.skipIf(process.env.MODPREC_SLOW_TESTS !== '1')('dd storage, x of stride −2, L T N (n = 200: 128-row blocks 128, 72), W 32, F 64: within trsvBound', async () => {
    await farLanesWithinBound({ storage: 'dd', n: 200, variant: ['L', 'T', 'N'], W: 32, F: 64, blockSize: 128, A: 'packed', x: 'strided', seed: 31 });
  });

  it.skipIf(process.env.MODPREC_SLOW_TESTS !== '1')('f64 storage, a row-major sub-range A, U N U (n = 130), W 128, F 32: within trsvBound', async () => {
    await farLanesWithinBound({ storage: 'f64', n: 130, variant: ['U', 'N', 'U'], W: 128, F: 32, blockSize: 64, A: 'sub', x: 'packed', seed: 37 });
  });
});
