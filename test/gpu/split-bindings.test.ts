/**
 * Arrays larger than one storage binding (128 MiB on the compatibility adapter): DOT and conversion read
 * them through 256-byte-aligned windows, transparently.
 */
import { describe, expect, it } from 'vitest';
import { bf16BitsFromNumber } from '../../src/formats/convert/bf16.js';
import { gpuConvert } from '../../src/gpu/convert.js';
import { bindingWindows, toDevice } from '../../src/gpu/device-array.js';
import { gpuDot } from '../../src/gpu/dot.js';
import { requireRuntime } from './gpu-test-helpers.js';

describe('arrays over one storage binding', () => {
  it('DOT and f32 → bf16 conversion split them into windows and stay exact', async () => {
    const rt = await requireRuntime();
    const limit = rt.context.adapter.limits.maxStorageBufferBindingSize;
    if (limit > 2 ** 28) return; // only affordable on small-limit adapters (CI's llvmpipe)
    const n = limit / 4 + 1000;
    const xs = new Float32Array(n);
    const ys = new Float32Array(n);
    let s = 7;
    let exact = 0;
    for (let k = 0; k < n; k++) {
      s = (s * 1103515245 + 12345) >>> 0;
      xs[k] = ((s >>> 16) % 7) - 3;
      ys[k] = ((s >>> 8) % 5) - 2;
      exact += xs[k]! * ys[k]!;
    }
    const x = await toDevice(xs);
    const y = await toDevice(ys);
    expect(bindingWindows([x, y], n).length).toBe(2);
    // Integer sums far below 2^48: float-float is exact, so any lost or repeated window shows.
    expect((await gpuDot(x, y, { arithmetic: 'ff' })).value).toBe(exact);
    const { array } = await gpuConvert(x, 'bf16');
    const words = (await array.encoded()).words;
    const boundary = bindingWindows([x, array], n)[1]!.start;
    for (const k of [0, 1, boundary - 1, boundary, boundary + 1, n - 2, n - 1]) {
      expect((words[k >> 1]! >>> ((k & 1) << 4)) & 0xffff).toBe(bf16BitsFromNumber(xs[k]!));
    }
    x.destroy();
    y.destroy();
    array.destroy();
  });
});
