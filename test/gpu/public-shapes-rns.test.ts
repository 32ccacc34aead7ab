/**
 * RNS arithmetic on the GPU through the public API (`backend: 'gpu', arithmetic: formats.rns106`): GEMV N/T with m in
 * the hundreds (row × chunk × modulus threads) and n across chunks, DOT across lengths, WAXPBY, over f64/f32/f16 ranges
 * in every layout, strided views, α = 0, β = 0 with NaN in y. Each result against the exact rational value within the
 * CPU's bounds for the same arithmetic (docs/rns.md, "Ranges with backend: 'gpu'").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dot, dotBound, formats, gemv, gemvBound, waxpby, waxpbyBound } from '../../src/index.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectSpanKept, expectWithin, exactSumOfProducts, makeMatrix, makeVector, seededValues, storedMatrix, storedVector, type MatLayout } from './public-shapes-oracle.js';

const rns = { arithmetic: formats.rns106 };
const STORE: Record<string, FormatLike> = { f64: formats.f64, f32: formats.f32, f16: formats.f16 };

describe('RNS (rns106) on the GPU through ranges', () => {
  it('GEMV N and T over several workgroups', async () => {
    await requireRuntime();
    const cases = fc.record({
      m: fc.constantFrom(1, 65, 257), n: fc.constantFrom(1, 17, 70), trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
      layout: fc.constantFrom<MatLayout>('col', 'col-lda', 'row', 'sub-col'), sa: fc.constantFrom('f64', 'f32', 'f16'),
      alpha: fc.constantFrom(1, -0.75, 0), beta: fc.constantFrom(0, 0.5), incY: fc.constantFrom(1, -2), seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const [rows, inner] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const a = seededValues(c.m * c.n, c.seed, 30);
      const A = makeMatrix(c.m, c.n, (i, j) => a[i + j * c.m]!, STORE[c.sa]!, formats.f64, c.layout);
      const x = makeVector(seededValues(inner, c.seed + 1, 30), formats.f64, formats.f64, 1, 0);
      const y = makeVector(c.beta === 0 ? new Float64Array(rows).fill(NaN) : seededValues(rows, c.seed + 2), formats.f64, formats.f64, c.incY, 1);
      const args = { alpha: c.alpha, A, x: x.r, beta: c.beta, y: y.r, trans: c.trans };
      const bound = gemvBound(args, rns);
      const [hA, hx, hy] = [storedMatrix(A), storedVector(x.r), storedVector(y.r)];
      expect((await gemv(args, { backend: 'gpu', strict: true, ...rns })).backend).toBe('gpu');
      const got = storedVector(y.r);
      expectSpanKept(JSON.stringify(c), y);
      for (let i = 0; i < rows; i++) {
        const terms: number[][] = [];
        if (c.alpha !== 0) for (let k = 0; k < inner; k++) terms.push([c.alpha, c.trans === 'N' ? hA[i + k * c.m]! : hA[k + i * c.m]!, hx[k]!]);
        if (c.beta !== 0) terms.push([c.beta, hy[i]!]);
        expectWithin(`${JSON.stringify(c)} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
      }
    }), { numRuns: 10 });
  });

  it('DOT across lengths and WAXPBY on views', async () => {
    await requireRuntime();
    const cases = fc.record({
      n: fc.constantFrom(0, 1, 5, 64, 65, 1025), incX: fc.constantFrom(1, -2), alpha: fc.constantFrom(1, 0, -3), beta: fc.constantFrom(0, 0.25),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const x = makeVector(seededValues(c.n, c.seed, 30), formats.f64, formats.f64, c.incX, 1);
      const y = makeVector(seededValues(c.n, c.seed + 1, 30), formats.f32, formats.f32, 1, 0);
      const [hx, hy] = [storedVector(x.r), storedVector(y.r)];
      const d = await dot(x.r, y.r, { backend: 'gpu', strict: true, ...rns });
      expect(d.backend).toBe('gpu');
      expectWithin(`dot ${JSON.stringify(c)}`, d.value, exactSumOfProducts(Array.from(hx, (v, i) => [v, hy[i]!])), dotBound(x.r, y.r, rns));
      const yy = makeVector(c.beta === 0 ? new Float64Array(c.n).fill(NaN) : hy, formats.f64, formats.f64, 1, 0);
      const w = makeVector(new Float64Array(c.n), formats.f64, formats.f64, -1, 1);
      const bound = waxpbyBound(c.alpha, x.r, c.beta, yy.r, w.r, rns);
      expect((await waxpby(c.alpha, x.r, c.beta, yy.r, w.r, { backend: 'gpu', strict: true, ...rns })).backend).toBe('gpu');
      const got = storedVector(w.r);
      expectSpanKept(`waxpby ${JSON.stringify(c)}`, w);
      for (let i = 0; i < c.n; i++) {
        const terms = [...(c.alpha !== 0 ? [[c.alpha, hx[i]!]] : []), ...(c.beta !== 0 ? [[c.beta, hy[i]!]] : [])];
        expectWithin(`waxpby ${JSON.stringify(c)} [${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
      }
    }), { numRuns: 10 });
  });
});
