/**
 * An f64 value below 2^-126 read into an arithmetic on binary32 words (f32, float-float) is ±0 on a GPU (docs/gpu.md),
 * and float-float reads it as ±0 on the CPU too. The bounds serve every backend, so they must cover such a read: with
 * data all below 2^-126 the result is 0 where the exact value is about 1e-39, and the bounds were ~1e-44 (the
 * subnormal η of binary32). DOT, ASUM, NRM2, GEMV N and SCAL, f32 and ff, on the GPU and on the CPU: each result within
 * its bound of the exact value.
 */
import { describe, expect, it } from 'vitest';
import { asum, asumBound, dot, dotBound, formats, gemv, gemvBound, nrm2, nrm2Bound, scal, scalBound } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { exactSumOfProducts, expectWithin, makeMatrix, makeVector, seededValues, storedMatrix, storedVector } from './public-shapes-oracle.js';

/** Values all below 2^-126 (normal doubles, binary32 subnormals or below), signs mixed. */
function belowBinary32Normal(n: number, seed: number): Float64Array {
  return Float64Array.from(seededValues(n, seed), (v, k) => (v < 0 ? -1 : 1) * (1 + (k % 7) / 8) * 2 ** -(127 + (k % 9)));
}

const value = (r: number | { value: number }): number => (typeof r === 'number' ? r : r.value);

describe('reads below binary32\'s normal range are within the bounds', () => {
  for (const backend of ['gpu', 'cpu'] as const) {
    for (const arithmetic of [formats.f32, formats.ff]) {
      if (backend === 'cpu' && arithmetic === formats.ff && !formats.ff.arithmetic) continue;
      it(`${backend}, ${arithmetic.name} arithmetic, f64 storage`, async () => {
        if (backend === 'gpu') await requireRuntime();
        const options = { backend, arithmetic, ...(backend === 'gpu' ? { strict: true } : {}) } as const;
        for (const n of [2, 70]) {
          const x = makeVector(belowBinary32Normal(n, 11 + n), formats.f64, undefined).r;
          const y = makeVector(seededValues(n, 5 + n), formats.f64, undefined).r;
          const [hx, hy] = [storedVector(x), storedVector(y)];
          expectWithin(`dot n=${n}`, value(await dot(x, y, options as never)), exactSumOfProducts(Array.from(hx, (v, i) => [v, hy[i]!])), dotBound(x, y, { arithmetic }));
          expectWithin(`asum n=${n}`, value(await asum(x, options as never)), exactSumOfProducts(Array.from(hx, (v) => [Math.abs(v)])), asumBound(x, { arithmetic }));
          // ‖x‖ in fp64 after scaling by 2^140 (exact), within a relative 2^-50 of the true norm.
          const norm = Math.sqrt(hx.reduce((s, v) => s + (v * 2 ** 140) ** 2, 0)) * 2 ** -140;
          expect(Math.abs(value(await nrm2(x, options as never)) - norm) + norm * 2 ** -50).toBeLessThanOrEqual(nrm2Bound(x, { arithmetic }));
          const m = 3;
          const a = belowBinary32Normal(m * n, 23 + n);
          const A = makeMatrix(m, n, (i, j) => a[i + j * m]!, formats.f64, undefined, 'col');
          const gy = makeVector(new Float64Array(m), formats.f64, undefined).r;
          const args = { alpha: 1, A, x: y, beta: 0, y: gy, trans: 'N' as const };
          const bound = gemvBound(args, { arithmetic });
          const hA = storedMatrix(A);
          await gemv(args, options as never);
          const got = storedVector(gy);
          for (let i = 0; i < m; i++) expectWithin(`gemv n=${n} y[${i}]`, got[i]!, exactSumOfProducts(Array.from({ length: n }, (_, j) => [hA[i + j * m]!, hy[j]!])), bound[i]!);
          const bs = scalBound(0.75, x, { arithmetic });
          await scal(0.75, x, options as never);
          const sx = storedVector(x);
          for (let i = 0; i < n; i++) expectWithin(`scal n=${n} [${i}]`, sx[i]!, exactSumOfProducts([[0.75, hx[i]!]]), bs[i]!);
        }
      });
    }
  }
});
