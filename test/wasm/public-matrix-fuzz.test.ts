/**
 * GEMV (N and T), TRSV (L/U, N/T, unit or not) and ELL SpMV through the public API: the automatic choice,
 * `backend: 'wasm'` and `backend: 'js'` from identical operands. Where the docs promise the JavaScript's bits
 * (GEMV and TRSV reading op(A) by columns, double-double arithmetic, the `pairwise` and `dot2` orders; ELL SpMV
 * always) every raw element and scale must agree by Object.is; everywhere, each output element is within the
 * library's bound (gemvBound, trsvBound, ellSpmvBound) of the exact BigInt result; β = 0 never reads y (NaN there);
 * a case WebAssembly refuses is a typed error with nothing written.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { gemv, gemvBound, trsv, trsvBound, ellSpmv, ellSpmvBound, ellOperand, ELL_PADDING, ModprecError, type Range } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { absRational, addRational, compareRational, divRational, mulRational, subRational, ZERO, type Rational } from '../../src/testing/rational.js';
import { buildMat, buildVec, exactAt, firstRawDifference, matSpecArb, runs, vecSpecArb, describeVec, SPECIALS, type Built, type MatSpec } from './public-operands.js';
import { gemvProperty, ellSpmvProperty, ACCUMULATIONS, coefficient, dims, eachBackend, boundOrRefusal, expectRefusedAlike, check, sumOf, times, coef, optsOf } from './public-matrix-harness.js';

const config = fc.record({ arithmetic: fc.constantFrom('f64', 'f32', 'dd'), accumulation: fc.constantFrom(...ACCUMULATIONS) });

describe('public matrix kernels: automatic, wasm and js', () => {
  it('GEMV y := α·op(A)·x + β·y', () => {
    gemvProperty({ mat: matSpecArb, vec: vecSpecArb }, config, true, [], runs(250));
  });

  it('TRSV x := op(A)⁻¹·x', () => {
    const arb = fc.record({
      n: fc.constantFrom(0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 20), uplo: fc.constantFrom<'U' | 'L'>('U', 'L'), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), diag: fc.constantFrom<'N' | 'U'>('N', 'U'),
      A: matSpecArb(undefined, 0), special: fc.option(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...SPECIALS)), { freq: 4 }),
      off: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 11, maxLength: 11 }),
      c: config,
    }).chain((t) => vecSpecArb(t.n).map((b) => ({ ...t, b })));
    fc.assert(fc.property(arb, (t) => {
      const opts = optsOf(t.c);
      const n = t.n;
      // Diagonally dominant, so the solve is well conditioned and the bound meaningful; one cell may be special.
      const value = (i: number, j: number): number => {
        if (t.special && n > 0 && i === t.special[0] % n && j === t.special[1] % n) return t.special[2];
        // Powers of two on the diagonal keep the exact solution dyadic (a fast oracle); the off-diagonal entries are any doubles.
        return i === j ? 2 ** ((i % 3) - 1) * (i % 4 === 1 ? -1 : 1) : t.off[(i * 3 + j) % 11]! / Math.max(1, n);
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
      const byColumns = (t.A.layout === 'col') === (t.trans === 'N');
      const ordered = t.c.accumulation === 'pairwise' || t.c.accumulation === 'dot2';
      const bits = byColumns || ordered || t.c.arithmetic === 'dd' || (t.c.accumulation === 'dd' && t.c.arithmetic === 'f64');
      const what = `trsv ${t.uplo}${t.trans}${t.diag} n=${n} ${t.c.arithmetic}/${t.c.accumulation} A=${t.A.storage}/${t.A.scale}/${t.A.layout} pad=${t.A.pad} special=${JSON.stringify(t.special)} b=${describeVec(t.b)}`;
      const results = eachBackend(make, ([A, x], backend) => trsv({ A: A!.range, x: x!.range, uplo: t.uplo, trans: t.trans, diag: t.diag }, { ...opts, backend } as any), 1);
      // trsvBound is in terms of the computed x̂: take it from each backend's own result.
      for (const [b, r] of results) {
        if (r instanceof ModprecError) continue;
        const bound = trsvBound({ A: A0!.range, x: r.out, uplo: t.uplo, trans: t.trans, diag: t.diag }, opts as any);
        // (A NaN/±∞ read or a zero pivot: only the rows that depend on it must be +∞; the bits check below covers them.)
        if (exact === null) continue;
        check(new Map([['js', r], ['cpu', r]]) as any, false, exact, bound, `${what} [${b}]`);
      }
      check(results, bits, null, [], what);
    }), { numRuns: runs(250) });
  });

  it('ELL SpMV y := α·A·x + β·y', () => {
    ellSpmvProperty({ mat: matSpecArb, vec: vecSpecArb }, config, true, [], runs(250));
  });
});

