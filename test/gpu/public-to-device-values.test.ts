/**
 * toDevice (modprec/gpu) takes an array of numbers, as vector() does: any other entry is INVALID_VALUE naming it
 * (`data[i]`), before anything is uploaded. Regression: toDevice(['1']) uploaded 1, [1, null] uploaded 0 for null,
 * [1, undefined] and [1, , 3] uploaded NaN for the missing entry, and [1n] threw a TypeError from inside the encoder.
 */
import { describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/index.js';
import { vector } from '../../src/index.js';
import { catchModprec } from '../sparse/sparse-arbitraries.js';
import { requireRuntime } from './gpu-test-helpers.js';

describe('toDevice: array entries', () => {
  it('an entry that is not a number is INVALID_VALUE naming it, as vector() names it', async () => {
    await requireRuntime();
    // eslint-disable-next-line no-sparse-arrays
    const cases: unknown[][] = [['1'], [1, null], [1, undefined], [1, , 3], [2, 1n], [1, {}], [true]];
    for (const data of cases) {
      const k = data.findIndex((v, i) => typeof v !== 'number' || !(i in data));
      const index = k >= 0 ? k : data.length - 1;
      let error: unknown;
      try { (await toDevice(data as never, { format: 'f32' })).destroy(); } catch (e) { error = e; }
      const m = catchModprec(() => { throw error; });
      expect(`${m.code} ${m.parameter}`, String(data)).toBe(`INVALID_VALUE data[${index}]`);
      expect(catchModprec(() => vector(data as never)).code).toBe('INVALID_VALUE');
    }
    const ok = await toDevice([1, -0.5, NaN, Infinity], { format: 'f32' });
    expect([...await ok.toHost()]).toEqual([1, -0.5, NaN, Infinity]);
    ok.destroy();
  });
});
