/**
 * The read rule behind float-float's special values (docs/double-double.md, "Special values"): a double below 2^-126
 * read from a storage wider than binary32 (here f64) is ±0 in float-float on both backends and in f32 on the GPU, and
 * its binary32 subnormal in f32 on the CPU (`Math.fround`). So ff gives f32's special values on the values each
 * reads: 2^-130·∞ is NaN in ff on both backends and in f32 on the GPU, ∞ in f32 on the CPU; 2^-130·2^20 is ±0 in the
 * first three and 2^-110 in CPU f32. A stored binary32 subnormal (f32 storage) is read as it is by both CPU
 * arithmetics (∞ in each); a GPU may flush it (WGSL allows it; llvmpipe keeps it), so the GPU gives ∞ or NaN there.
 * A coefficient α = 2^-130 is ±0 in ff and its binary32 subnormal in f32 on both backends (a device may flush it).
 */
import { describe, expect, it } from 'vitest';
import { dot, formats, scal, toArray, vector } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

const TINY = 2 ** -130;
const cases = (storage: typeof formats.f64 | typeof formats.f32, arithmetic: typeof formats.f32 | typeof formats.ff) => ({
  tiny: vector([TINY, -TINY], { storage, arithmetic }),
  inf: vector([Infinity, 0], { storage, arithmetic }),
  big: vector([2 ** 20, 0], { storage, arithmetic }),
});
const show = (v: number): string => (Object.is(v, -0) ? '-0' : String(v));

describe('reads below 2^-126 into f32 and ff: the documented rule on each backend', () => {
  it('CPU: f64 storage — f32 keeps the binary32 subnormal, ff reads ±0; f32 storage — both keep it', () => {
    for (const [storage, ar, timesInf, timesBig] of [
      [formats.f64, formats.f32, 'Infinity', String(2 ** -110)],
      [formats.f64, formats.ff, 'NaN', '0'],
      [formats.f32, formats.f32, 'Infinity', String(2 ** -110)],
      [formats.f32, formats.ff, 'Infinity', String(2 ** -110)],
    ] as const) {
      const c = cases(storage, ar);
      expect([storage.name, ar.name, show(dot(c.tiny, c.inf)), show(dot(c.tiny, c.big))]).toEqual([storage.name, ar.name, timesInf, timesBig]);
    }
  });

  it('coefficients: α = 2^-130 is ±0 in ff and its binary32 subnormal in f32 (scal of ∞: NaN against ∞), CPU and GPU', async () => {
    const scaled = async (ar: typeof formats.f32 | typeof formats.ff, options: object): Promise<string> => {
      const x = vector([Infinity], { storage: formats.f32, arithmetic: ar });
      await scal(TINY, x, { arithmetic: ar, ...options });
      return show(toArray(x)[0]!);
    };
    expect([await scaled(formats.f32, {}), await scaled(formats.ff, {})]).toEqual(['Infinity', 'NaN']);
    await requireRuntime();
    const gpu = { backend: 'gpu' as const, strict: true };
    expect(await scaled(formats.ff, gpu)).toBe('NaN');
    expect(['Infinity', 'NaN']).toContain(await scaled(formats.f32, gpu)); // a device may flush the subnormal α
  });

  it('GPU: f64 storage — f32 and ff both read ±0 (NaN and 0); f32 storage — the subnormal, or ±0 where the device flushes', async () => {
    await requireRuntime();
    for (const ar of [formats.f32, formats.ff]) {
      const options = { backend: 'gpu' as const, arithmetic: ar, strict: true };
      const c = cases(formats.f64, ar);
      expect([ar.name, show((await dot(c.tiny, c.inf, options)).value), show((await dot(c.tiny, c.big, options)).value)]).toEqual([ar.name, 'NaN', '0']);
      const s = cases(formats.f32, ar);
      const special = show((await dot(s.tiny, s.inf, options)).value);
      const finite = (await dot(s.tiny, s.big, options)).value;
      expect(special === 'Infinity' ? finite === 2 ** -110 : special === 'NaN' && finite === 0).toBe(true);
    }
  });
});
