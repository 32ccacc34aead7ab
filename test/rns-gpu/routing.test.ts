// `backend: 'gpu'` with an RNS arithmetic on ordinary ranges: same validation as the CPU, results within the
// CPU's a-priori bounds (…Bound with the same arithmetic) of the exact values, and — outputs being doubles
// rounded from ≥ 106-bit results — equal to the CPU backend's results for these random inputs (TRSV, which divides
// differently on the two backends: both within the bound of the exact solution).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asum, asumBound, axpy, dot, dotBound, ellSpmv, ellWithStorage, formats, gemv, gemvBound, matrix, nrm2, nrm2Bound, rnsFormat, scal, toArray, trsv, trsvBound, vector, waxpby, waxpbyBound, ELL_PADDING } from '../../src/index.js';
import { exactDot, exactOf, exactSum, exactTriangularSolve, absoluteError } from '../../src/testing/exact.js';
import { absRational, subRational, type Rational } from '../../src/testing/rational.js';
import { rnsToRational } from '../../src/formats/rns/convert-exact.js';
import type { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

const rns106 = formats.rns106;
const STORAGES = [formats.f64, formats.f32, formats.f16, rns106, rnsFormat(212)] as const;
const finite = fc.double({ min: -1e4, max: 1e4, noNaN: true, noDefaultInfinity: true });
const storageOf = fc.constantFrom(...STORAGES);
const gpu = { backend: 'gpu' as const, arithmetic: rns106, strict: true };

/** The stored values (what both backends read). */
const stored = (r: Parameters<typeof toArray>[0]): number[] => Array.from(toArray(r));

describe("backend: 'gpu' with an RNS arithmetic on ranges", () => {
  it('DOT, ASUM, NRM2: within the CPU bound of the exact value, and equal to the CPU result', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(finite, finite), { minLength: 0, maxLength: 30 }), storageOf, storageOf, async (pairs, sx, sy) => {
      const x = vector(pairs.map((p) => p[0]), { storage: sx }), y = vector(pairs.map((p) => p[1]), { storage: sy });
      const d = await dot(x, y, gpu);
      expect(d.backend).toBe('gpu');
      expect(d.arithmetic).toBe('rns106');
      const exact = exactDot(stored(x), stored(y));
      expect(roundRationalToDouble(absoluteError(d.value, exact))).toBeLessThanOrEqual(dotBound(x, y, { arithmetic: rns106 }));
      expect(d.value).toBe(dot(x, y, { arithmetic: rns106 }));
      const a = await asum(x, gpu);
      expect(roundRationalToDouble(absoluteError(a.value, exactSum(stored(x).map(Math.abs))))).toBeLessThanOrEqual(asumBound(x, { arithmetic: rns106 }));
      expect(a.value).toBe(asum(x, { arithmetic: rns106 }));
      const r = await nrm2(x, gpu);
      // √ of the sum of squares (scaled by 2^600 against underflow) rounded to a double: 2^-52 relative slack
      // for the oracle's own roundings.
      const big = stored(x).map((v) => v * 2 ** 600);
      const norm = Math.sqrt(roundRationalToDouble(exactDot(big, big))) * 2 ** -600;
      expect(Math.abs(r.value - norm)).toBeLessThanOrEqual(nrm2Bound(x, { arithmetic: rns106 }) + 2 ** -52 * norm);
      expect(r.value).toBe(nrm2(x, { arithmetic: rns106 }));
    }), { numRuns: 12 });
  });

  it('GEMV N/T, WAXPBY, AXPY, SCAL: the CPU results (fp64, fp32 and RNS outputs), within the CPU bounds', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.array(finite, { minLength: 40, maxLength: 40 }),
      fc.constantFrom('N', 'T'), storageOf, storageOf, fc.constantFrom(0, 1, -0.5, 3), fc.constantFrom(0, 1, 0.25),
      async (m, n, pool, trans, sa, sy, alpha, beta) => {
        const A = matrix(m, n, (i, j) => pool[i + j * m]!, { storage: sa });
        const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
        const x = vector(pool.slice(25, 25 + cols), { storage: sa });
        const y0 = pool.slice(31, 31 + rows).map((v, i) => (beta === 0 && i === 0 && sy.storage.kind !== 'mp' ? NaN : v)); // β = 0: y not read
        const yg = vector(y0, { storage: sy }), yc = vector(y0, { storage: sy }), yb = vector(y0, { storage: sy });
        const bound = beta === 0 ? undefined : gemvBound({ alpha, A, x, beta, y: yb, trans }, { arithmetic: rns106 });
        await gemv({ alpha, A, x, beta, y: yg, trans }, gpu);
        gemv({ alpha, A, x, beta, y: yc, trans }, { arithmetic: rns106 });
        expect(stored(yg)).toEqual(stored(yc));
        expect(bound === undefined || bound.every((b) => b >= 0)).toBe(true);
        const xs = vector(pool.slice(0, 6), { storage: sa }), ys = vector(pool.slice(6, 12), { storage: sy });
        const wg = vector(6, { storage: sy }), wc = vector(6, { storage: sy });
        const wb = waxpbyBound(alpha, xs, beta, ys, wg, { arithmetic: rns106 });
        await waxpby(alpha, xs, beta, ys, wg, gpu);
        waxpby(alpha, xs, beta, ys, wc, { arithmetic: rns106 });
        expect(stored(wg)).toEqual(stored(wc));
        // (toArray rounds an RNS-stored w to doubles: the bound is checked on number storage, exact there.)
        if (sy.storage.kind === 'number') stored(wg).forEach((w, k) => {
          const e = exactDot([alpha, beta], [stored(xs)[k]!, stored(ys)[k]!]);
          expect(roundRationalToDouble(absoluteError(w, e))).toBeLessThanOrEqual(wb[k]!);
        });
        const ag = vector(stored(ys), { storage: sy }), ac = vector(stored(ys), { storage: sy });
        await axpy(alpha, xs, ag, gpu);
        axpy(alpha, xs, ac, { arithmetic: rns106 });
        expect(stored(ag)).toEqual(stored(ac));
        const sg = vector(stored(xs), { storage: sy }), sc = vector(stored(xs), { storage: sy });
        await scal(alpha, sg, gpu);
        scal(alpha, sc, { arithmetic: rns106 });
        expect(stored(sg)).toEqual(stored(sc));
      }), { numRuns: 10 });
  });

  it('TRSV: the CPU results, within the CPU substitution bound; ELL SpMV: the CPU results', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 6 }), fc.array(finite, { minLength: 48, maxLength: 48 }), fc.constantFrom('U', 'L'), fc.constantFrom('N', 'T'), fc.constantFrom('N', 'U'), storageOf, storageOf,
      async (n, pool, uplo, trans, diag, sa, sx) => {
        const inside = (i: number, j: number): boolean => (uplo === 'U' ? j >= i : j <= i);
        // NaN outside the triangle (never read; RNS storage holds no NaN: 0 there), diagonal kept away from 0.
        // |t_ij| ≤ 1 off the diagonal, t_ii ∈ [2, 3], |b_i| ≤ 1: |x_i| ≤ 1.5^n stays within fp16.
        const A = matrix(n, n, (i, j) => (!inside(i, j) ? (sa.storage.kind === 'mp' ? 0 : NaN) : i === j ? 2 + Math.abs(pool[i]!) / 1e4 : pool[i + j * n]! / 1e4), { storage: sa });
        const b = pool.slice(36, 36 + n).map((v) => v / 1e4);
        const xg = vector(b, { storage: sx }), xc = vector(b, { storage: sx });
        const bStored = stored(xg).map(exactOf);
        await trsv({ A, x: xg, uplo, trans, diag }, gpu);
        trsv({ A, x: xc, uplo, trans, diag }, { arithmetic: rns106 });
        const bound = trsvBound({ A, x: xg, uplo, trans, diag }, gpu);
        // The GPU divides by t_ii as s_i·h_i + s_i·l_i with h_i + l_i ≈ 1/t_ii (RNS has no residue-wise division),
        // the CPU by an exact division rounded once; the CPU also rounds each x_j to x's storage before later rows
        // read it, where the GPU keeps x in RNS until the end. Both are within the bound of the exact solution,
        // not always the same bits: a later row that cancels shows the last-bit difference (CI drew x_0 = 0 on
        // the CPU and 2.2e-103 on the GPU next to x_j ≈ 3.6e-71, RNS-stored x).
        const lower = (uplo === 'L') !== (trans === 'T');
        const a = stored(A); // row by row
        const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => {
          const [r, k] = trans === 'N' ? [i, j] : [j, i];
          return inside(r, k) && !(diag === 'U' && r === k) ? exactOf(a[r * n + k]!) : exactOf(0);
        }));
        const exact = exactTriangularSolve(T, bStored, lower, diag === 'U');
        // An RNS-stored x is compared as held (≥ 106 bits), not as the doubles toArray rounds it to.
        const held = (x: typeof xg, i: number): Rational =>
          (sx.storage.kind === 'mp' ? rnsToRational(x.get(i) as RnsNumber) : exactOf(stored(x)[i]!));
        const cpuBound = trsvBound({ A, x: xc, uplo, trans, diag }, { arithmetic: rns106 });
        for (let i = 0; i < n; i++) {
          expect(roundRationalToDouble(absRational(subRational(held(xg, i), exact[i]!)))).toBeLessThanOrEqual(bound[i]!);
          expect(roundRationalToDouble(absRational(subRational(held(xc, i), exact[i]!)))).toBeLessThanOrEqual(cpuBound[i]!);
        }
        // ELL: row i has slots (i, i) and (i, i + 1) where they exist.
        const cols = Int32Array.from({ length: 2 * n }, (_, k) => (k < n ? k : k - n + 1 < n ? k - n + 1 : ELL_PADDING));
        const E = ellWithStorage({ rows: n, cols: n, width: 2, stride: n, colIndex: cols, values: Float64Array.from({ length: 2 * n }, (_, k) => (cols[k]! >= 0 ? pool[k]! : 0)) }, { storage: sa });
        const yg = vector(b, { storage: sx }), yc = vector(b, { storage: sx });
        await ellSpmv({ alpha: 1.5, A: E, x: xc, beta: -1, y: yg }, gpu);
        ellSpmv({ alpha: 1.5, A: E, x: xc, beta: -1, y: yc }, { arithmetic: rns106 });
        expect(stored(yg)).toEqual(stored(yc));
      }), { numRuns: 10 });
  });

  it('sums that are exact ties at 106 bits round to even on both backends (RNS-stored y: the held value)', async () => {
    await requireRuntime();
    // Row sums 2^53·2^53 + t: t = 1 and −1 are ties next to an even kept part (down to ±2^106), t = 3 next to an odd
    // one (up to 2^106 + 4), t = 1 + 2^-52 just above a tie (up to 2^106 + 2). The CPU sent every tie up until
    // session 25; the GPU's rounding is to even.
    const tails = [1, 3, -1, 1 + 2 ** -52];
    const want = [0n, 4n, 0n, 2n];
    const A = matrix(tails.length, 2, (i, j) => (j === 0 ? (i === 2 ? -(2 ** 53) : 2 ** 53) : tails[i]!));
    const x = vector([2 ** 53, 1]);
    for (const [backend, options] of [['gpu', gpu], ['cpu', { arithmetic: rns106 }]] as const) {
      const y = vector(tails.length, { storage: rns106 });
      await gemv({ alpha: 1, A, x, beta: 0, y }, options);
      tails.forEach((_, i) => {
        const { num, den } = rnsToRational(y.get(i) as RnsNumber);
        const sign = i === 2 ? -1n : 1n;
        expect([backend, i, num]).toEqual([backend, i, sign * ((1n << 106n) + want[i]!) * den]);
      });
    }
  });

  it('refuses what it cannot do, naming the parameter, before writing', async () => {
    await requireRuntime();
    const x = vector([1, NaN, 3]), y = vector([1, 2, 3]);
    // Values are checked synchronously, before the run, as every other refusal (docs/gpu.md, One rule).
    expect(() => dot(x, y, gpu)).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'x[1]' }));
    const w = vector([7, 7, 7]);
    expect(() => waxpby(1, x, 1, y, w, gpu)).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'x[1]' }));
    expect(stored(w)).toEqual([7, 7, 7]);
    expect(() => dot(vector([1], { storage: formats.dd }), vector([1]), gpu)).toThrow(expect.objectContaining({ code: 'INVALID_FORMAT', parameter: 'x' }));
    expect(() => dot(y, y, { ...gpu, accumulation: 'recursive' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.accumulation' }));
    const U = matrix(2, 2, (i, j) => (i === 1 && j === 1 ? 0 : 1));
    const b = vector([4, 8]);
    expect(() => trsv({ A: U, x: b, uplo: 'U' }, gpu)).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'A[1, 1]' }));
    expect(stored(b)).toEqual([4, 8]);
    expect(() => trsv({ A: U, x: b, uplo: 'U' }, { ...gpu, blockSize: 64 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.blockSize' }));
    // dot's into: an RNS-stored result is written (rounded once to its set).
    const into = vector(1, { storage: rns106 });
    await dot(y, y, { ...gpu, into });
    expect(stored(into)).toEqual([14]);
  });
});
