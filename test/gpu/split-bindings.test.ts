/**
 * Arrays larger than one storage binding (128 MiB on the compatibility adapter): DOT and conversion read
 * them through 256-byte-aligned windows, transparently.
 */
import { describe, expect, it } from 'vitest';
import { bf16BitsFromNumber } from '../../src/formats/convert/bf16.js';
import { gpuConvert } from '../../src/gpu/convert.js';
import { bindingWindows, toDevice } from '../../src/gpu/device-array.js';
import { gpuDot } from '../../src/gpu/dot.js';
import { deviceMatrix, gpuGemv } from '../../src/gpu/gemv.js';
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

describe('GEMV with A over one storage binding', () => {
  it('reads A in column windows (N and T) and stays exact', async () => {
    const rt = await requireRuntime();
    const limit = rt.context.adapter.limits.maxStorageBufferBindingSize;
    if (limit > 2 ** 28) return; // only affordable on small-limit adapters (CI's llvmpipe)
    const m = 5801;
    const n = Math.ceil(limit / 4 / m) + 300; // A just over one binding
    const a = new Float32Array(m * n);
    let s = 11;
    for (let k = 0; k < a.length; k++) {
      s = (s * 1103515245 + 12345) >>> 0;
      a[k] = ((s >>> 16) % 7) - 3;
    }
    const A = deviceMatrix(await toDevice(a), m, n);
    expect(A.data.words * 4).toBeGreaterThan(limit);
    for (const trans of ['N', 'T'] as const) {
      const inner = trans === 'N' ? n : m;
      const rows = trans === 'N' ? m : n;
      const xs = Float32Array.from({ length: inner }, (_, j) => (j % 5) - 2);
      const y = await toDevice(new Float32Array(rows));
      await gpuGemv({ A, x: await toDevice(xs), y, trans }, { arithmetic: 'ff' });
      const got = await y.toHost();
      // Integer sums below 2^24: exact, so a lost or repeated column window shows.
      for (const i of [0, 1, 63, 64, rows - 2, rows - 1, Math.floor(rows / 2)]) {
        let sum = 0;
        for (let j = 0; j < inner; j++) sum += (trans === 'N' ? a[i + j * m]! : a[j + i * m]!) * xs[j]!;
        expect(got[i], `${trans} row ${i}`).toBe(sum);
      }
      y.destroy();
    }
    A.data.destroy();
  });
});
