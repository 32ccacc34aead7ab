/**
 * Binary32 subnormals through the public API with `backend: 'gpu'`: docs/gpu.md lets a GPU flush them to ±0 in f32
 * arithmetic (the CPU keeps them) and says the GPU bounds cover that. f32 ranges holding subnormals (and products
 * that underflow) among normal values, in DOT, GEMV N/T, AXPY, WAXPBY and SCAL, default f32 and float-float, over
 * lengths with several workgroups: each result within the library's bound of the exact value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axpy, axpyBound, dot, dotBound, formats, gemv, gemvBound, scal, scalBound, waxpby, waxpbyBound } from '../../src/index.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectWithin, exactSumOfProducts, makeMatrix, makeVector, seededValues, storedMatrix, storedVector } from './public-shapes-oracle.js';

const f32 = formats.f32;

/** Values of which every `every`-th is a binary32 subnormal (or a tiny normal whose products underflow). */
function tinyMix(n: number, seed: number, every: number): Float64Array {
  const v = seededValues(n, seed);
  for (let k = 0; k < n; k += every) v[k] = (k % 3 === 0 ? 2 ** -140 : k % 3 === 1 ? -(2 ** -127) * 1.5 : 2 ** -100) * (1 + (k % 5) / 8);
  return v;
}

const arith = fc.constantFrom<FormatLike | undefined>(undefined, formats.ff);

describe('binary32 subnormals, backend gpu: within the bounds', () => {
  it('DOT and GEMV N/T', async () => {
    await requireRuntime();
    const cases = fc.record({ m: fc.constantFrom(1, 65, 300), n: fc.constantFrom(1, 9, 70), every: fc.constantFrom(1, 2, 7), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, arith, async (c, arithmetic) => {
      const ar = arithmetic ? { arithmetic } : {};
      const what = `${JSON.stringify(c)} ${arithmetic?.name}`;
      const x = makeVector(tinyMix(c.m * c.n, c.seed, c.every), f32, undefined).r;
      const y = makeVector(tinyMix(c.m * c.n, c.seed + 1, c.every + 1), f32, undefined).r;
      const [hx, hy] = [storedVector(x), storedVector(y)];
      const r = await dot(x, y, { backend: 'gpu', strict: true, ...ar });
      expectWithin(`dot ${what}`, r.value, exactSumOfProducts(Array.from(hx, (v, i) => [v, hy[i]!])), dotBound(x, y, ar));
      const [rows, inner] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const a = tinyMix(c.m * c.n, c.seed + 2, c.every);
      const A = makeMatrix(c.m, c.n, (i, j) => a[i + j * c.m]!, f32, undefined, 'col');
      const gx = makeVector(tinyMix(inner, c.seed + 3, c.every + 2), f32, undefined).r;
      const gy = makeVector(tinyMix(rows, c.seed + 4, 2), f32, undefined).r;
      const args = { alpha: 1, A, x: gx, beta: 1, y: gy, trans: c.trans };
      const bound = gemvBound(args, ar);
      const [hA, hgx, hgy] = [storedMatrix(A), storedVector(gx), storedVector(gy)];
      expect((await gemv(args, { backend: 'gpu', strict: true, ...ar })).backend).toBe('gpu');
      const got = storedVector(gy);
      for (let i = 0; i < rows; i++) {
        const terms: number[][] = [[hgy[i]!]];
        for (let k = 0; k < inner; k++) terms.push([c.trans === 'N' ? hA[i + k * c.m]! : hA[k + i * c.m]!, hgx[k]!]);
        expectWithin(`gemv ${what} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
      }
    }), { numRuns: 20 });
  });

  it('AXPY, WAXPBY, SCAL', async () => {
    await requireRuntime();
    const cases = fc.record({ n: fc.constantFrom(1, 4, 7, 256, 1001), every: fc.constantFrom(1, 3), alpha: fc.constantFrom(1, 0.5, 3, 2 ** -20), beta: fc.constantFrom(1, -0.75, 2 ** -10), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, arith, async (c, arithmetic) => {
      const ar = arithmetic ? { arithmetic } : {};
      const what = `${JSON.stringify(c)} ${arithmetic?.name}`;
      const x = makeVector(tinyMix(c.n, c.seed, c.every), f32, undefined).r;
      const y = makeVector(tinyMix(c.n, c.seed + 1, c.every + 1), f32, undefined).r;
      const w = makeVector(new Float64Array(c.n), f32, undefined).r;
      const [hx, hy] = [storedVector(x), storedVector(y)];
      const bw = waxpbyBound(c.alpha, x, c.beta, y, w, ar);
      await waxpby(c.alpha, x, c.beta, y, w, { backend: 'gpu', strict: true, ...ar });
      const gw = storedVector(w);
      for (let i = 0; i < c.n; i++) expectWithin(`waxpby ${what} [${i}]`, gw[i]!, exactSumOfProducts([[c.alpha, hx[i]!], [c.beta, hy[i]!]]), bw[i]!);
      const ba = axpyBound(c.alpha, x, y, ar);
      await axpy(c.alpha, x, y, { backend: 'gpu', strict: true, ...ar });
      const gy = storedVector(y);
      for (let i = 0; i < c.n; i++) expectWithin(`axpy ${what} [${i}]`, gy[i]!, exactSumOfProducts([[c.alpha, hx[i]!], [hy[i]!]]), ba[i]!);
      const bs = scalBound(c.beta, x, ar);
      await scal(c.beta, x, { backend: 'gpu', strict: true, ...ar });
      const gx = storedVector(x);
      for (let i = 0; i < c.n; i++) expectWithin(`scal ${what} [${i}]`, gx[i]!, exactSumOfProducts([[c.beta, hx[i]!]]), bs[i]!);
    }), { numRuns: 20 });
  });

  it('regression: GEMV whose products fall below binary32\'s normal range is within gemvBound on the CPU and the GPU', async () => {
    // gemvBound (and ellSpmvBound, through update-bound.ts) had no absolute term for underflow inside the arithmetic:
    // 70 products near 2^-149 summed in f32 erred by ~2^-150 each, on both backends, against a bound of ~1e-48.
    await requireRuntime();
    const n = 70;
    const a = Array.from({ length: n }, (_, j) => (j % 2 ? 1 : -1) * 2 ** -75 * (1 + j / 64));
    const xs = Array.from({ length: n }, (_, j) => 2 ** -74 * (1 + ((j * 7) % 13) / 16));
    for (const backend of ['cpu', 'gpu'] as const) {
      const A = makeMatrix(1, n, (_, j) => a[j]!, f32, undefined, 'col');
      const x = makeVector(xs, f32, undefined).r;
      const y = makeVector([0], f32, undefined).r;
      const args = { alpha: 1, A, x, beta: 0, y, trans: 'N' as const };
      const bound = gemvBound(args);
      if (backend === 'gpu') await gemv(args, { backend: 'gpu', strict: true }); else gemv(args);
      const [hA, hx] = [storedMatrix(A), storedVector(x)];
      expectWithin(`gemv ${backend}`, storedVector(y)[0]!, exactSumOfProducts(Array.from(hx, (v, j) => [hA[j]!, v])), bound[0]!);
    }
  });
});
