/**
 * trsvBound(…, { backend: 'gpu' }) with x in a scaled floating-point storage whose stored values lie below 2^-126
 * although the values they represent do not: the device reads b's stored q (an f64 below 2^-126) as ±0 and writes
 * x̂ back as q = x̂ / s, so b's read and x̂'s write err by 2^-126 times |s|, not 2^-126. Every stored xᵢ lies within
 * the bound of the exact solution (BigInt rationals). Regression: x = b = [0.001, 0.001] in f64 under a scale of
 * 1e38 (q = 1e-41), T = [[1, 0], [0.5, 1]], f32 and float-float: the GPU stored x̂ = [0, 0] against bounds of
 * 7e-38 and 2.6e-36 (the write's absolute part taken per element, not per unit of scale, and b's read as 2^-126).
 */
import { describe, expect, it } from 'vitest';
import { formats, matrix, range, scaledReducedRowMajor, trsv, trsvBound } from '../../src/index.js';
import { exactOf, exactTriangularSolve } from '../../src/testing/exact.js';
import { absRational, compareRational, mulRational, subRational } from '../../src/testing/rational.js';
import { requireRuntime } from './gpu-test-helpers.js';

describe('trsvBound on the GPU with a scaled x whose stored values lie below 2^-126', () => {
  it('f32 and float-float, f64 and f32 storage under scales of 1e38 and 2^120: within the bound', async () => {
    await requireRuntime();
    for (const arithmetic of [formats.f32, formats.ff]) {
      for (const [storage, value, scale] of [[formats.f64, 0.001, 1e38], [formats.f64, 2 ** -10, 2 ** 120], [formats.f32, 0.001, 1e38]] as const) {
        const x = range(scaledReducedRowMajor<1>({ size: [2], storage, arithmetic: arithmetic as typeof formats.f32, scaleMask: [false], scale: new Float64Array([scale]) }));
        x.set(0, value);
        x.set(1, value);
        const stored = (i: number) => mulRational(exactOf(x.accessor.storage.decode(x.accessor.data as never, x.accessor.linearIndex([i])) as number), exactOf(scale));
        const b = [stored(0), stored(1)];
        const A = matrix(2, 2, (i, j) => (i === j ? 1 : i > j ? 0.5 : 0), { arithmetic });
        const exact = exactTriangularSolve([[exactOf(1), exactOf(0)], [exactOf(0.5), exactOf(1)]], b, true, false);
        const args = { A, x, uplo: 'L', trans: 'N', diag: 'N' } as const;
        await trsv(args, { backend: 'gpu', arithmetic, strict: true });
        const bound = trsvBound(args, { backend: 'gpu', arithmetic });
        for (let i = 0; i < 2; i++) {
          const error = absRational(subRational(stored(i), exact[i]!));
          expect(compareRational(error, exactOf(bound[i]!)) <= 0, `${arithmetic.name} ${storage.name} ×${scale}: x̂${i} = ${x.get(i)}, bound ${bound[i]}`).toBe(true);
        }
      }
    }
  });
});
