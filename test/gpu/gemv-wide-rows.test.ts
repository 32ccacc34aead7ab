/**
 * GEMV N in float-float with four rows a thread (the `gemvFfFourRows` switch of src/backends/webgpu/kernel-switches.ts):
 * a thread's 8 words of partials are stored by the thread itself, through an atomic view of the partial buffer. The
 * rows per thread do not change the summation order, so with the switch on y must be the default's (2 rows a thread)
 * bit for bit — packed matrices (one vector load of four rows) and ones read row by row (m not a multiple of 4, a
 * strided view), chunks from one column to all, α and β, NaN / ±∞ among the values — and within the ff bound of the
 * exact BigInt result. α = 0 reads neither A nor x; β = 0 never reads y (NaN there stays out). Likewise eight rows a
 * thread of a 16-bit matrix (`gemvEightRows`: one 16-byte load of a column's eight rows) in f32 and float-float, and
 * the finish pass loading 16 or 32 partials before adding them (`gemvFinishBatch`, same order).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, deviceMatrixView, gpuGemv, type DeviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { compiledPrograms } from '../../src/backends/webgpu/program.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { maxRowsPerThread } from '../../kernels/gemv/gemv-row-group-source.js';
import { gpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { exactDot, exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, subRational } from '../../src/testing/rational.js';
import { gamma, opError, randomValues, requireRuntime } from './gpu-test-helpers.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

const SPECIAL = [Infinity, -Infinity, NaN, 0, -0];

/** The same bits, or NaN for NaN. */
function sameValues(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((v, k) => Object.is(v, b[k]) || (Number.isNaN(v) && Number.isNaN(b[k]!)));
}

/** y ← α·A·x + β·y with the switch set; A from `make` (packed or a view of the same values), y's old values `y0`. */
async function gemvWith(fourRows: boolean, A: DeviceMatrix, xValues: Float64Array, y0: Float64Array, alpha: number, beta: number, targetThreads: number): Promise<Float64Array> {
  setGpuKernelSwitches({ gemvFfFourRows: fourRows });
  const x = await toDevice(xValues, { format: 'f32' });
  const y = await toDevice(y0, { format: 'f64' });
  const r = await gpuGemv({ A, x, y, alpha, beta }, { arithmetic: 'ff', targetThreads });
  expect(r.backend).toBe('gpu');
  const out = await y.toHost();
  x.destroy();
  y.destroy();
  return out;
}

/** A packed m×n matrix of `values` (column-major) in `storage`, or the same values as a row-major view. */
async function matrixOf(values: Float64Array, m: number, n: number, storage: 'f32' | 'bf16', view: boolean): Promise<DeviceMatrix> {
  if (!view) return deviceMatrix(await toDevice(values, { format: storage }), m, n);
  // A row-major view would run as GEMV T of its transpose: a column-major view with rows 2 apart instead (the 4-row
  // pass then reads its rows one by one).
  const span = new Float64Array(2 * m * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) span[2 * i + j * 2 * m] = values[i + j * m]!;
  return deviceMatrixView(await toDevice(span, { format: storage }), { rows: m, cols: n, offset: 0, rowStride: 2, colStride: 2 * m });
}

describe('GEMV N, float-float, four rows a thread (gemvFfFourRows)', () => {
  for (const storage of ['f32', 'bf16'] as const) {
    it(`${storage} storage: the bits of two rows a thread, within the bound of the exact result`, async () => {
      await requireRuntime();
      await fc.assert(
        fc.asyncProperty(
          // m a multiple of 4 (one vector load of four rows a column) or not (the last group reads row m − 1 again);
          // the target sets the chunk ⌈n / ⌈target / m⌉⌉, from one column to all n (multiples of 4 read x four columns a load).
          fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 2 ** 7 }), fc.integer({ min: 1, max: 2 ** 30 }),
          fc.constantFrom(1, -0.75), fc.constantFrom(0, 0.5), fc.boolean(),
          async (groups, extra, n, targetThreads, seed, alpha, beta, view) => {
            const m = 4 * groups + extra;
            const values = randomValues(m * n, seed);
            const xv = randomValues(n, seed + 1);
            const y0 = randomValues(m, seed + 2);
            const A = await matrixOf(values, m, n, storage, view);
            const two = await gemvWith(false, A, xv, y0, alpha, beta, targetThreads);
            const four = await gemvWith(true, A, xv, y0, alpha, beta, targetThreads);
            expect(sameValues(four, two), `m=${m} n=${n} target=${targetThreads} view=${view}: ${four} vs ${two}`).toBe(true);
            // The exact result of the stored values (x read exactly: f32 values in ff), α·A·x + β·y0.
            const packed = await toDevice(values, { format: storage });
            const stored = await packed.toHost();
            packed.destroy();
            const at = (i: number, j: number): number => stored[i + j * m]!;
            const x32 = xv.map(Math.fround);
            for (let i = 0; i < m; i++) {
              const row = Float64Array.from({ length: n }, (_, j) => alpha * at(i, j));
              const exact = exactDot([...row, beta], [...x32, y0[i]!]);
              const magnitude = row.reduce((s, a, j) => s + Math.abs(a * x32[j]!), 0) + Math.abs(beta * y0[i]!);
              // The ff bound of the kernels' tests (γ_{2n+3}(8u²) of the magnitudes) plus the rounding of y to f64.
              const bound = gamma(2 * n + 3, opError('ff')) * magnitude + 2 ** -53 * Math.abs(four[i]!);
              const error = absRational(subRational(exactOf(four[i]!), exact));
              expect(compareRational(error, exactOf(bound)) <= 0, `row ${i}: ${four[i]} (bound ${bound})`).toBe(true);
            }
            A.data.destroy();
          },
        ),
        { numRuns: 5 },
      );
    });
  }

  for (const storage of ['bf16', 'f16'] as const) {
    for (const arithmetic of ['f32', 'ff'] as const) {
      it(`eight rows a thread (gemvEightRows), ${storage} storage, ${arithmetic}: the default's bits`, async () => {
        await requireRuntime();
        await fc.assert(
          fc.asyncProperty(
            // m a multiple of 8 (one 16-byte load of eight rows a column) or not (the default form runs).
            fc.integer({ min: 1, max: 4 }), fc.constantFrom(0, 0, 4, 3), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 2 ** 7 }), fc.integer({ min: 1, max: 2 ** 30 }), fc.boolean(),
            async (groups, extra, n, targetThreads, seed, special) => {
              const m = 8 * groups + extra;
              const values = randomValues(m * n, seed).map((v, k) => (special && Math.abs(v) < 0.1 ? SPECIAL[k % SPECIAL.length]! : v));
              const A = deviceMatrix(await toDevice(values, { format: storage }), m, n);
              const x = await toDevice(randomValues(n, seed + 1), { format: 'f32' });
              const run = async (eight: boolean): Promise<Float64Array> => {
                setGpuKernelSwitches({ gemvEightRows: eight });
                const y = await toDevice(randomValues(m, seed + 2), { format: 'f64' });
                await gpuGemv({ A, x, y, alpha: 1.5, beta: -0.25 }, { arithmetic, targetThreads });
                const out = await y.toHost();
                y.destroy();
                return out;
              };
              const byDefault = await run(false);
              const eight = await run(true);
              expect(sameValues(eight, byDefault), `m=${m} n=${n} target=${targetThreads}: ${eight} vs ${byDefault}`).toBe(true);
              A.data.destroy();
              x.destroy();
            },
          ),
          { numRuns: 4 },
        );
      });
    }
  }

  it('the finish pass loading 16 or 32 partials a batch (gemvFinishBatch) gives the bits of 8, GEMV N and T, f32 and ff', async () => {
    await requireRuntime();
    await fc.assert(
      // The target sets the partials per row: N's chunks ⌈n / ⌈target / m⌉⌉ (1 … 60 of them), T's lanes (powers of two).
      fc.asyncProperty(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 2 ** 9 }), fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom<16 | 32>(16, 32), fc.constantFrom<'N' | 'T'>('N', 'T'), fc.constantFrom<'f32' | 'ff'>('f32', 'ff'),
        async (m, n, targetThreads, seed, gemvFinishBatch, trans, arithmetic) => {
          const A = deviceMatrix(await toDevice(randomValues(m * n, seed), { format: 'f32' }), m, n);
          const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
          const x = await toDevice(randomValues(cols, seed + 1), { format: 'f32' });
          const run = async (batch: 8 | 16 | 32): Promise<Float64Array> => {
            setGpuKernelSwitches({ gemvFinishBatch: batch });
            const y = await toDevice(randomValues(rows, seed + 2), { format: 'f64' });
            await gpuGemv({ A, x, y, trans, alpha: -1.25, beta: 0.75 }, { arithmetic, targetThreads });
            const out = await y.toHost();
            y.destroy();
            return out;
          };
          const eight = await run(8);
          const other = await run(gemvFinishBatch);
          expect(sameValues(other, eight), `${trans} m=${m} n=${n} target=${targetThreads}: ${other} vs ${eight}`).toBe(true);
          A.data.destroy();
          x.destroy();
        }),
      { numRuns: 8 },
    );
    // The finish programs loaded 16 or 32 partials a batch.
    expect((await compiledPrograms()).some((p) => /\+ (15|31) < S\)/.test(p.source))).toBe(true);
  });

  it('NaN and ±∞ in A and x give the default form\'s values; β = 0 ignores NaN in y; α = 0 reads neither A nor x', async () => {
    await requireRuntime();
    const m = 12, n = 19;
    // Special values in rows 0 … 5 only (rows 6 … 11 stay finite); x_3 = 0 meets some of them (∞·0 = NaN).
    const values = randomValues(m * n, 5).map((v, k) => (k % m < 6 && Math.abs(v) < 0.3 ? SPECIAL[k % SPECIAL.length]! : v));
    const xv = randomValues(n, 6).map((v, k) => (k === 3 ? 0 : v));
    const A = deviceMatrix(await toDevice(values, { format: 'f32' }), m, n);
    const nanY = new Float64Array(m).fill(NaN);
    const two = await gemvWith(false, A, xv, nanY, 1, 0, 64);
    const four = await gemvWith(true, A, xv, nanY, 1, 0, 64);
    expect(sameValues(four, two)).toBe(true);
    // Some rows are NaN or ±∞ (the special values reached the sums), the others finite (β = 0 kept y's NaN out).
    expect(four.slice(0, 6).some((v) => !Number.isFinite(v))).toBe(true);
    expect(four.slice(6).every((v) => Number.isFinite(v))).toBe(true);
    // α = 0: y ← β·y, A (with its NaN) never read.
    const y0 = randomValues(m, 7);
    const scaled = await gemvWith(true, A, xv, y0, 0, 0.5, 64);
    expect(Array.from(scaled)).toEqual(Array.from(y0, (v) => 0.5 * v));
    A.data.destroy();
  });

  it('takes four rows a thread in ff by default with gemvFfFourRows, eight with gemvEightRows, and the partial pass stores them itself', async () => {
    await requireRuntime();
    setGpuKernelSwitches({ gemvFfFourRows: false });
    expect(maxRowsPerThread(gpuArithmetic('ff'))).toBe(2);
    setGpuKernelSwitches({ gemvFfFourRows: true });
    expect(maxRowsPerThread(gpuArithmetic('ff'))).toBe(4);
    expect(maxRowsPerThread(gpuArithmetic('f32'))).toBe(4);
    const A = deviceMatrix(await toDevice(randomValues(8 * 8, 3), { format: 'bf16' }), 8, 8);
    const x = await toDevice(randomValues(8, 4), { format: 'f32' });
    const y = await toDevice(new Float64Array(8), { format: 'f32' });
    // The two-pass form (the workgroup split keeps its partials in workgroup memory).
    setGpuKernelSwitches({ gemvWorkgroupSplit: 0 });
    await gpuGemv({ A, x, y }, { arithmetic: 'ff', rowsPerThread: 4 });
    const programs = await compiledPrograms();
    expect(programs.some((p) => p.source.includes('mpAtomicStore(PAtomic[pBase + 7]') && p.wgsl.includes('atomicStore('))).toBe(true);
    // gemvEightRows: one 16-byte load of eight bf16 rows a column (the octet read), in f32 and float-float.
    setGpuKernelSwitches({ gemvFfFourRows: false, gemvEightRows: true });
    for (const arithmetic of ['f32', 'ff'] as const) await gpuGemv({ A, x, y }, { arithmetic });
    const eight = (await compiledPrograms()).filter((p) => p.source.includes('>> 3]);') && p.source.includes('mpAtomicStore(PAtomic[pBase + 7]'));
    expect(eight.some((p) => p.source.includes('mpAtomicStore(PAtomic[pBase + 15]'))).toBe(true);
    expect(eight.some((p) => !p.source.includes('mpAtomicStore(PAtomic[pBase + 8]'))).toBe(true);
    await expect(gpuGemv({ A, x, y }, { arithmetic: 'ff', rowsPerThread: 3 as 4 })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.rowsPerThread' });
    for (const b of [A.data, x, y]) b.destroy();
  });
});
