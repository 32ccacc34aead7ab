/**
 * NaN, ±∞ and ±0 inside large shapes, through the public API with `backend: 'gpu'` (f32 ranges; default f32 and
 * float-float arithmetic): GEMV N/T over several workgroups and chunks, DOT/ASUM/NRM2 over several first-pass threads,
 * ELL SpMV, TRSV across blocks. One rule on both backends (docs/gpu.md): the GPU gives the CPU backend's IEEE outcome
 * — the same NaN/±∞ pattern — and every finite result within twice the shared a-priori bound of the CPU's.
 * (No overflow and no subnormals: there the two summation orders may legitimately differ.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asum, dot, dotBound, ELL_PADDING, ellOperand, ellSpmv, ellSpmvBound, ellStructure, formats, gemv, gemvBound, nrm2, colMajor, range, trsv, trsvBound,
} from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { nonFinitePattern, requireRuntime } from './gpu-test-helpers.js';
import { makeMatrix, makeVector, seededValues, storedVector, type MatLayout } from './public-shapes-oracle.js';

const f32 = formats.f32;
const SPECIALS = [NaN, Infinity, -Infinity, 0, -0];

/** seededValues with `count` specials placed by `where` (reproducible). */
function withSpecials(n: number, seed: number, where: readonly number[]): Float64Array {
  const v = seededValues(n, seed);
  where.forEach((p, k) => { if (n > 0) v[p % n] = SPECIALS[(seed + k) % SPECIALS.length]!; });
  return v;
}

/** Same non-finite pattern; finite entries within bound (gpu vs cpu: each is within bound of the exact value). */
function expectAlike(what: string, gpu: ArrayLike<number>, cpu: ArrayLike<number>, bound: ArrayLike<number>): void {
  expect(nonFinitePattern(gpu), `${what}: non-finite pattern (GPU vs CPU)`).toBe(nonFinitePattern(cpu));
  for (let i = 0; i < cpu.length; i++) {
    if (!Number.isFinite(cpu[i]!)) continue;
    const b = 2 * bound[i]!;
    expect(Math.abs(gpu[i]! - cpu[i]!) <= b || b === Infinity, `${what} [${i}]: GPU ${gpu[i]} CPU ${cpu[i]} bound ${bound[i]}`).toBe(true);
  }
}

const where = fc.array(fc.nat(1 << 20), { minLength: 1, maxLength: 4 });
const arith = fc.constantFrom<FormatLike | undefined>(undefined, formats.ff);

describe('special values inside large shapes, backend gpu vs the CPU backend', () => {
  it('GEMV N and T', async () => {
    await requireRuntime();
    const cases = fc.record({
      m: fc.constantFrom(65, 257, 1001), n: fc.constantFrom(3, 65, 131), trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
      layout: fc.constantFrom<MatLayout>('col', 'row', 'sub-col'), inA: where, inX: where, alpha: fc.constantFrom(1, -2), beta: fc.constantFrom(0, 0.5),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(fc.asyncProperty(cases, arith, async (c, arithmetic) => {
      const ar = arithmetic ? { arithmetic } : {};
      const [rows, inner] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const a = withSpecials(c.m * c.n, c.seed, c.inA);
      const make = () => {
        const A = makeMatrix(c.m, c.n, (i, j) => a[i + j * c.m]!, f32, undefined, c.layout);
        const x = makeVector(withSpecials(inner, c.seed + 1, c.inX), f32, undefined, 1, 0).r;
        const y = makeVector(c.beta === 0 ? new Float64Array(rows).fill(NaN) : seededValues(rows, c.seed + 2), f32, undefined, 1, 0).r;
        return { alpha: c.alpha, A, x, beta: c.beta, y, trans: c.trans };
      };
      const [g, h] = [make(), make()];
      const bound = gemvBound(h, ar);
      gemv(h, ar);
      expect((await gemv(g, { backend: 'gpu', strict: true, ...ar })).backend).toBe('gpu');
      expectAlike(`gemv ${JSON.stringify(c)} ${arithmetic?.name}`, storedVector(g.y), storedVector(h.y), bound);
    }), { numRuns: 20 });
  });

  it('DOT, ASUM, NRM2', async () => {
    await requireRuntime();
    const cases = fc.record({ n: fc.constantFrom(5, 257, 4097, 65537), inX: where, inY: where, inc: fc.constantFrom(1, -2), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, arith, async (c, arithmetic) => {
      const ar = arithmetic ? { arithmetic } : {};
      const x = makeVector(withSpecials(c.n, c.seed, c.inX), f32, undefined, c.inc, 1).r;
      const y = makeVector(withSpecials(c.n, c.seed + 1, c.inY), f32, undefined, 1, 0).r;
      const what = `${JSON.stringify(c)} ${arithmetic?.name}`;
      const d = await dot(x, y, { backend: 'gpu', strict: true, ...ar });
      expectAlike(`dot ${what}`, [d.value], [dot(x, y, ar)], [dotBound(x, y, ar)]);
      const s = await asum(x, { backend: 'gpu', strict: true, ...ar });
      expect(nonFinitePattern([s.value]), `asum ${what}`).toBe(nonFinitePattern([asum(x, ar)]));
      const r = await nrm2(x, { backend: 'gpu', strict: true, ...ar });
      expect(nonFinitePattern([r.value]), `nrm2 ${what}`).toBe(nonFinitePattern([nrm2(x, ar)]));
    }), { numRuns: 20 });
  });

  it('ELL SpMV', async () => {
    await requireRuntime();
    const cases = fc.record({ rows: fc.constantFrom(65, 300), width: fc.constantFrom(2, 5), inV: where, inX: where, seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, arith, async (c, arithmetic) => {
      const ar = arithmetic ? { arithmetic } : {};
      const { rows, width } = c;
      const cols = 97;
      const colIndex = new Int32Array(rows * width).fill(ELL_PADDING);
      for (let i = 0; i < rows; i++) for (let k = 0; k < (i % (width + 1)); k++) colIndex[i + k * rows] = (i * 7 + k * 13) % cols;
      const S = ellStructure({ rows, cols, width, stride: rows, colIndex });
      const v = withSpecials(rows * width, c.seed, c.inV);
      const make = () => {
        const values = range(colMajor<2>({ size: [rows, width], storage: f32 } as never)) as Range<2, any>;
        for (let k = 0; k < width; k++) for (let i = 0; i < rows; i++) values.set(i, k, colIndex[i + k * rows] === ELL_PADDING ? 0 : v[i + k * rows]!);
        return { alpha: 1, A: ellOperand(S, values), x: makeVector(withSpecials(cols, c.seed + 1, c.inX), f32, undefined).r, beta: 0, y: makeVector(new Float64Array(rows).fill(NaN), f32, undefined).r };
      };
      const [g, h] = [make(), make()];
      const bound = ellSpmvBound(h, ar);
      ellSpmv(h, ar);
      expect((await ellSpmv(g, { backend: 'gpu', strict: true, ...ar })).backend).toBe('gpu');
      expectAlike(`ell ${JSON.stringify(c)} ${arithmetic?.name}`, storedVector(g.y), storedVector(h.y), bound);
    }), { numRuns: 12 });
  });

  it('TRSV with a non-finite entry, pivot or right-hand side across blocks', async () => {
    await requireRuntime();
    const cases = fc.record({
      n: fc.constantFrom(65, 130), uplo: fc.constantFrom<'L' | 'U'>('L', 'U'), trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
      at: fc.nat(1 << 20), inB: where, special: fc.constantFrom(...SPECIALS), seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const { n, uplo } = c;
      const r = seededValues(n * n, c.seed, 3);
      const pos = c.at % (n * n);
      const fill = (i: number, j: number) => {
        if (uplo === 'L' ? i < j : i > j) return 0;
        if (i + j * n === pos) return c.special;
        return i === j ? 2 : r[i + j * n]! / n;
      };
      const make = () => ({ A: makeMatrix(n, n, fill, f32, undefined, 'col'), x: makeVector(withSpecials(n, c.seed + 1, c.inB), f32, undefined).r, uplo, trans: c.trans, diag: 'N' as const });
      const [g, h] = [make(), make()];
      trsv(h);
      expect((await trsv(g, { backend: 'gpu', strict: true })).backend).toBe('gpu');
      const bound = trsvBound(g, { backend: 'gpu' });
      expectAlike(`trsv ${JSON.stringify(c)}`, storedVector(g.x), storedVector(h.x), Array.from(bound, (b, i) => b + trsvBound(h)[i]!));
    }), { numRuns: 16 });
  });
});
