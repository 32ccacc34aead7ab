/**
 * The `ddGemvLongDd` switch (src/backends/webgpu/kernel-switches.ts): dd's GEMV partial pass puts dd·dd, f64·dd and
 * dd·f64 terms into the long fixed-point window too, in the lean term form (src/formats/dd/dd-gpu-gemv-long-wgsl.ts).
 * Checked against the exact BigInt value of every row — within γ_{2n+2}(2^-110)·Σ|a·x| + n·2^-1074 + the store,
 * inside the CPU dd gemvBound — over genuine dd pairs (lo of either sign, hi over 2^±300) mixed with ±0, subnormals,
 * pairs at binary64's exponent extremes, unnormalised pairs and ±∞/NaN (whose rows must give the CPU dd kernel's ±∞
 * and NaN); y filled with NaN and β = 0 (y is not read). dd·dd N with one thread a row (whole eight-term steps and a
 * tail); f64·dd N; (opt-in, MODPREC_SLOW_TESTS=1: their own shaders) dd·f64 T with two chains, and a row-major
 * sub-range A with an x of stride −2. Ill-conditioned rows (cond ≈ 2^100) within that bound and the CPU gemvBound.
 * That the switch takes the path (1, 2^-112 a step later, −1 gives 2^-112 exactly; per-step windows give 0), and that
 * f64·f64 terms keep the `ddGemvLong` words (the same functions in the same order).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deviceView, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, deviceMatrixView, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { ddGpuArithmetic, ddGpuArithmeticGemvLong, ddGpuArithmeticGemvLongDd } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import type { DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { doubleDoubles } from '../../src/testing/double-double-laws.js';
import { colMajor, formats, gemvBound, range, rowMajor, vector } from '../../src/index.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, subRational } from '../../src/testing/rational.js';
import { exactPair, exactRow, expectRowWithin, type Pair } from './dd-gemv-rows.js';
import { ddRange } from './dd-ranges.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const initial = gpuKernelSwitches();
const slowTests = process.env.MODPREC_SLOW_TESTS === '1';
afterEach(() => {
  setGpuKernelSwitches(initial);
});
// x decoded once a call (ddGemvDecodedXDd, on by default since session 22) gives the same words
// (test/gpu/dd-gemv-decoded-x-dd.test.ts); this file means the long window deriving x's limbs itself.
beforeEach(() => void setGpuKernelSwitches({ ddGemvDecodedXDd: false }));


type Kind = 'dd' | 'f64';

/** Pairs the arithmetic branches on: genuine pairs, ±0, subnormals, binary64's exponent extremes, unnormalised pairs. */
const finitePairs: fc.Arbitrary<Pair> = fc.oneof(
  { weight: 8, arbitrary: doubleDoubles({ minExponent: -300, maxExponent: 300 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Pair>(
      { hi: 0, lo: 0 }, { hi: -0, lo: -0 }, { hi: 5e-324, lo: 0 }, { hi: -2.5e-308, lo: 0 }, { hi: 2 ** -1000, lo: 2 ** -1060 },
      { hi: 2 ** -960, lo: -(2 ** -1070) }, { hi: 1.5 * 2 ** 1000, lo: 2 ** 940 }, { hi: -(2 ** 1015), lo: 2 ** 955 }, { hi: 1e300, lo: -1e283 },
      { hi: 3, lo: 2 ** -60 }, { hi: 1, lo: 0.75 }, { hi: 2 ** -40, lo: 2 ** -90 }, { hi: 1 - 2 ** -53, lo: -(2 ** -107) },
    ),
  },
);

/** Up to two ±∞ or NaN placed among `length` values (most rows stay finite, so the window is what they test). */
const specialsAmong = (length: number): fc.Arbitrary<[number, Pair][]> =>
  fc.array(fc.tuple(fc.nat(length - 1), fc.constantFrom<Pair>({ hi: Infinity, lo: 0 }, { hi: -Infinity, lo: 0 }, { hi: NaN, lo: 0 })), { maxLength: 2 });

/** A device vector of kind `kind` holding `values` (f64: their hi parts). */
function upload(kind: Kind, values: readonly Pair[]): Promise<DeviceArray> {
  if (kind === 'dd') return toDevice(ddRange(values) as never);
  return toDevice(Float64Array.from(values, (p) => p.hi), { format: 'f64' });
}

/** The value a kind holds of a pair (f64: its hi). */
const held = (kind: Kind, p: Pair): Pair => (kind === 'dd' ? p : { hi: p.hi, lo: 0 });

/** A CPU dd-stored m×n matrix of column-major pairs. */
function ddMatrix(a: readonly Pair[], m: number, n: number): ReturnType<typeof range<2, DdValue>> {
  const A = range(colMajor<2, DdValue>({ size: [m, n], storage: 'dd' }));
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) A.set(i, j, a[i + j * m]!);
  return A;
}

/** A CPU dd-stored vector of pairs. */
function ddVector(xs: readonly Pair[]): ReturnType<typeof range<1, DdValue>> {
  const x = range(rowMajor<1, DdValue>({ size: xs.length, storage: 'dd' }));
  xs.forEach((p, k) => x.set(k, p));
  return x;
}

/** The CPU dd GEMV's rows (the reference for non-finite rows). */
function cpuRows(a: readonly Pair[], m: number, n: number, xs: readonly Pair[], trans: 'N' | 'T'): DdValue[] {
  const outer = trans === 'T' ? n : m;
  const y = range(rowMajor<1, DdValue>({ size: outer, storage: 'dd' }));
  gemv({ alpha: 1, A: ddMatrix(a, m, n), x: ddVector(xs), beta: 0, y, trans });
  return Array.from({ length: outer }, (_, i) => y.get(i));
}

/** The stored dd rows of y. */
async function rowsOf(y: DeviceArray, outer: number): Promise<Pair[]> {
  const d = new Float64Array(Uint32Array.from((await y.encoded()).words).buffer);
  return Array.from({ length: outer }, (_, r) => ({ hi: d[2 * r]!, lo: d[2 * r + 1]! }));
}

/**
 * GEMV y := op(A)·x (β = 0, y filled with NaN: not read) with the switch on, one partial-pass thread a row or column;
 * A is m×n column-major, or (`view`) a row-major sub-range of a larger span, and x has stride −2 there.
 */
async function longDdRows(kinds: readonly [Kind, Kind], a: readonly Pair[], m: number, n: number, xs: readonly Pair[], trans: 'N' | 'T', chains: number, view = false): Promise<Pair[]> {
  setGpuKernelSwitches({ ddGemvLongDd: true });
  const outer = trans === 'T' ? n : m;
  let A;
  let x: DeviceArray;
  if (view) {
    // Row-major (m + 1)×(n + 2) span, A its rows 1 … m, columns 2 … n + 1; x every other element of a reversed span.
    const cols = n + 2;
    const span: Pair[] = Array.from({ length: (m + 1) * cols }, () => ({ hi: 7, lo: 0 }));
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) span[(i + 1) * cols + j + 2] = a[i + j * m]!;
    A = deviceMatrixView(await upload(kinds[0], span), { rows: m, cols: n, offset: cols + 2, rowStride: cols, colStride: 1 });
    const xSpan: Pair[] = Array.from({ length: 2 * xs.length }, () => ({ hi: 5, lo: 0 }));
    xs.forEach((p, k) => { xSpan[2 * (xs.length - 1 - k)] = p; });
    x = deviceView(await upload(kinds[1], xSpan), 2 * (xs.length - 1), xs.length, -2);
  } else {
    A = deviceMatrix(await upload(kinds[0], a), m, n);
    x = await upload(kinds[1], xs);
  }
  const y = await toDevice(new Float64Array(outer).fill(NaN), { format: 'dd' });
  await gpuGemv({ A, x, y, alpha: 1, beta: 0, trans }, { arithmetic: 'dd', strict: true, targetThreads: 1, chains });
  return rowsOf(y, outer);
}

/** Rows from the GPU: finite ones within the long window's bound of their exact value, non-finite ones the CPU dd kernel's. */
function expectRowsOf(kinds: readonly [Kind, Kind], got: readonly Pair[], a: readonly Pair[], m: number, n: number, xs: readonly Pair[], trans: 'N' | 'T'): void {
  const transposed = trans === 'T';
  const [outer, inner] = transposed ? [n, m] : [m, n];
  const aHeld = a.map((p) => held(kinds[0], p));
  const xHeld = xs.map((p) => held(kinds[1], p));
  const cpu = cpuRows(aHeld, m, n, xHeld, trans);
  for (let r = 0; r < outer; r++) {
    if (!Number.isFinite(cpu[r]!.hi)) {
      if (Number.isNaN(cpu[r]!.hi)) expect(got[r]!.hi, `${trans} row ${r}`).toBeNaN();
      else expect(got[r]!.hi, `${trans} row ${r}`).toBe(cpu[r]!.hi);
      continue;
    }
    const { exact, mag } = exactRow(inner, (k) => [aHeld[transposed ? k + r * m : r + k * m]!, xHeld[k]!]);
    expectRowWithin(got[r]!, exact, mag, inner, `${kinds.join('·')} ${trans} row ${r}`);
  }
}

/** The property over one shape: A's and x's kinds, trans, chains, and whether A and x are views. */
async function property(kinds: readonly [Kind, Kind], trans: 'N' | 'T', chains: number, view: boolean, runs: number): Promise<void> {
  const transposed = trans === 'T';
  await fc.assert(fc.asyncProperty(
    fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 27 }), fc.array(finitePairs, { minLength: 110, maxLength: 110 }), specialsAmong(110),
    async (outer, inner, values, specials) => {
      for (const [k, p] of specials) values[k] = p;
      // inner: the summed dimension, up to three full eight-term steps and a tail.
      const [m, n] = transposed ? [inner, outer] : [outer, inner];
      const a = values.slice(0, m * n);
      const xs = values.slice(110 - inner);
      expectRowsOf(kinds, await longDdRows(kinds, a, m, n, xs, trans, chains, view), a, m, n, xs, trans);
    },
  ), { numRuns: runs });
}

describe('dd GEMV with dd terms in the long window (ddGemvLongDd)', () => {
  it('dd·dd N: every row within the bound of its exact value; ±∞ and NaN as the CPU dd kernel; y\'s NaN not read (β = 0)', async () => {
    await requireRuntime();
    await property(['dd', 'dd'], 'N', 1, false, 6);
  });

  it('f64·dd N: every row within the bound; specials as the CPU dd kernel', async () => {
    await requireRuntime();
    await property(['f64', 'dd'], 'N', 1, false, 4);
  });

  // Their own shaders (tens of seconds each on llvmpipe): opt-in.
  it.skipIf(!slowTests)('dd·f64 T with two chains (an extra accumulator\'s window settled where the chains combine)', async () => {
    await requireRuntime();
    await property(['dd', 'f64'], 'T', 2, false, 4);
  });

  it.skipIf(!slowTests)('dd·dd N, A a row-major sub-range (read as T of its transpose) and x of stride −2', async () => {
    await requireRuntime();
    await property(['dd', 'dd'], 'N', 1, true, 4);
  });

  it('dd·dd N, ill-conditioned rows (cond up to ≈ 2^100, genuine pairs): within the exact value\'s bound and the CPU gemvBound', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 10, max: 100 }), fc.integer({ min: 1, max: 8 }), async (seed, big, k) => {
      // Row 0: ±2^big·(r + lo) terms that cancel exactly in later steps, and small genuine pairs that survive; row 1 = 3·row 0.
      const r = randomValues(k, seed);
      const s = randomValues(k, seed + 7);
      const row: Pair[] = [];
      const xs: Pair[] = [];
      for (let q = 0; q < k; q++) {
        const hi = r[q]! * 2 ** big;
        const lo = hi * 2 ** -70;
        row.push({ hi, lo }, { hi: s[q]!, lo: s[q]! * 2 ** -80 }, { hi: -hi, lo: -lo });
        xs.push({ hi: 1 + s[q]!, lo: 2 ** -60 }, { hi: 1, lo: 0 }, { hi: 1 + s[q]!, lo: 2 ** -60 });
      }
      const n = row.length;
      const entries = Array.from({ length: 2 * n }, (_, e) => {
        const p = row[Math.floor(e / 2)]!;
        return e % 2 === 1 ? { hi: 3 * p.hi, lo: 3 * p.lo } : p;
      });
      const got = await longDdRows(['dd', 'dd'], entries, 2, n, xs, 'N', 1);
      const bound = gemvBound({ alpha: 1, A: ddMatrix(entries, 2, n), x: ddVector(xs), beta: 0, y: vector(2, { storage: formats.dd, arithmetic: formats.dd }), trans: 'N' }, { arithmetic: formats.dd });
      for (let i = 0; i < 2; i++) {
        const { exact, mag } = exactRow(n, (j) => [entries[i + 2 * j]!, xs[j]!]);
        expectRowWithin(got[i]!, exact, mag, n, `cond 2^${big}, row ${i}`);
        const err = absRational(subRational(exactPair(got[i]!), exact));
        expect(compareRational(err, exactOf(bound[i]!)), `gemvBound row ${i}`).toBeLessThanOrEqual(0);
      }
    }), { numRuns: 6 });
  });

  it('the switch runs the long window for dd terms: 1, then 2^-112 a step later, then −1 gives 2^-112 exactly (per-step windows: 0)', async () => {
    await requireRuntime();
    setGpuKernelSwitches({ ddGemvLongDd: false });
    expect(ddGpuArithmetic.gemvVariant?.()).not.toBe(ddGpuArithmeticGemvLongDd);
    setGpuKernelSwitches({ ddGemvLongDd: true });
    expect(ddGpuArithmetic.gemvVariant?.()).toBe(ddGpuArithmeticGemvLongDd);
    const row: Pair[] = Array.from({ length: 24 }, () => ({ hi: 0, lo: 0 }));
    row[0] = { hi: 1, lo: 0 };
    row[9] = { hi: 2 ** -112, lo: 0 };
    row[17] = { hi: -1, lo: 0 };
    const ones = Array.from({ length: 24 }, () => ({ hi: 1, lo: 0 }));
    // The shader of the dd·dd property above (one chain, one thread a row).
    const got = await longDdRows(['dd', 'dd'], row, 1, 24, ones, 'N', 1);
    expect(got[0]).toEqual({ hi: 2 ** -112, lo: 0 });
  });

  it('f64·f64 terms: the ddGemvLong words (the same long-window functions in the same order)', async () => {
    await requireRuntime();
    const values = Array.from(randomValues(2 * 19, 11));
    values[3] = 0;
    values[5] = 5e-324;
    values[30] = 1e300;
    const xs = Array.from(randomValues(19, 12));
    const run = async (dd: boolean): Promise<Pair[]> => {
      setGpuKernelSwitches({ ddGemvLong: true, ddGemvLongDd: dd });
      expect(ddGpuArithmetic.gemvVariant?.()).toBe(dd ? ddGpuArithmeticGemvLongDd : ddGpuArithmeticGemvLong);
      const A = deviceMatrix(await toDevice(Float64Array.from(values), { format: 'f64' }), 2, 19);
      const x = await toDevice(Float64Array.from(xs), { format: 'f64' });
      const y = await toDevice(new Float64Array(2), { format: 'dd' });
      await gpuGemv({ A, x, y, alpha: 1, beta: 0 }, { arithmetic: 'dd', strict: true, targetThreads: 1 });
      return rowsOf(y, 2);
    };
    expect(await run(true)).toEqual(await run(false));
  });
});
