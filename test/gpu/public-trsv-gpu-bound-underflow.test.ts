/**
 * trsvBound(…, { backend: 'gpu' }) on operands biased to the bottom of the arithmetic's range (f32, float-float and
 * double-double on the GPU): subnormal entries and right-hand sides, products that round into the subnormals, tiny
 * pivots whose reciprocal overflows (the block inverse is not finite, and the GPU redoes the solve by substitution).
 * Every stored xᵢ lies within the bound of the exact solution of the stored system (BigInt rationals). n ≤ 4 and one
 * storage pair per arithmetic keep the shaders to compile few. Before, a run the GPU had redone by substitution was
 * held to the block-inverse bound alone: dd, T = [[0.25], [9.56e-299, 9.56e-299], [5e-324, 2.99e-300, 3e-310]] missed
 * it by 8.2e-15 (the regression in test/gpu/public-dd-trsv-subnormal.test.ts); and the bound's own fp64 evaluation
 * lost its underflow terms below the smallest double: dd, T = [0.06640625], b = 8.289046e-317 gave x̂ = b/t rounded to a
 * multiple of 2^-1074 and a bound of 0.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, matrix, trsv, trsvBound, vector } from '../../src/index.js';
import { exactOf, exactTriangularSolve } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, subRational, type Rational } from '../../src/testing/rational.js';
import { requireRuntime } from './gpu-test-helpers.js';

interface Setting {
  readonly arithmetic: typeof formats.f32 | typeof formats.ff | typeof formats.dd;
  readonly storageA: typeof formats.f32 | typeof formats.f64;
  readonly storageX: typeof formats.f32 | typeof formats.f64 | typeof formats.dd;
  /** log2 of the smallest subnormal and of the smallest normal of the arithmetic's words. */
  readonly bottom: number;
  readonly normal: number;
  /** Rounds a double to A's (and b's) storage. */
  readonly round: (v: number) => number;
}

const SETTINGS: readonly Setting[] = [
  { arithmetic: formats.f32, storageA: formats.f32, storageX: formats.f32, bottom: -149, normal: -126, round: Math.fround },
  { arithmetic: formats.ff, storageA: formats.f32, storageX: formats.f64, bottom: -149, normal: -126, round: Math.fround },
  { arithmetic: formats.dd, storageA: formats.f64, storageX: formats.dd, bottom: -1074, normal: -1022, round: (v) => v },
];

/** ±(1 + k/16)·2^e with e near the smallest subnormal, near the smallest normal, or ordinary; sometimes 0. */
function magnitude(s: Setting, zero: boolean): fc.Arbitrary<number> {
  const exponent = fc.oneof(fc.integer({ min: s.bottom, max: s.bottom + 24 }), fc.integer({ min: s.normal - 8, max: s.normal + 40 }), fc.integer({ min: -8, max: 8 }));
  const value = fc.tuple(exponent, fc.integer({ min: 0, max: 15 }), fc.boolean()).map(([e, k, negative]) => s.round((negative ? -1 : 1) * (1 + k / 16) * 2 ** e));
  return zero ? fc.oneof({ arbitrary: value, weight: 4 }, { arbitrary: fc.constant(0), weight: 1 }) : value;
}

const exactStored = (x: ReturnType<typeof vector>, i: number, dd: boolean): Rational => {
  const d = x.accessor.data as Float64Array | Float32Array;
  return dd ? addRational(exactOf(d[2 * i]!), exactOf(d[2 * i + 1]!)) : exactOf(d[i]!);
};

describe("trsvBound with backend 'gpu' on tiny operands (underflow, overflowing inverses)", () => {
  it('dd: a quotient rounded into the subnormals is within a bound that is not 0', async () => {
    await requireRuntime();
    const A = matrix(1, 1, () => 0.06640625, { storage: formats.f64, arithmetic: formats.dd });
    const x = vector([8.289046e-317], { storage: formats.dd, arithmetic: formats.dd });
    const b = exactStored(x, 0, true);
    const call = { A, x, uplo: 'L' as const };
    expect((await trsv(call, { backend: 'gpu', strict: true })).backend).toBe('gpu');
    const bound = trsvBound(call, { backend: 'gpu' });
    const exact = exactTriangularSolve([[exactOf(0.06640625)]], [b], true, false)[0]!;
    // b/t is not a multiple of 2^-1074: the stored x̂ errs, and the bound (λ = 2^-1074 a few times over) must cover it.
    expect(compareRational(subRational(exactStored(x, 0, true), exact), exactOf(0))).not.toBe(0);
    expect(compareRational(absRational(subRational(exactStored(x, 0, true), exact)), exactOf(bound[0]!)) <= 0).toBe(true);
    expect(bound[0]!).toBeLessThan(2 ** -1000);
  });

  for (const s of SETTINGS) {
    it(`${s.arithmetic.name} arithmetic (A ${s.storageA.name}, x ${s.storageX.name}): every xᵢ within the bound of the exact solution`, async () => {
      await requireRuntime();
      const problem = fc.integer({ min: 1, max: 4 }).chain((n) => fc.record({
        n: fc.constant(n),
        t: fc.array(magnitude(s, true), { minLength: n * n, maxLength: n * n }),
        pivots: fc.array(magnitude(s, false).filter((v) => v !== 0), { minLength: n, maxLength: n }),
        b: fc.array(magnitude(s, true), { minLength: n, maxLength: n }),
        lower: fc.boolean(),
      }));
      await fc.assert(fc.asyncProperty(problem, async ({ n, t, pivots, b, lower }) => {
        const entry = (i: number, j: number): number => (i === j ? pivots[i]! : (lower ? j < i : j > i) ? t[i * n + j]! : 0);
        const A = matrix(n, n, entry, { storage: s.storageA, arithmetic: s.arithmetic });
        const x = vector(b, { storage: s.storageX, arithmetic: s.arithmetic });
        const dd = s.storageX === formats.dd;
        const rhs = Array.from({ length: n }, (_, i) => exactStored(x, i, dd));
        const call = { A, x, uplo: lower ? 'L' as const : 'U' as const, trans: 'N' as const, diag: 'N' as const };
        const report = await trsv(call, { backend: 'gpu', arithmetic: s.arithmetic, strict: true });
        expect(report.backend).toBe('gpu');
        const bound = trsvBound(call, { backend: 'gpu', arithmetic: s.arithmetic });
        const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => exactOf(entry(i, j))));
        const exact = exactTriangularSolve(T, rhs, lower, false);
        exact.forEach((e, i) => {
          if (bound[i] === Infinity) return;
          const got = exactStored(x, i, dd);
          expect(compareRational(absRational(subRational(got, e)), exactOf(bound[i]!)) <= 0, `x[${i}] ± ${bound[i]}`).toBe(true);
        });
      }), { numRuns: 30 });
    });
  }
});
