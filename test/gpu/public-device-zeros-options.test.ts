/**
 * deviceZeros (modprec/gpu) takes toDevice's options and checks them as toDevice does, before allocating: a typed
 * error naming the option. Regression: deviceZeros(4, null) threw a TypeError ("reading 'format'"), a strict that is
 * not a boolean was taken, and deviceZeros(10, { format: 'i8', scaleBlock: 0 }) asked for Infinity scales (a RangeError;
 * −1 and 1.5 made NaN or fractional scale counts) where toDevice refuses the same option with INVALID_SIZE.
 */
import { describe, expect, it } from 'vitest';
import { deviceZeros, toDevice } from '../../src/backends/webgpu/index.js';
import { catchModprec } from '../sparse/sparse-arbitraries.js';
import { requireRuntime } from './gpu-test-helpers.js';

describe('deviceZeros options', () => {
  it('are refused as toDevice refuses them; valid ones give zeros', async () => {
    await requireRuntime();
    const bad: unknown[] = [null, 5, { strict: 'yes' }, { format: 'nope' }, { format: 'i8', scaleBlock: 0 }, { format: 'i8', scaleBlock: -1 },
      { format: 'i8', scaleBlock: 1.5 }, { format: 'i8', scaleBlock: NaN }, { scaleBlock: '4' }];
    for (const options of bad) {
      const zeros = await catchModprecAsync(() => deviceZeros(10, options as never));
      const upload = await catchModprecAsync(() => toDevice(new Float64Array(10), options as never));
      expect(zeros, JSON.stringify(options)).toEqual(upload);
      expect(zeros, JSON.stringify(options)).not.toBe('ran');
    }
    for (const format of ['i8', 'f16', 'ff'] as const) {
      const z = await deviceZeros(10, { format, scaleBlock: 3 });
      expect([...await z.toHost()]).toEqual(new Array(10).fill(0));
      z.destroy();
    }
  });
});

/** The code and parameter of the ModprecError `f` rejects with, or 'ran'. */
async function catchModprecAsync(f: () => Promise<{ destroy(): void }>): Promise<string> {
  let result: { destroy(): void } | undefined;
  const e = await (async () => { try { result = await f(); return undefined; } catch (err) { return err; } })();
  if (e === undefined) { result!.destroy(); return 'ran'; }
  const m = catchModprec(() => { throw e; });
  return `${m.code} ${m.parameter}`;
}
