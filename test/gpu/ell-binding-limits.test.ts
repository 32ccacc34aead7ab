/**
 * ELL SpMV cases that were `BACKEND_LIMIT` under a binding limit and now split (a lowered limit, so llvmpipe splits
 * small operands): a packed range-scaled values array whose scales exceed a binding (read as its matrix), block-scaled
 * values given as a matrix view in the packed layout (read as the packed values), an x view whose stride spans more than a binding per 128 elements (windows of fewer elements, at any
 * start), a y view two of whose rows lie more than a binding apart (tiles of one row), block-scaled values (i8,
 * i16) over a binding (windows of entries, their scales bound from the 64-scale boundary below with the read's scale
 * offset; every layout and block size: ell-block-scaled-windows.test.ts), and a range-scaled values
 * matrix whose scales exceed a binding (each block binds the scales between its corners'). Every case runs unsplit and
 * split: y's whole span must come out bit for bit the same (each row adds its entries in slot order either way), and
 * every element of y's span outside the view must keep its bits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deviceView, setBindingLimitForTests, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { deviceEllView, gpuEllSpmv, toDeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { deviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { toDeviceScaledSpan } from '../../src/backends/webgpu/range-scale.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';
import { ellOperand, ellSpmv, ellStructure, formats, range, scaledReducedColMajor, scaledReducedRowMajor, vector } from '../../src/index.js';

const LIMIT = 4096;
const BYTES = { f64: 8, f32: 4, f16: 2, bf16: 2 } as const;
type Name = keyof typeof BYTES;

interface Case {
  readonly kind: 'x stride' | 'y stride' | 'scaled A';
  readonly storage: Name;
  readonly scaled: 'i8' | 'i16';
  readonly scaleBlock: number;
  readonly extra: number;
  readonly negative: boolean;
  readonly pad: number;
  readonly rows: number;
  readonly cols: number;
  readonly width: number;
  readonly arithmetic: 'f32' | 'ff';
  readonly beta: number;
  readonly seed: number;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  kind: fc.constantFrom<Case['kind']>('x stride', 'y stride', 'scaled A'),
  storage: fc.constantFrom<Name>('f64', 'f32', 'f16', 'bf16'),
  scaled: fc.constantFrom<'i8' | 'i16'>('i8', 'i16'),
  scaleBlock: fc.constantFrom(1, 2, 3, 4),
  extra: fc.nat(3),
  negative: fc.boolean(),
  pad: fc.nat(3),
  rows: fc.integer({ min: 1, max: 12 }),
  cols: fc.integer({ min: 130, max: 200 }),
  width: fc.integer({ min: 1, max: 3 }),
  arithmetic: fc.constantFrom<'f32' | 'ff'>('f32', 'ff'),
  beta: fc.constantFrom(0, 1.5),
  seed: fc.nat(10_000),
});

/** A view of `n` elements in a span of random values (its sentinels): offset `pad`, or its end for a negative stride. */
async function spanView(storage: Name, n: number, stride: number, pad: number, seed: number): Promise<{ span: DeviceArray; view: DeviceArray }> {
  const size = pad + (n - 1) * Math.abs(stride) + 1 + pad;
  const span = await toDevice(randomValues(size, seed, 4), { format: storage });
  return { span, view: deviceView(span, pad + (stride < 0 ? (n - 1) * -stride : 0), n, stride) };
}

async function check(c: Case): Promise<void> {
  // 'scaled A': enough rows that the indices (4 bytes an entry) exceed the limit, so the values go in windows.
  const { cols, width } = c;
  const rows = c.kind === 'scaled A' ? Math.ceil(1100 / width) + c.rows * 20 : c.rows;
  const stride = rows + c.extra;
  if (c.kind === 'scaled A') expect(stride * width * 4, 'the indices exceed the limit').toBeGreaterThan(LIMIT);
  const sign = c.negative ? -1 : 1;
  const bytes = BYTES[c.storage];
  // x: 128 elements span more than the limit; y: two rows lie more than the limit less 512 bytes apart.
  const xInc = c.kind === 'x stride' ? sign * (Math.floor(LIMIT / (128 * bytes)) + 1 + c.extra) : 1;
  const yInc = c.kind === 'y stride' ? sign * (Math.floor((LIMIT - 512) / (2 * bytes)) + 1 + c.extra) : sign;
  const rnd = randomValues(stride * width * 2, c.seed);
  const colIndex = new Int32Array(stride * width).fill(-1);
  const values = new Float64Array(stride * width);
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < width; k++) {
      if (rnd[i + k * stride]! < -0.6) break;
      colIndex[i + k * stride] = Math.floor(((rnd[stride * width + i + k * stride]! + 1) / 2) * cols) % cols;
      values[i + k * stride] = rnd[i + k * stride]! * 3;
    }
  }
  const A = await toDeviceEll({ rows, cols, width, stride, colIndex, values }, c.kind === 'scaled A' ? { format: c.scaled, scaleBlock: c.scaleBlock } : { format: 'f32' });
  const xStorage = c.kind === 'x stride' ? c.storage : 'f32';
  const yStorage = c.kind === 'y stride' ? c.storage : 'f32';
  const x = (await spanView(xStorage, cols, xInc, c.pad, c.seed + 1)).view;
  const run = async (limit?: number): Promise<DeviceArray> => {
    const { span, view } = await spanView(yStorage, rows, yInc, c.pad, c.seed + 2);
    setBindingLimitForTests(limit);
    try {
      await gpuEllSpmv({ A, x, y: view, alpha: -0.75, beta: c.beta }, { arithmetic: c.arithmetic });
    } finally {
      setBindingLimitForTests(undefined);
    }
    return span;
  };
  const label = JSON.stringify({ ...c, rows, xInc, yInc });
  const fresh = (await spanView(yStorage, rows, yInc, c.pad, c.seed + 2)).span;
  const before = (await fresh.encoded()).words;
  fresh.destroy();
  const [unsplit, split] = [await run(), await run(LIMIT)];
  const [u, s] = [(await unsplit.encoded()).words, (await split.encoded()).words];
  expect(Array.from(s), label).toEqual(Array.from(u));
  // Outside the view: the span's own bits (the view's elements compared by the line above).
  const inView = new Set(Array.from({ length: rows }, (_, i) => (c.pad + (yInc < 0 ? (rows - 1) * -yInc : 0)) + i * yInc));
  const half = yStorage === 'f16' || yStorage === 'bf16';
  const bitsAt = (w: Uint32Array, e: number): string => String(half ? (w[e >> 1]! >>> ((e & 1) * 16)) & 0xffff : yStorage === 'f64' ? `${w[2 * e]}:${w[2 * e + 1]}` : w[e]);
  for (let e = 0; e < unsplit.spanLength; e++) if (!inView.has(e)) expect(bitsAt(u, e), `${label} element ${e}`).toBe(bitsAt(before, e));
  for (const a of [A.values, x, unsplit, split]) a.destroy();
}

/**
 * A range-scaled values matrix (stride × width, row-major, i8 or f32, power-of-two scales per row, per slot or per
 * element) whose fp64 scales exceed the lowered limit: `backend: 'gpu'` split and unsplit give the same bits.
 */
async function checkRangeScaled(storage: 'i8' | 'f32', mask: [boolean, boolean], rows: number, width: number, arithmetic: 'f32' | 'ff', seed: number): Promise<void> {
  const cols = 50;
  const stride = rows;
  const rnd = randomValues(rows * width * 3, seed);
  const scale = Float64Array.from({ length: (mask[0] ? rows : 1) * (mask[1] ? width : 1) }, (_, q) => 2 ** (Math.floor((rnd[q]! + 1) * 6) - 6));
  const ar = formats[arithmetic];
  const values = range(scaledReducedRowMajor<2>({ size: [rows, width], storage: (formats[storage] as any).storage ?? formats[storage], arithmetic: ar, scaleMask: mask, scale }));
  for (let i = 0; i < rows; i++) for (let k = 0; k < width; k++) values.accessor.storage.encode(values.accessor.data as never, values.accessor.linearIndex([i, k]), Math.round(rnd[rows * width + i * width + k]! * 100) as never);
  const structure = ellStructure({ rows, cols, width, stride, colIndex: Int32Array.from({ length: stride * width }, (_, q) => (q * 37 + seed) % cols) });
  const x = vector(randomValues(cols, seed + 1, 4), { storage: formats.f64, arithmetic: ar });
  const run = async (limit?: number): Promise<Uint8Array> => {
    const y = vector(randomValues(rows, seed + 2, 4), { storage: formats.f64, arithmetic: ar });
    setBindingLimitForTests(limit);
    try {
      await ellSpmv({ alpha: -0.75, A: ellOperand(structure, values), x, beta: 1.5, y }, { backend: 'gpu', strict: true, arithmetic: ar });
    } finally {
      setBindingLimitForTests(undefined);
    }
    const d = y.accessor.data as Float64Array;
    return new Uint8Array(d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength));
  };
  expect(scale.length * 8, 'the scales exceed the limit').toBeGreaterThan(LIMIT);
  const [u, s] = [await run(), await run(LIMIT)];
  expect(Array.from(s), JSON.stringify({ storage, mask, rows, width, arithmetic, seed })).toEqual(Array.from(u));
}

/**
 * A packed range-scaled values array (the span of a column-major stride × width scaled range, i8 or f32, power-of-two
 * scales per row or per element, given to the kernel as packed values) whose fp64 scales exceed the lowered limit: read
 * as the matrix it is, split, with the bits of the unsplit packed run.
 */
async function checkPackedRangeScaled(storage: 'i8' | 'f32', mask: [boolean, boolean], rows: number, width: number, arithmetic: 'f32' | 'ff', seed: number): Promise<void> {
  const cols = 50;
  const stride = rows;
  const rnd = randomValues(rows * width * 3, seed);
  const scale = Float64Array.from({ length: (mask[0] ? rows : 1) * (mask[1] ? width : 1) }, (_, q) => 2 ** (Math.floor((rnd[q]! + 1) * 6) - 6));
  const values = range(scaledReducedColMajor<2>({ size: [rows, width], storage: (formats[storage] as any).storage ?? formats[storage], arithmetic: formats[arithmetic], scaleMask: mask, scale }));
  for (let i = 0; i < rows; i++) for (let k = 0; k < width; k++) values.accessor.storage.encode(values.accessor.data as never, values.accessor.linearIndex([i, k]), Math.round(rnd[rows * width + i * width + k]! * 100) as never);
  const { span } = await toDeviceScaledSpan(values as never, 'values');
  // Every row full but some, whose last slot is padding (padding last in a row, as ellStructure requires).
  const colIndex = Int32Array.from({ length: stride * width }, (_, q) => (Math.floor(q / stride) === width - 1 && ((q % stride) * 37 + seed) % 11 === 0 ? -1 : (q * 37 + seed) % cols));
  const view = await deviceEllView({ rows, cols, width, stride, colIndex }, deviceMatrix(span, stride, width));
  const A = { ...view, valuesLd: undefined, valuesRows: undefined };
  const x = await toDevice(randomValues(cols, seed + 1, 4), { format: 'f32' });
  const run = async (limit?: number): Promise<number[]> => {
    const y = await toDevice(randomValues(rows, seed + 2, 4), { format: 'f64' });
    setBindingLimitForTests(limit);
    try {
      await gpuEllSpmv({ A, x, y, alpha: -0.75, beta: 1.5 }, { arithmetic });
    } finally {
      setBindingLimitForTests(undefined);
    }
    const words = [...(await y.encoded()).words];
    y.destroy();
    return words;
  };
  expect(scale.length * 8, 'the scales exceed the limit').toBeGreaterThan(LIMIT);
  const [u, s] = [await run(), await run(LIMIT)];
  expect(s, JSON.stringify({ storage, mask, rows, width, arithmetic, seed })).toEqual(u);
  span.destroy();
  x.destroy();
}

describe('ELL SpMV operands that no longer hit the binding limit', () => {
  it('a packed range-scaled values array whose scales exceed a binding (was BACKEND_LIMIT): read as its matrix, the unsplit bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom<'i8' | 'f32'>('i8', 'f32'), fc.constantFrom<[boolean, boolean]>([true, false], [true, true]),
      fc.integer({ min: 1, max: 3 }), fc.constantFrom<'f32' | 'ff'>('f32', 'ff'), fc.nat(1000), async (storage, mask, width, arithmetic, seed) => {
        const rows = mask[1] ? Math.ceil(520 / width) + seed % 100 : 520 + (seed % 180);
        await checkPackedRangeScaled(storage, mask, rows, width, arithmetic, seed);
      }), { numRuns: 4 });
  });

  it('block-scaled values (i8, i16) given as a matrix view at leading dimension stride over a binding (was BACKEND_LIMIT): the packed run\'s bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom<'i8' | 'i16'>('i8', 'i16'), fc.constantFrom(1, 3, 4), fc.integer({ min: 1, max: 3 }), fc.constantFrom<'f32' | 'ff'>('f32', 'ff'), fc.nat(1000),
      async (format, scaleBlock, width, arithmetic, seed) => {
        // rows·width·4 bytes of indices over the limit: the values go in windows.
        const [rows, cols] = [Math.ceil(1100 / width) + (seed % 40), 60];
        const stride = rows + (seed % 3);
        // Rows past `rows` padding, and some rows' last slot (padding last in a row; 0 in a padding slot).
        const colIndex = Int32Array.from({ length: stride * width }, (_, q) => (q % stride >= rows || (Math.floor(q / stride) === width - 1 && ((q % stride) * 31 + seed) % 9 === 0) ? -1 : (q * 37 + seed) % cols));
        const values = randomValues(stride * width, seed, 3).map((v, q) => (colIndex[q] === -1 ? 0 : v));
        const packed = await toDeviceEll({ rows, cols, width, stride, colIndex, values }, { format, scaleBlock });
        const view = await deviceEllView({ rows, cols, width, stride, colIndex }, deviceMatrix(packed.values, stride, width));
        const x = await toDevice(randomValues(cols, seed + 1, 4), { format: 'f32' });
        const run = async (A: typeof packed, limit?: number): Promise<number[]> => {
          const y = await toDevice(randomValues(rows, seed + 2, 4), { format: 'f32' });
          setBindingLimitForTests(limit);
          try {
            await gpuEllSpmv({ A, x, y, alpha: -0.75, beta: 1.5 }, { arithmetic });
          } finally {
            setBindingLimitForTests(undefined);
          }
          const words = [...(await y.encoded()).words];
          y.destroy();
          return words;
        };
        expect(await run(view, LIMIT), JSON.stringify({ format, scaleBlock, width, arithmetic, seed })).toEqual(await run(packed));
        packed.values.destroy();
        x.destroy();
      }), { numRuns: 4 });
  });

  it('a range-scaled values matrix whose scales exceed a binding: the unsplit bits (scales per row, per element)', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom<'i8' | 'f32'>('i8', 'f32'), fc.constantFrom<[boolean, boolean]>([true, false], [true, true]),
      fc.integer({ min: 1, max: 3 }), fc.constantFrom<'f32' | 'ff'>('f32', 'ff'), fc.nat(1000), async (storage, mask, width, arithmetic, seed) => {
        // Per row: 520 to 700 rows (over 512 scales); per element: rows·width over 512.
        const rows = mask[1] ? Math.ceil(520 / width) + seed % 100 : 520 + (seed % 180);
        await checkRangeScaled(storage, mask, rows, width, arithmetic, seed);
      }), { numRuns: 6 });
  });

  it('x views of any stride, y views two rows of which span a binding, block-scaled values over a binding: the unsplit bits', async () => {
    await requireRuntime();
    const fixed: Case = { kind: 'x stride', storage: 'f64', scaled: 'i8', scaleBlock: 1, extra: 0, negative: true, pad: 1, rows: 5, cols: 150, width: 2, arithmetic: 'ff', beta: 1.5, seed: 1 };
    for (const kind of ['x stride', 'y stride', 'scaled A'] as const) await check({ ...fixed, kind });
    await fc.assert(fc.asyncProperty(caseArb, check), { numRuns: 12 });
  });
});
