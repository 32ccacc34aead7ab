/**
 * TRSV in double-double arithmetic on the GPU with subnormal pivots (3×3, x in dd and fp64 storage: two shader
 * signatures): every xᵢ within trsvBound(…, { backend: 'gpu' }) of the exact solution (BigInt rationals), as on js and
 * wasm (test/dd/public-dd-trsv-subnormal.test.ts, where the CPU's dd division lost the low part of 3e-310 / 7e-311).
 * With a product rounded into the subnormals and a pivot whose reciprocal overflows, the block inverse is not finite and
 * the GPU redoes the solve by substitution (the CPU's bits): its bound is then the substitution's too (it was the
 * block-inverse bound alone, 4.6e-31 against an error of 8.2e-15; kernels/trsv/trsv-gpu-bound.ts, step 7).
 */
import { describe, expect, it } from 'vitest';
import { formats, matrix, trsv, trsvBound, vector } from '../../src/index.js';
import { exactOf, exactTriangularSolve } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, subRational, type Rational } from '../../src/testing/rational.js';
import { requireRuntime } from './gpu-test-helpers.js';

const N = 3;

function stored(x: ReturnType<typeof vector>, i: number, dd: boolean): Rational {
  const d = x.accessor.data as Float64Array;
  const [hi, lo] = dd ? [d[2 * i]!, d[2 * i + 1]!] : [d[i]!, 0];
  expect(Number.isFinite(hi) && Number.isFinite(lo), `x[${i}] = (${hi}, ${lo}) under a finite bound`).toBe(true);
  return addRational(exactOf(hi), exactOf(lo));
}

async function solve(t: readonly number[], b: readonly number[], dd: boolean): Promise<void> {
  const A = matrix(N, N, (i, j) => (j <= i ? t[i * N + j]! : 0), { storage: formats.f64, arithmetic: formats.dd });
  const x = vector(b, { storage: dd ? formats.dd : formats.f64, arithmetic: formats.dd });
  const rhs = Array.from({ length: N }, (_, i) => stored(x, i, dd));
  const call = { A, x, uplo: 'L' as const, trans: 'N' as const, diag: 'N' as const };
  const report = await trsv(call, { backend: 'gpu', strict: true });
  expect(report.backend).toBe('gpu');
  const bound = trsvBound(call, { backend: 'gpu' });
  const T = Array.from({ length: N }, (_, i) => Array.from({ length: N }, (_, j) => exactOf(j <= i ? t[i * N + j]! : 0)));
  const exact = exactTriangularSolve(T, rhs, true, false);
  exact.forEach((e, i) => bound[i] === Infinity || expect(compareRational(absRational(subRational(stored(x, i, dd), e)), exactOf(bound[i]!)) <= 0,
    `gpu ${dd ? 'dd' : 'f64'} x[${i}] ± ${bound[i]} (T ${t}, b ${b})`).toBe(true));
}

describe('trsv, backend gpu, dd arithmetic with subnormal pivots', () => {
  it('stays within trsvBound where no product underflows (x in dd and fp64 storage)', async () => {
    await requireRuntime();
    // Pivots 7e-311 and 3e-310 with normal quotients (x₀ = 30/7, x₁ ≈ −7.6e9); every product tᵢⱼ·xⱼ is normal.
    for (const dd of [true, false]) await solve([7e-311, 0, 0, 1e-300, 3e-310, 0, 0.5, 1e-10, 1], [3e-310, 2e-300, 1], dd);
  });

  // t₂₁·x₁ = 2.99e-300 · 3.7e-9 rounds into the subnormals (2.5e-324), divided by the pivot 3e-310: x₂ errs by 8.2e-15
  // on every backend (the same bits: 1/3e-310 overflows, so the GPU redoes by substitution), within the CPU's bound
  // (1.3e-13); the GPU's was the block-inverse bound alone (4.6e-31 with dd storage, 4.1e-15 with fp64).
  it('stays within trsvBound where a product rounds into the subnormals (the run is redone by substitution; dd and fp64 x)', async () => {
    await requireRuntime();
    for (const dd of [true, false]) await solve([0.25, 0, 0, 9.556619453472961e-299, 9.556619453472961e-299, 0, 5e-324, 2.9864435792103004e-300, 3e-310], [5e-324, 3.560118173611528e-307, 5e-324], dd);
  });
});
