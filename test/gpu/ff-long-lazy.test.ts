/**
 * Long lazy float-float runs (the `ffLongLazy` switch, kernels/shared/long-lazy-steps.ts: accumulators settle after up
 * to 16 terms counted across steps instead of at every step's end). They change the summation order and bits, so the
 * results must stay within the kernels' published a-priori bounds (`gemvBound`, `dotBound` of the same operands as
 * CPU ranges, arithmetic formats.ff) against the exact rational oracle (src/testing), on rows built to cancel across
 * magnitudes 2^±20 (where a lost tail would show), with chunks long enough for many settles (and a tail loop after
 * them), and the programs must carry the step counter.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { dotBound, formats, gemvBound, matrix, vector } from '../../src/index.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { compiledPrograms } from '../../src/backends/webgpu/program.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { absoluteError, exactDot, exactOf } from '../../src/testing/exact.js';
import { compareRational } from '../../src/testing/rational.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

/** n values of magnitudes 2^-20 … 2^20 whose products with `partner` nearly cancel in pairs (odd k undoes k − 1). */
function cancelling(n: number, seed: number, partner: Float64Array): Float64Array {
  const r = randomValues(2 * n, seed);
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    out[k] = Math.fround(k % 2 === 1 ? (-out[k - 1]! * partner[k - 1]!) / partner[k]! * (1 + r[k]! * 2 ** -20) : r[k]! * 2 ** Math.round(20 * r[n + k]!));
  }
  return out;
}

/** |got − exact| ≤ bound, exactly (the oracle is a rational; the bound a double). */
function within(got: number, exact: ReturnType<typeof exactDot>, bound: number): boolean {
  return Number.isFinite(got) && compareRational(absoluteError(got, exact), exactOf(bound)) <= 0;
}

describe('long lazy float-float runs (ffLongLazy)', () => {
  it('GEMV N, bf16 and fp32 storage: every row within gemvBound of the exact product', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(
        // m even (pair or vector reads of two rows) or odd (row by row; the last group repeats row m − 1); n from one
        // 8-column step to 300 columns; 1 to 4 chunks, so a thread runs up to 37 steps (9 settles) and a tail.
        fc.integer({ min: 1, max: 12 }), fc.integer({ min: 8, max: 300 }), fc.integer({ min: 1, max: 4 }), fc.constantFrom<'bf16' | 'f32'>('bf16', 'f32'), fc.constantFrom(1, 2), fc.integer({ min: 1, max: 2 ** 30 }),
        async (m, n, splits, storage, chains, seed) => {
          const hx = randomValues(n, seed).map((v) => Math.fround(1 + v / 2));
          const a = new Float64Array(m * n);
          for (let i = 0; i < m; i++) cancelling(n, seed + 7 * i, hx).forEach((v, j) => (a[i + j * m] = v));
          const A = deviceMatrix(await toDevice(a, { format: storage }), m, n);
          const x = await toDevice(hx, { format: 'f32' });
          const y = await toDevice(new Float64Array(m), { format: 'f64' });
          // The unfolded long lazy terms (ffLazyAdd), the form this file's bound is about; folded terms: ff-folded-products.
          setGpuKernelSwitches({ ffLongLazy: true, ffFoldedProducts: false });
          await gpuGemv({ A, x, y }, { arithmetic: 'ff', chains, targetThreads: m * splits });
          const [got, stored] = [await y.toHost(), await A.data.toHost()];
          const range = (fmt: typeof formats.bf16 | typeof formats.f32) => matrix(m, n, (i, j) => stored[i + j * m]!, { storage: fmt, arithmetic: formats.ff });
          const bound = gemvBound({ alpha: 1, A: range(storage === 'bf16' ? formats.bf16 : formats.f32), x: vector(hx, { storage: formats.f32 }), beta: 0, y: vector(m, { storage: formats.f64 }), trans: 'N' }, { arithmetic: formats.ff });
          for (let i = 0; i < m; i++) {
            const row = Array.from({ length: n }, (_, j) => stored[i + j * m]!);
            expect(within(got[i]!, exactDot(row, hx), bound[i]!), `m=${m} n=${n} splits=${splits} ${storage} chains=${chains} row ${i}: ${got[i]} bound ${bound[i]}`).toBe(true);
          }
          for (const b of [A.data, x, y]) b.destroy();
        },
      ),
      { numRuns: 5 },
    );
    expect((await compiledPrograms()).some((p) => p.source.includes('lazyN === ') && p.source.includes('ffLazyAdd'))).toBe(true);
  });

  it('DOT, bf16 and fp32 storage: within dotBound of the exact sum', async () => {
    await requireRuntime();
    await fc.assert(
      // 1 to 8 first-pass threads over up to 4000 elements: up to 500 steps of 8 elements (settles every 4), a tail.
      fc.asyncProperty(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 8 }), fc.constantFrom<'bf16' | 'f32'>('bf16', 'f32'), fc.integer({ min: 1, max: 2 ** 30 }), async (n, maxThreads, storage, seed) => {
        const hy = randomValues(n, seed + 1).map((v) => Math.fround(1 + v / 2));
        const x = await toDevice(cancelling(n, seed, hy), { format: storage });
        const y = await toDevice(hy, { format: 'f32' });
        setGpuKernelSwitches({ ffLongLazy: true });
        const r = await gpuDot(x, y, { arithmetic: 'ff', maxThreads });
        const hx = await x.toHost();
        const fmt = storage === 'bf16' ? formats.bf16 : formats.f32;
        const bound = dotBound(vector(hx, { storage: fmt, arithmetic: formats.ff }), vector(hy, { storage: formats.f32, arithmetic: formats.ff }), { arithmetic: formats.ff });
        expect(within(r.value, exactDot(hx, hy), bound), `n=${n} T≤${maxThreads} ${storage}: ${r.value} bound ${bound}`).toBe(true);
        x.destroy();
        y.destroy();
      }),
      { numRuns: 4 },
    );
  });
});
