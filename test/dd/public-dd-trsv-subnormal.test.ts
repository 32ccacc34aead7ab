/**
 * TRSV in double-double arithmetic with subnormal pivots and entries, on js and wasm: every xᵢ within trsvBound of the
 * exact solution (BigInt rationals). Regression: the kernels' dd division lost the low part of a normal quotient of
 * subnormal operands (x = 3e-310 / 7e-311 came out (4.285714285714195, 0), 2^-55 relative, against a bound near
 * 2^-100 relative for dd storage); it now divides such operands scaled (src/formats/dd/div-window.ts). And trsvBound lost
 * the write's rounding of xᵢ for a subnormal pivot in a row with an ordinary entry (ω·|tᵢᵢ| underflowed before the
 * product with |x̂ᵢ|: x₁ = −1.16e308 stored to fp64 erred by 9.3e291 against a bound of 6.4e291).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, matrix, trsv, trsvBound, vector } from '../../src/index.js';
import { exactOf, exactTriangularSolve } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, subRational, type Rational } from '../../src/testing/rational.js';

/** A stored x: the dd pair of element i (dd storage) or the double. */
function stored(x: ReturnType<typeof vector>, i: number, dd: boolean): Rational {
  const d = x.accessor.data as Float64Array;
  const [hi, lo] = dd ? [d[2 * i]!, d[2 * i + 1]!] : [d[i]!, 0];
  expect(Number.isFinite(hi) && Number.isFinite(lo), `x[${i}] = (${hi}, ${lo}) under a finite bound`).toBe(true);
  return addRational(exactOf(hi), exactOf(lo));
}

const within = (got: Rational, exact: Rational, bound: number): boolean =>
  compareRational(absRational(subRational(got, exact)), exactOf(bound)) <= 0;

/** Entries biased to subnormals and the bottom of the normal range (and some ordinary ones). */
const entry = fc.tuple(fc.oneof(
  fc.integer({ min: 1, max: 2 ** 52 - 1 }).map((k) => k * 2 ** -1074),
  fc.tuple(fc.integer({ min: 2 ** 52, max: 2 ** 53 - 1 }), fc.integer({ min: -1040, max: -990 })).map(([m, e]) => m * 2 ** -52 * 2 ** e),
  fc.double({ min: 0.25, max: 4, noNaN: true }),
  fc.constantFrom(3e-310, 7e-311, 5e-324, 2 ** -1022),
), fc.boolean()).map(([v, negative]) => (negative ? -v : v));

async function solve(n: number, t: readonly number[], b: readonly number[], backend: 'js' | 'wasm', dd: boolean): Promise<void> {
  const A = matrix(n, n, (i, j) => (j <= i ? t[i * n + j]! : 0), { storage: formats.f64, arithmetic: formats.dd });
  const x = vector(b, { storage: dd ? formats.dd : formats.f64, arithmetic: formats.dd });
  const rhs = Array.from({ length: n }, (_, i) => stored(x, i, dd));
  const call = { A, x, uplo: 'L' as const, trans: 'N' as const, diag: 'N' as const };
  await trsv(call, { backend, strict: true });
  const bound = trsvBound(call); // in terms of the computed x
  const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => exactOf(j <= i ? t[i * n + j]! : 0)));
  const exact = exactTriangularSolve(T, rhs, true, false);
  exact.forEach((e, i) => bound[i] === Infinity || expect(within(stored(x, i, dd), e, bound[i]!), `${backend} ${dd ? 'dd' : 'f64'} x[${i}] ± ${bound[i]} (T ${t}, b ${b})`).toBe(true));
}

describe('trsv in dd arithmetic with subnormal pivots and entries', () => {
  it('divides 3e-310 by a pivot of 7e-311 to the dd quotient, and bounds the write after a subnormal pivot (js, wasm)', async () => {
    for (const backend of ['js', 'wasm'] as const) {
      await solve(1, [7e-311], [3e-310], backend, true);
      // trsvBound formed ω·|tᵢᵢ| first, which underflowed here: it lost the write's rounding of x₁ ≈ −1.16e308.
      await solve(2, [-0.25, 0, -0.25000000000000056, 4.32220198994053e-309], [0.25, -0.25], backend, false);
      const x = vector([3e-310], { storage: formats.dd, arithmetic: formats.dd });
      await trsv({ A: matrix(1, 1, () => 7e-311, { storage: formats.f64, arithmetic: formats.dd }), x, uplo: 'L' }, { backend });
      expect((x.accessor.data as Float64Array)[1]).not.toBe(0);
    }
  });

  it('stays within trsvBound on js and wasm, dd and fp64 storage of x', async () => {
    const arb = fc.integer({ min: 1, max: 4 }).chain((n) => fc.record({
      n: fc.constant(n), t: fc.array(entry, { minLength: n * n, maxLength: n * n }), b: fc.array(entry, { minLength: n, maxLength: n }), dd: fc.boolean(),
    }));
    await fc.assert(fc.asyncProperty(arb, async ({ n, t, b, dd }) => {
      for (const backend of ['js', 'wasm'] as const) await solve(n, t, b, backend, dd);
    }), { numRuns: 150 });
  });
});
