/**
 * Operands that start anywhere in their storage, through the public API with `backend: 'gpu'`: a column-major matrix
 * with rows and lda multiples of 2, 4 and 8 (the shapes GEMV N reads two or four rows a load) placed at every offset
 * modulo 8 of its storage — so 16-bit rows start mid-word —, and stride-1 vectors at every offset modulo 8 (DOT's runs
 * of four, one vector load each), in f32/f16/bf16 with f32 (default for f32) and float-float arithmetic. GEMV N/T and
 * DOT against the exact rational result within `gemvBound` / `dotBound`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colMajor, dot, dotBound, formats, gemv, gemvBound, range } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectWithin, exactSumOfProducts, seededValues, sentinel, storedMatrix, storedVector } from './public-shapes-oracle.js';

const STORE: Record<string, FormatLike> = { f32: formats.f32, f16: formats.f16, bf16: formats.bf16 };

/** An m×n column-major matrix with leading dimension lda at element `offset` of a larger storage of sentinels. */
function matrixAt(m: number, n: number, lda: number, offset: number, values: Float64Array, storage: FormatLike, arithmetic: FormatLike): Range<2, any> {
  const total = offset + lda * n + 5;
  const full = range(colMajor<1>({ size: [total], storage, arithmetic } as never)) as Range<1, any>;
  for (let k = 0; k < total; k++) full.set(k, sentinel(k));
  const A = range(colMajor<2>({ size: [m, n], stride: lda, offset, storage, arithmetic, data: full.accessor.data } as never)) as Range<2, any>;
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) A.set(i, j, values[i + j * m]!);
  return A;
}

function vectorAt(values: ArrayLike<number>, offset: number, storage: FormatLike, arithmetic: FormatLike): Range<1, any> {
  const total = offset + values.length + 3;
  const full = range(colMajor<1>({ size: [total], storage, arithmetic } as never)) as Range<1, any>;
  for (let k = 0; k < total; k++) full.set(k, sentinel(k));
  const r = range(colMajor<1>({ size: [values.length], offset, storage, arithmetic, data: full.accessor.data } as never)) as Range<1, any>;
  for (let i = 0; i < values.length; i++) r.set(i, values[i]!);
  return r;
}

describe('operands at every offset of their storage, backend gpu', () => {
  it('GEMV N/T: rows and lda multiples of 2, 4, 8; the matrix at offsets 0 … 7', async () => {
    await requireRuntime();
    const cases = fc.record({
      m: fc.constantFrom(8, 64, 256, 520), n: fc.constantFrom(1, 8, 37), ldaExtra: fc.constantFrom(0, 8), offset: fc.integer({ min: 0, max: 7 }),
      xOffset: fc.integer({ min: 0, max: 7 }), storage: fc.constantFrom('f32', 'f16', 'bf16'), ff: fc.boolean(), trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const arithmetic = c.ff ? formats.ff : formats.f32;
      const A = matrixAt(c.m, c.n, c.m + c.ldaExtra, c.offset, seededValues(c.m * c.n, c.seed), STORE[c.storage]!, arithmetic);
      const [rows, inner] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const x = vectorAt(seededValues(inner, c.seed + 1), c.xOffset, STORE[c.storage]!, arithmetic);
      const y = vectorAt(seededValues(rows, c.seed + 2), (c.xOffset + 3) % 8, formats.f32, arithmetic);
      const args = { alpha: 1, A, x, beta: -0.5, y, trans: c.trans };
      const options = { arithmetic };
      const bound = gemvBound(args, options);
      const [hA, hx, hy] = [storedMatrix(A), storedVector(x), storedVector(y)];
      expect((await gemv(args, { backend: 'gpu', strict: true, ...options })).backend).toBe('gpu');
      const got = storedVector(y);
      for (let i = 0; i < rows; i++) {
        const terms: number[][] = [[-0.5, hy[i]!]];
        for (let k = 0; k < inner; k++) terms.push([c.trans === 'N' ? hA[i + k * c.m]! : hA[k + i * c.m]!, hx[k]!]);
        expectWithin(`${JSON.stringify(c)} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
      }
    }), { numRuns: 40 });
  });

  it('DOT: stride-1 vectors at offsets 0 … 7', async () => {
    await requireRuntime();
    const cases = fc.record({
      n: fc.constantFrom(3, 4, 8, 63, 256, 1029), ox: fc.integer({ min: 0, max: 7 }), oy: fc.integer({ min: 0, max: 7 }),
      sx: fc.constantFrom('f32', 'f16', 'bf16'), sy: fc.constantFrom('f32', 'f16', 'bf16'), ff: fc.boolean(), seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const arithmetic = c.ff ? formats.ff : formats.f32;
      const x = vectorAt(seededValues(c.n, c.seed), c.ox, STORE[c.sx]!, arithmetic);
      const y = vectorAt(seededValues(c.n, c.seed + 1), c.oy, STORE[c.sy]!, arithmetic);
      const [hx, hy] = [storedVector(x), storedVector(y)];
      const r = await dot(x, y, { backend: 'gpu', strict: true, arithmetic });
      expect(r.backend).toBe('gpu');
      expectWithin(`dot ${JSON.stringify(c)}`, r.value, exactSumOfProducts(Array.from(hx, (v, i) => [v, hy[i]!])), dotBound(x, y, { arithmetic }));
    }), { numRuns: 40 });
  });
});
