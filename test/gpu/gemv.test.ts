/**
 * GPU GEMV (N and T) for storage × arithmetic × output format against an accurate reference on the stored
 * values: |y − y*| ≤ γ_{2n+3}(u)(|α|Σ|a·x| + |β||y₀|) + read errors + u_y|y*|, for 1 to 4 accumulator chains.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gemvSplit, gemvTLanes, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { accurateSum, gamma, opError, randomValues, readError, requireRuntime, writeError } from './gpu-test-helpers.js';

const CASES = [
  ['f32', 'f32'],
  ['bf16', 'f32'],
  ['f16', 'bf16'],
  ['f64', 'ff'],
  ['f32', 'f64'],
  ['i8', 'f32'],
  ['ff', 'ff'],
] as const;

describe('gpuGemv', () => {
  for (const [storage, yFormat] of CASES) {
    for (const arithmetic of ['f32', 'ff'] as const) {
      for (const trans of ['N', 'T'] as const) {
        it(`${trans}: A and x ${storage}, y ${yFormat}, ${arithmetic} arithmetic`, async () => {
          await requireRuntime();
          await fc.assert(
            fc.asyncProperty(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 90 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 1, max: 4 }), async (m, n, pad, seed, chains) => {
              const lda = m + pad;
              const rows = trans === 'N' ? m : n;
              const inner = trans === 'N' ? n : m;
              const A = deviceMatrix(await toDevice(randomValues(lda * n, seed), { format: storage, scaleBlock: lda }), m, n, lda);
              const x = await toDevice(randomValues(inner, seed + 1), { format: storage, scaleBlock: 16 });
              const y = await toDevice(randomValues(rows, seed + 2), { format: yFormat });
              const [ha, hx, hy] = [await A.data.toHost(), await x.toHost(), await y.toHost()];
              const alpha = 1.5;
              const beta = -0.75;
              const r = await gpuGemv({ A, x, y, alpha, beta, trans }, { arithmetic, chains });
              expect(r.backend).toBe('gpu');
              const got = await y.toHost();
              const u = opError(arithmetic);
              const readA = readError(storage, arithmetic);
              for (let i = 0; i < rows; i++) {
                const terms = Array.from({ length: inner }, (_, j) => (trans === 'N' ? ha[i + j * lda]! : ha[j + i * lda]!) * hx[j]!);
                const exact = alpha * accurateSum(terms) + beta * hy[i]!;
                const mag = Math.abs(alpha) * accurateSum(terms.map(Math.abs)) + Math.abs(beta * hy[i]!);
                const bound = (gamma(2 * inner + 3, u) + 2.01 * readA + readError(yFormat, arithmetic)) * mag * (1 + writeError(yFormat, arithmetic)) + writeError(yFormat, arithmetic) * Math.abs(exact);
                expect(Math.abs(got[i]! - exact)).toBeLessThanOrEqual(bound);
              }
            }),
            { numRuns: 3 },
          );
        });
      }
    }
  }

  it('β = 0 ignores y (NaN in y does not propagate); α = 0 gives β·y', async () => {
    await requireRuntime();
    const A = deviceMatrix(await toDevice([1, 2, 3, 4]), 2, 2);
    const x = await toDevice([1, 1]);
    const y = await toDevice([NaN, NaN]);
    await gpuGemv({ A, x, y });
    expect([...(await y.toHost())]).toEqual([4, 6]);
    await gpuGemv({ A, x, y, alpha: 0, beta: 2 });
    expect([...(await y.toHost())]).toEqual([8, 12]);
  });

  it('splits the reduction so that rows alone need not fill the GPU', () => {
    expect(gemvSplit(8192, 8192, 2 ** 18)).toEqual({ chunk: 256, splits: 32 });
    expect(gemvSplit(10, 5, 2 ** 18).splits).toBe(5);
    expect(gemvSplit(2 ** 20, 100, 2 ** 18).splits).toBe(1);
    expect(gemvTLanes(8192, 8192, 2 ** 18)).toBe(32);
    expect(gemvTLanes(3, 10, 2 ** 18)).toBe(4);
  });

  it('float-float GEMV beats f32 GEMV by orders of magnitude on cancelling rows', async () => {
    await requireRuntime();
    const n = 64;
    const a = randomValues(n * n, 9).map((v) => v * 1e4);
    const A = deviceMatrix(await toDevice(a), n, n);
    const x = await toDevice(randomValues(n, 10));
    const yf = await toDevice(new Float64Array(n), { format: 'ff' });
    const ys = await toDevice(new Float64Array(n), { format: 'ff' });
    await gpuGemv({ A, x, y: yf }, { arithmetic: 'ff' });
    await gpuGemv({ A, x, y: ys }, { arithmetic: 'f32' });
    const [ha, hx, gf, gs] = [await A.data.toHost(), await x.toHost(), await yf.toHost(), await ys.toHost()];
    let ef = 0;
    let es = 0;
    for (let i = 0; i < n; i++) {
      const exact = accurateSum(Array.from({ length: n }, (_, j) => ha[i + j * n]! * hx[j]!));
      ef = Math.max(ef, Math.abs(gf[i]! - exact));
      es = Math.max(es, Math.abs(gs[i]! - exact));
    }
    expect(ef * 1e6).toBeLessThan(es);
  });
});
