/**
 * ELL SpMV with block-scaled values (i8, i16 of the resident API) whose values, scales or indices exceed a (lowered)
 * storage binding: values given packed, or as a matrix view with ld ≠ stride, row-major, a sub-range, rows or slots reversed
 * (each was BACKEND_LIMIT, as was a block too large for windows starting on 64 scale blocks). The chain binds each
 * window of the values with the scales from the 64-scale boundary at or below its first block, and the read adds the
 * scale offset (ell-spmv-chain-webgpu.ts, bindScales).
 *
 * The data are exact: every scale block's largest value is ±qmax·2^e (e ∈ {−1, 0, 1}), so its binary32 scale is 2^e and
 * every product and sum is exact in f32 and ff — the split device run must give the CPU backend's values (the
 * resident API's host fallback, hostEllSpmv) element for element, NaN and ±∞ from x included, and the unsplit device
 * run's bits. A wrong scale index changes a value by a factor 2 or 4 (or its integer), which these comparisons see.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeviceArray, setBindingLimitForTests, toDevice, viewOf } from '../../src/backends/webgpu/device-array.js';
import { deviceEllView, gpuEllSpmv, type DeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { deviceMatrixView } from '../../kernels/gemv/gemv-webgpu.js';
// The GPU API's entry, which hands the host fallback its CPU kernels (the CPU backend these runs are checked against).
import '../../src/backends/webgpu/index.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const LIMIT = 4096;

type Layout = 'packed' | 'ld' | 'sub-range' | 'row-major' | 'reversed' | 'slots reversed';

interface Case {
  readonly format: 'i8' | 'i16';
  readonly scaleBlock: number;
  readonly layout: Layout;
  /** Values matrix of stride (not rows) rows. */
  readonly strideRows: boolean;
  readonly extraRows: number;
  readonly extraStride: number;
  readonly gap: number;
  readonly offset: number;
  readonly width: number;
  readonly small: boolean;
  readonly specials: boolean;
  readonly alpha: number;
  readonly beta: number;
  readonly arithmetic: 'f32' | 'ff';
  readonly seed: number;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  format: fc.constantFrom<'i8' | 'i16'>('i8', 'i16'),
  // Blocks of 17 and more were BACKEND_LIMIT even packed under this limit (64 blocks of them over 4 KiB of indices).
  scaleBlock: fc.constantFrom(1, 2, 3, 7, 32, 100, 1000),
  layout: fc.constantFrom<Layout>('packed', 'ld', 'sub-range', 'row-major', 'reversed', 'slots reversed'),
  strideRows: fc.boolean(),
  extraRows: fc.nat(150),
  extraStride: fc.nat(3),
  gap: fc.integer({ min: 1, max: 5 }),
  offset: fc.integer({ min: 1, max: 700 }),
  width: fc.integer({ min: 1, max: 4 }),
  small: fc.boolean(),
  specials: fc.boolean(),
  alpha: fc.constantFrom(1, -2, 0.5, 0),
  beta: fc.constantFrom(0, 1, -1.5),
  arithmetic: fc.constantFrom<'f32' | 'ff'>('f32', 'ff'),
  seed: fc.nat(100_000),
});

/**
 * n span values of a block-scaled format, exact: block b's values are integers q·2^e_b (|q| ≤ qmax), its first
 * ±qmax·2^e_b, so the upload's scale of block b is 2^e_b and every stored integer is q.
 */
function exactSpan(n: number, block: number, qmax: number, seed: number): Float64Array {
  const rnd = randomValues(2 * n, seed);
  const out = new Float64Array(n);
  for (let b = 0; b * block < n; b++) {
    const e = Math.min(1, Math.floor((rnd[n + b]! + 1) * 1.5) - 1);
    for (let k = b * block; k < Math.min(n, (b + 1) * block); k++) {
      const q = k === b * block ? Math.sign(rnd[k]! || 1) * qmax : Math.round(rnd[k]! * qmax);
      out[k] = q * 2 ** e;
    }
  }
  return out;
}

/** The matrix view of the values: span length and the view's shape (element (i, k) at offset + i·rowStride + k·colStride). */
function shapeOf(c: Case, vr: number, stride: number): { spanLength: number; offset: number; rowStride: number; colStride: number } {
  const w = c.width;
  switch (c.layout) {
    case 'packed': return { spanLength: stride * w, offset: 0, rowStride: 1, colStride: stride };
    case 'ld': return { spanLength: (vr + c.gap) * w, offset: 0, rowStride: 1, colStride: vr + c.gap };
    case 'sub-range': return { spanLength: c.offset + (vr + c.gap) * w + c.gap, offset: c.offset, rowStride: 1, colStride: vr + c.gap };
    case 'row-major': return { spanLength: c.offset + vr * (w + c.gap) + c.gap, offset: c.offset, rowStride: w + c.gap, colStride: 1 };
    case 'reversed': return { spanLength: c.offset + (vr + c.gap) * w, offset: c.offset + vr - 1, rowStride: -1, colStride: vr + c.gap };
    case 'slots reversed': return { spanLength: c.offset + (vr + c.gap) * w, offset: c.offset + (w - 1) * (vr + c.gap), rowStride: 1, colStride: -(vr + c.gap) };
  }
}

/** A host-resident copy of a device array (the CPU backend's operand): its span's words and scales, viewed alike. */
async function hostCopy(a: DeviceArray): Promise<DeviceArray> {
  const span = new DeviceArray(undefined, a.format, a.spanLength, a.scaleBlock, await a.encoded(), 'a host copy for the CPU backend');
  return a.isView ? viewOf(span, { length: a.length, offset: a.offset, stride: a.stride, alwaysView: true }) : span;
}

/** y's values, NaN and signed zeros as they are. */
async function valuesOf(y: DeviceArray): Promise<number[]> {
  return [...(await y.toHost())];
}

async function check(c: Case): Promise<void> {
  const { width } = c;
  // Most cases: stride·width·4 bytes of indices over the limit, so the values go in windows; `small`: the indices fit,
  // and the values are split only where their words or scales (4 bytes per block) exceed the limit.
  const rows = Math.ceil((c.small ? 300 : 1100) / width) + c.extraRows;
  const stride = rows + c.extraStride;
  const cols = 61;
  const vr = c.strideRows ? stride : rows;
  const qmax = c.format === 'i8' ? 127 : 32767;
  const shape = shapeOf(c, vr, stride);
  const rnd = randomValues(stride * width + cols + rows, c.seed + 1);
  // Row i holds its first len_i slots (padding last, as ELL requires); rows past `rows` are padding.
  const lengths = Array.from({ length: stride }, (_, i) => (i >= rows ? 0 : Math.floor((rnd[i]! + 1) * 0.5 * (width + 1)) % (width + 1)));
  const colIndex = Int32Array.from({ length: stride * width }, (_, q) => (Math.floor(q / stride) >= lengths[q % stride]! ? -1 : Math.floor((rnd[q]! + 1) * 997) % cols));
  const xs = Array.from({ length: cols }, (_, j) => {
    const r = rnd[stride * width + j]!;
    if (c.specials && r > 0.9) return [NaN, Infinity, -Infinity][j % 3]!;
    return Math.round(r * 4);
  });
  // β = 0: y is not read, NaN in it included.
  const ys = Array.from({ length: rows }, (_, i) => (c.beta === 0 && i % 3 === 0 ? NaN : Math.round(rnd[stride * width + cols + i]! * 8)));
  const span = await toDevice(exactSpan(shape.spanLength, c.scaleBlock, qmax, c.seed), { format: c.format, scaleBlock: c.scaleBlock });
  const x = await toDevice(xs, { format: 'f32' });
  const structure = { rows, cols, width, stride, colIndex };
  const matrix = { rows: vr, cols: width, offset: shape.offset, rowStride: shape.rowStride, colStride: shape.colStride };
  const A = await deviceEllView(structure, deviceMatrixView(span, matrix));
  const label = JSON.stringify({ ...c, rows, stride });
  const run = async (Ain: DeviceEll, xin: DeviceArray, y: DeviceArray, limit?: number): Promise<number[]> => {
    setBindingLimitForTests(limit);
    try {
      const info = await gpuEllSpmv({ A: Ain, x: xin, y, alpha: c.alpha, beta: c.beta }, { arithmetic: c.arithmetic });
      expect(info.backend, label).toBe(Ain.values.onDevice ? 'gpu' : 'cpu');
    } finally {
      setBindingLimitForTests(undefined);
    }
    return valuesOf(y);
  };
  const deviceY = async (): Promise<DeviceArray> => toDevice(ys, { format: 'f32' });
  const [ySplit, yWhole] = [await deviceY(), await deviceY()];
  const split = await run(A, x, ySplit, LIMIT);
  const whole = await run(A, x, yWhole);
  // The CPU backend: host-resident copies of the same words and scales.
  const hostA = await deviceEllView(structure, deviceMatrixView(await hostCopy(span), matrix));
  const cpu = await run(hostA, await hostCopy(x), await hostCopy(await deviceY()));
  for (let i = 0; i < rows; i++) expect(split[i], `${label} row ${i}: the CPU backend's ${cpu[i]}`).toBe(cpu[i]);
  expect([...(await ySplit.encoded()).words], label).toEqual([...(await yWhole.encoded()).words]);
  for (const a of [span, x, ySplit, yWhole]) a.destroy();
}

describe('ELL SpMV: block-scaled values over a binding, any layout and block (were BACKEND_LIMIT)', () => {
  it('a matrix view (ld ≠ stride, sub-range, row-major, rows or slots reversed) or packed values, any scale block: the CPU backend\'s values, the unsplit bits', async () => {
    await requireRuntime();
    const fixed: Case = { format: 'i8', scaleBlock: 3, layout: 'sub-range', strideRows: false, extraRows: 7, extraStride: 1, gap: 2, offset: 301, width: 3, small: false, specials: true, alpha: -2, beta: 0, arithmetic: 'f32', seed: 7 };
    // Each layout once, then a block far larger than a window (its scales from far below the window's start).
    for (const layout of ['ld', 'row-major', 'reversed', 'slots reversed', 'packed'] as const) await check({ ...fixed, layout });
    await check({ ...fixed, format: 'i16', scaleBlock: 1000, arithmetic: 'ff', beta: 1 });
    // Indices and words in one binding, the scales (one per element, 13.6 KB) not.
    await check({ ...fixed, layout: 'row-major', small: true, width: 1, extraRows: 150, scaleBlock: 1, gap: 5, offset: 700 });
    // Words over the limit but the matrix's region of them not: the one-pass kernel bound that region with the scales
    // whole, indexed from the region's start (row 2 came out 65534 for 131068) — the chain now takes it.
    await check({ ...fixed, format: 'i16', scaleBlock: 32, layout: 'row-major', small: true, width: 1, extraRows: 0, extraStride: 0, gap: 5, offset: 244, specials: false, alpha: 1, seed: 0 });
    await fc.assert(fc.asyncProperty(caseArb, check), { numRuns: 24 });
  });

  it('a block-scaled x whose scales exceed a binding (its words fit) is BACKEND_LIMIT naming the limit, y untouched; with α = 0 it is not read', async () => {
    await requireRuntime();
    const [rows, cols] = [3, 1100];
    // i8 at scaleBlock 1: 1100 bytes of words, 4400 of scales over the 4 KiB limit.
    const x = await toDevice(Array.from({ length: cols }, (_, j) => ((j % 3) - 1) * 127), { format: 'i8', scaleBlock: 1 });
    const A = await deviceEllView({ rows, cols, width: 1, stride: rows, colIndex: Int32Array.of(0, 500, 1099) }, deviceMatrixView(await toDevice([1, 2, 4]), { rows, cols: 1, offset: 0, rowStride: 1, colStride: rows }));
    const y = await toDevice([5, NaN, -1]);
    setBindingLimitForTests(LIMIT);
    try {
      await expect(gpuEllSpmv({ A, x, y, alpha: 1, beta: 1 })).rejects.toMatchObject({ code: 'BACKEND_LIMIT', parameter: 'maxStorageBufferBindingSize' });
      expect([...(await y.toHost())]).toEqual([5, NaN, -1]);
      await gpuEllSpmv({ A, x, y, alpha: 0, beta: 2 });
      expect([...(await y.toHost())]).toEqual([10, NaN, -2]);
    } finally {
      setBindingLimitForTests(undefined);
    }
    // Under the adapter's own limit it runs: x_0 = −127, x_500 = 127, x_1099 = 0 (each its block's scale 1: exact).
    await gpuEllSpmv({ A, x, y, alpha: 1, beta: 1 });
    expect([...(await y.toHost())]).toEqual([-117, NaN, -2]);
  });
});
