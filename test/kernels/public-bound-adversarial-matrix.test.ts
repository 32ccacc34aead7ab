/**
 * GEMV (N and T), TRSV (L/U, N/T, unit or not) and ELL SpMV bounds on adversarial inputs through the public API: the
 * automatic choice, `backend: 'js'` and `backend: 'wasm'` from identical operands, in fp64, fp32, double-double and
 * float-float with every accumulation. Cells of 2^±60 and special magnitudes (2^-149, 2^-1074, 3.4e38, 1e-310, 2^127,
 * 2^-126, 1e300), scales of 1e±300, 2^±120, 2^±600, 2^-140, 1e-40 and 1e38 on every storage, TRSV pivots from
 * 2^-140 to 2^140 with off-diagonal entries up to 2^60 (strongly growing solutions), ELL rows with padding and
 * repeated column indices; α and β include 0, −0, NaN, ±∞ and subnormals. Each output element is within the
 * library's bound of the exact BigInt result (+∞ where it depends on a NaN or ±∞); a refused call is refused by the
 * bound with the kernel's error. (These scales found the scaled underflows of
 * test/kernels/public-bound-scaled-underflow.test.ts.)
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { gemv, gemvBound, trsv, trsvBound, ellSpmv, ellSpmvBound, ellOperand, ELL_PADDING, ModprecError, type Range } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { absRational, addRational, compareRational, divRational, mulRational, subRational, ZERO, type Rational } from '../../src/testing/rational.js';
import { buildMat, buildVec, exactAt, firstRawDifference, matSpecArb, vecSpecArb, describeVec, SPECIALS, type Built, type MatSpec, type VecSpec } from '../wasm/public-operands.js';
import { gemvProperty, ellSpmvProperty, ACCUMULATIONS, coefficient, dims, eachBackend, boundOrRefusal, expectRefusedAlike, check, sumOf, times, coef, optsOf } from '../wasm/public-matrix-harness.js';

const SC = fc.array(fc.constantFrom(1, 0.5, 1 / 3, 3.7e-5, 1e-300, 1e300, 2 ** -1070, 1e-40, 1e38, 2 ** -140, 2 ** 120, 2 ** -120, 7, 2 ** 600, 2 ** -600), { minLength: 1, maxLength: 3 });
const mant = fc.integer({ min: -(2 ** 24), max: 2 ** 24 });
const cellArb = fc.oneof(fc.tuple(mant, fc.integer({ min: -60, max: 60 })).map(([m, e]) => m * 2 ** e), fc.constantFrom(0, -0, 2 ** -149, 2 ** -1074, 3.4e38, 1e-310, 2 ** 127, 2 ** -126, 1e300));
/** A matrix operand: the public fuzzers' layouts and storages, adversarial scales, and half the time adversarial cells. */
function advMat(storages?: Parameters<typeof matSpecArb>[0], specials = 1, scaled = true): fc.Arbitrary<MatSpec> {
  return fc.tuple(matSpecArb(storages, specials, scaled), SC, fc.array(cellArb, { minLength: 37, maxLength: 37 }), fc.boolean()).map(([s, scales, cells, adv]) => ({ ...s, scales,
    values: adv ? (i: number, j: number) => cells[(i * 7 + j * 3) % 37]! : s.values }));
}
/** A vector operand of length n, likewise. */
function advVec(n: number): fc.Arbitrary<VecSpec> {
  return fc.tuple(vecSpecArb(n), SC, fc.array(cellArb, { minLength: n, maxLength: n }), fc.boolean()).map(([s, scales, vals, adv]) => ({ ...s, scales, values: adv ? vals : s.values } as VecSpec));
}
const config = fc.record({ arithmetic: fc.constantFrom('f64', 'f32', 'dd', 'ff'), accumulation: fc.constantFrom(...ACCUMULATIONS) });

describe('public matrix kernels: automatic, wasm and js', () => {
  it('GEMV y := α·op(A)·x + β·y', () => {
    gemvProperty({ mat: advMat, vec: advVec }, config, false, ['wasm'], 120);
  });

  it('TRSV x := op(A)⁻¹·x', () => {
    const arb = fc.record({
      n: fc.constantFrom(0, 1, 2, 3, 5, 8, 9, 17), uplo: fc.constantFrom<'U' | 'L'>('U', 'L'), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), diag: fc.constantFrom<'N' | 'U'>('N', 'U'),
      A: advMat(undefined, 0), special: fc.option(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...SPECIALS)), { freq: 4 }),
      off: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 11, maxLength: 11 }), piv: fc.array(fc.integer({ min: -140, max: 140 }), { minLength: 7, maxLength: 7 }), grow: fc.constantFrom(1, 1, 4, 2 ** 20, 2 ** 60),
      c: config,
    }).chain((t) => advVec(t.n).map((b) => ({ ...t, b })));
    fc.assert(fc.property(arb, (t) => {
      const opts = optsOf(t.c);
      const n = t.n;
      // Diagonally dominant, so the solve is well conditioned and the bound meaningful; one cell may be special.
      const value = (i: number, j: number): number => {
        if (t.special && n > 0 && i === t.special[0] % n && j === t.special[1] % n) return t.special[2];
        // Powers of two on the diagonal keep the exact solution dyadic (a fast oracle); the off-diagonal entries are any doubles.
        return i === j ? 2 ** t.piv[i % 7]! * (i % 4 === 1 ? -1 : 1) : t.off[(i * 3 + j) % 11]! * t.grow;
      };
      const make = (): Built<any>[] => [buildMat(t.A, n, n, t.c.arithmetic, value), buildVec(t.b, t.c.arithmetic)];
      const [A0, b0] = make();
      const eb = Array.from({ length: n }, (_, i) => exactAt(b0!.range, [i]));
      const lower = (t.uplo === 'L') !== (t.trans === 'T');
      const opA = (i: number, j: number) => (t.trans === 'N' ? exactAt(A0!.range, [i, j]) : exactAt(A0!.range, [j, i]));
      // The exact solution, or null where a read value is NaN/±∞ or a pivot is 0 (then the bound must be ∞).
      let exact: (Rational | null)[] | null = [];
      for (let k = 0; k < n && exact; k++) {
        const i = lower ? k : n - 1 - k;
        let s = eb[i] ?? null;
        for (let j = lower ? 0 : i + 1; j < (lower ? i : n) && s !== null; j++) { const p = times(opA(i, j), exact![j] ?? null); s = p === null ? null : subRational(s, p); }
        const d = t.diag === 'U' ? exactOf(1) : opA(i, i);
        exact[i] = s === null || d === null || d.num === 0n ? null : divRational(s, d);
        if (exact[i] === null) exact = null;
      }
      const what = `trsv ${t.uplo}${t.trans}${t.diag} n=${n} ${t.c.arithmetic}/${t.c.accumulation} A=${t.A.storage}/${t.A.scale}/${t.A.layout} pad=${t.A.pad} special=${JSON.stringify(t.special)} b=${describeVec(t.b)}`;
      const results = eachBackend(make, ([A, x], backend) => trsv({ A: A!.range, x: x!.range, uplo: t.uplo, trans: t.trans, diag: t.diag }, { ...opts, backend } as any), 1);
      // trsvBound is in terms of the computed x̂: take it from each backend's own result.
      for (const [b, r] of results) {
        if (r instanceof ModprecError) continue;
        const bound = trsvBound({ A: A0!.range, x: r.out, uplo: t.uplo, trans: t.trans, diag: t.diag }, opts as any);
        // (A NaN/±∞ read or a zero pivot: only the rows that depend on it must be +∞, which the exact oracle does not single out.)
        if (exact === null) continue;
        check(new Map([['js', r], ['cpu', r]]) as any, false, exact, bound, `${what} [${b}]`);
      }
      
    }), { numRuns: 120 });
  });

  it('ELL SpMV y := α·A·x + β·y', () => {
    ellSpmvProperty({ mat: advMat, vec: advVec }, config, false, ['wasm'], 120);
  });
});

