/**
 * A Krylov solve whose ‖b‖₂ lies outside [2^-32, 2^32] runs on b scaled by 2^-k and scales x back by 2^k; the docs
 * promise that solving 2^k·b gives exactly 2^k times the solution for b, in every storage. Scaling back was done in
 * the solve's arithmetic: with fp32 arithmetic on fp64 vectors, 2^±350 (b near 2^±700) overflowed or flushed in fp32,
 * so every solver returned x = ±∞ or x = 0 with status 'converged' and a true residual of 1e-7 (measured before the
 * scaling); on double-double vectors fp32 arithmetic also rounded x's words to fp32. Now x is scaled in its storage's
 * own arithmetic (fp64, dd, RNS), which is exact for a power of two.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bicgstab, cg, gmres, jacobiCg, laplacianEll, formats, type OperatorLike, type SolverResult } from '../../src/index.js';

type Solve = (A: OperatorLike, b: number[], o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]];
const A = laplacianEll([5]);
const b0 = [1 / 3, -2 / 7, 1, 4 / 3, 0.1];   // ‖b0‖₂ ≈ 1.75: solved unscaled

/** x's stored words as doubles: fp64 one per element, dd two (hi, lo). */
function words(r: SolverResult): number[] {
  const { data, offset } = r.x.accessor as unknown as { data: Float64Array; offset: number };
  const per = r.x.accessor.storage.name === 'dd' ? 2 : 1;
  return Array.from(data.subarray(offset * per, (offset + r.x.length()) * per));
}

describe('x scaled back exactly, whatever the arithmetic', () => {
  it.each(solvers)('%s: fp64 and dd vectors, fp32 or own arithmetic: 2^k·b gives exactly 2^k·x, for k far outside fp32', (_, solve) => {
    fc.assert(fc.property(
      fc.constantFrom(formats.f64, formats.dd), fc.constantFrom(formats.f32, undefined),
      fc.integer({ min: -1000, max: 1000 }).filter((k) => Math.abs(k) > 40),
      (storage, arithmetic, k) => {
        const options = { storage, ...(arithmetic ? { arithmetic } : {}), tolerance: 1e-6, maxIterations: 40 };
        const base = solve(A, b0, options);
        const scaled = solve(A, b0.map((v) => v * 2 ** k), options);
        expect([scaled.status, scaled.iterations, scaled.trueResidualNorm]).toEqual([base.status, base.iterations, base.trueResidualNorm]);
        const x = words(scaled), x0 = words(base);
        expect(x.every(Number.isFinite)).toBe(true);
        expect(x).toEqual(x0.map((v) => v * 2 ** k));
      },
    ), { numRuns: 24, seed: 41, examples: [[formats.f64, formats.f32, 700], [formats.f64, formats.f32, -700], [formats.dd, formats.f32, 100]] });
  });

  it('RNS vectors with fp32 arithmetic: the same solution read back at every scale', () => {
    const options = { storage: formats.rns212, arithmetic: formats.f32, tolerance: 1e-6, maxIterations: 40 };
    // the stored words decoded as RNS numbers (reading through x's fp32 arithmetic would round them)
    const read = (r: SolverResult, k: number): number[] => {
      const { storage, data, offset } = r.x.accessor;
      return Array.from({ length: r.x.length() }, (_, i) => formats.rns212.arithmetic.toNumber(storage.decode(data as never, offset + i) as never) * 2 ** -k);
    };
    const base = read(cg(A, b0, options), 0);
    for (const k of [-700, -300, 300, 700]) expect(read(cg(A, b0.map((v) => v * 2 ** k), options), k)).toEqual(base);
  });
});
