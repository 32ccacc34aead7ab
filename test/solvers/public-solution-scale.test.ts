/**
 * x in a narrow storage, far from 1. The solvers run on b scaled to ‖b‖₂ near 1, so x sits near ‖b‖/‖A‖: with
 * fp16 vectors, cg(1e-5·I, (1, 2, 3)) stored x near 10⁵ as ±∞ and broke down 'non-finite' after one step with x = 0
 * (bicgstab and gmres alike), and an A far above 1 left x among fp16's subnormals. x is now stored as x/2^e, e the
 * exponent of the first step's size (fp16 always; fp32 and bf16 where it lies outside 2^±32), and comes back as a view
 * with that scale: the solve reaches fp16's accuracy whatever ‖A‖ is.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bicgstab, cg, formats, gmres, matrix, toArray, type OperatorLike } from '../../src/index.js';
import { exactResidual } from './residual-oracle.js';

const solvers: [string, (A: OperatorLike, b: any, o?: any) => any][] = [['cg', cg], ['bicgstab', bicgstab], ['gmres', gmres]];
const diagonal = (d: readonly number[]): number[][] => d.map((v, i) => d.map((_, j) => (i === j ? v : 0)));

describe('x stored at its own scale', () => {
  it.each(solvers)('%s: the reported case, 1e-5·I with fp16 vectors and b = (1, 2, 3), converges to fp16’s accuracy', (_, solve) => {
    const rows = diagonal([1e-5, 1e-5, 1e-5]);
    const r = solve(matrix(3, 3, (i, j) => rows[i]![j]!), [1, 2, 3], { storage: formats.f16, tolerance: 1e-2 });
    expect([r.status, r.breakdown]).toEqual(['converged', undefined]);
    expect(exactResidual(rows, [1, 2, 3], toArray(r.x))).toBeLessThanOrEqual(1e-2);
  });

  it.each(solvers)('%s: 2^a·D (D diagonal, entries in [1, 2]) with fp16 vectors for a in [−60, 60]: converged within the tolerance by the exact residual', (_, solve) => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 8, max: 16 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: -60, max: 60 }),
      fc.array(fc.integer({ min: -8, max: 8 }), { minLength: 4, maxLength: 4 }).filter((b) => b.some((v) => v !== 0)),
      (d, a, rhs) => {
        const n = d.length;
        const b = rhs.slice(0, n);
        if (b.every((v) => v === 0)) return;
        const rows = diagonal(d.map((v) => (v / 8) * 2 ** a));
        const r = solve(matrix(n, n, (i, j) => rows[i]![j]!), b, { storage: formats.f16, tolerance: 1e-2 });
        expect([r.status, r.breakdown]).toEqual(['converged', undefined]);
        expect(exactResidual(rows, b, toArray(r.x))).toBeLessThanOrEqual(1e-2);
      },
    ), { numRuns: 40 });
  });

  it.each(solvers)('%s: fp32 vectors, fp64 arithmetic, A = 2^a·I with x beyond fp32’s range (|a| up to 300): converged', (_, solve) => {
    fc.assert(fc.property(fc.integer({ min: 100, max: 300 }), fc.boolean(), (m, up) => {
      const a = up ? m : -m;
      const rows = diagonal([2 ** a, 2 ** a]);
      const r = solve(matrix(2, 2, (i, j) => rows[i]![j]!), [1, 3], { storage: formats.f32, arithmetic: formats.f64, tolerance: 1e-6 });
      expect([r.status, r.breakdown]).toEqual(['converged', undefined]);
      expect(Array.from(toArray(r.x))).toEqual([2 ** -a, 3 * 2 ** -a]);
    }), { numRuns: 20 });
  });
});
