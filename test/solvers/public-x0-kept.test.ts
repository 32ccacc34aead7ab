/**
 * A Krylov solve that stops short returns its best checked iterate — x₀ where nothing beat it — kept in a copy of x.
 * The copies went through the solve's arithmetic: with fp32 arithmetic on fp64 or dd vectors, an x₀ given as the fp64
 * solution (relative residual 2e-16 on laplacianEll([5])) came back rounded to fp32, relative residual 1e-7, from every
 * solver asked for a tolerance fp32 cannot reach — the "never worse than x₀" promise broken by the copy itself. Copies
 * of x are now word for word (in the storage's own arithmetic; on the GPU in double-double for f64 and dd vectors).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, formats, gmres, jacobiCg, laplacianEll, toArray, vector, type OperatorLike, type SolverResult } from '../../src/index.js';
import { spdSystem } from './solver-fixtures.js';
import { exactRelativeResidual } from './dense-residual.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]];

describe('x0 kept word for word', () => {
  it.each(solvers)('%s: fp32 arithmetic on fp64 and dd vectors, x0 the fp64 solution, an unreachable tolerance: x never worse than x0', (_, solve) => {
    fc.assert(fc.property(spdSystem, fc.constantFrom(formats.f64, formats.dd), (s, storage) => {
      const x0 = Array.from(s.reference);
      const r = solve(s.A, s.b, { storage, arithmetic: formats.f32, x0, tolerance: 1e-20, maxIterations: 40 });
      const returned = exactRelativeResidual(s, vector(Array.from(toArray(r.x))));   // dd x: its doubles (x₀ is doubles)
      expect(returned).toBeLessThanOrEqual(exactRelativeResidual(s, vector(x0)));
    }), { numRuns: 15, seed: 2604 });
  });

  it('the reported case: laplacianEll([5]) from its solution returns exactly it, on the CPU and on the GPU (fp32)', async () => {
    const A = laplacianEll([5]);
    const b = [1, -2, 3, 0.5, 1];
    const x0 = [4 / 3, 5 / 3, 4, 10 / 3, 13 / 6];
    for (const [, solve] of solvers) {
      const r = solve(A, b, { storage: formats.f64, arithmetic: formats.f32, x0, tolerance: 1e-20, maxIterations: 40 });
      expect(Array.from(toArray(r.x))).toEqual(x0);
    }
    await requireRuntime();
    // (fp32 iterates cannot come near x₀'s residual, so x₀ is the best one there too)
    const gpu = await cg(A, b, { storage: formats.f64, arithmetic: formats.f32, x0, tolerance: 1e-20, maxIterations: 40, backend: 'gpu', strict: true });
    expect(Array.from(toArray(gpu.x))).toEqual(x0);
  });
});
