/**
 * NRM2 on device RNS arrays: ‖x‖₂ = √(Σ x_j²). The sum of squares is DOT's exact sum on a grid, rounded once
 * (S = Σx_j²(1 + θ), |θ| ≤ 2^-p(2 + 2^-p); RNS exponents need no scaling against overflow), and its square root
 * is taken on the host, exactly in BigInt and rounded once more (one number: downloaded, rooted, uploaded). So
 * the result is ‖x‖₂(1 + θ)^½(1 + δ), |δ| ≤ 2^-p: within (2^-p(1 + 2^-p) + 2^-p)·‖x‖₂ ≈ 2·2^-p·‖x‖₂, inside the
 * CPU's relative bound ≈ (n/2 + 1)·u (`nrm2RelativeBound` with the RNS arithmetic of the same precision).
 *
 * @module
 */
import { rnsToDevice, type RnsDeviceArray } from '../../src/formats/rns/gpu/rns-device-array.js';
import { checkOperands } from '../../src/formats/rns/gpu/rns-device-kernel.js';
import { sqrtRounded } from '../../src/formats/rns/gpu/host-exact.js';
import { rnsGpuDot } from '../dot/dot-rns-webgpu.js';

/**
 * ‖x‖₂ of a device RNS array; the result is a device array of one element.
 * @param x - x
 * @returns the norm (+0 for an empty x)
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` (destroyed or not a device array)
 * @example
 * ```ts
 * import { rnsDeviceSet, rnsToDevice, rnsGpuNrm2 } from 'modprec/gpu';
 *
 * const r = await rnsGpuNrm2(await rnsToDevice([3, -4], rnsDeviceSet(106)));
 * (await r.toExact()).map((v) => Number(v.X) * 2 ** v.exp); // → [ 5 ]
 * ```
 * @group GPU
 */
export async function rnsGpuNrm2(x: RnsDeviceArray): Promise<RnsDeviceArray> {
  const { set } = checkOperands({ x });
  const squares = await rnsGpuDot(x, x);
  try {
    const [s] = await squares.toExact();
    // A sum of squares is never negative; an exact zero's sign is + (x·x of ±0 has sign 0).
    return await rnsToDevice([sqrtRounded(s!, set.precision)], set);
  } finally {
    squares.destroy();
  }
}
