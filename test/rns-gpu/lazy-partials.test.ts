import { describe, expect, it } from 'vitest';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { rnsToDevice, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { rnsGpuGemv } from '../../kernels/gemv/gemv-rns-webgpu.js';
import { MAX_RNS_FOLD_STEPS, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { ModprecError } from '../../src/core/errors.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

/**
 * The lazy partial residues (`rnsFoldSteps`, row-sum-webgpu.ts) give the same words as one reduction per product:
 * GEMV N with β, mixed signs, zeros and terms far below the grid, folded after every step (the fold inside the loop
 * and the chunk's tail) and only at the end of a chunk (the largest period), with P·Q reduced and split in halves.
 */
describe('RNS row sums with lazily reduced partial residues', () => {
  it('GEMV N 40 × 150 at 106 bits: word for word the same as one reduction per product', async () => {
    await requireRuntime();
    const p = 106, m = 40, n = 150, set = rnsDeviceSet(p), r = seededRandom(29);
    const value = (): RnsExactValue => {
      const k = r.nextDouble();
      if (k < 0.1) return { sign: 0, X: 0n, exp: 0 };
      const X = k < 0.2 ? 1n << BigInt(p) : BigInt(Math.floor(r.nextDouble() * 2 ** 52)) << 54n | BigInt(Math.floor(r.nextDouble() * 2 ** 52));
      return { sign: r.nextDouble() < 0.5 ? 1 : 0, X, exp: Math.floor(300 * r.nextDouble()) - 150 };
    };
    const Av = Array.from({ length: m * n }, value), xv = Array.from({ length: n }, value), yv = Array.from({ length: m }, value);
    const A = await rnsToDevice(Av, set), x = await rnsToDevice(xv, set);
    const run = async (rnsFoldSteps: number, rnsFoldSplit = false): Promise<RnsExactValue[]> => {
      const previous = setGpuKernelSwitches({ rnsFoldSteps, rnsFoldSplit });
      try {
        const y = await rnsToDevice(yv, set);
        await rnsGpuGemv({ A, m, n, x, y, alpha: 1, beta: -0.75 });
        const out = await y.toExact();
        y.destroy();
        return out;
      } finally {
        setGpuKernelSwitches(previous);
      }
    };
    const reference = await run(0);
    expect(await run(1)).toEqual(reference);
    expect(await run(MAX_RNS_FOLD_STEPS)).toEqual(reference);
    expect(await run(1, true)).toEqual(reference);
    expect(await run(MAX_RNS_FOLD_STEPS, true)).toEqual(reference);
    [A, x].forEach((a) => a.destroy());
  });

  it('rejects a fold period outside [0, MAX_RNS_FOLD_STEPS]', () => {
    for (const bad of [-1, 0.5, MAX_RNS_FOLD_STEPS + 1]) expect(() => setGpuKernelSwitches({ rnsFoldSteps: bad })).toThrow(ModprecError);
  });
});
