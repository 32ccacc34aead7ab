/**
 * The `ddGemvRows` switch (src/backends/webgpu/kernel-switches.ts): GEMV N in dd arithmetic with R = 2 or 4 rows a
 * partial-pass thread (kernels/gemv/gemv-row-group-source.ts: x_j loaded once for R rows, each row's long window
 * settled and its four words stored by the thread itself). Every row's terms keep their chunk and order, so the words
 * must be those of one row a thread (where `gemvUnroll` is 8, its default: the one-row pass's step). By default R = 2 with
 * four columns a step (a smaller shader) over f64 storage against the exact value and the CPU's specials (β = 0, y
 * filled with NaN); opt-in (MODPREC_SLOW_TESTS=1, minutes of llvmpipe compiles): the words of one row a thread for that
 * case, for f64 storage with a column-major sub-range view of A, x of stride −2, α = 3, β = −0.5 and R = 2 and 4, and for
 * dd storage with dd terms in the long window (`ddGemvLongDd`; β = 0 with y filled with NaN),
 * rows m not a multiple of R (the last group reads row m − 1 again and its extra partials are never read), zeros,
 * subnormals, ±∞ and NaN; finite rows also within the long window's bound of their exact BigInt value. The switch's
 * range (1, 2, 4).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceView, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, deviceMatrixView, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { doubleDoubles } from '../../src/testing/double-double-laws.js';
import { exactRow, expectRowWithin, type Pair } from './dd-gemv-rows.js';
import { ddRange } from './dd-ranges.js';
import type { DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { formats, matrix, range, rowMajor, vector } from '../../src/index.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { maxRowsPerThread } from '../../kernels/gemv/gemv-row-group-source.js';
import { ddGpuArithmetic, ddGpuArithmeticUnfused } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { requireRuntime } from './gpu-test-helpers.js';

const initial = gpuKernelSwitches();
// R = 4, and dd storage, compile shaders of their own (minutes on a loaded llvmpipe): opt-in.
const slowTests = process.env.MODPREC_SLOW_TESTS === '1';
afterEach(() => {
  setGpuKernelSwitches(initial);
});

const doubles = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: -4, max: 4, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(0, -0, 5e-324, -2.5e-308, 1e300, 2 ** -60, -(2 ** 60)) },
);
const special = fc.constantFrom(Infinity, -Infinity, NaN);

/** The CPU dd GEMV's rows of an m×n column-major f64 A (the reference for non-finite rows). */
function cpuRows(a: readonly number[], m: number, n: number, xs: readonly number[]): DdValue[] {
  const y = range(rowMajor<1, DdValue>({ size: m, storage: 'dd' }));
  gemv({ alpha: 1, A: matrix(m, n, (i, j) => a[i + j * m]!, { storage: formats.f64, arithmetic: formats.dd }), x: vector(Array.from(xs), { storage: formats.f64, arithmetic: formats.dd }), beta: 0, y, trans: 'N' });
  return Array.from({ length: m }, (_, i) => y.get(i));
}

/** The stored dd rows of y. */
async function rowsOf(y: DeviceArray, count: number): Promise<{ words: number[]; rows: Pair[] }> {
  const words = Array.from((await y.encoded()).words);
  const d = new Float64Array(Uint32Array.from(words).buffer);
  return { words, rows: Array.from({ length: count }, (_, r) => ({ hi: d[2 * r]!, lo: d[2 * r + 1]! })) };
}

describe('dd GEMV N with several rows a thread (ddGemvRows)', () => {
  it('the switch: 1, 2 or 4; dd\'s most rows a thread follow it, an arithmetic without a GEMV variant keeps 1', () => {
    expect(() => setGpuKernelSwitches({ ddGemvRows: 3 as never })).toThrow(/ddGemvRows/);
    expect(gpuKernelSwitches().ddGemvRows).toBe(initial.ddGemvRows);
    for (const R of [1, 2, 4] as const) {
      setGpuKernelSwitches({ ddGemvRows: R });
      expect(maxRowsPerThread(ddGpuArithmetic)).toBe(R);
      expect(maxRowsPerThread(ddGpuArithmeticUnfused)).toBe(1);
    }
  });

  // By default R = 2 with four columns a step (gemvUnroll 4: a shader the size of the one-row pass's, which llvmpipe
  // compiles in seconds rather than minutes) against the oracle; the words of one row a thread (at the default step of
  // eight, the one-row pass's) opt-in.
  it('f64 storage, β = 0 and y NaN, R = 2: finite rows within the bound of their exact value, non-finite ones the CPU dd kernel\'s (opt-in: the words of one row a thread)', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 27 }), fc.array(doubles, { minLength: 200, maxLength: 200 }),
      fc.array(fc.tuple(fc.nat(199), special), { maxLength: 2 }),
      async (m, n, values, specials) => {
        for (const [k, v] of specials) values[k] = v;
        const a = values.slice(0, m * n);
        const xs = values.slice(200 - n);
        const A = deviceMatrix(await toDevice(Float64Array.from(a), { format: 'f64' }), m, n);
        const x = await toDevice(Float64Array.from(xs), { format: 'f64' });
        const got: { words: number[]; rows: Pair[] }[] = [];
        for (const R of slowTests ? ([1, 2] as const) : ([2] as const)) {
          setGpuKernelSwitches({ ddGemvRows: R, gemvUnroll: slowTests ? 8 : 4 });
          const y = await toDevice(new Float64Array(m).fill(NaN), { format: 'dd' });
          await gpuGemv({ A, x, y, alpha: 1, beta: 0 }, { arithmetic: 'dd', strict: true, targetThreads: 1 });
          got.push(await rowsOf(y, m));
        }
        if (slowTests) expect(got[1]!.words).toEqual(got[0]!.words);
        const rows = got[got.length - 1]!.rows;
        const cpu = cpuRows(a, m, n, xs);
        for (let i = 0; i < m; i++) {
          if (!Number.isFinite(cpu[i]!.hi)) {
            if (Number.isNaN(cpu[i]!.hi)) expect(rows[i]!.hi, `row ${i}`).toBeNaN();
            else expect(rows[i]!.hi, `row ${i}`).toBe(cpu[i]!.hi);
            continue;
          }
          const { exact, mag } = exactRow(n, (j) => [a[i + j * m]!, xs[j]!]);
          expectRowWithin(rows[i]!, exact, mag, n, `row ${i}`);
        }
      },
    ), { numRuns: 5 });
  });

  it.skipIf(!slowTests)('f64 storage, a column-major sub-range of A, x of stride −2, α = 3, β = −0.5: R = 2 and 4 give the words of one row a thread', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 27 }), fc.array(doubles, { minLength: 200, maxLength: 200 }),
      fc.array(fc.tuple(fc.nat(199), special), { maxLength: 2 }), fc.array(doubles, { minLength: 7, maxLength: 7 }),
      async (m, n, values, specials, ys) => {
        for (const [k, v] of specials) values[k] = v;
        // A: rows 1 … m and columns 1 … n of an (m + 2)×(n + 1) column-major span (ld m + 2).
        const ld = m + 2;
        const span = new Float64Array(ld * (n + 1)).fill(7);
        for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) span[1 + i + (j + 1) * ld] = values[i + j * m]!;
        const A = deviceMatrixView(await toDevice(span, { format: 'f64' }), { rows: m, cols: n, offset: 1 + ld, rowStride: 1, colStride: ld });
        const xSpan = new Float64Array(2 * n).fill(5);
        for (let k = 0; k < n; k++) xSpan[2 * (n - 1 - k)] = values[199 - k]!;
        const x = deviceView(await toDevice(xSpan, { format: 'f64' }), 2 * (n - 1), n, -2);
        const words: number[][] = [];
        for (const R of [1, 2, 4] as const) {
          setGpuKernelSwitches({ ddGemvRows: R });
          const y = await toDevice(Float64Array.from(ys.slice(0, m)), { format: 'dd' });
          await gpuGemv({ A, x, y, alpha: 3, beta: -0.5 }, { arithmetic: 'dd', strict: true, targetThreads: 1 });
          words.push((await rowsOf(y, m)).words);
        }
        for (const w of words.slice(1)) expect(w).toEqual(words[0]);
      },
    ), { numRuns: 4 });
  });

  it.skipIf(!slowTests)('dd storage with dd terms in the long window, β = 0 and y NaN: R = 2 gives the words of one row a thread, finite rows within the bound of their exact value', async () => {
    await requireRuntime();
    const pairs = doubleDoubles({ minExponent: -200, maxExponent: 200 });
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 20 }), fc.array(pairs, { minLength: 120, maxLength: 120 }),
      fc.array(fc.tuple(fc.nat(119), special), { maxLength: 1 }),
      async (m, n, values, specials) => {
        const ps: Pair[] = values.map((p) => ({ hi: p.hi, lo: p.lo }));
        for (const [k, v] of specials) ps[k] = { hi: v, lo: 0 };
        const a = ps.slice(0, m * n);
        const xs = ps.slice(120 - n);
        const A = deviceMatrixView(await toDevice(ddRange(a) as never), { rows: m, cols: n, offset: 0, rowStride: 1, colStride: m });
        const x = await toDevice(ddRange(xs) as never);
        const got: { words: number[]; rows: Pair[] }[] = [];
        for (const R of [1, 2] as const) {
          setGpuKernelSwitches({ ddGemvLongDd: true, ddGemvRows: R });
          const y = await toDevice(new Float64Array(m).fill(NaN), { format: 'dd' });
          await gpuGemv({ A, x, y, alpha: 1, beta: 0 }, { arithmetic: 'dd', strict: true, targetThreads: 1 });
          got.push(await rowsOf(y, m));
        }
        expect(got[1]!.words).toEqual(got[0]!.words);
        for (let i = 0; i < m; i++) {
          if (a.some((p, k) => k % m === i && !Number.isFinite(p.hi)) || xs.some((p) => !Number.isFinite(p.hi))) continue;
          const { exact, mag } = exactRow(n, (j) => [a[i + j * m]!, xs[j]!]);
          expectRowWithin(got[1]!.rows[i]!, exact, mag, n, `row ${i}`);
        }
      },
    ), { numRuns: 4 });
  });
});
