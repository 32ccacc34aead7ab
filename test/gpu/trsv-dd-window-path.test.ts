/**
 * The `ddTrsvWindow` switch takes its path (kernels/trsv/trsv-window-update-source.ts): a system whose far update sums,
 * in one lane, 1·1 + 2^-57·2^-57 − 1·1 = 2^-114. The window (units of at most 2^-116 of its largest term) holds that sum
 * exactly; the fused multiply-adds round 1 + 2^-114 to 1 (112 bits) and give 0. So x_128 = −2^-114 (the exact solution)
 * with the switch and 0 without: each test fails if the solve runs the other path.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setTrsvKernelSwitches, trsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { solveSparse } from './trsv-dd-window-case.js';

const initial = trsvKernelSwitches();
afterEach(() => {
  setTrsvKernelSwitches(initial);
});

/**
 * L N N, n = 150 in 64-row blocks, unit pivots: x_j = b_j in block 0 (b_0 = 1, b_16 = 2^-57, b_32 = 1), and row 128
 * (block 2) gets block 0's update from the far update, whose 16 lanes a row put columns 0, 16, 32 in lane 0.
 */
async function row128(storage: 'dd' | 'f64', window: boolean): Promise<number> {
  const x = await solveSparse(storage, window, [[128, 0, 1], [128, 16, 2 ** -57], [128, 32, -1]], [[0, 1], [16, 2 ** -57], [32, 1]], 16);
  expect([x[0], x[16], x[32]]).toEqual([1, 2 ** -57, 1]);
  return x[128]!;
}

describe('double-double TRSV, update terms in GEMV\'s window (ddTrsvWindow): the switch takes its path', () => {
  it('dd storage, window: the lane sum 1 + 2^-114 − 1 is exact, x_128 = −2^-114', async () => {
    expect(await row128('dd', true)).toBe(-(2 ** -114));
  });

  it('dd storage, fused multiply-adds (the switch off): the same sum rounds 1 + 2^-114 to 1, x_128 = 0', async () => {
    expect(await row128('dd', false)).toBe(0);
  });

  it('f64 storage, window: x_128 = −2^-114', async () => {
    expect(await row128('f64', true)).toBe(-(2 ** -114));
  });
});
