/**
 * GPU programs detect NaN from an element's bits, never by comparing a value with itself: WGSL lets a compiler assume
 * no NaN occurs, and the NVIDIA driver folds `a != a` to false. NRM2 of (NaN, ∞, …) gave +∞ on an H200 (the CPU and
 * llvmpipe: NaN) because its maximum pass flagged NaN that way. llvmpipe keeps such comparisons, so the result alone
 * cannot show the bug here: the generated WGSL is checked too.
 */
import { describe, expect, it, vi } from 'vitest';
import { asum, dot, formats, nrm2, vector } from '../../src/index.js';
import { setGpuKernelDebug } from '../../src/backends/webgpu/program.js';
import { requireRuntime } from './gpu-test-helpers.js';

/** A comparison of an identifier with itself (`a != a`, `a == a`), as a NaN test would be written. */
const SELF_COMPARISON = /\b([A-Za-z_][A-Za-z0-9_]*)\s*(?:!=|==)\s*\1\b(?!\s*\()/;

describe('NaN detection in GPU programs', () => {
  it('NRM2, ASUM and DOT of vectors holding NaN and ±∞: NaN as on the CPU, from programs with no self-comparison', async () => {
    await requireRuntime();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    setGpuKernelDebug(true);
    try {
      const rows = [[NaN, Infinity, 1.5, -2, 0.25], [1, 2, NaN, 3, -Infinity], [-Infinity, NaN], [NaN], [Infinity, 1]];
      for (const storage of [formats.f32, formats.f16, formats.bf16, formats.f64]) {
        for (const arithmetic of [formats.f32, formats.ff]) {
          for (const values of rows) {
            const x = vector(values, { storage, arithmetic });
            const y = vector(values.map((_, k) => k + 1), { storage, arithmetic });
            const what = `${storage.name} ${arithmetic.name} [${values}]`;
            expect(Object.is((await nrm2(x, { backend: 'gpu', strict: true })).value, nrm2(x)), `nrm2 ${what}`).toBe(true);
            expect(Object.is((await asum(x, { backend: 'gpu', strict: true })).value, asum(x)), `asum ${what}`).toBe(true);
            expect(Number.isNaN((await dot(x, y, { backend: 'gpu', strict: true })).value), `dot ${what}`).toBe(Number.isNaN(dot(x, y)));
          }
        }
      }
      const programs = log.mock.calls.map((c) => String(c[0])).filter((s) => s.includes('modprec GPU program'));
      expect(programs.length).toBeGreaterThan(0);
      for (const wgsl of programs) expect(wgsl.match(SELF_COMPARISON)?.[0], wgsl.slice(0, 400)).toBeUndefined();
    } finally {
      setGpuKernelDebug(false);
      log.mockRestore();
    }
  });

  it('the pattern finds the comparison the maximum pass used to make', () => {
    expect(SELF_COMPARISON.test('if ((a != a)) { bad = 1.0; }')).toBe(true);
    expect(SELF_COMPARISON.test('if ((bitcast<i32>(a) & 2147483647) > 2139095040) { bad = 1.0; }')).toBe(false);
    expect(SELF_COMPARISON.test('if (k == kk) { }')).toBe(false);
  });
});
