/**
 * A right-hand side beyond the range of the solver's vector storage. Regression: the Krylov solvers scaled b by a power
 * of two only for ‖b‖₂ outside [2^-32, 2^32], after storing it, so in fp16 (2^-24 … 65504) a b = 1e5 was stored as
 * ±∞ (breakdown 'non-finite', x = 0) and b = 1e-6 as subnormals and zeros (x = 0). Now b is scaled before it is
 * stored — narrow storages always to ‖b‖₂ in [1, 2) — and x comes back as a scaled view of its words when scaling
 * them back would leave the storage's range.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bicgstab, cg, gmres, matrix, formats, toArray, type OperatorLike } from '../../src/index.js';

const solvers: [string, (A: OperatorLike, b: any, o?: any) => any][] = [['cg', cg], ['bicgstab', bicgstab], ['gmres', gmres]];
const storages = [formats.f16, formats.bf16, formats.f32, formats.f64];

describe('b beyond the storage range', () => {
  it.each(solvers)('%s: A = 2^a·I, b = 2^e·(small integers): x = 2^-a·b exactly, in every storage, for e far outside fp16', (_, solve) => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }).chain((n) => fc.array(fc.integer({ min: -255, max: 255 }), { minLength: n, maxLength: n }).filter((c) => c.some((v) => v !== 0))),
      fc.integer({ min: -70, max: 70 }), fc.integer({ min: -8, max: 8 }), fc.constantFrom(...storages),
      (c, e, a, storage) => {
        const n = c.length;
        const A = matrix(n, n, (i, j) => (i === j ? 2 ** a : 0));
        const b = c.map((v) => v * 2 ** e);
        // Tolerance 0: run until the true residual is 0 and can go no lower — never 'converged', as a computed 0 is no
        // proof of an exact one (public-unresolvable-tolerance); here x is exact.
        const r = solve(A, b, { storage, tolerance: 0 });
        expect([r.status, r.breakdown, r.trueResidualNorm]).toEqual(['breakdown', 'stagnation', 0]);
        expect(Array.from(toArray(r.x))).toEqual(b.map((v) => v * 2 ** -a));
      },
    ), { numRuns: 60, seed: 28 });
  });

  it.each(solvers)('%s: fp16 storage: solving 2^e·b gives exactly 2^e times the solution for b, whatever e', (_, solve) => {
    // An SPD tridiagonal system solved with rounding: the scaling is a power of two, so the same roundings happen.
    const n = 6;
    const A = matrix(n, n, (i, j) => (i === j ? 4 : Math.abs(i - j) === 1 ? -1 : 0));
    const b0 = Array.from({ length: n }, (_, i) => Math.sin(i + 1) / 2);   // ‖b0‖₂ in [1, 2)
    const base = solve(A, b0, { storage: formats.f16, tolerance: 1e-2 });
    expect(base.status).toBe('converged');
    fc.assert(fc.property(fc.integer({ min: -1000, max: 1000 }), (e) => {
      const r = solve(A, b0.map((v) => v * 2 ** e), { storage: formats.f16, tolerance: 1e-2 });
      expect([r.status, r.iterations, r.trueResidualNorm]).toEqual([base.status, base.iterations, base.trueResidualNorm]);
      expect(Array.from(toArray(r.x))).toEqual(Array.from(toArray(base.x), (v) => v * 2 ** e));
    }), { numRuns: 25, seed: 29, examples: [[20], [-20], [17], [-30]] });
  });
});
