/**
 * ELL SpMV with x, y and A over one storage binding (a lowered limit, so llvmpipe splits small operands): x read in
 * windows, y written in tiles of rows (packed, or a strided / negative-stride view of a sentinel-filled span written in
 * place), A's values and indices in groups of slots — through the resident API (`toDevice` of strided ranges).
 * Every case runs unsplit and split: y's whole span must come out bit for bit the same (the chained passes add each
 * row's entries in the one-pass kernel's slot order), every element outside the view must keep its sentinel, and the
 * view must hold α·A·x + β·y within the CPU's a-priori `ellSpmvBound` of the exact value (BigInt rationals).
 * β = 0 runs with NaN in y (never read).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colMajor, ellMatrix, ellOperand, ellSpmvBound, formats, range } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { deviceView, extentBytes, setBindingLimitForTests, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuEllSpmv, toDeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { absoluteError, exactDot, exactOf } from '../../src/testing/exact.js';
import { addRational, compareRational, mulRational } from '../../src/testing/rational.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const STORAGE = { f64: formats.f64, f32: formats.f32, f16: formats.f16, bf16: formats.bf16 } as const;
type Name = keyof typeof STORAGE;

/**
 * The lowered limit: 4096 bytes. It must hold what every drawn case needs in one binding — a window of x of 128
 * elements: (129 + 127·|inc|) elements of its span, 510·8 = 4080 bytes for f64 at |inc| = 3 (the largest drawn) — and
 * 2 rows of y (512 bytes of alignment slack + 2·8·3), 2 partial sums, one slot of A for 2 rows: all far below.
 */
const LIMIT = 4096;
const MAX_INC = 3;

interface VecCase { readonly storage: Name; readonly inc: number; readonly pad: number }
interface Case {
  readonly rows: number;
  readonly cols: number;
  readonly width: number;
  readonly extraStride: number;
  readonly values: Name;
  readonly x: VecCase;
  readonly y: VecCase;
  readonly arithmetic: 'f32' | 'ff';
  readonly alpha: number;
  readonly beta: number;
  readonly seed: number;
}

const vec = fc.record({ storage: fc.constantFrom<Name>('f64', 'f32', 'f16', 'bf16'), inc: fc.constantFrom(1, 1, 2, -1, -MAX_INC), pad: fc.nat(3) });
/** Small (one binding) or large (over it) sizes. */
const size = (large: number): fc.Arbitrary<number> => fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: large, max: 3 * large }));

const caseArb: fc.Arbitrary<Case> = fc.record({
  rows: size(500), cols: size(1000), width: fc.integer({ min: 1, max: 4 }), extraStride: fc.nat(3),
  values: fc.constantFrom<Name>('f64', 'f32', 'f16', 'bf16'), x: vec, y: vec, arithmetic: fc.constantFrom<'f32' | 'ff'>('f32', 'ff'),
  alpha: fc.constantFrom(1, -0.5, 3), beta: fc.constantFrom(0, 0, 1, -1.5), seed: fc.nat(10_000),
});

/** A strided view of `n` elements over a sentinel-filled backing range (offset `pad`, or its end for a negative inc). */
function stridedRange(c: VecCase, n: number, values: ArrayLike<number>): { r: Range<1, any>; full: Range<1, any>; at: number[] } {
  const a = Math.abs(c.inc);
  const spanSize = c.pad + (n - 1) * a + 1 + 2;
  const full = range(colMajor<1>({ size: [spanSize], storage: STORAGE[c.storage] as never }));
  for (let k = 0; k < spanSize; k++) full.set(k, 0.5 + (k % 7) / 8);
  const offset = c.pad + (c.inc < 0 ? (n - 1) * a : 0);
  const r = range(colMajor<1>({ size: [n], stride: c.inc, offset, storage: STORAGE[c.storage] as never, data: full.accessor.data as never }));
  for (let i = 0; i < n; i++) r.set(i, values[i]!);
  return { r, full, at: Array.from({ length: n }, (_, i) => offset + i * c.inc) };
}

async function check(c: Case): Promise<{ splitX: boolean; splitY: boolean; splitA: boolean }> {
  const { rows, cols, width } = c;
  const stride = rows + c.extraStride;
  const label = JSON.stringify(c);
  // Column indices in random order (not ascending), padding (−1) last in a row.
  const rnd = randomValues(stride * width + rows, c.seed);
  const colIndex = new Int32Array(stride * width).fill(-1);
  for (let i = 0; i < rows; i++) {
    const count = Math.floor(((rnd[stride * width + i]! + 1) / 2) * (width + 1));
    for (let k = 0; k < Math.min(width, count); k++) colIndex[i + k * stride] = Math.floor(((rnd[i + k * stride]! + 1) / 2) * cols) % cols;
  }
  const stored = range(colMajor<2>({ size: [rows, width], stride, storage: STORAGE[c.values] as never }));
  const raw = randomValues(stride * width, c.seed + 1, 2);
  for (let i = 0; i < rows; i++) for (let k = 0; k < width; k++) stored.set(i, k, colIndex[i + k * stride] === -1 ? 0 : raw[i + k * stride]!);
  const E = ellOperand(ellMatrix({ rows, cols, width, stride, colIndex, values: new Float64Array(stride * width) }), stored);
  const xr = stridedRange(c.x, cols, randomValues(cols, c.seed + 2, 4));
  const yOld = c.beta === 0 ? new Float64Array(rows).fill(NaN) : randomValues(rows, c.seed + 3, 4);
  const yr = stridedRange(c.y, rows, yOld);
  const bound = ellSpmvBound({ alpha: c.alpha, A: E, x: xr.r, beta: c.beta, y: yr.r }, { arithmetic: formats[c.arithmetic] });

  const A = await toDeviceEll({ rows, cols, width, stride, colIndex, values: Float64Array.from({ length: stride * width }, (_, q) => (q % stride < rows ? stored.get(q % stride, Math.floor(q / stride)) : 0)) }, { format: c.values });
  const x = await toDevice(xr.r);
  const run = async (limit?: number): Promise<DeviceArray> => {
    const y = await toDevice(yr.r);
    setBindingLimitForTests(limit);
    try {
      await gpuEllSpmv({ A, x, y, alpha: c.alpha, beta: c.beta }, { arithmetic: c.arithmetic });
    } finally {
      setBindingLimitForTests(undefined);
    }
    return y;
  };
  const unsplit = await run();
  const split = await run(LIMIT);
  const whole = (y: DeviceArray) => deviceView(y, 0, y.spanLength, 1).toHost();
  const [u, s] = [await whole(unsplit), await whole(split)];
  // The whole span, bit for bit (NaN included), and the sentinels outside the view.
  expect(s.length, label).toBe(u.length);
  for (let k = 0; k < u.length; k++) if (!Object.is(s[k], u[k])) expect(`${k}: ${s[k]}`, label).toBe(`${k}: ${u[k]}`);
  // toDevice uploads the part of the backing the view covers (from a word boundary): device element k is backing
  // element lo + k, where the view's first element sits at its offset.
  const lo = yr.at[0]! - unsplit.offset;
  const inView = new Set(yr.at);
  for (let k = 0; k < u.length; k++) if (!inView.has(lo + k)) expect(u[k], `${label} sentinel ${k}`).toBe(yr.full.get(lo + k));
  // The exact value of the stored operands, within the CPU's bound.
  for (let i = 0; i < rows; i++) {
    const v: number[] = [];
    const xs: number[] = [];
    for (let k = 0; k < width; k++) {
      const col = colIndex[i + k * stride]!;
      if (col < 0) continue;
      v.push(stored.get(i, k));
      xs.push(xr.r.get(col));
    }
    let exact = mulRational(exactOf(c.alpha), exactDot(v, xs));
    if (c.beta !== 0) exact = addRational(exact, mulRational(exactOf(c.beta), exactOf(yr.r.get(i))));
    const got = u[yr.at[i]! - lo]!;
    expect(Number.isFinite(got), `${label} row ${i}`).toBe(true);
    expect(compareRational(absoluteError(got, exact), exactOf(bound[i]!)), `${label} row ${i}: ${got}, bound ${bound[i]}`).toBeLessThanOrEqual(0);
  }
  const outcome = { splitX: extentBytes(x) > LIMIT, splitY: split.words * 4 > LIMIT, splitA: stride * width * 4 > LIMIT };
  for (const a of [A.values, x, unsplit, split]) a.destroy();
  return outcome;
}

describe('ELL SpMV with x, y and A over one storage binding', () => {
  it('runs split with the unsplit bits, sentinels kept, within the CPU bound of the exact value', async () => {
    await requireRuntime();
    const seen = { splitX: false, splitY: false, splitA: false };
    // Fixed cases that split each operand (x f64 at inc −3 in 128-element windows, y a stride-2 f16 view, a packed f32
    // and a 16-bit view off a word boundary (half-word stores, atomic where two of its elements share a word), A's indices over the limit), then random ones.
    const examples: Case[] = [
      { rows: 900, cols: 2500, width: 4, extraStride: 3, values: 'f32', x: { storage: 'f64', inc: -3, pad: 2 }, y: { storage: 'f16', inc: 2, pad: 1 }, arithmetic: 'ff', alpha: -0.5, beta: 0, seed: 1 },
      { rows: 1400, cols: 1100, width: 3, extraStride: 0, values: 'bf16', x: { storage: 'f32', inc: 1, pad: 0 }, y: { storage: 'f32', inc: 1, pad: 0 }, arithmetic: 'f32', alpha: 3, beta: -1.5, seed: 2 },
      // After the packed f32 y above, an in-place f32 view with β ≠ 0: the two last passes differ only in where they
      // read y's old values (getProgram once handed back the packed one's program for the same source and arguments: all zeros).
      { rows: 500, cols: 1000, width: 1, extraStride: 0, values: 'f64', x: { storage: 'f64', inc: 1, pad: 0 }, y: { storage: 'f32', inc: -3, pad: 0 }, arithmetic: 'f32', alpha: 1, beta: 1, seed: 4 },
      { rows: 1200, cols: 30, width: 2, extraStride: 1, values: 'f64', x: { storage: 'bf16', inc: 2, pad: 3 }, y: { storage: 'f16', inc: 1, pad: 1 }, arithmetic: 'ff', alpha: 1, beta: 1, seed: 3 },
    ];
    for (const e of examples) {
      const o = await check(e);
      for (const k of Object.keys(seen) as (keyof typeof seen)[]) seen[k] ||= o[k];
    }
    expect(seen).toEqual({ splitX: true, splitY: true, splitA: true });
    await fc.assert(fc.asyncProperty(caseArb, async (c) => {
      await check(c);
    }), { numRuns: 16 });
  });
});
