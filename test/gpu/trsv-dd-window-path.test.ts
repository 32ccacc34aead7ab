/**
 * The `ddTrsvWindow` switch takes its path (kernels/trsv/trsv-window-update-source.ts): a system whose far update sums,
 * in one lane, 1·1 + 2^-57·2^-57 − 1·1 = 2^-114. The window (units of at most 2^-116 of its largest term) holds that sum
 * exactly; the fused multiply-adds round 1 + 2^-114 to 1 (112 bits) and give 0. So x_128 = −2^-114 (the exact solution)
 * with the switch and 0 without: each test fails if the solve runs the other path.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setTrsvKernelSwitches, trsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { colMajor, formats, range, trsv, type Range } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { storedOf } from './trsv-dd-oracle.js';

const initial = trsvKernelSwitches();
afterEach(() => {
  setTrsvKernelSwitches(initial);
});

const N = 150;

/** Element `index` of a dd or f64 range set to the double v. */
function set(r: Range<any, any>, index: number, v: number): void {
  const a = r.accessor;
  a.storage.encode(a.data as never, index, (a.storage === formats.dd ? { hi: v, lo: 0 } : v) as never);
}

/**
 * L N N, n = 150 in 64-row blocks, unit pivots: x_j = b_j in block 0 (b_0 = 1, b_16 = 2^-57, b_32 = 1), and row 128
 * (block 2) gets block 0's update by the far update, whose 16 lanes put columns 0, 16, 32 in lane 0.
 */
async function solveRow128(storage: typeof formats.dd | typeof formats.f64): Promise<number> {
  await requireRuntime();
  const A = range(colMajor<2>({ size: [N, N], storage: storage as never, arithmetic: formats.dd as never }));
  const x = range(colMajor<1>({ size: [N], storage: storage as never, arithmetic: formats.dd as never }));
  for (let i = 0; i < N; i++) set(A, A.accessor.linearIndex([i, i]), 1);
  set(A, A.accessor.linearIndex([128, 0]), 1);
  set(A, A.accessor.linearIndex([128, 16]), 2 ** -57);
  set(A, A.accessor.linearIndex([128, 32]), -1);
  set(x, 0, 1);
  set(x, 16, 2 ** -57);
  set(x, 32, 1);
  setTrsvKernelSwitches({ ddLanes: true, ddOverlapLanes: 64, ddOverlapFarLanes: 16 });
  const report = await trsv({ A, x, uplo: 'L', trans: 'N', diag: 'N' }, { backend: 'gpu', arithmetic: formats.dd, strict: true, blockSize: 64 });
  expect(report.backend).toBe('gpu');
  for (const j of [0, 16, 32]) expect(storedOf(x, [j])).toEqual(storage === formats.dd ? { hi: j === 16 ? 2 ** -57 : 1, lo: 0 } : j === 16 ? 2 ** -57 : 1);
  const v = storedOf(x, [128]);
  return typeof v === 'number' ? v : (v as { hi: number; lo: number }).hi + (v as { hi: number; lo: number }).lo;
}

describe('double-double TRSV, update terms in GEMV\'s window (ddTrsvWindow): the switch takes its path', () => {
  it('dd storage, window: the lane sum 1 + 2^-114 − 1 is exact, x_128 = −2^-114', async () => {
    setTrsvKernelSwitches({ ddTrsvWindow: true });
    expect(await solveRow128(formats.dd)).toBe(-(2 ** -114));
  });

  it('dd storage, fused multiply-adds (the switch off): the same sum rounds 1 + 2^-114 to 1, x_128 = 0', async () => {
    setTrsvKernelSwitches({ ddTrsvWindow: false });
    expect(await solveRow128(formats.dd)).toBe(0);
  });

  it('f64 storage, window: x_128 = −2^-114', async () => {
    setTrsvKernelSwitches({ ddTrsvWindow: true });
    expect(await solveRow128(formats.f64)).toBe(-(2 ** -114));
  });
});
