/**
 * The GPU bounds hold on a device that flushes binary32 subnormals (WGSL allows it; llvmpipe keeps them): Higham's
 * model with underflow, fl(x ∘ y) = (x ∘ y)(1 + δ) + η with |η| ≤ 2^-126, for every operation of the arithmetic.
 * Systems whose products t_ij·x_j fall to 2^-140 … 2^-126 (x ≈ 2^-120, off-diagonal entries ≈ 2^-10) lose every
 * such product on a flushing device: the bound must contain both llvmpipe's x and a JavaScript evaluation of the
 * GPU's algorithm (inverted 64-row diagonal blocks, four-accumulator block products and updates) that flushes every
 * operand and result below 2^-126 to ±0. Before the underflow term the flushed x was outside trsvBound by 2^10.
 * DOT and GEMV's a-priori bounds get the same check (products of 2^-70 and 2^-60 flushed to 0), and with AXPY's the
 * reads of binary32 subnormals stored in f32 (no rounding counted for them, but a flushing device reads ±0).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axpyBound, dot, dotBound, formats, gemvBound, matrix, trsv, trsvBound, vector, toArray } from '../../src/index.js';
import { absoluteError, exactDot, exactOf, exactTriangularSolve } from '../../src/testing/exact.js';
import { compareRational } from '../../src/testing/rational.js';
import { requireRuntime } from './gpu-test-helpers.js';

const MIN_NORMAL = 2 ** -126;
/** A binary32 operation's result on a flushing device: rounded to binary32, then ±0 below 2^-126. */
const ftz = (v: number): number => {
  const r = Math.fround(v);
  return Math.abs(r) < MIN_NORMAL ? (r < 0 || Object.is(r, -0) ? -0 : 0) : r;
};
/** fma(a, b, c) rounded once to binary32 (a·b of binary32s is exact in a double), flushed. */
const fma = (a: number, b: number, c: number): number => ftz(a * b + c);

/** Σ_j a_j·b_j as the GPU's loops add it: four accumulators (index mod 4), fma steps, combined pairwise; flushed. */
function fourAccumulatorSum(a: readonly number[], b: readonly number[]): number {
  const acc = [0, 0, 0, 0];
  for (let j = 0; j < a.length; j++) acc[j % 4] = fma(a[j]!, b[j]!, acc[j % 4]!);
  return ftz(ftz(acc[0]! + acc[1]!) + ftz(acc[2]! + acc[3]!));
}

/**
 * The GPU's blocked solve of L·x = b (lower, no transpose, non-unit) with every operation flushed: per diagonal block
 * its inverse by column substitution (fma chains, one division), x_k = X_k·r_k, then r_i −= Σ_{j∈k} l_ij·x_j for the
 * rows below.
 */
function flushedBlockSolve(L: number[][], b: readonly number[], bs: number): number[] {
  const n = b.length;
  const r = b.map(ftz);
  const x = new Array<number>(n).fill(0);
  const l = L.map((row) => row.map(ftz));
  for (let k0 = 0; k0 < n; k0 += bs) {
    const k1 = Math.min(n, k0 + bs), m = k1 - k0;
    const X = Array.from({ length: m }, () => new Array<number>(m).fill(0));
    for (let c = 0; c < m; c++) {
      for (let i = 0; i < m; i++) {
        let s = i === c ? 1 : 0;
        for (let j = 0; j < i; j++) s = fma(-l[k0 + i]![k0 + j]!, X[j]![c]!, s);
        X[i]![c] = ftz(s / l[k0 + i]![k0 + i]!);
      }
    }
    const rk = r.slice(k0, k1);
    for (let i = 0; i < m; i++) x[k0 + i] = fourAccumulatorSum(X[i]!, rk);
    const xk = x.slice(k0, k1);
    for (let i = k1; i < n; i++) r[i] = ftz(r[i]! - fourAccumulatorSum(l[i]!.slice(k0, k1), xk));
  }
  return x;
}

/** A lower-triangular system near binary32's underflow: diagonal ±(1 … 2), off-diagonal ±2^-10…2^-8, b ≈ 2^-120. */
function tinySystem(n: number, seed: number): { L: number[][]; b: number[] } {
  let s = seed >>> 0 || 1;
  const next = (): number => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 2 ** 32; };
  const L = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) =>
    (j > i ? 0 : Math.fround((next() < 0.5 ? -1 : 1) * (j === i ? 1 + next() : 2 ** (-10 + 2 * next()))))));
  const b = Array.from({ length: n }, () => Math.fround((next() < 0.5 ? -1 : 1) * 2 ** -120 * (1 + next())));
  return { L, b };
}

function expectWithinBound(label: string, got: ArrayLike<number>, exact: ReturnType<typeof exactTriangularSolve>, bound: Float64Array): void {
  for (let i = 0; i < exact.length; i++) {
    const inside = compareRational(absoluteError(got[i]!, exact[i]!), exactOf(bound[i]!)) <= 0;
    if (!inside) expect({ label, i, got: got[i], bound: bound[i] }).toEqual({ label, i, got: 'within the bound', bound: bound[i] });
  }
}

describe('GPU bounds on a device that flushes binary32 subnormals', () => {
  it('TRSV: the llvmpipe x and a flushed evaluation of the block algorithm are both within trsvBound (f32, one and two blocks)', async () => {
    await requireRuntime();
    const gpu = { backend: 'gpu' as const, arithmetic: formats.f32, strict: true };
    await fc.assert(fc.asyncProperty(fc.constantFrom(8, 70), fc.integer({ min: 1, max: 2 ** 30 }), async (n, seed) => {
      const { L, b } = tinySystem(n, seed);
      const A = matrix(n, n, (i, j) => L[i]![j]!, { storage: formats.f32, arithmetic: formats.f32 });
      const exact = exactTriangularSolve(L.map((row) => row.map(exactOf)), b.map(exactOf), true, false);
      const xg = vector(b, { storage: formats.f32, arithmetic: formats.f32 });
      expect((await trsv({ A, x: xg, uplo: 'L' }, gpu)).backend).toBe('gpu');
      expectWithinBound(`llvmpipe n=${n} seed=${seed}`, toArray(xg), exact, trsvBound({ A, x: xg, uplo: 'L' }, gpu));
      const flushed = flushedBlockSolve(L, b, 64);
      const xf = vector(flushed, { storage: formats.f32, arithmetic: formats.f32 });
      expect([...toArray(xf)]).toEqual(flushed);
      expectWithinBound(`flushed n=${n} seed=${seed}`, flushed, exact, trsvBound({ A, x: xf, uplo: 'L' }, gpu));
    }), { numRuns: 4 });
  });

  it('the flushed evaluation loses the underflowing products (the case is one the underflow term must cover)', () => {
    const { L, b } = tinySystem(8, 7);
    const exact = exactTriangularSolve(L.map((row) => row.map(exactOf)), b.map(exactOf), true, false);
    const flushed = flushedBlockSolve(L, b, 64);
    // Relative error far above binary32's u: 2^-24·|x| does not bound it.
    const worst = Math.max(...flushed.map((v, i) => Number(absoluteError(v, exact[i]!).num) / Number(absoluteError(v, exact[i]!).den) / Math.abs(v)));
    expect(worst).toBeGreaterThan(2 ** -16);
  });

  it('DOT and GEMV: products that flush to 0 are within dotBound / gemvBound with backend gpu (f32 and ff)', async () => {
    await requireRuntime();
    for (const ar of [formats.f32, formats.ff]) {
      const n = 16;
      const xs = Array.from({ length: n }, (_, i) => 2 ** -70 * (1 + i / 16)), ys = Array.from({ length: n }, () => 2 ** -60);
      const x = vector(xs, { storage: formats.f32, arithmetic: ar }), y = vector(ys, { storage: formats.f32, arithmetic: ar });
      const options = { backend: 'gpu' as const, arithmetic: ar, strict: true };
      const exact = exactDot(xs, ys);
      // A flushing device's sum: every product is below 2^-126, so 0.
      expect(compareRational(absoluteError(0, exact), exactOf(dotBound(x, y, options))) <= 0).toBe(true);
      expect(compareRational(absoluteError((await dot(x, y, options)).value, exact), exactOf(dotBound(x, y, options))) <= 0).toBe(true);
      const A = matrix(1, n, (_, j) => xs[j]!, { storage: formats.f32, arithmetic: ar });
      const out = vector([0], { storage: formats.f32, arithmetic: ar });
      const bound = gemvBound({ alpha: 1, A, x: y, beta: 0, y: out }, options);
      expect(compareRational(absoluteError(0, exact), exactOf(bound[0]!)) <= 0).toBe(true);
    }
  });

  it('stored binary32 subnormals, read without rounding, may be flushed: DOT, GEMV and AXPY bounds cover ±0 reads', async () => {
    await requireRuntime();
    for (const ar of [formats.f32, formats.ff]) {
      const options = { backend: 'gpu' as const, arithmetic: ar, strict: true };
      const n = 8;
      const tiny = Array.from({ length: n }, (_, i) => Math.fround(2 ** -140 * (1 + i))), big = new Array<number>(n).fill(2 ** 30);
      const x = vector(tiny, { storage: formats.f32, arithmetic: ar }), y = vector(big, { storage: formats.f32, arithmetic: ar });
      const exact = exactDot(tiny, big);
      // A flushing device reads every x_i as 0: the sum is 0, ≈ 2^-107 away from the exact one.
      expect(compareRational(absoluteError(0, exact), exactOf(dotBound(x, y, options))) <= 0).toBe(true);
      const A = matrix(1, n, (_, j) => tiny[j]!, { storage: formats.f32, arithmetic: ar });
      const bound = gemvBound({ alpha: 1, A, x: y, beta: 0, y: vector([0], { storage: formats.f32, arithmetic: ar }) }, options);
      expect(compareRational(absoluteError(0, exact), exactOf(bound[0]!)) <= 0).toBe(true);
      const yy = vector(new Array<number>(n).fill(0), { storage: formats.f32, arithmetic: ar });
      const axpy = axpyBound(2 ** 30, x, yy, options);
      tiny.forEach((v, i) => expect(compareRational(absoluteError(0, exactDot([v], [2 ** 30])), exactOf(axpy[i]!)) <= 0).toBe(true));
    }
  });
});
