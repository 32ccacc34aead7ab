/**
 * ASUM on device RNS arrays: s = Σ|x_j| as one exact sum on a grid (the row sum of DOT with the factors |x_j| and
 * 1), rounded once: |ŝ − s| ≤ 2^-p(2 + 2^-p)·Σ|x_j| ≤ γ_{n−1}·Σ|x_j| for n ≥ 3 (n ≤ 2: one rounding of the exact
 * sum, ≤ 2^-p·s), within the CPU's bound (`asumBound` with the RNS arithmetic of the same precision).
 *
 * @module
 */
import { rnsZerosOnDevice, type RnsDeviceArray } from '../../src/formats/rns/gpu/rns-device-array.js';
import { checkOperands, deviceTable, runWithRounding } from '../../src/formats/rns/gpu/rns-device-kernel.js';
import { rowSumPasses, rowSumPrograms } from '../../src/formats/rns/gpu/row-sum-webgpu.js';

/**
 * s := Σ|x_j| on a device RNS array; the result stays on the device (one element).
 * @param x - x
 * @returns the sum as a device array of length 1 (+0 for an empty x)
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` (destroyed or not a device array)
 * @example
 * ```ts
 * import { rnsDeviceSet, rnsToDevice, rnsGpuAsum } from 'modprec/gpu';
 *
 * const s = await rnsGpuAsum(await rnsToDevice([1, -2, 0.5], rnsDeviceSet(106)));
 * (await s.toExact()).map((v) => Number(v.X) * 2 ** v.exp); // → [ 3.5 ]
 * ```
 * @group GPU
 */
export async function rnsGpuAsum(x: RnsDeviceArray): Promise<RnsDeviceArray> {
  const { runtime, set } = checkOperands({ x });
  const out = rnsZerosOnDevice(runtime, set, 1);
  if (x.length === 0) return out;
  const programs = await rowSumPrograms(runtime, set, { beta: false, p: 'rns', gather: false, q: 'one', abs: true });
  const table = deviceTable(runtime, set);
  const shape = { R: 1, N: x.length, rs: 0, cs: 1, LP: x.length, LQ: 1, LY: 1, beta: false };
  await runWithRounding(runtime, set, (acc) => rowSumPasses(runtime, set, programs, shape, x.live('x'), table, table, table, table, acc), 1, out.live('out'), []);
  return out;
}
