/**
 * GEMV (N and T), TRSV (every uplo, trans and diag) and ELL SpMV through the public API on the three backends —
 * `'js'`, `'wasm'` and `'gpu'` (llvmpipe, strict) — from identical operands in every storage the GPU reads and writes
 * (f64, f32, f16, bf16, dd, i8/i16 under a scale; A as a sub-range too) and every arithmetic (f32, ff, f64, dd): the
 * same typed error everywhere but a documented capability refusal, nothing written when it throws nor outside the
 * output view when it runs, the same NaN/±∞ pattern (GEMV and ELL in dd and ff: the same zero signs), and each finite
 * element within the kernel's bound — gemvBound, ellSpmvBound, trsvBound (with `backend: 'gpu'` for the GPU's block
 * solve) — of the exact value of the stored operands (BigInt rationals). BLAS semantics are part of the exact value: an
 * empty op(A), or α = 0 with β = 1, leaves y as it was; α = 0 reads neither A nor x, β = 0 not y (NaN there must not
 * leak); TRSV reads only its triangle (NaN in the other one and on a unit diagonal), ELL no padding slot (NaN there).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ELL_PADDING, ellOperand, ellSpmv, ellSpmvBound, formats, gemv, gemvBound, trsv, trsvBound } from '../../src/index.js';
import { exactTriangularSolve, exactOf, type Rational } from '../../src/testing/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { exactSumOfProducts, withinBound, type Factor } from './public-shapes-oracle.js';
import {
  ARITHMETICS, BACKENDS, affordable, attempt, coefficientArb, expectOneRule, makeMat, makeVec, matSpecArb, outsideBits, pattern, rawBits, readableAlike, readBack,
  vecSpecArb, type Backend, type Outcome,
} from './public-xbackend-cases.js';

// Each new signature compiles on llvmpipe (seconds, some over ten): few runs keep the file near 30 s;
// MODPREC_FUZZ_RUNS raises them for a hunt.
const RUNS = Number(process.env.MODPREC_FUZZ_RUNS ?? 8);

const toFactor = (p: readonly number[]): Factor => (p.length === 1 ? p[0]! : { hi: p[0]!, lo: p[1]! });
const factors = (r: Parameters<typeof readBack>[0]): Factor[] => readBack(r).map(toFactor);
const finite = (f: Factor): boolean => (typeof f === 'number' ? Number.isFinite(f) : Number.isFinite(f.hi) && Number.isFinite(f.lo));
const hiOf = (f: Factor): number => (typeof f === 'number' ? f : f.hi);
const matrixFactor = (A: { get(i: number, j: number): unknown }, i: number, j: number): Factor => {
  const v = A.get(i, j) as number | { hi: number; lo: number };
  return typeof v === 'number' ? v : { hi: v.hi, lo: v.lo };
};

/** Checks the output of one backend's run element by element: `terms(i)` are the products yᵢ is exactly the sum of. */
function checkOutput(what: string, got: Factor[], terms: (i: number) => Factor[][] | undefined, bound: Float64Array): number {
  let compared = 0;
  got.forEach((g, i) => {
    const t = terms(i);
    if (!t || !t.every((p) => p.every(finite))) return;
    expect(withinBound(g, exactSumOfProducts(t), bound[i]!), `${what} element ${i}: ${JSON.stringify(g)} outside the bound ${bound[i]}`).toBe(true);
    compared++;
  });
  return compared;
}

describe('GEMV, TRSV, ELL SpMV on js, wasm and gpu: one rule, bounds against the exact value', () => {
  it('GEMV N and T', async () => {
    await requireRuntime();
    let compared = 0;
    await fc.assert(fc.asyncProperty(
      fc.tuple(fc.nat(4), fc.nat(4), fc.constantFrom<'N' | 'T'>('N', 'T'))
        .chain(([m, n, trans]) => fc.tuple(fc.constant(trans), matSpecArb(m, n), vecSpecArb(trans === 'N' ? n : m), vecSpecArb(trans === 'N' ? m : n))),
      fc.constantFrom(...ARITHMETICS), coefficientArb, coefficientArb,
      async ([trans, As0, xs0, ys0], ar, alpha, beta) => {
        const [As, xs, ys] = [affordable(As0, ar), affordable(xs0, ar), affordable(ys0, ar)];
        const arithmetic = formats[ar];
        const outcomes = new Map<Backend, Outcome>(), patterns = new Map<Backend, string>();
        const what = `gemv ${trans} ${ar} α ${alpha} β ${beta} A ${As.storage} ${JSON.stringify(As.values)} x ${xs.storage} ${JSON.stringify(xs.values)} y ${ys.storage} ${JSON.stringify(ys.values)}`;
        for (const backend of BACKENDS) {
          const A = makeMat(readableAlike(As, ar)), x = makeVec(readableAlike(xs, ar)), y = makeVec(readableAlike(ys, ar));
          const before = rawBits([A.full, x.full, y.full]), inputs = rawBits([A.full, x.full]), outside = outsideBits(y);
          const [xf, yf] = [factors(x.r), factors(y.r)];
          const args = { alpha, A: A.r, x: x.r, beta, y: y.r, trans };
          const bound = gemvBound(args, { arithmetic });
          const o = await attempt(() => gemv(args, { backend, strict: true, arithmetic } as never));
          outcomes.set(backend, o);
          if ('error' in o) {
            expect(rawBits([A.full, x.full, y.full]), `${what} [${backend}]: written before ${o.error}`).toBe(before);
            continue;
          }
          expect(rawBits([A.full, x.full]), `${what} [${backend}]: an input changed`).toBe(inputs);
          expect(outsideBits(y), `${what} [${backend}]: written outside y's view`).toBe(outside);
          const got = factors(y.r);
          patterns.set(backend, pattern(got.map(hiOf), ar === 'dd' || ar === 'ff'));
          const [rows, cols] = trans === 'N' ? [As.rows, As.cols] : [As.cols, As.rows];
          const quick = rows === 0 || cols === 0 || (alpha === 0 && beta === 1);
          compared += checkOutput(`${what} [${backend}]`, got, (i) => (quick ? [[yf[i]!]] : [
            ...(alpha === 0 ? [] : Array.from({ length: cols }, (_, j) => [alpha, trans === 'N' ? matrixFactor(A.r, i, j) : matrixFactor(A.r, j, i), xf[j]!])),
            ...(beta === 0 ? [] : [[beta, yf[i]!]]),
          ]), bound);
        }
        expectOneRule(what, outcomes, ['A', 'x', 'y'], patterns);
      },
    ), {
      numRuns: RUNS,
      // One case every backend runs and compares (dd: the one arithmetic js, wasm and gpu all have), so a seed whose random cases all skip cannot leave the test empty.
      examples: [[['N', { storage: 'f64', rows: 2, cols: 3, sub: true, values: [1, 2, 0.5, -3, 4, 0.25] }, { storage: 'f32', inc: 2, pad: 1, values: [1, -2, 3] }, { storage: 'f64', inc: 1, pad: 0, values: [5, 7] }], 'dd', 1.5, 0.5]],
    });
    expect(compared).toBeGreaterThanOrEqual(2 * BACKENDS.length);
  });

  it('TRSV: uplo, trans, diag', async () => {
    await requireRuntime();
    let compared = 0;
    await fc.assert(fc.asyncProperty(
      fc.nat(4).chain((n) => fc.tuple(matSpecArb(n, n), vecSpecArb(n))),
      fc.constantFrom<'L' | 'U'>('L', 'U'), fc.constantFrom<'N' | 'T'>('N', 'T'), fc.constantFrom<'N' | 'U'>('N', 'U'), fc.constantFrom(...ARITHMETICS),
      async ([As1, xs1], uplo, trans, diag, ar) => {
        const [As0, xs] = [affordable(As1, ar), affordable(xs1, ar)];
        const n = xs.values.length;
        const referenced = (i: number, j: number): boolean => (uplo === 'L' ? i >= j : i <= j) && !(i === j && diag === 'U');
        // BLAS: the other triangle (and a unit diagonal) is not referenced — NaN there must not reach x.
        const As = { ...As0, values: As0.values.map((v, k) => (referenced(k % n, Math.floor(k / n)) ? v : NaN)) };
        const arithmetic = formats[ar];
        const outcomes = new Map<Backend, Outcome>(), patterns = new Map<Backend, string>();
        const what = `trsv ${uplo}${trans}${diag} ${ar} A ${As.storage} ${JSON.stringify(As.values)} x ${xs.storage} ${JSON.stringify(xs.values)}`;
        for (const backend of BACKENDS) {
          const A = makeMat(readableAlike(As, ar)), x = makeVec(readableAlike(xs, ar));
          const before = rawBits([A.full, x.full]), inputs = rawBits([A.full]), outside = outsideBits(x);
          const b = factors(x.r);
          const args = { A: A.r, x: x.r, uplo, trans, diag };
          const o = await attempt(() => trsv(args, { backend, strict: true, arithmetic } as never));
          outcomes.set(backend, o);
          if ('error' in o) {
            expect(rawBits([A.full, x.full]), `${what} [${backend}]: written before ${o.error}`).toBe(before);
            continue;
          }
          expect(rawBits([A.full]), `${what} [${backend}]: A changed`).toBe(inputs);
          expect(outsideBits(x), `${what} [${backend}]: written outside x's view`).toBe(outside);
          const got = factors(x.r);
          // Zero signs aside: the GPU's block solve gives +0 where substitution gives −0 (docs/double-double.md).
          patterns.set(backend, pattern(got.map(hiOf)));
          // op(A)'s referenced entries, read back; the exact solution where they and b are finite and no pivot is 0.
          const lower = (uplo === 'L') === (trans === 'N');
          const opA = (i: number, j: number): Factor => (trans === 'N' ? matrixFactor(A.r, i, j) : matrixFactor(A.r, j, i));
          const used: Factor[] = [];
          for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (trans === 'N' ? referenced(i, j) : referenced(j, i)) used.push(opA(i, j));
          if (![...used, ...b].every(finite)) continue;
          const exactOfFactor = (f: Factor): Rational => exactSumOfProducts([[f]]);
          if (diag === 'N' && Array.from({ length: n }, (_, i) => exactOfFactor(opA(i, i)).num === 0n).some(Boolean)) continue;
          const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => ((lower ? j <= i : j >= i) && !(i === j && diag === 'U') ? exactOfFactor(opA(i, j)) : exactOf(0))));
          const exact = exactTriangularSolve(T, b.map(exactOfFactor), lower, diag === 'U');
          const bound = trsvBound(args, backend === 'gpu' ? { backend: 'gpu', arithmetic } as never : { arithmetic });
          got.forEach((g, i) => {
            if (!finite(g) && bound[i] === Infinity) return;
            expect(withinBound(g, exact[i]!, bound[i]!), `${what} [${backend}] x[${i}]: ${JSON.stringify(g)} outside the bound ${bound[i]}`).toBe(true);
            compared++;
          });
        }
        expectOneRule(what, outcomes, ['A', 'x'], patterns);
      },
    ), {
      numRuns: Math.ceil(RUNS / 2),
      // One case every backend solves and compares: four random runs can all skip (n = 0, a zero pivot, a non-finite
      // entry), which left `compared` at 0 in CI once (stop 33).
      examples: [[[{ storage: 'f64', rows: 3, cols: 3, sub: false, values: [2, 0.5, 0.25, 0, 3, 1, 0, 0, 4] }, { storage: 'f64', inc: 1, pad: 0, values: [1, 2, 3] }], 'L', 'N', 'N', 'dd']],
    });
    expect(compared).toBeGreaterThanOrEqual(3 * BACKENDS.length);
  });

  it("regression: trsvBound with backend 'gpu' covers reads that underflow (b = −5e-324 read as 0 in ff: the bound was 0)", async () => {
    await requireRuntime();
    for (const arithmetic of [formats.ff, formats.f32]) {
      const x = makeVec({ storage: 'f64', inc: 1, pad: 0, values: [-5e-324] });
      const A = makeMat({ storage: 'f64', rows: 1, cols: 1, sub: false, values: [0.5] });
      for (const diag of ['N', 'U'] as const) {
        const args = { A: A.r, x: x.r, uplo: 'L' as const, diag };
        x.r.set(0, -5e-324);
        await trsv(args, { backend: 'gpu', strict: true, arithmetic });
        const exact = exactSumOfProducts([[diag === 'U' ? -5e-324 : -1e-323]]);
        expect(withinBound(x.r.get(0) as number, exact, trsvBound(args, { backend: 'gpu', arithmetic })[0]!), `${arithmetic.name} ${diag}`).toBe(true);
      }
      // An entry read as 0: t₁₀ = 2^-130, b = (2^100, 0), so x₁ = −2^-30 exactly; the device computes 0.
      const A2 = makeMat({ storage: 'f64', rows: 2, cols: 2, sub: false, values: [1, 2 ** -130, 0, 1] });
      const b = makeVec({ storage: 'f64', inc: 1, pad: 0, values: [2 ** 100, 0] });
      const args2 = { A: A2.r, x: b.r, uplo: 'L' as const };
      await trsv(args2, { backend: 'gpu', strict: true, arithmetic });
      expect(withinBound(b.r.get(1) as number, exactSumOfProducts([[-(2 ** -30)]]), trsvBound(args2, { backend: 'gpu', arithmetic })[1]!), `${arithmetic.name} t₁₀`).toBe(true);
    }
  });

  it('ELL SpMV (padding slots hold NaN)', async () => {
    await requireRuntime();
    let compared = 0;
    await fc.assert(fc.asyncProperty(
      fc.tuple(fc.integer({ min: 1, max: 4 }), fc.nat(3), fc.nat(3), fc.nat(1)).chain(([rows, cols, width, extra]) => fc.tuple(
        fc.constant({ rows, cols, width, stride: rows + extra }),
        // Entries per row (the rest padding), and their columns.
        fc.array(fc.tuple(fc.nat(width), fc.array(fc.nat(Math.max(0, cols - 1)), { minLength: width, maxLength: width })), { minLength: rows, maxLength: rows }),
        matSpecArb(rows + extra, width), vecSpecArb(cols), vecSpecArb(rows))),
      fc.constantFrom(...ARITHMETICS), coefficientArb, coefficientArb,
      async ([shape, entries, Vs1, xs0, ys0], ar, alpha, beta) => {
        const [Vs0, xs, ys] = [affordable(Vs1, ar), affordable(xs0, ar), affordable(ys0, ar)];
        const { rows, cols, width, stride } = shape;
        const colIndex = new Int32Array(stride * width).fill(ELL_PADDING);
        entries.forEach(([count, cs], i) => { for (let k = 0; k < (cols === 0 ? 0 : count); k++) colIndex[i + k * stride] = cs[k]!; });
        const Vs = { ...Vs0, values: Vs0.values.map((v, k) => (colIndex[k] === ELL_PADDING ? NaN : v)) };
        const arithmetic = formats[ar];
        const outcomes = new Map<Backend, Outcome>(), patterns = new Map<Backend, string>();
        const what = `ellSpmv ${ar} α ${alpha} β ${beta} ${JSON.stringify(shape)} cols ${colIndex} values ${Vs.storage} ${JSON.stringify(Vs.values)} x ${xs.storage} ${JSON.stringify(xs.values)} y ${ys.storage} ${JSON.stringify(ys.values)}`;
        for (const backend of BACKENDS) {
          const V = makeMat(readableAlike(Vs, ar)), x = makeVec(readableAlike(xs, ar)), y = makeVec(readableAlike(ys, ar));
          const E = ellOperand({ rows, cols, width, stride, colIndex }, V.r);
          const before = rawBits([V.full, x.full, y.full]), inputs = rawBits([V.full, x.full]), outside = outsideBits(y);
          const [xf, yf] = [factors(x.r), factors(y.r)];
          const args = { alpha, A: E, x: x.r, beta, y: y.r };
          const bound = ellSpmvBound(args, { arithmetic });
          const o = await attempt(() => ellSpmv(args, { backend, strict: true, arithmetic } as never));
          outcomes.set(backend, o);
          if ('error' in o) {
            expect(rawBits([V.full, x.full, y.full]), `${what} [${backend}]: written before ${o.error}`).toBe(before);
            continue;
          }
          expect(rawBits([V.full, x.full]), `${what} [${backend}]: an input changed`).toBe(inputs);
          expect(outsideBits(y), `${what} [${backend}]: written outside y's view`).toBe(outside);
          const got = factors(y.r);
          patterns.set(backend, pattern(got.map(hiOf), ar === 'dd' || ar === 'ff'));
          const quick = alpha === 0 && beta === 1;
          compared += checkOutput(`${what} [${backend}]`, got, (i) => {
            if (quick) return [[yf[i]!]];
            // α multiplies the row's sum even when the row has no entry (α = NaN or ±∞ times an empty sum 0 is NaN).
            const products: Factor[][] = alpha === 0 ? [] : [[alpha, 0]];
            for (let k = 0; k < width && alpha !== 0; k++) {
              const c = colIndex[i + k * stride]!;
              if (c !== ELL_PADDING) products.push([alpha, matrixFactor(V.r, i, k), xf[c]!]);
            }
            return beta === 0 ? products : [...products, [beta, yf[i]!]];
          }, bound);
        }
        expectOneRule(what, outcomes, ['A', 'A.values', 'x', 'y'], patterns);
      },
    ), {
      numRuns: RUNS,
      // One case every backend runs and compares (see GEMV).
      examples: [[[{ rows: 2, cols: 2, width: 2, stride: 2 }, [[2, [0, 1]], [1, [1, 0]]], { storage: 'f64', rows: 2, cols: 2, sub: false, values: [1, 2, 3, 4] }, { storage: 'f64', inc: 1, pad: 0, values: [0.5, -1] }, { storage: 'f32', inc: 1, pad: 0, values: [1, 1] }], 'dd', 1, 0]],
    });
    expect(compared).toBeGreaterThanOrEqual(2 * BACKENDS.length);
  });
});
