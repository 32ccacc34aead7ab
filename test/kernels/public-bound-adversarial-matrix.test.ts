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
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { matSpecArb, vecSpecArb, SPECIALS, type MatSpec, type VecSpec } from '../wasm/public-operands.js';
import { gemvProperty, ellSpmvProperty, trsvProperty, ACCUMULATIONS } from '../wasm/public-matrix-harness.js';

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
    // Pivots 2^±140 and off-diagonal entries grown up to 2^60: the solution's size swings through the range.
    trsvProperty(arb, (t, i, j) => (i === j ? 2 ** t.piv[i % 7]! * (i % 4 === 1 ? -1 : 1) : t.off[(i * 3 + j) % 11]! * t.grow), false, 120);
  });

  it('ELL SpMV y := α·A·x + β·y', () => {
    ellSpmvProperty({ mat: advMat, vec: advVec }, config, false, ['wasm'], 120);
  });
});

