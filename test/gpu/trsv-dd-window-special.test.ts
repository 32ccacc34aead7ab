/**
 * `ddTrsvWindow` (kernels/trsv/trsv-window-update-source.ts) with special values where its window terms fall back to the
 * register's multiply-add: NaN and ±∞ entries, an infinite right-hand side, 0·∞ in an update, a zero pivot — x has the
 * default path's words (both leave some x non-finite and take the substitution redo, the CPU's ±∞ and NaN); subnormal
 * entries and right-hand sides, and zeros, in sums that are exact — the exact multiples of 2^-1074 on both paths.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setTrsvKernelSwitches, trsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { solveSparse } from './trsv-dd-window-case.js';

const initial = trsvKernelSwitches();
afterEach(() => {
  setTrsvKernelSwitches(initial);
});

type System = [readonly (readonly [number, number, number])[], readonly (readonly [number, number])[]];

/** Every x_i the same on both paths (Object.is: NaN equals NaN, −0 is not +0); returns the window's x. */
async function samePaths(storage: 'dd' | 'f64', [entries, b]: System): Promise<number[]> {
  const window = await solveSparse(storage, true, entries, b);
  const fused = await solveSparse(storage, false, entries, b);
  for (let i = 0; i < window.length; i++) expect(Object.is(window[i], fused[i]), `x[${i}]: window ${window[i]}, fused ${fused[i]}`).toBe(true);
  return window;
}

describe('double-double TRSV, update terms in GEMV\'s window (ddTrsvWindow): special values as the default path', () => {
  it('dd storage: NaN and ∞ entries in the far update, ∞ in b, 0·∞, a zero pivot give the default path\'s x', async () => {
    const systems: System[] = [
      // NaN and −∞ off-diagonal entries read by the far update (rows of block 2, columns of block 0).
      [[[128, 5, NaN], [140, 7, -Infinity], [129, 3, 0.5]], [[3, 1], [5, 2], [7, 1]]],
      // b_3 = +∞: x_3 = ∞ reaches rows 128 … through the far update.
      [[[130, 3, 0.25], [131, 3, -1]], [[3, Infinity], [0, 1]]],
      // ∞·0: A(140, 10) = ∞ with x_10 = 0.
      [[[140, 10, Infinity], [140, 11, 1]], [[11, 2]]],
      // A zero pivot (row 20: its block's inverse is not finite).
      [[[20, 20, 0], [140, 20, 1]], [[20, 1], [21, 1]]],
    ];
    for (const system of systems) expect((await samePaths('dd', system)).some((v) => !Number.isFinite(v))).toBe(true);
  });

  it('f64 storage: subnormal entries and right-hand sides, and zeros, in exact sums: the exact multiples of 2^-1074', async () => {
    const t = 2 ** -1074;
    const x = await samePaths('f64', [
      [[128, 0, 7 * t], [128, 16, -3 * t], [129, 0, 0], [129, 1, -0]],
      [[0, 3], [16, 5], [130, 2 * t], [1, -0]],
    ]);
    expect([x[128], x[130]]).toEqual([-6 * t, 2 * t]);
  });
});
