/**
 * Exact transfers between the CPU's mp_array (`RnsArray`, moduli below 2^26) and the device's (moduli below 2^16):
 * the moduli sets differ, so a number crosses as its exact significand X (CRT in BigInt) and exponent, and is
 * re-encoded on the other side. Both sides keep X ≤ 2^p: a transfer between sets of the same precision is exact.
 *
 * @module
 */
import { fail } from '../../../core/errors.js';
import { storeElement } from '../array-store.js';
import { rnsFromRational, rnsSignificand } from '../convert-exact.js';
import { RnsArray, loadElement } from '../rns-array.js';
import { rnsZero } from '../rns-number-class.js';
import type { RnsModuliSet } from '../moduli-set.js';
import { rnsDeviceSet, type RnsDeviceSet } from './device-set.js';
import { rnsToDevice, RnsDeviceArray, type RnsExactValue } from './rns-device-array.js';

/**
 * Uploads a CPU mp_array exactly.
 * @param a - the CPU array
 * @param set - the GPU set (default: the one of a's precision)
 * @returns the device array
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` naming `a` when it is not an RnsArray; `INVALID_FORMAT` when the
 *   device set's precision is below the array's (significands would not fit); `INVALID_VALUE` for exponents beyond ±2^28
 * @example
 * ```ts
 * import { RnsArray, rnsModuliSet, rnsZero, rnsFromNumber, rnsStore } from 'modprec';
 * import { rnsArrayToDevice } from 'modprec/gpu';
 *
 * const a = new RnsArray(rnsModuliSet(106), 1), z = rnsZero(rnsModuliSet(106));
 * rnsFromNumber(z, 0.1);
 * rnsStore(a, 0, z);
 * const d = await rnsArrayToDevice(a);   // needs a WebGPU adapter
 * ```
 * @group GPU
 */
export async function rnsArrayToDevice(a: RnsArray, set?: RnsDeviceSet): Promise<RnsDeviceArray> {
  // Not an RnsArray (null) threw a TypeError reading its set.
  if (!(a instanceof RnsArray)) fail('INVALID_STORAGE', 'a', 'must be an RnsArray', a);
  set ??= rnsDeviceSet(a.set.precision);
  if (set.precision < a.set.precision) fail('INVALID_FORMAT', 'set', `must have at least the array's precision (${a.set.precision})`, set.precision);
  const z = rnsZero(a.set);
  const values: RnsExactValue[] = [];
  for (let k = 0; k < a.length; k++) {
    loadElement(z, a, k);
    const X = rnsSignificand(z);
    values.push({ sign: z.sign ? 1 : 0, X, exp: X === 0n ? 0 : z.exp });
  }
  return rnsToDevice(values, set);
}

/**
 * Downloads a device array into a new CPU mp_array (exact when the CPU set's precision is at least the device's;
 * otherwise each value is rounded once to nearest).
 * @param d - the device array
 * @param cpuSet - the CPU moduli set
 * @returns the CPU array
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` naming `d` when it is not an RNS device array, or was destroyed
 * @example
 * ```ts
 * import { rnsModuliSet } from 'modprec';
 * import { rnsDeviceSet, rnsToDevice, rnsDeviceToArray } from 'modprec/gpu';
 *
 * const d = await rnsToDevice([0.1, 3], rnsDeviceSet(106));
 * const a = await rnsDeviceToArray(d, rnsModuliSet(106));
 * a.length; // → 2
 * ```
 * @group GPU
 */
export async function rnsDeviceToArray(d: RnsDeviceArray, cpuSet: RnsModuliSet): Promise<RnsArray> {
  // Not an RnsDeviceArray (null) threw a TypeError reading toExact.
  if (!(d instanceof RnsDeviceArray)) fail('INVALID_STORAGE', 'd', 'must be an RNS device array (rnsToDevice)', d);
  const values = await d.toExact();
  const a = new RnsArray(cpuSet, values.length);
  const z = rnsZero(cpuSet);
  values.forEach((v, k) => {
    const num = v.sign ? -v.X : v.X;
    if (v.X === 0n) rnsFromRational(z, 0n, 1n);
    else if (v.exp >= 0) rnsFromRational(z, num << BigInt(v.exp), 1n);
    else rnsFromRational(z, num, 1n << BigInt(-v.exp));
    if (v.X === 0n) z.sign = v.sign;
    storeElement(a, k, z);
  });
  return a;
}
