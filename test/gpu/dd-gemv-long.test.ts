/**
 * The `ddGemvLong` switch (src/backends/webgpu/kernel-switches.ts): dd's GEMV partial pass sums f64·f64 terms in one
 * long fixed-point window per accumulator (src/formats/dd/dd-gpu-gemv-long-wgsl.ts). Checked against the exact BigInt
 * value of every row — within γ_{2n+2}(2^-110)·Σ|a·x| + n·2^-1074 + the store, inside the CPU dd gemvBound — over
 * f64 matrices with zeros, signed zeros, subnormals, huge and tiny magnitudes, and ±∞/NaN (whose rows must give the
 * CPU dd kernel's ±∞ and NaN, the special-value rule); N with one chain and (opt-in, MODPREC_SLOW_TESTS=1: its own
 * shaders) T with two (an extra accumulator's window settled where the chains combine); one thread a row or column, so each sums several steps and a tail. Ill-conditioned
 * rows (cancellation to cond ≈ 2^100) within that bound and the CPU gemvBound; rows long enough to pass the window's
 * 2^127 without its settles on the way. And that the switch runs the long
 * window: a term 2^-112 below the row's others, in another step, survives exactly (the per-step window rounds it away).
 * GEMV T of a row-major view, which runs as N on the column-major matrix it is the transpose of, gives that N's words
 * (toEqual: ±0 told apart, NaN as NaN).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, deviceMatrixView, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { ddGpuArithmetic, ddGpuArithmeticGemvLong, ddGpuArithmeticGemvWindow8 } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import type { DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { formats, gemvBound, matrix, range, rowMajor, vector } from '../../src/index.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, subRational } from '../../src/testing/rational.js';
import { exactPair, exactRow, expectRowWithin } from './dd-gemv-rows.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const initial = gpuKernelSwitches();
const slowTests = process.env.MODPREC_SLOW_TESTS === '1';
afterEach(() => {
  setGpuKernelSwitches(initial);
});

/** op(A) of a column-major m×n array, f64 storage, dd arithmetic, for the CPU kernel and gemvBound. */
const cpuMatrix = (colMajor: readonly number[], m: number, n: number): ReturnType<typeof matrix> => matrix(m, n, (i, j) => colMajor[i + j * m]!, { storage: formats.f64, arithmetic: formats.dd });

/** The CPU dd GEMV's rows (the reference for non-finite rows: a GPU dd kernel gives the CPU dd kernel's specials). */
function cpuRows(colMajor: readonly number[], m: number, n: number, xs: readonly number[], trans: 'N' | 'T'): DdValue[] {
  const outer = trans === 'T' ? n : m;
  const y = range(rowMajor<1, DdValue>({ size: outer, storage: 'dd' }));
  gemv({ alpha: 1, A: cpuMatrix(colMajor, m, n), x: vector(Array.from(xs), { storage: formats.f64, arithmetic: formats.dd }), beta: 0, y, trans });
  return Array.from({ length: outer }, (_, i) => y.get(i));
}

/**
 * GEMV y := op(A)·x on the GPU in dd with the switch on, f64 A and x, one partial-pass thread a row or column. With
 * `rowMajorT` (trans N only), op(A) = A (an m×n column-major array) is given as T of the row-major n×m view of the
 * same span, which GEMV runs as N on its column-major transpose (docs/gpu.md, GEMV): the same pass, the same words.
 */
async function longRows(colMajor: readonly number[], m: number, n: number, xs: readonly number[], trans: 'N' | 'T', chains: number, rowMajorT = false): Promise<{ hi: number; lo: number }[]> {
  setGpuKernelSwitches({ ddGemvLong: true });
  const span = await toDevice(Float64Array.from(colMajor), { format: 'f64' });
  const A = rowMajorT ? deviceMatrixView(span, { rows: n, cols: m, offset: 0, rowStride: m, colStride: 1 }) : deviceMatrix(span, m, n);
  const x = await toDevice(Float64Array.from(xs), { format: 'f64' });
  const outer = trans === 'T' ? n : m;
  const y = await toDevice(new Float64Array(outer), { format: 'dd' });
  await gpuGemv({ A, x, y, alpha: 1, beta: 0, trans: rowMajorT ? 'T' : trans }, { arithmetic: 'dd', strict: true, targetThreads: 1, chains });
  const words = Array.from((await y.encoded()).words);
  return Array.from({ length: outer }, (_, r) => pairOf(words, r));
}

const doubles = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -4, max: 4, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(0, -0, 5e-324, -2.5e-308, 1e300, -1e300, 1e-300, 3, 2 ** -60, -(2 ** 60)) },
  { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity, NaN) },
);

const pairOf = (w: number[], r: number): { hi: number; lo: number } => {
  const d = new Float64Array(Uint32Array.from(w).buffer);
  return { hi: d[2 * r]!, lo: d[2 * r + 1]! };
};

/**
 * Rows of op(A)·x from the GPU: finite ones within the long window's bound of their exact value, non-finite ones the
 * CPU dd kernel's ±∞ and NaN.
 */
function expectRowsOf(got: readonly { hi: number; lo: number }[], a: readonly number[], m: number, n: number, xs: readonly number[], trans: 'N' | 'T'): void {
  const transposed = trans === 'T';
  const [outer, inner] = transposed ? [n, m] : [m, n];
  const cpu = cpuRows(a, m, n, xs, trans);
  for (let r = 0; r < outer; r++) {
    if (!Number.isFinite(cpu[r]!.hi)) {
      if (Number.isNaN(cpu[r]!.hi)) expect(got[r]!.hi).toBeNaN();
      else expect(got[r]!.hi, `${trans} row ${r}`).toBe(cpu[r]!.hi);
      continue;
    }
    const { exact, mag } = exactRow(inner, (k) => [a[transposed ? k + r * m : r + k * m]!, xs[k]!]);
    expectRowWithin(got[r]!, exact, mag, inner, `${trans} row ${r}`);
  }
}

describe('dd GEMV with the long f64·f64 window (ddGemvLong)', () => {
  // T with two chains compiles its own pair of shaders (minutes on a loaded llvmpipe): opt-in.
  it.each<readonly ['N' | 'T', number]>([['N', 1], ...(slowTests ? [['T', 2] as const] : [])])('GEMV %s (%i chain(s)), f64 storage: every row within the bound of its exact value; ±∞ and NaN as the CPU dd kernel', async (trans, chains) => {
    await requireRuntime();
    const transposed = trans === 'T';
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 36 }), fc.array(doubles, { minLength: 150, maxLength: 150 }),
      async (outer, inner, values) => {
        // inner: the summed dimension, up to four full eight-term steps and a tail.
        const [m, n] = transposed ? [inner, outer] : [outer, inner];
        const a = values.slice(0, m * n);
        const xs = values.slice(150 - inner);
        expectRowsOf(await longRows(a, m, n, xs, trans, chains), a, m, n, xs, trans);
      },
    ), { numRuns: 5 });
  });

  it('GEMV T of a row-major view: the words of GEMV N on the column-major matrix it is the transpose of (the same pass), every row within the bound', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 2, max: 3 }), fc.integer({ min: 2, max: 36 }), fc.array(doubles, { minLength: 150, maxLength: 150 }),
      async (m, n, values) => {
        // m, n ≥ 2: a view with one row or column is read as it is (not through its transpose).
        const a = values.slice(0, m * n);
        const xs = values.slice(150 - n);
        const direct = await longRows(a, m, n, xs, 'N', 1);
        const viaView = await longRows(a, m, n, xs, 'N', 1, true);
        expect(viaView.map((p) => [p.hi, p.lo])).toEqual(direct.map((p) => [p.hi, p.lo]));
        expectRowsOf(viaView, a, m, n, xs, 'N');
      },
    ), { numRuns: 5 });
  });

  it('GEMV N, ill-conditioned rows (cond up to ≈ 2^100): within the exact value\'s bound and the CPU gemvBound', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 10, max: 100 }), fc.integer({ min: 1, max: 9 }), async (seed, big, k) => {
      // Row 0: ±2^big·r terms that cancel exactly, the big ones in early steps, and small terms that survive; row 1 = 3·row 0.
      const r = randomValues(k, seed);
      const s = randomValues(k, seed + 7);
      const row: number[] = [];
      const xs: number[] = [];
      for (let q = 0; q < k; q++) {
        row.push(r[q]! * 2 ** big, s[q]!, -r[q]! * 2 ** big);
        xs.push(1 + s[q]!, 1, 1 + s[q]!);
      }
      const n = row.length;
      const colMajor = Array.from({ length: 2 * n }, (_, e) => row[Math.floor(e / 2)]! * (e % 2 === 1 ? 3 : 1));
      const got = await longRows(colMajor, 2, n, xs, 'N', 1);
      const bound = gemvBound({ alpha: 1, A: cpuMatrix(colMajor, 2, n), x: vector(xs, { storage: formats.f64, arithmetic: formats.dd }), beta: 0, y: vector(2, { storage: formats.dd, arithmetic: formats.dd }), trans: 'N' }, { arithmetic: formats.dd });
      for (let i = 0; i < 2; i++) {
        const { exact, mag } = exactRow(n, (j) => [colMajor[i + 2 * j]!, xs[j]!]);
        expectRowWithin(got[i]!, exact, mag, n, `cond 2^${big}, row ${i}`);
        const err = absRational(subRational(exactPair(got[i]!), exact));
        expect(compareRational(err, exactOf(bound[i]!)), `gemvBound row ${i}`).toBeLessThanOrEqual(0);
      }
    }), { numRuns: 8 });
  });

  it('GEMV N, 600 equal terms of the largest significand (without its settles on the way the window would pass 2^127, positive and negative) and a tiny last term: within the bound', async () => {
    await requireRuntime();
    const big = 2 - 2 ** -52;
    const n = 600;
    // Row 0: big·big + … (each product just below 2^2, 2^118 window units: the window reaches 2^125 after about 128 terms, 2^127 after 512) then 2^-100;
    // row 1: the same negated, with 3·2^-90 last.
    const colMajor: number[] = [];
    for (let j = 0; j < n; j++) colMajor.push(j === n - 1 ? 2 ** -100 : big, j === n - 1 ? 3 * 2 ** -90 : -big);
    const xs = Array.from({ length: n }, (_, j) => (j === n - 1 ? 1 : big));
    const got = await longRows(colMajor, 2, n, xs, 'N', 1);
    for (let i = 0; i < 2; i++) {
      const { exact, mag } = exactRow(n, (j) => [colMajor[i + 2 * j]!, xs[j]!]);
      expectRowWithin(got[i]!, exact, mag, n, `row ${i}`);
    }
  });

  it('the switch runs the long window: 1, then 2^-112 a step later, then −1 gives 2^-112 exactly (the per-step window, which rounds the step sums 1 + 2^-112 to 1, would give 0)', async () => {
    await requireRuntime();
    // The f64·f64 window alone (the dd terms' switch, on by default, extends it: test/gpu/dd-gemv-long-dd.test.ts).
    setGpuKernelSwitches({ ddGemvLongDd: false });
    expect(ddGpuArithmetic.gemvVariant?.()).toBe(ddGpuArithmeticGemvLong);
    setGpuKernelSwitches({ ddGemvLong: false });
    expect(ddGpuArithmetic.gemvVariant?.()).toBe(ddGpuArithmeticGemvWindow8);
    const row = new Float64Array(24);
    row[0] = 1;
    row[9] = 2 ** -112;
    row[17] = -1;
    setGpuKernelSwitches({ ddGemvLong: true });
    expect(ddGpuArithmetic.gemvVariant?.()).toBe(ddGpuArithmeticGemvLong);
    // The row's shader of the property above (one chain, one thread a row).
    const got = await longRows(Array.from(row), 1, 24, new Array<number>(24).fill(1), 'N', 1);
    expect(got[0]).toEqual({ hi: 2 ** -112, lo: 0 });
  });
});
