/**
 * The GPU side of public-solution-scale and public-unresolvable-tolerance (one rule on both backends): fp16 vectors on
 * 1e-5·I store x near 1 and converge to fp16's accuracy, and a tolerance of 0 is never `converged`.
 */
import { describe, expect, it } from 'vitest';
import { cg, formats, matrix, toArray } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { exactResidual } from './residual-oracle.js';

describe('solution scale and tolerance resolution on the GPU', () => {
  it("cg, backend 'gpu', fp16 vectors, float-float arithmetic: 1e-5·I converges; tolerance 0 stagnates", async () => {
    await requireRuntime();
    const rows = [[1e-5, 0, 0], [0, 1e-5, 0], [0, 0, 1e-5]];
    const A = matrix(3, 3, (i, j) => rows[i]![j]!);
    const options = { backend: 'gpu', strict: true, storage: formats.f16, arithmetic: formats.ff } as const;
    const r = await cg(A, [1, 2, 3], { ...options, tolerance: 1e-2 });
    expect([r.status, r.breakdown]).toEqual(['converged', undefined]);
    expect(exactResidual(rows, [1, 2, 3], toArray(r.x))).toBeLessThanOrEqual(1e-2);
    const zero = await cg(A, [1, 2, 3], { ...options, tolerance: 0, maxIterations: 50 });
    expect(zero.status).not.toBe('converged');
    expect(zero.status === 'iteration-limit' || zero.breakdown === 'stagnation').toBe(true);
  });
});
