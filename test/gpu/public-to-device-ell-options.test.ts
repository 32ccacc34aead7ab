/**
 * toDeviceEll (modprec/gpu) checks its matrix and toDevice's options as toDevice does, before uploading. Regression:
 * toDeviceEll(A, null) and toDeviceEll(null) threw TypeErrors ("reading 'format'", "reading 'rows'"), a strict that is
 * not a boolean was taken, and scaleBlock 0 asked for Infinity scales (a RangeError) where toDevice refuses it with
 * INVALID_SIZE naming options.scaleBlock.
 */
import { describe, expect, it } from 'vitest';
import { toDevice, toDeviceEll } from '../../src/backends/webgpu/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

async function codeOf(f: () => Promise<unknown>): Promise<string> {
  try { await f(); return 'ran'; } catch (e) { return `${(e as { code?: string }).code} ${(e as { parameter?: string }).parameter}`; }
}

describe('toDeviceEll options', () => {
  it('are refused as toDevice refuses them; a matrix that is not an object is INVALID_OPTION naming A', async () => {
    await requireRuntime();
    const A = { rows: 2, cols: 2, width: 1, stride: 2, colIndex: Int32Array.of(1, 0), values: Float64Array.of(3, 4) };
    for (const options of [null, 5, { strict: 'yes' }, { format: 'nope' }, { format: 'i8', scaleBlock: 0 }, { format: 'i8', scaleBlock: -1 }, { format: 'i8', scaleBlock: 1.5 }]) {
      const ell = await codeOf(() => toDeviceEll(A, options as never));
      expect(ell, JSON.stringify(options)).not.toBe('ran');
      expect(ell, JSON.stringify(options)).toBe(await codeOf(() => toDevice([3, 4], options as never)));
    }
    for (const bad of [null, undefined, 5]) expect(await codeOf(() => toDeviceEll(bad as never))).toBe('INVALID_OPTION A');
    const E = await toDeviceEll(A, { format: 'i8', scaleBlock: 1 });
    const same = await toDevice([3, 4], { format: 'i8', scaleBlock: 1 });
    expect([...await E.values.toHost()]).toEqual([...await same.toHost()]);
    E.values.destroy();
    same.destroy();
  });
});
