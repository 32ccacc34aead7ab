/**
 * The wide far update (`ddOverlapFarLanes`) on views: a row-major sub-range A, an x of stride −2, a last block of one row;
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
  it('dd storage, a row-major sub-range A and x of stride −2, L T U (n = 130), W 256, F 32: within trsvBound', async () => {
    await farLanesWithinBound({ storage: 'dd', n: 130, variant: ['L', 'T', 'U'], W: 256, F: 32, blockSize: 64, A: 'sub', x: 'strided', seed: 17 });
  });

  it('f64 storage, x of stride −2, U N N (n = 129: a block of one row), W 64, F 128: within trsvBound', async () => {
    await farLanesWithinBound({ storage: 'f64', n: 129, variant: ['U', 'N', 'N'], W: 64, F: 128, blockSize: 64, A: 'packed', x: 'strided', seed: 19 });
  });
});
