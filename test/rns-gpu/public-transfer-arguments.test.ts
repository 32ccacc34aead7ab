/**
 * The RNS transfers of modprec/gpu check their arguments before reading them: a typed error naming the argument.
 * Regression: rnsToDevice([1], null) threw a TypeError from the encoder ("reading 'size'"), rnsArrayToDevice(null) one
 * reading its set, rnsDeviceToArray(null, set) one reading toExact.
 */
import { describe, expect, it } from 'vitest';
import { RnsArray, rnsModuliSet } from '../../src/index.js';
import { rnsArrayToDevice, rnsDeviceSet, rnsDeviceToArray, rnsToDevice } from '../../src/backends/webgpu/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

async function codeOf(f: () => Promise<unknown>): Promise<string> {
  try { await f(); return 'ran'; } catch (e) { return `${(e as { code?: string }).code} ${(e as { parameter?: string }).parameter}`; }
}

describe('RNS transfers: arguments', () => {
  it('a set, array or device array that is not one is a typed error naming it; valid ones round-trip', async () => {
    await requireRuntime();
    for (const set of [null, 5, {}, { moduli: [1, 2] }]) expect(await codeOf(() => rnsToDevice([1], set as never))).toBe('INVALID_FORMAT set');
    for (const a of [null, undefined, [1], {}]) expect(await codeOf(() => rnsArrayToDevice(a as never))).toBe('INVALID_STORAGE a');
    for (const d of [null, 5, [1], {}]) expect(await codeOf(() => rnsDeviceToArray(d as never, rnsModuliSet(106)))).toBe('INVALID_STORAGE d');
    const d = await rnsToDevice([1.5, -2], rnsDeviceSet(106));
    const a = await rnsDeviceToArray(d, rnsModuliSet(106));
    expect(a).toBeInstanceOf(RnsArray);
    const back = await rnsArrayToDevice(a);
    expect((await back.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp)).toEqual([1.5, -2]);
    d.destroy();
    back.destroy();
  });
});
