/**
 * GEMV (N and T), TRSV (L/U, N/T, unit or not) and ELL SpMV through the public API: the automatic choice,
 * `backend: 'wasm'` and `backend: 'js'` from identical operands. Where the docs promise the JavaScript's bits
 * (GEMV and TRSV reading op(A) by columns, double-double arithmetic, the `pairwise` and `dot2` orders; ELL SpMV
 * always) every raw element and scale must agree by Object.is; everywhere, each output element is within the
 * library's bound (gemvBound, trsvBound, ellSpmvBound) of the exact BigInt result; β = 0 never reads y (NaN there);
 * a case WebAssembly refuses is a typed error with nothing written.
 */
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { matSpecArb, runs, vecSpecArb, SPECIALS } from './public-operands.js';
import { gemvProperty, ellSpmvProperty, trsvProperty, ACCUMULATIONS } from './public-matrix-harness.js';

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
    trsvProperty(arb, (t, i, j) => (i === j ? 2 ** ((i % 3) - 1) * (i % 4 === 1 ? -1 : 1) : t.off[(i * 3 + j) % 11]! / Math.max(1, t.n)), true, runs(250));
  });

  it('ELL SpMV y := α·A·x + β·y', () => {
    ellSpmvProperty({ mat: matSpecArb, vec: vecSpecArb }, config, true, [], runs(250));
  });
});

