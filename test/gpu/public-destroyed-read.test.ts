/**
 * Reading back a destroyed resident array (modprec/gpu) is INVALID_STORAGE naming it, as every kernel refuses a
 * destroyed operand. Regression: toHost() and encoded() on a destroyed array, or on a view of a destroyed span, threw a
 * TypeError from WebGPU ("no overload matched for copyBufferToBuffer").
 */
import { describe, expect, it } from 'vitest';
import { deviceView, gpuDot, toDevice } from '../../src/backends/webgpu/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

async function codeOf(f: () => Promise<unknown>): Promise<string> {
  try { await f(); return 'ran'; } catch (e) { return `${(e as { code?: string }).code} ${(e as { parameter?: string }).parameter}`; }
}

describe('a destroyed resident array', () => {
  it('reads back as INVALID_STORAGE, as kernels refuse it', async () => {
    await requireRuntime();
    for (const format of ['f32', 'f16', 'dd', 'dd-split'] as const) {
      const span = await toDevice([1, 2, 3, 4], { format });
      const view = deviceView(span, 3, 2, -2);
      expect([...await view.toHost()]).toEqual([4, 2]);
      span.destroy();
      expect(await codeOf(() => span.toHost())).toBe('INVALID_STORAGE array');
      expect(await codeOf(() => span.encoded())).toBe('INVALID_STORAGE array');
      expect(await codeOf(() => view.toHost())).toBe('INVALID_STORAGE array');
      expect(await codeOf(() => gpuDot(view, view))).toBe('INVALID_STORAGE x');
    }
  });
});
