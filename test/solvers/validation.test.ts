/**
 * Bad arguments are typed errors naming the parameter, raised before any work: the operator is never applied.
 */
import { describe, expect, it } from 'vitest';
import {
  bicgstab, cg, gmres, jacobiCg, iterativeRefinement, functionOperator, linearOperator, matrix, vector, formats,
  laplacianEll, type OperatorLike,
} from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

/** A 3×3 operator that counts its applications. */
function counted() {
  let calls = 0;
  const A = functionOperator({ size: 3, apply: (x, y) => { calls++; for (let i = 0; i < 3; i++) y.set(i, 2 * x.get(i)); }, diagonal: () => Float64Array.of(2, 2, 2) });
  return { A, calls: () => calls };
}

const solvers: [string, (A: OperatorLike, b: any, o?: any) => unknown][] = [
  ['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres],
];

describe('argument validation', () => {
  it.each(solvers)('%s: b, options and formats are checked before the operator runs', (_, solve) => {
    const { A, calls } = counted();
    expectModprec(() => solve(A, [1, 2]), 'DIMENSION_MISMATCH', 'b');
    expectModprec(() => solve(A, [1, NaN, 3]), 'INVALID_VALUE', 'b[1]');
    expectModprec(() => solve(A, [1, 2, Infinity]), 'INVALID_VALUE', 'b[2]');
    expectModprec(() => solve(A, 'abc'), 'INVALID_OPTION', 'b');
    expectModprec(() => solve(A, vector([1, 2])), 'DIMENSION_MISMATCH', 'b');
    expectModprec(() => solve(A, [1, 2, 3], { tolerance: -1 }), 'INVALID_OPTION', 'options.tolerance');
    expectModprec(() => solve(A, [1, 2, 3], { tolerance: NaN }), 'INVALID_OPTION', 'options.tolerance');
    expectModprec(() => solve(A, [1, 2, 3], { maxIterations: 1.5 }), 'INVALID_OPTION', 'options.maxIterations');
    expectModprec(() => solve(A, [1, 2, 3], { maxIterations: -1 }), 'INVALID_OPTION', 'options.maxIterations');
    expectModprec(() => solve(A, [1, 2, 3], { stagnationChecks: 0 }), 'INVALID_OPTION', 'options.stagnationChecks');
    expectModprec(() => solve(A, [1, 2, 3], { storage: 'nope' }), 'INVALID_FORMAT');
    expectModprec(() => solve(A, [1, 2, 3], { storage: formats.i16 }), 'INVALID_FORMAT', 'options.storage');
    expectModprec(() => solve(A, [1, 2, 3], { x0: [1, 2] }), 'DIMENSION_MISMATCH', 'options.x0');
    expectModprec(() => solve(A, [1, 2, 3], { x0: [1, NaN, 2] }), 'INVALID_VALUE', 'options.x0[1]');
    expectModprec(() => solve(A, [1, 2, 3], { recordTrueResidual: 1 }), 'INVALID_OPTION', 'options.recordTrueResidual');
    expectModprec(() => solve(A, [1, 2, 3], 5), 'INVALID_OPTION', 'options');
    // strict is a GPU option, but its type is checked on every backend (as backend 'gpu' checks it).
    expectModprec(() => solve(A, [1, 2, 3], { strict: 'yes' }), 'INVALID_OPTION', 'options.strict');
    expect(calls()).toBe(0);
    // b = 0 is still x = 0. A nonzero b below the storage's range was once solved as b = 0 ('converged', x = 0); it is
    // now stored scaled by a power of two, so it is solved (test/solvers/storage-range.test.ts checks the values).
    expect((solve(A, [0, 0, 0], { storage: formats.f32 }) as { status: string }).status).toBe('converged');
    for (const [b, storage] of [[[2 ** -600, -(2 ** -600), 0], formats.f32], [vector([3 * 2 ** -40, 0, 0]), formats.f16]] as const) {
      const r = solve(A, b, { storage }) as { status: string; x: { get(i: number): number } };
      expect([r.status, r.x.get(0)]).toEqual(['converged', (b instanceof Array ? b[0] : 3 * 2 ** -40) / 2]);
    }
  });

  it('operators: non-square, wrong kinds', () => {
    for (const solve of [cg, jacobiCg, bicgstab, gmres]) {
      expectModprec(() => solve(matrix(2, 3), [1, 2]), 'DIMENSION_MISMATCH', 'A');
      expectModprec(() => solve({} as never, [1]), 'INVALID_OPTION', 'A');
      expectModprec(() => solve(vector([1, 2]) as never, [1, 2]), 'DIMENSION_MISMATCH', 'A');
    }
    expectModprec(() => functionOperator({ size: -1, apply: () => {} }), 'INVALID_SIZE', 'size');
    expectModprec(() => functionOperator({ size: 2, apply: 3 as never }), 'INVALID_OPTION', 'apply');
    expectModprec(() => linearOperator({ rows: 2, cols: 2, ld: 1, data: new Float64Array(4) }), 'INVALID_STRIDE', 'ld');
  });

  it('GMRES: restart and basis storage', () => {
    const { A, calls } = counted();
    expectModprec(() => gmres(A, [1, 2, 3], { restart: 0 }), 'INVALID_OPTION', 'options.restart');
    expectModprec(() => gmres(A, [1, 2, 3], { orthogonalization: 'mgs' as never }), 'INVALID_OPTION', 'options.orthogonalization');
    expectModprec(() => gmres(A, [1, 2, 3], { basisStorage: formats.i8 }), 'INVALID_FORMAT', 'options.basisStorage');
    expectModprec(() => gmres(A, [1, 2, 3], { basisStorage: 'nope' }), 'INVALID_FORMAT');
    expect(calls()).toBe(0);
  });

  it('BiCGStab: the shadow residual', () => {
    const { A, calls } = counted();
    expectModprec(() => bicgstab(A, [1, 2, 3], { shadow: [1] }), 'DIMENSION_MISMATCH', 'options.shadow');
    expectModprec(() => bicgstab(A, [1, 2, 3], { shadow: [1, NaN, 1] }), 'INVALID_VALUE', 'options.shadow[1]');
    expect(calls()).toBe(0);
  });

  it('Jacobi CG: a zero diagonal entry, or an operator without a diagonal', () => {
    expectModprec(() => jacobiCg(matrix(2, 2, (i, j) => (i === 1 && j === 1 ? 0 : 1)), [1, 1]), 'INVALID_VALUE', 'A[1, 1]');
    expectModprec(() => jacobiCg(functionOperator({ size: 2, apply: () => {} }), [1, 1]), 'INVALID_OPTION', 'A');
  });

  it('iterative refinement: dense matrices only, and its options', () => {
    const A = matrix(2, 2, (i, j) => (i === j ? 2 : 0));
    expectModprec(() => iterativeRefinement(laplacianEll([2]) as never, [1, 1]), 'INVALID_OPTION', 'A');
    expectModprec(() => iterativeRefinement(matrix(2, 3), [1, 1]), 'DIMENSION_MISMATCH', 'A');
    expectModprec(() => iterativeRefinement(A, [1]), 'DIMENSION_MISMATCH', 'b');
    expectModprec(() => iterativeRefinement(A, [1, 2], { factorization: 'f16' as never }), 'INVALID_OPTION', 'options.factorization');
    expectModprec(() => iterativeRefinement(A, [1, 2], { residualArithmetic: formats.f16 }), 'INVALID_FORMAT');
    expectModprec(() => iterativeRefinement(A, [1, 2], { storage: formats.i32 }), 'INVALID_FORMAT', 'options.storage');
    expectModprec(() => iterativeRefinement(A, [1, 2], { tolerance: -1 }), 'INVALID_OPTION', 'options.tolerance');
    expectModprec(() => iterativeRefinement(A, [1, 2], { maxIterations: 0.5 }), 'INVALID_OPTION', 'options.maxIterations');
    expectModprec(() => iterativeRefinement(A, [1, 2], { averaging: -1 }), 'INVALID_OPTION', 'options.averaging');
  });
});
