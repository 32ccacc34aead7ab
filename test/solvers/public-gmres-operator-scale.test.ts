/**
 * GMRES stores w = A·vⱼ in the vectors' storage, and ‖A·vⱼ‖ is ‖A‖'s size for a unit vⱼ: with fp16 vectors (65504 at
 * most) any A beyond that overflowed before the first step — gmres(1e5·I, 1e5·(1, 2)) broke down 'non-finite' at 0
 * iterations with x = 0, where x = (1, 2) is an fp16 vector, and so did bcsstk01 (entries to 3·10⁹), which CG, scaling
 * its q = A·p, steps through. GMRES now applies A scaled by 2^-16 (then 2^-32, …, at most 2^-128) where A·vⱼ
 * overflows, and keeps its Hessenberg matrix in A's units; the next basis vector w/‖w‖ is the same.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csrToEll, formats, gmres, matrix, readMatrixMarketCsr, toArray } from '../../src/index.js';

const diagonal = (d: readonly number[]) => matrix(d.length, d.length, (i, j) => (i === j ? d[i]! : 0));

describe('GMRES with an A beyond the vectors\' storage', () => {
  it('the reported case: 1e5·I with fp16 vectors and b = 1e5·(1, 2) converges to x = (1, 2)', () => {
    const r = gmres(diagonal([1e5, 1e5]), [1e5, 2e5], { storage: formats.f16, tolerance: 1e-3 });
    expect([r.status, Array.from(toArray(r.x))]).toEqual(['converged', [1, 2]]);
  });

  it('bcsstk01 with fp16 vectors takes real steps, all finite (was non-finite at 0 iterations)', () => {
    const A = csrToEll(readMatrixMarketCsr(readFileSync(join(__dirname, '../fixtures/matrices/bcsstk01.mtx'), 'utf8')));
    const b = Float64Array.from({ length: A.rows }, (_, i) => Math.sin(i + 1));
    const r = gmres(A, b, { storage: formats.f16, tolerance: 1e-6, maxIterations: 30 });
    expect(r.breakdown).not.toBe('non-finite');
    expect(r.iterations).toBeGreaterThan(0);
    expect(r.history.every(Number.isFinite)).toBe(true);
    expect(toArray(r.x).every(Number.isFinite)).toBe(true);
    expect(r.trueResidualNorm).toBeLessThanOrEqual(1);
  });

  it('diagonals from 2^10 to 2^40 with fp16 vectors and b = A·y (y small integers): never non-finite, x finite', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: 10, max: 40 }), fc.integer({ min: 1, max: 8 })), { minLength: 1, maxLength: 5 }),
      (entries) => {
        const d = entries.map(([e]) => 2 ** e);
        const r = gmres(diagonal(d), entries.map(([e, y]) => 2 ** e * y), { storage: formats.f16, tolerance: 1e-3, maxIterations: 20 });
        expect(r.breakdown).not.toBe('non-finite');
        expect(toArray(r.x).every(Number.isFinite)).toBe(true);
      }), { numRuns: 40, seed: 3311 });
  });
});
