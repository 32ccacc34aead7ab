/**
 * BiCGStab stores v = A·p and t = A·s in the vectors' storage, and they are ‖A‖'s size: with fp16 vectors (65504 at
 * most) any A beyond that overflowed before the first step — bicgstab(1e5·I, 1e5·(1, 2)) broke down 'non-finite' at 0
 * iterations with x = 0, where x = (1, 2) is an fp16 vector, and so did bcsstk01 and 494_bus, which CG and GMRES,
 * scaling their products, step through. BiCGStab now applies A scaled by 2^-16 (then 2^-32, …, at most 2^-128) where
 * A·p or A·s overflows, with α and ω in the units of the scaled products and x updated in A's.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bicgstab, csrToEll, formats, matrix, readMatrixMarketCsr, toArray } from '../../src/index.js';
import { exactRelativeResidual as diagonalResidual } from './diagonal-residual.js';
import { exactRelativeResidual } from './dense-residual.js';

const diagonal = (d: readonly number[]) => matrix(d.length, d.length, (i, j) => (i === j ? d[i]! : 0));

describe('BiCGStab with an A beyond the vectors\' storage', () => {
  it('the reported case: 1e5·I with fp16 vectors and b = 1e5·(1, 2) converges to x ≈ (1, 2)', () => {
    const r = bicgstab(diagonal([1e5, 1e5]), [1e5, 2e5], { storage: formats.f16, tolerance: 1e-3 });
    expect([r.status, r.breakdown]).toEqual(['converged', undefined]);
    const x = Array.from(toArray(r.x));
    // x stored near 1 (public-solution-scale), to fp16's 11 bits (it was exact among fp16's subnormals by chance)
    expect(Math.max(Math.abs(x[0]! - 1), Math.abs(x[1]! - 2) / 2)).toBeLessThanOrEqual(2 ** -10);
    expect(diagonalResidual([1e5, 1e5], x, [1e5, 2e5])).toBeLessThanOrEqual(1e-3);
  });

  // Nonsymmetric, diagonally dominant: diagonal n + 2, off-diagonal entries in {−1, 0, 1}, so ‖A₀·v‖∞ ≥ 3‖v‖∞.
  const system = fc.integer({ min: 1, max: 5 }).chain((n) => fc.record({
    n: fc.constant(n),
    off: fc.array(fc.integer({ min: -1, max: 1 }), { minLength: n * n, maxLength: n * n }),
    b: fc.array(fc.integer({ min: -8, max: 8 }), { minLength: n, maxLength: n }).filter((b) => b.some((v) => v !== 0)),
  }));
  const scaled = (n: number, off: readonly number[], e: number) =>
    Float64Array.from({ length: n * n }, (_, k) => 2 ** e * (k % (n + 1) === 0 ? n + 2 : off[k]!));

  it('2^(16+d)·A₀ with fp16 vectors runs the recurrence of 2^d·A₀ bit for bit (its A·p overflows at once, scaled by 2^-16; α, ω, β, p in those units)', () => {
    // b is solved scaled to ‖b‖₂ in [1, 2), and ‖A₀·b‖∞ > 1: A·r₀ overflows fp16 (65504) from the first step with 2^16·2^d·A₀,
    // never with 2^d·A₀ (d ≤ 3). A power of two 2^-16 on A·p changes no rounding, so the scaled vectors and every scalar
    // of the recurrence are the unscaled solve's until x enters it (a true residual checked: tolerance 0, so only a
    // recurrence residual of 0 does that, the last entry compared).
    fc.assert(fc.property(system, fc.integer({ min: 0, max: 3 }), ({ n, off, b }, d) => {
      const options = { storage: formats.f16, tolerance: 0, maxIterations: 6, breakdownRestarts: 0 };
      const solve = (e: number) => { const data = scaled(n, off, e); return bicgstab(matrix(n, n, (i, j) => data[i + j * n]!), b, options); };
      const big = solve(16 + d), small = solve(d);
      expect(small.breakdown).not.toBe('non-finite');
      const checked = small.history.indexOf(0);
      const compared = checked < 0 ? small.history.length : checked + 1;
      expect(big.history.slice(0, compared)).toEqual(small.history.slice(0, compared));
    }), { numRuns: 100, seed: 1128 });
  });

  it('2^e·A₀ (e from 16 to 60) with fp16 vectors: real steps, x finite, and a converged x meets the tolerance by the exact residual', () => {
    // x is stored at b's scale, where it is about 2^-e: fp16 subnormals (steps of 2^-24) hold few of its bits, so the
    // tolerance is not always attainable; what is reported must be true.
    fc.assert(fc.property(system, fc.integer({ min: 16, max: 60 }), fc.constantFrom(1e-1, 1e-2), ({ n, off, b }, e, tolerance) => {
      const data = scaled(n, off, e);
      const r = bicgstab(matrix(n, n, (i, j) => data[i + j * n]!), b, { storage: formats.f16, tolerance, maxIterations: 30 });
      expect(r.breakdown).not.toBe('non-finite');
      expect(r.iterations).toBeGreaterThan(0);
      expect(toArray(r.x).every(Number.isFinite)).toBe(true);
      const exact = exactRelativeResidual({ n, b: Float64Array.from(b), dense: { rows: n, cols: n, ld: n, data } }, r.x);
      if (r.status === 'converged') expect(exact).toBeLessThanOrEqual(tolerance);
      expect(exact).toBeLessThanOrEqual(1);
    }), { numRuns: 100, seed: 2811 });
  });

  const market = (name: string) => csrToEll(readMatrixMarketCsr(readFileSync(join(__dirname, `../fixtures/matrices/${name}.mtx`), 'utf8')));

  it('bcsstk01 with fp16 vectors takes real steps, all finite (was non-finite at 0 iterations)', () => {
    const A = market('bcsstk01');
    const b = Float64Array.from({ length: A.rows }, (_, i) => Math.sin(i + 1));
    const r = bicgstab(A, b, { storage: formats.f16, tolerance: 1e-6, maxIterations: 30 });
    expect(r.breakdown).not.toBe('non-finite');
    expect(r.iterations).toBeGreaterThan(0);
    expect(r.history.every(Number.isFinite)).toBe(true);
    expect(toArray(r.x).every(Number.isFinite)).toBe(true);
    expect(r.trueResidualNorm).toBeLessThanOrEqual(1);
  });

  it('494_bus with fp16 vectors follows the fp32-vector solve (scaled products, the same scalars) until fp16 loses it', () => {
    // Its A·r overflows fp16 at once (was non-finite at 0 iterations). The first iterations' recurrence residuals
    // agree with the fp32-vector solve's to fp16's rounding, which the scaled products make possible.
    const A = market('494_bus');
    const b = Float64Array.from({ length: A.rows }, (_, i) => Math.sin(i + 1));
    const half = bicgstab(A, b, { storage: formats.f16, tolerance: 1e-6, maxIterations: 5 });
    const single = bicgstab(A, b, { storage: formats.f32, tolerance: 1e-6, maxIterations: 5 });
    expect([half.status, half.iterations]).toEqual(['iteration-limit', 5]);
    for (let k = 1; k <= 5; k++) expect(Math.abs(half.history[k]! - single.history[k]!)).toBeLessThanOrEqual(1e-2 * single.history[k]!);
    expect(toArray(half.x).every(Number.isFinite)).toBe(true);
  });

  it('494_bus with fp16 vectors steps past the large β of its 16th step (p stored scaled; it overflowed: non-finite)', () => {
    // β = −3.3·10⁴ there made p = r + β·(p − ω·v) ±∞ in fp16, and the solve broke down 'non-finite' after 16 steps.
    const A = market('494_bus');
    const b = Float64Array.from({ length: A.rows }, (_, i) => Math.sin(i + 1));
    const r = bicgstab(A, b, { storage: formats.f16, tolerance: 1e-6, maxIterations: 30, recordTrueResidual: true });
    expect([r.status, r.breakdown, r.iterations]).toEqual(['iteration-limit', undefined, 30]);
    expect(r.history.every(Number.isFinite)).toBe(true);
    expect(r.trueHistory!.every(Number.isFinite)).toBe(true);
    expect(toArray(r.x).every(Number.isFinite)).toBe(true);
    expect(r.trueResidualNorm).toBeLessThan(1);
  });
});
