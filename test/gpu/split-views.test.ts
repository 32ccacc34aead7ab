/**
 * ASUM and NRM2 on views over one storage binding, and the updates (AXPY, WAXPBY, SCAL: out ← α·x + β·y) on operands and output views larger than one storage binding
 * (a forced small limit, so llvmpipe takes the split path with small arrays), and output views written in place
 * (issue 14): strided and negative-stride views in f32, f16, bf16, f64 and ff, inputs that are views of the output's own
 * storage included. Each case runs unsplit and split: the whole span must come out bit for bit the same, the view
 * must hold the exact α·x + β·y (small integers: every format and arithmetic is exact on them), and every other
 * element of the span must keep its value.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bindingWindows, deviceView, setBindingLimitForTests, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { gpuAsum } from '../../kernels/asum/asum-webgpu.js';
import { gpuNrm2 } from '../../kernels/nrm2/nrm2-webgpu.js';
import type { GpuFormatName } from '../../src/backends/webgpu/formats.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { roundToBf16 } from '../../src/formats/convert/bf16.js';
import { roundToF16 } from '../../src/formats/convert/f16.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';

const LIMIT = 4096;

interface Case {
  format: GpuFormatName;
  n: number;
  stride: number;
  pad: number;
  /** Which input shares the output's storage: none, x is out itself, y is another (reversed) view of it. */
  alias: 'none' | 'x-is-out' | 'y-in-out';
  alpha: number;
  beta: number;
  seed: number;
}

function ints(n: number, seed: number, lo: number, hi: number): Float64Array {
  let s = seed >>> 0 || 1;
  return Float64Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return lo + ((s >>> 16) % (hi - lo + 1));
  });
}

/** The span's values: distinct integers, exact in every format (|v| ≤ 2048: f16's and bf16's integers up to 256 apart). */
function sentinels(length: number): Float64Array {
  return Float64Array.from({ length }, (_, k) => -(100 + (k % 150)));
}

/** α·x + β·y as the kernels form it: a zero coefficient's vector is not read (its term is absent, not a signed zero). */
function update(alpha: number, x: number, beta: number, y: number): number {
  let u = alpha !== 0 ? alpha * x : 0;
  if (beta !== 0) u = u + beta * y;
  return u;
}

async function runCase(c: Case, split: boolean): Promise<{ words: Uint32Array; span: Float64Array; expected: Float64Array; windows: number }> {
  const { n, stride, pad } = c;
  const spanLength = (n - 1) * Math.abs(stride) + 1 + 2 * pad + (c.alias === 'y-in-out' ? n : 0);
  const init = sentinels(spanLength);
  const offset = pad + (stride < 0 ? (n - 1) * -stride : 0);
  const outValues = ints(n, c.seed, -4, 4);
  for (let i = 0; i < n; i++) init[offset + i * stride] = outValues[i]!;
  const xv = c.alias === 'x-is-out' ? outValues : ints(n, c.seed + 1, -4, 4);
  const yv = ints(n, c.seed + 2, -4, 4);
  // y-in-out: y is the last n elements of the output's span, backwards (read while the output is written).
  if (c.alias === 'y-in-out') for (let i = 0; i < n; i++) init[spanLength - 1 - i] = yv[i]!;
  const span = await toDevice(init, { format: c.format });
  const out = deviceView(span, offset, n, stride);
  let x = out;
  if (c.alias !== 'x-is-out') {
    // x a view of a span of its own, stride −2.
    const xs = sentinels(2 * n);
    for (let i = 0; i < n; i++) xs[2 * (n - 1 - i)] = xv[i]!;
    x = deviceView(await toDevice(xs, { format: c.format }), 2 * (n - 1), n, -2);
  }
  const y = c.alias === 'y-in-out' ? deviceView(span, spanLength - 1, n, -1) : await toDevice(yv, { format: c.format });
  if (split) setBindingLimitForTests(LIMIT);
  let windows: number;
  try {
    windows = bindingWindows([x, y, out], n).length;
    await gpuUpdate({ alpha: c.alpha, x, beta: c.beta, y, out }, { arithmetic: c.format === 'f64' || c.format === 'ff' ? 'ff' : 'f32' });
  } finally {
    setBindingLimitForTests(undefined);
  }
  const expected = Float64Array.from(init);
  for (let i = 0; i < n; i++) expected[offset + i * stride] = update(c.alpha, xv[i]!, c.beta, yv[i]!);
  const result = { words: (await span.encoded()).words, span: await deviceView(span, 0, spanLength, 1).toHost(), expected, windows };
  span.destroy();
  if (x !== out) x.destroy();
  if (c.alias !== 'y-in-out') y.destroy();
  return result;
}

describe('updates over one storage binding, and output views written in place', () => {
  it('split and unsplit runs agree bit for bit, the view holds α·x + β·y, the rest of the span is untouched', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.record({
        format: fc.constantFrom<GpuFormatName>('f32', 'f16', 'bf16', 'f64', 'ff'),
        n: fc.integer({ min: 2100, max: 3000 }),
        stride: fc.constantFrom(1, 2, 3, -1, -2, -3),
        pad: fc.integer({ min: 0, max: 5 }),
        alias: fc.constantFrom<Case['alias']>('none', 'x-is-out', 'y-in-out'),
        alpha: fc.integer({ min: -3, max: 3 }),
        beta: fc.integer({ min: -3, max: 3 }),
        seed: fc.nat(1000),
      }),
      async (c) => {
        const whole = await runCase(c, false);
        const split = await runCase(c, true);
        const label = JSON.stringify(c);
        expect(split.windows, label).toBeGreaterThan(1);
        expect(whole.windows, label).toBe(1);
        expect([...split.words], label).toEqual([...whole.words]);
        // Values compared as numbers: float-float's multiply returns +0 for −1·0 (its pair sum), so a zero's sign is not
        // the property here; the bits are, between the split and unsplit runs.
        expect(whole.span.map((v) => v + 0), label).toEqual(whole.expected.map((v) => v + 0));
      },
    ), { numRuns: 30 });
  });
});

describe('ASUM and NRM2 over one storage binding', () => {
  it('read views of either stride sign in windows: the unsplit values, bit for bit, and the exact Σ|x|', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.record({
        format: fc.constantFrom<GpuFormatName>('f32', 'f16', 'bf16', 'f64', 'ff'),
        n: fc.integer({ min: 2100, max: 3000 }),
        stride: fc.constantFrom(1, 2, 3, -1, -2, -3),
        pad: fc.integer({ min: 0, max: 5 }),
        seed: fc.nat(1000),
      }),
      async (c) => {
        const { n, stride, pad } = c;
        const spanLength = (n - 1) * Math.abs(stride) + 1 + 2 * pad;
        // NaN between the view's elements: a misplaced window would read one.
        const init = new Float64Array(spanLength).fill(NaN);
        const offset = pad + (stride < 0 ? (n - 1) * -stride : 0);
        const values = ints(n, c.seed, -8, 8);
        for (let i = 0; i < n; i++) init[offset + i * stride] = values[i]!;
        const x = deviceView(await toDevice(init, { format: c.format }), offset, n, stride);
        const arithmetic = c.format === 'f64' || c.format === 'ff' ? 'ff' : 'f32';
        const run = async () => ({ asum: (await gpuAsum(x, { arithmetic })).value, nrm2: (await gpuNrm2(x, { arithmetic })).value });
        const whole = await run();
        setBindingLimitForTests(LIMIT);
        let split: typeof whole;
        try {
          expect(bindingWindows([x], n).length).toBeGreaterThan(1);
          split = await run();
        } finally {
          setBindingLimitForTests(undefined);
        }
        x.destroy();
        const label = JSON.stringify(c);
        expect(split.asum, label).toBe(whole.asum);
        expect(split.nrm2, label).toBe(whole.nrm2);
        // Integers: every partial sum is exact in binary32 (below 2^24), so the sum is Σ|x| whatever the order.
        expect(whole.asum, label).toBe(values.reduce((s, v) => s + Math.abs(v), 0));
        expect(whole.nrm2, label).toBeCloseTo(Math.hypot(...values), 3);
      },
    ), { numRuns: 20 });
  });
});

describe('GEMV and ELL SpMV writing a view of a span larger than one binding', () => {
  it("write y's elements in place (β = 0 or not; x a view of the same span): the packed run's values, the span untouched", async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.record({
        format: fc.constantFrom<GpuFormatName>('f32', 'f16', 'bf16', 'f64', 'ff'),
        // A (and ELL's values and indices) within the 4 KiB limit: only y's and x's span is over it.
        m: fc.integer({ min: 1, max: 40 }),
        n: fc.integer({ min: 1, max: 12 }),
        stride: fc.constantFrom(1, 2, 3, -1, -2, -3),
        beta: fc.constantFrom(0, 1, -2),
        trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
        kernel: fc.constantFrom('gemv', 'ell'),
        seed: fc.nat(1000),
      }),
      async (c) => {
        const { m, n, stride } = c;
        const trans = c.kernel === 'ell' ? 'N' : c.trans;
        const [rows, inner] = trans === 'N' ? [m, n] : [n, m];
        const a = ints(m * n, c.seed, -3, 3);
        const xv = ints(inner, c.seed + 1, -3, 3);
        const y0 = ints(rows, c.seed + 2, -3, 3);
        // The span: 3000 sentinels, y's view, 500 sentinels, x's view (stride 1), 3000 sentinels: over the 4 KiB limit
        // in every format, while y's extent fits it.
        const yExtent = (rows - 1) * Math.abs(stride) + 1;
        const yOff = 3000 + (stride < 0 ? yExtent - 1 : 0);
        const xOff = 3000 + yExtent + 500;
        const init = sentinels(xOff + inner + 3000);
        for (let i = 0; i < rows; i++) init[yOff + i * stride] = y0[i]!;
        for (let j = 0; j < inner; j++) init[xOff + j] = xv[j]!;
        const arithmetic = c.format === 'f64' || c.format === 'ff' ? 'ff' : 'f32';
        const matrixFormat = c.format === 'ff' ? 'f64' : c.format;
        const { deviceMatrix, gpuGemv } = await import('../../kernels/gemv/gemv-webgpu.js');
        const { toDeviceEll, gpuEllSpmv } = await import('../../kernels/ell-spmv/ell-spmv-webgpu.js');
        const A = deviceMatrix(await toDevice(a, { format: matrixFormat }), m, n);
        // ELL: the dense matrix, every slot used (column k of row i holds a(i, k)).
        const ell = c.kernel === 'ell' ? await toDeviceEll({ rows: m, cols: n, width: n, stride: m, colIndex: Int32Array.from({ length: m * n }, (_, q) => Math.floor(q / m)), values: a }, { format: matrixFormat }) : undefined;
        const run = async (y: DeviceArray, x: DeviceArray) => {
          if (ell) await gpuEllSpmv({ A: ell, x, y, alpha: 2, beta: c.beta }, { arithmetic });
          else await gpuGemv({ A, x, y, alpha: 2, beta: c.beta, trans }, { arithmetic });
        };
        const packedY = await toDevice(y0, { format: c.format });
        await run(packedY, await toDevice(xv, { format: c.format }));
        const span = await toDevice(init, { format: c.format });
        const y = deviceView(span, yOff, rows, stride);
        const x = deviceView(span, xOff, inner, 1);
        setBindingLimitForTests(LIMIT);
        try {
          await run(y, x);
        } finally {
          setBindingLimitForTests(undefined);
        }
        const label = JSON.stringify(c);
        const expected = Float64Array.from(init);
        const got = await packedY.toHost();
        for (let i = 0; i < rows; i++) expected[yOff + i * stride] = got[i]!;
        expect([...(await deviceView(span, 0, init.length, 1).toHost())], label).toEqual([...expected]);
        // Small integers: the arithmetic is exact, so y holds the exact value rounded once to y's storage (bf16's
        // integers are 2 apart above 256, and 40 terms of up to 9 reach 726).
        const store = c.format === 'bf16' ? roundToBf16 : c.format === 'f16' ? roundToF16 : (v: number) => v;
        for (let i = 0; i < rows; i++) {
          let sum = 0;
          for (let j = 0; j < inner; j++) sum += (trans === 'N' ? a[i + j * m]! : a[j + i * m]!) * xv[j]!;
          expect(got[i]! + 0, label).toBe(store(2 * sum + c.beta * y0[i]!) + 0);
        }
        span.destroy();
        packedY.destroy();
        A.data.destroy();
        ell?.values.destroy();
      },
    ), { numRuns: 40 });
  });
});

describe('matrix views over one storage binding', () => {
  it('GEMV N/T and TRSV read a column-major sub-range view of a large span in column windows: the unsplit values, bit for bit', async () => {
    await requireRuntime();
    const { deviceMatrixView, gpuGemv } = await import('../../kernels/gemv/gemv-webgpu.js');
    const { gpuTrsv } = await import('../../kernels/trsv/trsv-webgpu.js');
    await fc.assert(fc.asyncProperty(
      fc.record({ format: fc.constantFrom<GpuFormatName>('f32', 'f16', 'f64'), pad: fc.integer({ min: 0, max: 300 }), extra: fc.integer({ min: 0, max: 5 }), seed: fc.nat(1000) }),
      async (c) => {
        const label = JSON.stringify(c);
        const arithmetic = c.format === 'f64' ? 'ff' : 'f32';
        // GEMV: 20 × 1000 at column stride 20 + extra, from element pad of a sentinel-filled span (over the 32 KiB limit
        // in every format; y in f32 at least, which holds the exact sums).
        const [m, n, ld] = [20, 1000, 20 + c.extra];
        const span = sentinels(c.pad + n * ld + 50);
        const a = ints(m * n, c.seed, -3, 3);
        for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) span[c.pad + i + j * ld] = a[i + j * m]!;
        const A = deviceMatrixView(await toDevice(span, { format: c.format }), { rows: m, cols: n, offset: c.pad, rowStride: 1, colStride: ld });
        for (const trans of ['N', 'T'] as const) {
          const xv = ints(trans === 'N' ? n : m, c.seed + 1, -3, 3);
          const runGemv = async (limit?: number) => {
            const x = await toDevice(xv, { format: c.format });
            const y = await toDevice(new Float64Array(trans === 'N' ? m : n), { format: c.format === 'f16' ? 'f32' : c.format });
            setBindingLimitForTests(limit);
            try {
              await gpuGemv({ A, x, y, trans }, { arithmetic });
            } finally {
              setBindingLimitForTests(undefined);
            }
            const values = [...(await y.toHost())];
            x.destroy();
            y.destroy();
            return values;
          };
          const whole = await runGemv();
          expect(await runGemv(32768), `${label} ${trans}`).toEqual(whole);
          // Small integers: exact.
          for (let i = 0; i < whole.length; i++) {
            let sum = 0;
            for (let j = 0; j < xv.length; j++) sum += (trans === 'N' ? a[i + j * m]! : a[j + i * m]!) * xv[j]!;
            expect(whole[i], label).toBe(sum);
          }
        }
        A.data.destroy();
        // TRSV: a 300 × 300 unit-diagonal-dominant triangle at column stride 300 + extra.
        const [nt, ldt] = [300, 300 + c.extra];
        const tspan = sentinels(c.pad + nt * ldt + 50);
        const t = ints(nt * nt, c.seed + 2, -3, 3);
        for (let j = 0; j < nt; j++) for (let i = 0; i < nt; i++) tspan[c.pad + i + j * ldt] = i === j ? 1 + (j % 3) : t[i + j * nt]! / 8;
        const T = deviceMatrixView(await toDevice(tspan, { format: c.format }), { rows: nt, cols: nt, offset: c.pad, rowStride: 1, colStride: ldt });
        const b = ints(nt, c.seed + 3, -4, 4);
        for (const uplo of ['L', 'U'] as const) {
          for (const trans of ['N', 'T'] as const) {
            const whole = await toDevice(b, { format: 'ff' });
            process.env.MODPREC_TRSV_ONE_DISPATCH = '0';
            rereadTuningKnobs();
            try {
              await gpuTrsv({ A: T, x: whole, uplo, trans }, { arithmetic, blockSize: 64 });
            } finally {
              delete process.env.MODPREC_TRSV_ONE_DISPATCH;
              rereadTuningKnobs();
            }
            const split = await toDevice(b, { format: 'ff' });
            // Half of T's span in bytes: over two windows of 215 columns in every format.
            setBindingLimitForTests({ f16: 128, f32: 256, f64: 512 }[c.format as 'f16'] * 1024);
            try {
              await gpuTrsv({ A: T, x: split, uplo, trans }, { arithmetic, blockSize: 64 });
            } finally {
              setBindingLimitForTests(undefined);
            }
            expect([...(await split.toHost())], `${label} ${uplo}${trans}`).toEqual([...(await whole.toHost())]);
            whole.destroy();
            split.destroy();
          }
        }
        T.data.destroy();
      },
    ), { numRuns: 6 });
  });

  it('a row-major matrix view over one binding is read through its transpose in windows of its rows: the unsplit values, bit for bit', async () => {
    await requireRuntime();
    const { deviceMatrixView, gpuGemv } = await import('../../kernels/gemv/gemv-webgpu.js');
    // 600 × 20 row-major at leading dimension 23 from element 5 of a sentinel-filled span (55 KiB in f32, over 16 KiB).
    const [m, n, ld, pad] = [600, 20, 23, 5];
    const a = ints(m * n, 1, -3, 3);
    const init = sentinels(pad + m * ld + 40);
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) init[pad + i * ld + j] = a[i * n + j]!;
    const span = await toDevice(init, { format: 'f32' });
    const A = deviceMatrixView(span, { rows: m, cols: n, offset: pad, rowStride: ld, colStride: 1 });
    for (const trans of ['N', 'T'] as const) {
      const [inner, outer] = trans === 'N' ? [n, m] : [m, n];
      const xv = ints(inner, 2, -3, 3);
      const y0 = ints(outer, 3, -3, 3);
      const run = async (limit?: number) => {
        const x = await toDevice(xv, { format: 'f32' });
        const y = await toDevice(y0, { format: 'f32' });
        setBindingLimitForTests(limit);
        try {
          await gpuGemv({ A, x, y, beta: -1, trans }, { arithmetic: 'f32' });
        } finally {
          setBindingLimitForTests(undefined);
        }
        const values = [...(await y.toHost())];
        x.destroy();
        y.destroy();
        return values;
      };
      const whole = await run();
      expect(await run(16384), trans).toEqual(whole);
      // Small integers: exact.
      for (let i = 0; i < outer; i++) {
        let sum = -y0[i]!;
        for (let j = 0; j < inner; j++) sum += (trans === 'N' ? a[i * n + j]! : a[j * n + i]!) * xv[j]!;
        expect(whole[i], `${trans} ${i}`).toBe(sum);
      }
    }
    expect([...(await span.toHost())]).toEqual([...Float32Array.from(init)]);
    span.destroy();
  });

  it('a view neither of whose directions fits one binding is refused with BACKEND_LIMIT before anything runs', async () => {
    await requireRuntime();
    const { deviceMatrixView, gpuGemv } = await import('../../kernels/gemv/gemv-webgpu.js');
    // 20 × 20 at row stride 1000 and column stride 1001: a column spans 19 000 elements, a row 19 019 (76 KiB in f32).
    const [m, n] = [20, 20];
    const A = deviceMatrixView(await toDevice(ints(1001 * 40, 1, -3, 3), { format: 'f32' }), { rows: m, cols: n, offset: 0, rowStride: 1000, colStride: 1001 });
    for (const trans of ['N', 'T'] as const) {
      const x = await toDevice(ints(n, 2, -3, 3), { format: 'f32' });
      const y0 = ints(m, 3, -3, 3);
      const y = await toDevice(y0, { format: 'f32' });
      setBindingLimitForTests(16384);
      try {
        await expect(gpuGemv({ A, x, y, trans }, { arithmetic: 'f32' })).rejects.toMatchObject({ code: 'BACKEND_LIMIT', parameter: 'maxStorageBufferBindingSize' });
      } finally {
        setBindingLimitForTests(undefined);
      }
      expect([...(await y.toHost())], trans).toEqual([...y0]);
    }
    A.data.destroy();
  });
});

describe('ELL values given as a matrix view of a span over one storage binding', () => {
  it('are read in windows of ELL columns, tiles of rows for row-major values (or through their region): the packed upload\'s values, exactly', async () => {
    await requireRuntime();
    const { deviceMatrixView } = await import('../../kernels/gemv/gemv-webgpu.js');
    const { deviceEllView, toDeviceEll, gpuEllSpmv } = await import('../../kernels/ell-spmv/ell-spmv-webgpu.js');
    await fc.assert(fc.asyncProperty(
      fc.record({ format: fc.constantFrom<GpuFormatName>('f32', 'f16', 'f64'), rowMajor: fc.boolean(), width: fc.constantFrom(3, 40), pad: fc.integer({ min: 0, max: 2000 }), seed: fc.nat(1000) }),
      async (c) => {
        const [rows, cols] = [200, 300];
        const stride = rows;
        // Some rows end in one or two padding slots (padding last in a row, 0 in a padding slot: ellMatrix's rules).
        const colIndex = Int32Array.from({ length: stride * c.width }, (_, q) => (Math.floor(q / stride) >= c.width - (((q % stride) * 7 + c.seed) % 5 === 0 ? 1 + ((q % stride) % 2) : 0) ? -1 : (q * 13 + c.seed) % cols));
        const values = ints(stride * c.width, c.seed, -3, 3).map((v, q) => (colIndex[q] === -1 ? 0 : v));
        // The values matrix (rows × width) in a sentinel-filled span: column-major (ld rows + 3) or row-major (ld width).
        const ld = c.rowMajor ? c.width : rows + 3;
        const span = sentinels(c.pad + (c.rowMajor ? rows * ld : c.width * ld) + 10);
        for (let i = 0; i < rows; i++) for (let k = 0; k < c.width; k++) span[c.pad + (c.rowMajor ? i * ld + k : i + k * ld)] = values[i + k * stride]!;
        const matrix = deviceMatrixView(await toDevice(span, { format: c.format }), { rows, cols: c.width, offset: c.pad, rowStride: c.rowMajor ? ld : 1, colStride: c.rowMajor ? 1 : ld });
        const A = await deviceEllView({ rows, cols, width: c.width, stride, colIndex }, matrix);
        const packed = await toDeviceEll({ rows, cols, width: c.width, stride, colIndex, values }, { format: c.format });
        const xs = ints(cols, c.seed + 1, -3, 3);
        const run = async (E: typeof A, limit?: number) => {
          const x = await toDevice(xs, { format: 'f32' });
          const y = await toDevice(new Float64Array(rows), { format: 'f32' });
          setBindingLimitForTests(limit);
          try {
            await gpuEllSpmv({ A: E, x, y }, { arithmetic: 'f32' });
          } finally {
            setBindingLimitForTests(undefined);
          }
          return [...(await y.toHost())];
        };
        const label = JSON.stringify(c);
        const limit = c.format === 'f64' ? 16384 : 8192;
        const reference = await run(packed);
        // 8 KiB (16 KiB for f64, whose windows' partial sums must fit too): the values' matrix is over it for width 40 (split in
        // windows of ELL columns; a row-major one, whose every ELL column spans its rows, in tiles of rows × groups of ELL
        // columns), the span too with most paddings (the matrix's region is bound). Integer sums: exact in any order.
        expect(await run(A, limit), label).toEqual(reference);
        for (let i = 0; i < rows; i++) {
          let sum = 0;
          for (let k = 0; k < c.width; k++) if (colIndex[i + k * stride]! >= 0) sum += values[i + k * stride]! * xs[colIndex[i + k * stride]!]!;
          expect(reference[i], label).toBe(sum);
        }
        matrix.data.destroy();
        packed.values.destroy();
      },
    ), { numRuns: 12 });
  });

  it('row-major values each of whose ELL columns spans more than a binding: tiles of rows × groups of ELL columns, exact sums', async () => {
    await requireRuntime();
    const { deviceMatrixView } = await import('../../kernels/gemv/gemv-webgpu.js');
    const { deviceEllView, gpuEllSpmv } = await import('../../kernels/ell-spmv/ell-spmv-webgpu.js');
    const [rows, cols, width] = [230, 300, 40];
    const colIndex = Int32Array.from({ length: rows * width }, (_, q) => ((q * 7) % 5 === 0 ? -1 : (q * 13 + 3) % cols));
    const values = ints(rows * width, 5, -3, 3);
    const xs = ints(cols, 6, -3, 3);
    const y0 = ints(rows, 7, -3, 3);
    for (const format of ['f32', 'f16', 'f64'] as const) {
      for (const arithmetic of ['f32', 'ff'] as const) {
        // Row-major (ld width + 1, offset 9): one ELL column of the values spans 229 rows × 41 elements, over the limit.
        const ld = width + 1;
        const span = sentinels(9 + rows * ld);
        for (let i = 0; i < rows; i++) for (let k = 0; k < width; k++) span[9 + i * ld + k] = values[i + k * rows]!;
        const matrix = deviceMatrixView(await toDevice(span, { format }), { rows, cols: width, offset: 9, rowStride: ld, colStride: 1 });
        const A = await deviceEllView({ rows, cols, width, stride: rows, colIndex }, matrix);
        const x = await toDevice(xs, { format: 'f32' });
        const y = await toDevice(y0, { format: 'f64' });
        // The partial sums (a group per window of ELL columns) must fit too.
        setBindingLimitForTests(format === 'f64' ? 24576 : 12288);
        try {
          await gpuEllSpmv({ A, x, y, alpha: 2, beta: -1 }, { arithmetic });
        } finally {
          setBindingLimitForTests(undefined);
        }
        const got = await y.toHost();
        for (let i = 0; i < rows; i++) {
          let sum = 0;
          for (let k = 0; k < width; k++) if (colIndex[i + k * rows]! >= 0) sum += values[i + k * rows]! * xs[colIndex[i + k * rows]!]!;
          expect(got[i], `${format} ${arithmetic} row ${i}`).toBe(2 * sum - y0[i]!);
        }
        matrix.data.destroy();
        x.destroy();
        y.destroy();
      }
    }
  });
});
