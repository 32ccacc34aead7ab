/**
 * The `ddGemvDecodedXDd` switch (src/backends/webgpu/kernel-switches.ts): with dd terms in GEMV's long window
 * (`ddGemvLongDd`), a dd x is decoded once a call (src/formats/dd/dd-gpu-gemv-decoded-dd-wgsl.ts: x_j's code word and
 * its six signed lo limbs) and the dd·dd and f64·dd terms read that instead of deriving it in every term. Only where
 * the limbs come from changes, so the output words must be those of the switch off — over pairs with ±0, subnormal hi,
 * subnormal lo, lo at the regularity boundary (hi·2^-53 in, hi·2^-52 out), hi at 2^-969 / 2^-970 (regular / not),
 * binary64's exponent extremes, unnormalised pairs, ±∞/NaN in hi and in lo — and every finite row within the long
 * window's bound of its exact BigInt value (non-finite rows the CPU dd kernel's ±∞ and NaN). dd·dd N with x packed
 * (and in dd-split storage: the same programs) by default; f64·dd N, dd·dd T with two chains, x of stride −2 and a row-major sub-range A opt-in
 * (`MODPREC_SLOW_TESTS=1`: their own shaders, tens of seconds each on llvmpipe).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceView, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, deviceMatrixView, gemvDecodedXPassCount, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { ddGpuArithmetic, ddGpuArithmeticGemvLongDd, ddGpuArithmeticGemvLongDdX } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import type { DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { doubleDoubles } from '../../src/testing/double-double-laws.js';
import { colMajor, range, rowMajor } from '../../src/index.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { exactRow, expectRowWithin, type Pair } from './dd-gemv-rows.js';
import { ddRange } from './dd-ranges.js';
import { requireRuntime } from './gpu-test-helpers.js';

const initial = gpuKernelSwitches();
const slowTests = process.env.MODPREC_SLOW_TESTS === '1';
afterEach(() => {
  setGpuKernelSwitches(initial);
});

type Kind = 'dd' | 'f64';

/**
 * Normalised pairs whose lo has a full 53-bit significand, 53 … 80 bits below hi's leading bit, of either sign: every
 * one of x's lo limbs non-zero, unbiased (fast-check's early runs otherwise give simple significands, whose low limbs are 0).
 */
const fullPairs: fc.Arbitrary<Pair> = fc.noBias(fc.tuple(
  fc.integer({ min: 0, max: 2 ** 52 - 1 }), fc.integer({ min: 0, max: 2 ** 52 - 1 }), fc.integer({ min: -200, max: 200 }), fc.integer({ min: 0, max: 27 }), fc.boolean(), fc.boolean(),
)).map(([h, l, e, r, sh, sl]) => {
  const hi = (sh ? -1 : 1) * (1 + h / 2 ** 52) * 2 ** e;
  // |lo| < 2^(e − 53 − r) ≤ ulp(hi)/2: normalised (hi + lo rounds to hi).
  const lo = (sl ? -1 : 1) * (1 + l / 2 ** 52) * 2 ** (e - 54 - r);
  return { hi, lo };
});

/** Finite pairs every branch of the decoding and the term code meets. */
const edgePairs: readonly Pair[] = [
  { hi: 0, lo: 0 }, { hi: -0, lo: -0 }, { hi: 0, lo: -0 }, { hi: 5e-324, lo: 0 }, { hi: -2.5e-308, lo: 0 },
  // Subnormal lo: beside a large hi (regular, lo below the window's reach), beside hi = 2^-969 (regular, r = 0).
  { hi: 1, lo: 5e-324 }, { hi: -3, lo: -(2 ** -1060) }, { hi: 2 ** -969, lo: 2 ** -1074 }, { hi: 2 ** -969, lo: 0 },
  { hi: 2 ** -970, lo: 0 }, { hi: 2 ** -1000, lo: 2 ** -1060 }, { hi: 2 ** -960, lo: -(2 ** -1070) },
  // lo at the boundary: hi·2^-53 regular (r = 0), hi·2^-52 not (an unnormalised pair).
  { hi: 1, lo: 2 ** -53 }, { hi: -1, lo: 2 ** -53 }, { hi: 1, lo: 2 ** -52 }, { hi: 1, lo: 0.75 },
  { hi: 1.5 * 2 ** 1000, lo: 2 ** 940 }, { hi: -(2 ** 1015), lo: 2 ** 955 }, { hi: 1e300, lo: -1e283 }, { hi: Number.MAX_VALUE, lo: -(2 ** 970) }, { hi: -Number.MAX_VALUE, lo: 0 },
  { hi: 3, lo: 2 ** -60 }, { hi: 2 ** -40, lo: 2 ** -90 }, { hi: 1 - 2 ** -53, lo: -(2 ** -107) },
];

/** Pairs every branch of the decoding and the term code meets (finite hi and lo). */
const finitePairs: fc.Arbitrary<Pair> = fc.oneof(
  { weight: 4, arbitrary: doubleDoubles({ minExponent: -300, maxExponent: 300 }) },
  { weight: 4, arbitrary: fullPairs },
  { weight: 3, arbitrary: fc.constantFrom<Pair>(...edgePairs) },
);

/** ±∞ and NaN in hi, and (hi finite) in lo. */
const specialPairs: readonly Pair[] = [{ hi: Infinity, lo: 0 }, { hi: -Infinity, lo: 0 }, { hi: NaN, lo: 0 }, { hi: 2, lo: NaN }, { hi: -1, lo: Infinity }];

/** Up to two ±∞ or NaN, in hi or (with hi finite) in lo, among `length` values. */
const specialsAmong = (length: number): fc.Arbitrary<[number, Pair][]> =>
  fc.array(fc.tuple(fc.nat(length - 1), fc.constantFrom<Pair>(...specialPairs)), { maxLength: 2 });

/** A device vector of kind `kind` holding `values` (f64: their hi parts). */
function upload(kind: Kind, values: readonly Pair[]): Promise<DeviceArray> {
  if (kind === 'dd') return toDevice(ddRange(values) as never);
  return toDevice(Float64Array.from(values, (p) => p.hi), { format: 'f64' });
}

/** The value a kind holds of a pair (f64: its hi). */
const held = (kind: Kind, p: Pair): Pair => (kind === 'dd' ? p : { hi: p.hi, lo: 0 });

/** The CPU dd GEMV's rows of m×n column-major pairs (the reference for non-finite rows). */
function cpuRows(a: readonly Pair[], m: number, n: number, xs: readonly Pair[], trans: 'N' | 'T'): DdValue[] {
  const A = range(colMajor<2, DdValue>({ size: [m, n], storage: 'dd' }));
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) A.set(i, j, a[i + j * m]!);
  const x = range(rowMajor<1, DdValue>({ size: xs.length, storage: 'dd' }));
  xs.forEach((p, k) => x.set(k, p));
  const outer = trans === 'T' ? n : m;
  const y = range(rowMajor<1, DdValue>({ size: outer, storage: 'dd' }));
  gemv({ alpha: 1, A, x, beta: 0, y, trans });
  return Array.from({ length: outer }, (_, i) => y.get(i));
}

/** Where the property's GEMV reads its operands. */
type Shape = { trans: 'N' | 'T'; chains: number; aView: boolean; xStrided: boolean };

/**
 * GEMV y := op(A)·x (β = 0, y filled with NaN) with the switch `on` or off, one partial-pass thread a row or column:
 * A m×n column-major or (aView) a row-major sub-range of a larger span, x packed or (xStrided) of stride −2. Returns
 * y's words and whether a decoding pre-pass ran.
 */
async function run(kinds: readonly [Kind, Kind], a: readonly Pair[], m: number, n: number, xs: readonly Pair[], shape: Shape, on: boolean): Promise<{ words: number[]; passes: number }> {
  setGpuKernelSwitches({ ddGemvLong: true, ddGemvLongDd: true, ddGemvDecodedXDd: on });
  const outer = shape.trans === 'T' ? n : m;
  let A;
  if (shape.aView) {
    // Row-major (m + 1)×(n + 2) span, A its rows 1 … m, columns 2 … n + 1.
    const cols = n + 2;
    const span: Pair[] = Array.from({ length: (m + 1) * cols }, () => ({ hi: 7, lo: 0 }));
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) span[(i + 1) * cols + j + 2] = a[i + j * m]!;
    A = deviceMatrixView(await upload(kinds[0], span), { rows: m, cols: n, offset: cols + 2, rowStride: cols, colStride: 1 });
  } else {
    A = deviceMatrix(await upload(kinds[0], a), m, n);
  }
  let x: DeviceArray;
  if (shape.xStrided) {
    // x_k at element 2(len − 1 − k) of a span twice as long (stride −2), the other elements 5.
    const xSpan: Pair[] = Array.from({ length: 2 * xs.length }, () => ({ hi: 5, lo: 0 }));
    xs.forEach((p, k) => { xSpan[2 * (xs.length - 1 - k)] = p; });
    x = deviceView(await upload(kinds[1], xSpan), 2 * (xs.length - 1), xs.length, -2);
  } else {
    x = await upload(kinds[1], xs);
  }
  const y = await toDevice(new Float64Array(outer).fill(NaN), { format: 'dd' });
  const before = gemvDecodedXPassCount();
  await gpuGemv({ A, x, y, alpha: 1, beta: 0, trans: shape.trans }, { arithmetic: 'dd', strict: true, targetThreads: 1, chains: shape.chains });
  return { words: Array.from((await y.encoded()).words), passes: gemvDecodedXPassCount() - before };
}

/** Rows of y's words: finite ones within the long window's bound of their exact value, non-finite ones the CPU dd kernel's. */
function expectRowsOf(kinds: readonly [Kind, Kind], words: readonly number[], a: readonly Pair[], m: number, n: number, xs: readonly Pair[], trans: 'N' | 'T'): void {
  const transposed = trans === 'T';
  const [outer, inner] = transposed ? [n, m] : [m, n];
  const d = new Float64Array(Uint32Array.from(words).buffer);
  const aHeld = a.map((p) => held(kinds[0], p));
  const xHeld = xs.map((p) => held(kinds[1], p));
  const cpu = cpuRows(aHeld, m, n, xHeld, trans);
  for (let r = 0; r < outer; r++) {
    const got = { hi: d[2 * r]!, lo: d[2 * r + 1]! };
    if (!Number.isFinite(cpu[r]!.hi)) {
      if (Number.isNaN(cpu[r]!.hi)) expect(got.hi, `${trans} row ${r}`).toBeNaN();
      else expect(got.hi, `${trans} row ${r}`).toBe(cpu[r]!.hi);
      continue;
    }
    const { exact, mag } = exactRow(inner, (k) => [aHeld[transposed ? k + r * m : r + k * m]!, xHeld[k]!]);
    expectRowWithin(got, exact, mag, inner, `${kinds.join('·')} ${trans} row ${r}`);
  }
}

/** A pair's negation, and its hi alone. */
const neg = (p: Pair): Pair => ({ hi: -p.hi, lo: -p.lo });
const hiOnly = (p: Pair): Pair => ({ hi: p.hi, lo: 0 });

/**
 * The property over one shape: the same words on and off (the pre-pass only on, and only for a dd x), and the oracle.
 * With `cancel`, x is (x', hi(x')) and each row of op(A) is (c, −c), so a row sums c·lo(x') exactly: every limb of x's
 * lo reaches the output words (without cancellation the low limbs lie below what the dd store keeps).
 */
async function property(kinds: readonly [Kind, Kind], shape: Shape, runs: number): Promise<void> {
  const transposed = shape.trans === 'T';
  await fc.assert(fc.asyncProperty(
    fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 27 }), fc.boolean(), fc.array(finitePairs, { minLength: 110, maxLength: 110 }), specialsAmong(110), fc.array(fullPairs, { minLength: 14, maxLength: 14 }),
    async (outer, length, cancel, values, specials, full) => {
      for (const [k, p] of specials) values[k] = p;
      // inner: the summed dimension, up to three full eight-term steps and a tail.
      const half = Math.ceil(length / 2);
      const inner = cancel ? 2 * half : length;
      // Cancelling rows sum c·lo(x'): x' with full lo significands (their every limb reaches the output words).
      const x0 = cancel ? full.slice(0, half) : values.slice(110 - inner);
      const xs = cancel ? [...x0, ...x0.map(hiOnly)] : x0;
      const rows = Array.from({ length: outer }, (_, r) => {
        const c = values.slice(r * 27, r * 27 + (cancel ? half : inner));
        return cancel ? [...c, ...c.map(neg)] : c;
      });
      // Column-major A: op(A)'s row r, element j at (r, j) for N and at (j, r) for T.
      const [m, n] = transposed ? [inner, outer] : [outer, inner];
      const a = Array.from({ length: m * n }, (_, e) => (transposed ? rows[Math.floor(e / m)]![e % m]! : rows[e % m]![Math.floor(e / m)]!));
      const off = await run(kinds, a, m, n, xs, shape, false);
      const on = await run(kinds, a, m, n, xs, shape, true);
      expect(off.passes).toBe(0);
      expect(on.passes).toBe(kinds[1] === 'dd' ? 1 : 0);
      expect(on.words).toEqual(off.words);
      // The oracle where every lo is finite (a NaN or ∞ lo is a storage oddity the words check covers).
      if ([...a, ...xs].every((p) => Number.isFinite(p.lo))) expectRowsOf(kinds, on.words, a, m, n, xs, shape.trans);
    },
  ), { numRuns: runs });
}

describe('dd GEMV with a dd x decoded once a call (ddGemvDecodedXDd)', () => {
  it('the switch picks the decoding variant of the long window with dd terms', () => {
    setGpuKernelSwitches({ ddGemvLong: true, ddGemvLongDd: true, ddGemvDecodedXDd: false });
    expect(ddGpuArithmetic.gemvVariant?.()).toBe(ddGpuArithmeticGemvLongDd);
    setGpuKernelSwitches({ ddGemvDecodedXDd: true });
    expect(ddGpuArithmetic.gemvVariant?.()).toBe(ddGpuArithmeticGemvLongDdX);
    expect(ddGpuArithmeticGemvLongDdX.gemvDecodedX?.from).toBe('dd');
  });

  it('dd·dd N, x packed: the same words on and off; finite rows within the bound of the exact value, specials as the CPU', async () => {
    await requireRuntime();
    await property(['dd', 'dd'], { trans: 'N', chains: 1, aView: false, xStrided: false }, 12);
  });

  it('dd·dd N: each edge pair and each special as an x_j, beside rows of ones, full pairs, 2^±500 and 2^±1000 scales (the shader above)', async () => {
    await requireRuntime();
    const shape: Shape = { trans: 'N', chains: 1, aView: false, xStrided: false };
    const full = fc.sample(fullPairs, { numRuns: 64, seed: 18 });
    const scaled = (p: Pair, e: number): Pair => ({ hi: p.hi * 2 ** e, lo: p.lo * 2 ** e });
    const rowsOf = (n: number): Pair[][] => [
      Array.from({ length: n }, () => ({ hi: 1, lo: 0 })),
      full.slice(0, n),
      full.slice(n % 32, n % 32 + n).map((p) => scaled(p, 500)),
      full.slice(3, 3 + n).map((p) => scaled(p, -500)),
      full.slice(5, 5 + n).map((p, k) => scaled(p, k % 2 ? 1000 : -1000)),
      edgePairs.slice(0, n).concat(full).slice(0, n),
    ];
    // x: each edge pair and each special among ordinary pairs (one call each: an overflow or a NaN hides the other terms).
    const xs = [...edgePairs, ...specialPairs].map((e, k) => [...full.slice(40, 40 + (k % 9)), e, ...full.slice(50, 53)]);
    for (const x of xs) {
      const n = x.length;
      const rows = rowsOf(n);
      const m = rows.length;
      const a = Array.from({ length: m * n }, (_, e) => rows[e % m]![Math.floor(e / m)]!);
      const off = await run(['dd', 'dd'], a, m, n, x, shape, false);
      const on = await run(['dd', 'dd'], a, m, n, x, shape, true);
      expect(on.passes).toBe(1);
      expect(on.words).toEqual(off.words);
      if ([...a, ...x].every((p) => Number.isFinite(p.lo))) expectRowsOf(['dd', 'dd'], on.words, a, m, n, x, 'N');
    }
  });

  it('dd·dd N, x in dd-split storage (read in place by the pre-pass, the same programs): the words of x in dd with the switch off', async () => {
    await requireRuntime();
    const full = fc.sample(fullPairs, { numRuns: 40, seed: 22 });
    const n = 21;
    const xs = [...full.slice(0, 13), ...edgePairs.slice(12, 16), ...full.slice(13, 17)];
    const rows = [full.slice(17, 17 + n), [...full.slice(0, 13), ...full.slice(0, 8)].map((p, k) => (k < 13 ? p : { hi: -p.hi, lo: -p.lo }))];
    const a = Array.from({ length: 2 * n }, (_, e) => rows[e % 2]![Math.floor(e / 2)]!);
    const A = deviceMatrix(await upload('dd', a), 2, n);
    const words = async (split: boolean, on: boolean): Promise<number[]> => {
      setGpuKernelSwitches({ ddGemvLong: true, ddGemvLongDd: true, ddGemvDecodedXDd: on });
      const hx = range(rowMajor<1, DdValue>({ size: n, storage: split ? 'dd-split' : 'dd' }));
      xs.forEach((p, k) => hx.set(k, p));
      const x = await toDevice(hx as never);
      expect(x.format.name).toBe(split ? 'dd-split' : 'dd');
      const y = await toDevice(new Float64Array(2).fill(NaN), { format: 'dd' });
      const before = gemvDecodedXPassCount();
      await gpuGemv({ A, x, y, alpha: 1, beta: 0 }, { arithmetic: 'dd', strict: true, targetThreads: 1 });
      expect(gemvDecodedXPassCount() - before).toBe(on ? 1 : 0);
      return Array.from((await y.encoded()).words);
    };
    const reference = await words(false, false);
    expect(await words(true, true)).toEqual(reference);
    expect(await words(true, false)).toEqual(reference);
  });

  // Their own shaders (tens of seconds each on llvmpipe): opt-in.
  it.skipIf(!slowTests)('f64·dd N, x of stride −2', async () => {
    await requireRuntime();
    await property(['f64', 'dd'], { trans: 'N', chains: 1, aView: false, xStrided: true }, 5);
  });

  it.skipIf(!slowTests)('dd·dd T with two chains (x varies along the loop), x packed', async () => {
    await requireRuntime();
    await property(['dd', 'dd'], { trans: 'T', chains: 2, aView: false, xStrided: false }, 5);
  });

  it.skipIf(!slowTests)('dd·dd N, A a row-major sub-range (read as T of its transpose), x of stride −2', async () => {
    await requireRuntime();
    await property(['dd', 'dd'], { trans: 'N', chains: 1, aView: true, xStrided: true }, 4);
  });

  it.skipIf(!slowTests)('dd·f64 N: an f64 x is not decoded (no pre-pass), the same words', async () => {
    await requireRuntime();
    await property(['dd', 'f64'], { trans: 'N', chains: 1, aView: false, xStrided: false }, 3);
  });
});
