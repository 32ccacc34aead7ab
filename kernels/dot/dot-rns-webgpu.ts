/**
 * DOT on device RNS arrays: s = Σ x_j·y_j as one exact sum on a grid, rounded once (src/formats/rns/gpu/grid.ts):
 * |ŝ − s| ≤ 2^-p(2 + 2^-p)·Σ|x_j·y_j| ≤ γ_n·Σ|x_j·y_j| for n ≥ 2 (n = 1: one rounding of the exact product), the
 * CPU's bound (`dotBound` with the RNS arithmetic of the same precision).
 *
 * @module
 */
import { fail } from '../../src/core/errors.js';
import { rnsZerosOnDevice, type RnsDeviceArray } from '../../src/formats/rns/gpu/rns-device-array.js';
import { checkOperands, deviceTable, runWithRounding } from '../../src/formats/rns/gpu/rns-device-kernel.js';
import { rowSumPasses, rowSumPrograms } from '../../src/formats/rns/gpu/row-sum-webgpu.js';

/**
 * s := x·y on device RNS arrays; the result stays on the device (one element).
 * @param x - x
 * @param y - y, of x's length and moduli set
 * @returns the sum as a device array of length 1 (+0 for empty inputs)
 * @throws {@link modprec!ModprecError} `DIMENSION_MISMATCH` (lengths differ), `INVALID_FORMAT` (moduli sets differ),
 *   `INVALID_STORAGE` (destroyed or not a device array)
 * @example
 * ```ts
 * import { rnsDeviceSet, rnsToDevice, rnsGpuDot } from 'modprec/gpu';
 *
 * const set = rnsDeviceSet(212);
 * const s = await rnsGpuDot(await rnsToDevice([1, 2, 3], set), await rnsToDevice([4, 5, 6], set));
 * (await s.toExact()).map((v) => Number(v.X) * 2 ** v.exp); // → [ 32 ]
 * ```
 * @group GPU
 */
export async function rnsGpuDot(x: RnsDeviceArray, y: RnsDeviceArray): Promise<RnsDeviceArray> {
  const { runtime, set } = checkOperands({ x, y });
  if (y.length !== x.length) fail('DIMENSION_MISMATCH', 'y', `must have the length of x (${x.length})`, y.length);
  const out = rnsZerosOnDevice(runtime, set, 1);
  if (x.length === 0) return out;
  const programs = await rowSumPrograms(runtime, set, { beta: false, p: 'rns', gather: false });
  const table = deviceTable(runtime, set);
  const shape = { R: 1, N: x.length, rs: 0, cs: 1, LP: x.length, LQ: y.length, LY: 1, beta: false };
  await runWithRounding(runtime, set, (acc) => rowSumPasses(runtime, set, programs, shape, x.live('x'), y.live('y'), table, table, table, acc), 1, out.live('out'), []);
  return out;
}
