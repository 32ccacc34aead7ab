/**
 * A warm call on ranges behaves exactly as a fresh one (issue 19, item 5). Calls on ranges refill the device arrays
 * of an earlier call of the same span shape (src/backends/webgpu-bridge/upload-slots.ts), and with them meet that
 * call's plans: TRSV's block inverses are computed again into the same buffers and its pass lists replayed; ELL SpMV's
 * device matrix gets new column indices and values. Each call of a random sequence — TRSV with other uplo, trans, diag, arithmetic and shape from one call
 * to the next, zero pivots, ±∞, NaN and overflowing values in A or b; ELL with new column indices and padding, special
 * values, α and β — must leave its output's storage (the view's elements and the storage around them) as the same
 * call on device arrays made for it alone (a cold plan) leaves it: bit for bit, a NaN as any NaN (where a helper's
 * sum comes late the walker adds it itself, by other instructions: IEEE 754 leaves a NaN's sign and payload open).
 *
 * Regression (session 15's reverted reuse): the pass list of a solve was kept per buffer x held on entry, but it also
 * writes the plan's spare, which another plan's solve of the same x (another arithmetic, another matrix) may have
 * swapped: the solution went where x did not look, and a range's x came back with an older call's value.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { colMajor, ellOperand, formats, range, rowMajor, trsv, ellSpmv, type Range } from '../../src/index.js';
import { deviceEllView, gpuEllSpmv, gpuTrsv, spanToRange, toDevice, toDeviceMatrix, deviceMatrix } from '../../src/backends/webgpu/api.js';
import { setBindingLimitForTests } from '../../src/backends/webgpu/device-array.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const ARITHMETIC = { f32: formats.f32, ff: formats.ff } as const;

/** Where an operand lives in its storage: its span's shape (a call meets the uploads of earlier calls of its shape). */
interface Layout {
  readonly n: number;
  /** A row-major (its transpose solved: the other uplo and trans); else column-major. */
  readonly rowMajor: boolean;
  /** x every other element of its storage from element 1 (NaN between); else packed. */
  readonly xView: boolean;
}

/**
 * Three shapes (one block; two blocks; row-major): consecutive calls of one shape share their uploads, another shape
 * between them keeps its own. All binary32 storage, and few variants (below): each new program costs seconds here.
 * At most two blocks: the one-dispatch solve has no helper workgroup, its sums one order (see the binding-limit test).
 */
const LAYOUTS: readonly Layout[] = [
  { n: 3, rowMajor: false, xView: false },
  { n: 70, rowMajor: false, xView: true },
  { n: 70, rowMajor: true, xView: false },
];

/**
 * Arithmetic, uplo, trans, diag: five variants, the row-major layout's transposes among them (L N ↔ U T), so that the
 * programs stay few while consecutive calls on one upload change all four.
 */
const VARIANTS = [['f32', 'L', 'N', 'N'], ['ff', 'L', 'N', 'N'], ['f32', 'U', 'T', 'N'], ['ff', 'U', 'T', 'N'], ['ff', 'U', 'N', 'U']] as const;

/** A value put somewhere: a zero pivot, a special value in A's triangle or in b. */
interface Special { readonly at: 'pivot' | 'A' | 'b'; readonly i: number; readonly j: number; readonly value: number }

const special: fc.Arbitrary<Special> = fc.record({
  at: fc.constantFrom('pivot', 'A', 'b'),
  i: fc.nat(1000),
  j: fc.nat(1000),
  // 0 (a zero pivot, a zero in b), ±∞, NaN, and values whose products overflow binary32.
  value: fc.constantFrom(0, -0, Infinity, -Infinity, NaN, 3e38, -1e30),
});

interface TrsvCall {
  readonly layout: number;
  readonly arithmetic: keyof typeof ARITHMETIC;
  readonly uplo: 'L' | 'U';
  readonly trans: 'N' | 'T';
  readonly diag: 'N' | 'U';
  readonly seed: number;
  readonly specials: Special[];
}

/**
 * A sequence of calls: mostly on one shape (so that most calls refill the previous call's arrays), each with one of a
 * few variants (two plans solving one x in turn: the order matters, and is drawn).
 */
const trsvCalls: fc.Arbitrary<TrsvCall[]> = fc.record({
  main: fc.nat(LAYOUTS.length - 1),
  pool: fc.subarray([...VARIANTS], { minLength: 2, maxLength: 3 }),
}).chain(({ main, pool }) => fc.array(fc.record({
  layout: fc.constantFrom(main, main, main, ...LAYOUTS.keys()),
  variant: fc.constantFrom(...pool),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
  specials: fc.array(special, { maxLength: 2 }),
}).map(({ variant: [arithmetic, uplo, trans, diag], ...rest }) => ({ ...rest, arithmetic, uplo, trans, diag })), { minLength: 4, maxLength: 8 }));

/** A and b of a call, over storages of their own. */
function trsvOperands(call: TrsvCall, layout = LAYOUTS[call.layout]!): { A: Range<2, any>; x: Range<1, any> } {
  const { n, rowMajor: byRows, xView } = layout;
  const st = { storage: formats.f32, arithmetic: formats.f32 } as const;
  const A = range((byRows ? rowMajor<2> : colMajor<2>)({ size: [n, n], ...st } as never));
  const x = range(colMajor<1>({ size: [n], ...st, ...(xView ? { stride: 2, offset: 1, data: new Float32Array(2 * n + 1).fill(NaN) } : {}) } as never));
  const av = randomValues(n * n, call.seed), bv = randomValues(n, call.seed + 1);
  // Unit-ish pivots and small off-diagonal entries (every entry is written, both triangles: only one is read).
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) A.set(i, j, i === j ? (1 + Math.abs(av[i + j * n]!)) * Math.sign(av[i + j * n]! || 1) : av[i + j * n]! / 4);
  for (let i = 0; i < n; i++) x.set(i, bv[i]!);
  for (const s of call.specials) {
    const [i, j] = [s.i % n, s.j % n];
    if (s.at === 'b') x.set(i, s.value);
    else if (s.at === 'pivot') A.set(i, i, 0);
    // In the triangle the solve reads (uplo L: i ≥ j), its diagonal included.
    else A.set(...((call.uplo === 'L') === (i >= j) ? [i, j] : [j, i]) as [number, number], s.value);
  }
  return { A, x };
}

/** The storage of a range, element by element: bits, or 'NaN' for any NaN. */
function storageBits(r: Range<any, any>): string[] {
  const data = (r.accessor as unknown as { data: Float32Array | Float64Array }).data;
  const bytes = data instanceof Float32Array ? 4 : 8;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return Array.from(data, (v, k) => (Number.isNaN(v) ? 'NaN' : bytes === 4 ? String(view.getUint32(4 * k, true)) : view.getBigUint64(8 * k, true).toString()));
}

/** TRSV on device arrays made for this call alone, as the range call makes them when no upload is kept. */
async function coldTrsv(call: TrsvCall, A: Range<2, any>, x: Range<1, any>): Promise<void> {
  const dA = await toDeviceMatrix(A as never, { strict: true });
  const dx = await toDevice(x as never, { strict: true });
  try {
    await gpuTrsv({ A: dA, x: dx, uplo: call.uplo, trans: call.trans, diag: call.diag }, { arithmetic: ARITHMETIC[call.arithmetic], strict: true, blockSize: 64 });
    await spanToRange(dx, x as never);
  } finally {
    dA.data.destroy();
    dx.destroy();
  }
}

interface EllCall {
  readonly seed: number;
  /** The values' storage (each its own upload). */
  readonly storage: 'f32' | 'f64';
  readonly arithmetic: keyof typeof ARITHMETIC;
  readonly alpha: number;
  readonly beta: number;
  /** Per row: how many of its slots are entries (the rest padding). */
  readonly lengths: number[];
  readonly specials: { readonly at: 'A' | 'x' | 'y'; readonly k: number; readonly value: number }[];
}

const ELL = { rows: 9, cols: 7, width: 3, stride: 10 } as const;

const ellCall: fc.Arbitrary<EllCall> = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
  storage: fc.constantFrom('f32', 'f32', 'f64'),
  arithmetic: fc.constantFrom('f32', 'ff'),
  alpha: fc.constantFrom(1, -0.5, 3, Infinity, NaN),
  beta: fc.constantFrom(0, 1, -2, NaN),
  lengths: fc.array(fc.integer({ min: 0, max: ELL.width }), { minLength: ELL.rows, maxLength: ELL.rows }),
  specials: fc.array(fc.record({ at: fc.constantFrom('A', 'x', 'y'), k: fc.nat(1000), value: fc.constantFrom(0, -0, Infinity, -Infinity, NaN, 3e38) }), { maxLength: 2 }),
});

/** The ELL operand (new column indices and padding), x and y of a call. */
function ellOperands(call: EllCall): { A: ReturnType<typeof ellOperand>; x: Range<1, any>; y: Range<1, any> } {
  const { rows, cols, width, stride } = ELL;
  const st = { storage: formats.f32, arithmetic: formats.f32 } as never;
  const colIndex = new Int32Array(stride * width).fill(-1);
  const values = range(colMajor<2>({ size: [stride, width], storage: call.storage === 'f32' ? formats.f32 : formats.f64, arithmetic: formats.f32 } as never));
  const r = randomValues(stride * width + cols + rows, call.seed);
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < call.lengths[i]!; k++) {
      colIndex[i + k * stride] = Math.floor(Math.abs(r[i + k * stride]!) * cols) % cols;
      values.set(i, k, r[i + k * stride]!);
    }
  }
  const x = range(colMajor<1>({ size: [cols], ...(st as object) } as never));
  const y = range(colMajor<1>({ size: [rows], ...(st as object) } as never));
  for (let j = 0; j < cols; j++) x.set(j, r[stride * width + j]!);
  for (let i = 0; i < rows; i++) y.set(i, r[stride * width + cols + i]!);
  for (const s of call.specials) {
    if (s.at === 'x') x.set(s.k % cols, s.value);
    else if (s.at === 'y') y.set(s.k % rows, s.value);
    else values.set(s.k % rows, s.k % width, s.value);
  }
  return { A: ellOperand({ rows, cols, width, stride, colIndex }, values), x, y };
}

/** ELL SpMV on device arrays made for this call alone, as the range call makes them when no upload is kept. */
async function coldEll(call: EllCall, A: ReturnType<typeof ellOperand>, x: Range<1, any>, y: Range<1, any>): Promise<void> {
  const dA = await deviceEllView(A.structure, await toDeviceMatrix(A.values as never, { strict: true }));
  const dx = await toDevice(x as never, { strict: true });
  const dy = await toDevice(y as never, { strict: true });
  try {
    await gpuEllSpmv({ A: dA, x: dx, y: dy, alpha: call.alpha, beta: call.beta }, { arithmetic: ARITHMETIC[call.arithmetic], strict: true });
    await spanToRange(dy, y as never);
  } finally {
    dA.values.destroy();
    dA.colIndex?.destroy();
    dx.destroy();
    dy.destroy();
  }
}

/** Runs the calls, each under its binding limit, against cold solves. */
async function limitCalls(calls: { limit?: number; seed: number; specials: Special[] }[], layout: Layout): Promise<void> {
  for (const [k, c] of calls.entries()) {
    const call: TrsvCall = { layout: -1, arithmetic: 'f32', uplo: 'L', trans: 'N', diag: 'N', seed: c.seed, specials: c.specials };
    setBindingLimitForTests(c.limit);
    try {
      const { A, x } = trsvOperands(call, layout);
      const cold = trsvOperands(call, layout);
      await coldTrsv(call, cold.A, cold.x);
      await trsv({ A, x, uplo: 'L' }, { backend: 'gpu', arithmetic: formats.f32, strict: true });
      expect(storageBits(x), `call ${k}`).toEqual(storageBits(cold.x));
    } finally {
      setBindingLimitForTests(undefined);
    }
  }
}

describe('a warm call on ranges is a fresh call', () => {
  it('TRSV: consecutive calls mixing shapes, variants, zero pivots and non-finite values give the cold solve\'s bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(trsvCalls, async (calls) => {
      for (const [k, call] of calls.entries()) {
        // The same operands twice, over storages of their own.
        const { A, x } = trsvOperands(call);
        const cold = trsvOperands(call);
        await coldTrsv(call, cold.A, cold.x);
        await trsv({ A, x, uplo: call.uplo, trans: call.trans, diag: call.diag }, { backend: 'gpu', arithmetic: ARITHMETIC[call.arithmetic], strict: true });
        expect(storageBits(x), `call ${k} of ${JSON.stringify(calls)}`).toEqual(storageBits(cold.x));
      }
    }), { numRuns: 6 });
  });

  it('ELL SpMV: new column indices, padding, values and coefficients on every call give the cold product\'s bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(ellCall, { minLength: 3, maxLength: 5 }), async (calls) => {
      for (const [k, call] of calls.entries()) {
        const { A, x, y } = ellOperands(call);
        const cold = ellOperands(call);
        await coldEll(call, cold.A, cold.x, cold.y);
        await ellSpmv({ alpha: call.alpha, A, x, beta: call.beta, y }, { backend: 'gpu', arithmetic: ARITHMETIC[call.arithmetic], strict: true });
        expect(storageBits(y), `call ${k} of ${JSON.stringify(calls)}`).toEqual(storageBits(cold.y));
      }
    }), { numRuns: 6 });
  });

  it('TRSV under a lowered binding limit and the device\'s in turn (each its own uploads): the cold solve\'s bits', async () => {
    await requireRuntime();
    // n = 130: A (67 600 bytes) over 49 152 bytes — windows of 93 columns, the blocked solve and the split redo; the
    // inverses (64 × 192 binary32 words) just fit. Zero pivots and NaN in b take the redo.
    const n = 130;
    const calls: { limit?: number; seed: number; specials: Special[] }[] = [
      { limit: 49152, seed: 5, specials: [] },
      { seed: 6, specials: [{ at: 'pivot', i: 100, j: 0, value: 0 }] },
      { limit: 49152, seed: 7, specials: [{ at: 'pivot', i: 3, j: 0, value: 0 }] },
      { limit: 49152, seed: 8, specials: [{ at: 'b', i: 70, j: 0, value: NaN }] },
      { limit: 49152, seed: 9, specials: [] },
      { seed: 10, specials: [] },
    ];
    const layout: Layout = { n, rowMajor: false, xView: false };
    // Three blocks bring a helper workgroup into the one-dispatch solve: its partial sum against the walker's own
    // gave the last block's rows bits 2 ulps apart in about one run in ten (fresh plans too: not the refill's doing).
    // Without helpers publishing, the walker sums every block itself: one order, the bits compared here.
    process.env.MODPREC_TRSV_SPIN = '0';
    rereadTuningKnobs();
    try {
      await limitCalls(calls, layout);
    } finally {
      delete process.env.MODPREC_TRSV_SPIN;
      rereadTuningKnobs();
    }
  });

  it('a resident x solved by two matrices in turn, irregularly: each solve has the bits of a fresh x\'s', async () => {
    await requireRuntime();
    const n = 5;
    const matrices = await Promise.all([1, 2].map(async (seed) => {
      const v = randomValues(n * n, seed);
      for (let j = 0; j < n; j++) v[j * n + j] = 1 + Math.abs(v[j * n + j]!);
      return deviceMatrix(await toDevice(v, { format: 'f32', strict: true }), n, n);
    }));
    const x = await toDevice(randomValues(n, 3), { format: 'f32', strict: true });
    try {
      // Two plans swap x's buffer with their spares: the alternation, then one matrix twice (the session 15 failure).
      for (const [k, m] of [0, 1, 0, 1, 0, 1, 1, 0, 0, 1].entries()) {
        const fresh = await toDevice(await x.toHost(), { format: 'f32', strict: true });
        await gpuTrsv({ A: matrices[m]!, x: fresh, uplo: 'L' }, { arithmetic: 'ff', strict: true });
        await gpuTrsv({ A: matrices[m]!, x, uplo: 'L' }, { arithmetic: 'ff', strict: true });
        expect(Array.from(await x.toHost()), `solve ${k}`).toEqual(Array.from(await fresh.toHost()));
        fresh.destroy();
      }
    } finally {
      x.destroy();
      for (const m of matrices) m.data.destroy();
    }
  });
});
