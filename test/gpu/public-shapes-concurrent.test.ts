/**
 * Public `backend: 'gpu'` calls in flight together, and again right after, on operands of one span shape with other
 * contents (the upload slots of src/backends/webgpu-bridge/upload-slots.ts lend an array to one call at a time; plans,
 * TRSV's cached block inverses and scratch buffers are keyed by the arrays): GEMV N/T, TRSV (other matrices, and one
 * matrix with other right-hand sides), DOT and AXPY, started together with Promise.all, then a second round. Each result
 * against the exact rational value within the library's bound for its own operands.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axpy, axpyBound, dot, dotBound, formats, gemv, gemvBound } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectWithin, exactSumOfProducts, makeMatrix, makeVector, seededValues, storedMatrix, storedVector, type MatLayout } from './public-shapes-oracle.js';
import { runTrsvCase } from './public-shapes-trsv-case.js';

const f32 = formats.f32;

/** A GEMV call and the check of its result. */
function gemvCall(m: number, n: number, trans: 'N' | 'T', layout: MatLayout, seed: number, arithmetic: FormatLike | undefined): { run: () => Promise<unknown>; check: () => void } {
  const [rows, inner] = trans === 'N' ? [m, n] : [n, m];
  const a = seededValues(m * n, seed);
  const A = makeMatrix(m, n, (i, j) => a[i + j * m]!, f32, undefined, layout);
  const x = makeVector(seededValues(inner, seed + 1), f32, undefined).r;
  const y = makeVector(seededValues(rows, seed + 2), f32, undefined).r;
  const ar = arithmetic ? { arithmetic } : {};
  const args = { alpha: 1, A, x, beta: 0.5, y, trans };
  const bound = gemvBound(args, ar);
  const [hA, hx, hy] = [storedMatrix(A), storedVector(x), storedVector(y)];
  return {
    run: async () => expect((await gemv(args, { backend: 'gpu', strict: true, ...ar })).backend).toBe('gpu'),
    check: () => {
      const got = storedVector(y);
      for (let i = 0; i < rows; i++) {
        const terms: number[][] = [[0.5, hy[i]!]];
        for (let k = 0; k < inner; k++) terms.push([trans === 'N' ? hA[i + k * m]! : hA[k + i * m]!, hx[k]!]);
        expectWithin(`gemv seed ${seed} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
      }
    },
  };
}

function dotCall(n: number, seed: number, arithmetic: FormatLike | undefined): Promise<void> {
  const ar = arithmetic ? { arithmetic } : {};
  const x = makeVector(seededValues(n, seed), f32, undefined).r;
  const y = makeVector(seededValues(n, seed + 1), f32, undefined).r;
  const [hx, hy] = [storedVector(x), storedVector(y)];
  const bound = dotBound(x, y, ar);
  return dot(x, y, { backend: 'gpu', strict: true, ...ar }).then((r) =>
    expectWithin(`dot seed ${seed}`, r.value, exactSumOfProducts(Array.from(hx, (v, i) => [v, hy[i]!])), bound));
}

function axpyCall(n: number, seed: number): Promise<void> {
  const x: Range<1, any> = makeVector(seededValues(n, seed), f32, undefined).r;
  const y: Range<1, any> = makeVector(seededValues(n, seed + 1), f32, undefined).r;
  const [hx, hy] = [storedVector(x), storedVector(y)];
  const bound = axpyBound(-2, x, y);
  return axpy(-2, x, y, { backend: 'gpu', strict: true }).then(() => {
    const got = storedVector(y);
    for (let i = 0; i < n; i++) expectWithin(`axpy seed ${seed} [${i}]`, got[i]!, exactSumOfProducts([[-2, hx[i]!], [hy[i]!]]), bound[i]!);
  });
}

describe('public GPU calls in flight together, then again on the same span shapes', () => {
  it('GEMV, DOT and AXPY: three calls a kernel together, two rounds', async () => {
    await requireRuntime();
    const cases = fc.record({
      m: fc.constantFrom(3, 130, 700), n: fc.constantFrom(1, 33, 90), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), layout: fc.constantFrom<MatLayout>('col', 'row'),
      len: fc.constantFrom(1, 257, 5000), ff: fc.boolean(), seed: fc.integer({ min: 1, max: 2 ** 20 }),
    });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const arithmetic = c.ff ? formats.ff : undefined;
      for (let round = 0; round < 2; round++) {
        const calls = [0, 1, 2].map((k) => gemvCall(c.m, c.n, c.trans, c.layout, c.seed + 10 * k + 100 * round, arithmetic));
        await Promise.all([
          ...calls.map((g) => g.run()),
          ...[0, 1, 2].map((k) => dotCall(c.len, c.seed + 7 * k + 50 * round, arithmetic)),
          ...[0, 1, 2].map((k) => axpyCall(c.len, c.seed + 3 * k + 70 * round)),
        ]);
        calls.forEach((g) => g.check());
      }
    }), { numRuns: 12 });
  });

  it('TRSV: three solves of other matrices of one shape together, two rounds', async () => {
    await requireRuntime();
    const cases = fc.record({ n: fc.constantFrom(2, 65, 130), uplo: fc.constantFrom<'L' | 'U'>('L', 'U'), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), seed: fc.integer({ min: 1, max: 2 ** 20 }) });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      for (let round = 0; round < 2; round++) {
        await Promise.all([0, 1, 2].map((k) =>
          runTrsvCase({ n: c.n, uplo: c.uplo, trans: c.trans, diag: 'N', layout: 'col', incX: 1, seed: c.seed + 13 * k + 200 * round }, f32, undefined)));
      }
    }), { numRuns: 6 });
  });
});
