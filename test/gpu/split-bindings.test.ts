/**
 * Arrays larger than one storage binding (128 MiB on the compatibility adapter): DOT and conversion read
 * them through 256-byte-aligned windows, transparently.
 */
import { describe, expect, it } from 'vitest';
import { bf16BitsFromNumber } from '../../src/formats/convert/bf16.js';
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { bindingWindows, setBindingLimitForTests, toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuEllSpmv, toDeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';

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

/** Small integers from a seed: float-float sums and products of them are exact. */
function smallInts(n: number, seed: number, span = 7): Float64Array {
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return ((s >>> 16) % span) - (span >> 1);
  });
}

describe('splitting over a lowered binding limit (any adapter)', () => {
  it('TRSV reads A through column windows (inverse groups, update ranges) and gets bit-for-bit the unsplit solution', async () => {
    await requireRuntime();
    const n = 500;
    const lda = 503;
    // Unit lower/upper triangle with small integers off the diagonal.
    const a = smallInts(lda * n, 3, 3).map((v) => v / 8);
    for (let j = 0; j < n; j++) a[j + j * lda] = 1 + (j % 3);
    const A = deviceMatrix(await toDevice(a, { format: 'f32' }), n, n, lda);
    const b = smallInts(n, 9);
    for (const uplo of ['L', 'U'] as const) {
      for (const trans of ['N', 'T'] as const) {
        for (const arithmetic of ['f32', 'ff'] as const) {
          const whole = await toDevice(b, { format: 'ff' });
          // The unsplit reference runs the same (blocked) solve: with A in one binding, 64-row blocks would
          // otherwise take the one-dispatch solve, whose sums run in another order.
          process.env.MODPREC_TRSV_ONE_DISPATCH = '0';
          rereadTuningKnobs();
          try {
            await gpuTrsv({ A, x: whole, uplo, trans }, { arithmetic, blockSize: 64 });
          } finally {
            delete process.env.MODPREC_TRSV_ONE_DISPATCH;
            rereadTuningKnobs();
          }
          const split = await toDevice(b, { format: 'ff' });
          setBindingLimitForTests(256 * 1024); // A is 1 MB: 218 columns per window
          try {
            await gpuTrsv({ A, x: split, uplo, trans }, { arithmetic, blockSize: 64 });
          } finally {
            setBindingLimitForTests(undefined);
          }
          expect([...(await split.toHost())], `${uplo}${trans} ${arithmetic}`).toEqual([...(await whole.toHost())]);
          whole.destroy();
          split.destroy();
        }
      }
    }
    setBindingLimitForTests(64 * 1024); // 54 columns per window: less than one 64-column block
    try {
      await expect(gpuTrsv({ A, x: await toDevice(b) }, { blockSize: 64 })).rejects.toMatchObject({ code: 'BACKEND_LIMIT', parameter: 'maxStorageBufferBindingSize' });
    } finally {
      setBindingLimitForTests(undefined);
    }
    A.data.destroy();
  });

  it('ELL SpMV reads values and indices in windows of ELL columns and stays exact', async () => {
    await requireRuntime();
    const rows = 1000;
    const cols = 2500;
    const width = 30;
    const stride = 1024;
    const colIndex = new Int32Array(stride * width).fill(-1);
    const values = new Float64Array(stride * width);
    const vals = smallInts(stride * width, 5);
    let s = 11;
    // Padding last in a row (ellStructure's rule): once a row's slot is padding, so are its later slots.
    const padded = new Uint8Array(rows);
    for (let k = 0; k < width; k++) {
      for (let i = 0; i < rows; i++) {
        s = (s * 1103515245 + 12345) >>> 0;
        if (padded[i] || (s >>> 20) % 5 === 0) { padded[i] = 1; continue; } // padding
        colIndex[i + k * stride] = (s >>> 4) % cols;
        values[i + k * stride] = vals[i + k * stride]!;
      }
    }
    const xs = smallInts(cols, 7);
    const ys = smallInts(rows, 13);
    for (const [format, yFormat] of [['f32', 'ff'], ['bf16', 'f32'], ['f64', 'f64']] as const) {
      const A = await toDeviceEll({ rows, cols, width, stride, colIndex, values }, { format });
      const x = await toDevice(xs);
      const y = await toDevice(ys, { format: yFormat });
      setBindingLimitForTests(64 * 1024); // indices 120 kB: windows of 15 (f32) to 7 (f64) ELL columns
      try {
        await gpuEllSpmv({ A, x, y, alpha: 2, beta: -1 }, { arithmetic: 'ff' });
      } finally {
        setBindingLimitForTests(undefined);
      }
      const got = await y.toHost();
      for (let i = 0; i < rows; i++) {
        let sum = 0;
        for (let k = 0; k < width; k++) if (colIndex[i + k * stride]! >= 0) sum += values[i + k * stride]! * xs[colIndex[i + k * stride]!]!;
        expect(got[i], `${format} row ${i}`).toBe(2 * sum - ys[i]!);
      }
      A.values.destroy();
    }
    // Block-scaled values at the default scaleBlock of 256 (was BACKEND_LIMIT: windows then started on 64 scale blocks,
    // 16384 elements, whose 64 KiB of indices left no room for a row): windows start anywhere, their scales bound from
    // the 64-scale boundary below with the read's scale offset — the unsplit run's bits (ell-block-scaled-windows.test.ts
    // checks them against the CPU backend).
    const scaled = await toDeviceEll({ rows, cols, width, stride, colIndex, values }, { format: 'i16' });
    const x = await toDevice(xs);
    const run = async (limit?: number): Promise<number[]> => {
      const y = await toDevice(ys);
      setBindingLimitForTests(limit);
      try {
        await gpuEllSpmv({ A: scaled, x, y, alpha: 2, beta: -1 });
      } finally {
        setBindingLimitForTests(undefined);
      }
      return [...(await y.encoded()).words];
    };
    expect(await run(64 * 1024)).toEqual(await run());
  });

  it('GEMV N windows x together with the columns of A (x over the limit, A not) and stays exact', async () => {
    await requireRuntime();
    const n = 10_000;
    const a = smallInts(2 * n, 17);
    const xs = smallInts(n, 19);
    const A = deviceMatrix(await toDevice(a, { format: 'f16' }), 2, n);
    const x = await toDevice(xs, { format: 'ff' }); // 80 kB: over the limit, A (20 kB) is not
    const y = await toDevice([0, 0]);
    setBindingLimitForTests(64 * 1024);
    try {
      await gpuGemv({ A, x, y }, { arithmetic: 'ff' });
    } finally {
      setBindingLimitForTests(undefined);
    }
    const got = await y.toHost();
    for (let i = 0; i < 2; i++) {
      let sum = 0;
      for (let j = 0; j < n; j++) sum += a[i + 2 * j]! * xs[j]!;
      expect(got[i]).toBe(sum);
    }
  });
});

describe('strided views over one storage binding (a forced small limit)', () => {
  it("DOT and conversion read views of any stride in windows of their span: the values of the unsplit run, bit for bit", async () => {
    await requireRuntime();
    const { formats, rowMajor, range, dot } = await import('../../src/index.js');
    const cases = [
      { storage: formats.f32, stride: 3 }, { storage: formats.f16, stride: -2 }, { storage: formats.f64, stride: 5 },
      { storage: formats.bf16, stride: 1, offset: 3 }, { storage: formats.f32, stride: -7 },
    ];
    for (const c of cases) {
      const n = 9001;
      let s = 5;
      const next = () => { s = (s * 1103515245 + 12345) >>> 0; return ((s >>> 16) % 9) - 4; };
      // Sentinel-filled spans: NaN between the view's elements, which a misplaced window would read.
      const stored: number[][] = [];
      const spanOf = () => {
        const values: number[] = [];
        stored.push(values);
        const r = range(rowMajor<1>({ size: [n], storage: c.storage, arithmetic: formats.ff, stride: c.stride, offset: (c.offset ?? 0) + (c.stride < 0 ? -c.stride * (n - 1) : 0), data: undefined as never }));
        const a = r.accessor;
        for (let k = 0; k < (a.data as ArrayLike<number>).length; k++) a.storage.encode(a.data as never, k, NaN as never);
        for (let i = 0; i < n; i++) { values.push(next()); r.set(i, values[i]!); }
        return r;
      };
      const x = spanOf(), y = spanOf();
      const run = async () => {
        const d = await dot(x, y, { backend: 'gpu', arithmetic: formats.ff, strict: true });
        const dx = await toDevice(x as never);
        const { array } = await gpuConvert(dx, 'f32');
        const words = Array.from((await array.encoded()).words.subarray(0, n));
        dx.destroy();
        array.destroy();
        return { value: d.value, words, windows: bindingWindows([dx, array], n).length };
      };
      const whole = await run();
      setBindingLimitForTests(16384);
      try {
        const split = await run();
        expect(split.windows, `${c.storage.storage?.name ?? ''} stride ${c.stride}`).toBeGreaterThan(1);
        expect(split.value).toBe(whole.value);
        expect(split.words).toEqual(whole.words);
      } finally {
        setBindingLimitForTests(undefined);
      }
      // Integer data far below 2^48: float-float is exact, so a lost, repeated or shifted element shows.
      let exact = 0;
      for (let i = 0; i < n; i++) exact += stored[0]![i]! * stored[1]![i]!;
      expect(whole.value).toBe(exact);
    }
  });
});
