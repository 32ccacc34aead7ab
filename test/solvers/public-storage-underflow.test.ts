/**
 * CG whose vectors fall among the storage's subnormals: fp16 vectors on the SPD diag(1/2 + 2^-21, 1, 1/4 + 2^-23),
 * b = ones, tolerance 1e-8 (below what fp16 attains). r and p fell to about 1e-7 (fp16 subnormals), q = A·p was stored
 * as 0, and CG stopped 'breakdown: singular' after 7 iterations — a label for a semidefinite A with an inconsistent b.
 * A q that small says nothing about A·p: the true residual decides (here 'stagnation'). Checked against the exact
 * residual of the x returned (BigInt rationals), on the CPU and the GPU (the same iteration over both spaces).
 */
import { describe, expect, it } from 'vitest';
import { cg, jacobiCg, formats, matrix, toArray, type SolverResult } from '../../src/index.js';
import { exactRelativeResidual } from './diagonal-residual.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

const d = [0.5 + 2 ** -21, 1, 0.25 + 2 ** -23];
const A = matrix(3, 3, (i, j) => (i === j ? d[i]! : 0));
const b = [1, 1, 1];

function expectStagnatedWithTrueResidual(r: SolverResult, slack: number): void {
  const x = toArray(r.x);
  expect(x.every(Number.isFinite)).toBe(true);
  expect([r.status, r.breakdown]).toEqual(['breakdown', 'stagnation']);
  const exact = exactRelativeResidual(d, x, b);
  // fp16 holds x to about 2^-11 relatively: the solve reaches that, not 1e-8.
  expect(exact).toBeLessThanOrEqual(2 ** -10);
  expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(slack);
}

describe('CG with vectors among the storage subnormals is not called singular', () => {
  it('cg and jacobiCg, fp16 vectors, fp64 arithmetic: stagnation, the true residual of the x returned', () => {
    for (const solve of [cg, jacobiCg]) {
      const r = solve(A, b, { storage: formats.f16, arithmetic: formats.f64, tolerance: 1e-8 });
      expectStagnatedWithTrueResidual(r, 2 ** -50);
    }
  });

  it("backend: 'gpu', fp16 vectors, float-float arithmetic: the same verdict", async () => {
    await requireRuntime();
    const r = await cg(A, b, { backend: 'gpu', strict: true, storage: formats.f16, arithmetic: formats.ff, tolerance: 1e-8 });
    // float-float rounds b − A·x and its norm within about 2^-44 of ‖b‖.
    expectStagnatedWithTrueResidual(r, 2 ** -40);
  });
});
