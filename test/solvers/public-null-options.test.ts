/**
 * `null` is a value, not an omitted option (the kernels' rule, docs/guide.md §6): the solvers took `storage: null`,
 * `tolerance: null`, `maxIterations: null`, `restart: null`, `breakdownRestarts: null`, refinement's `backend: null`, …
 * as their defaults and solved. Each is now the typed error of a bad value, naming the option, before any work —
 * INVALID_FORMAT for a format option (as `arithmetic: null` was, and as the kernels refuse it), else INVALID_OPTION —
 * on the CPU and for `backend: 'gpu'` alike (the options are checked before the device is asked for).
 */
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, formats, functionOperator, gmres, iterativeRefinement, jacobiCg, matrix, type OperatorLike } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const COMMON = ['tolerance', 'maxIterations', 'storage', 'arithmetic', 'x0', 'stagnationChecks', 'recordTrueResidual', 'backend', 'strict'];
const FORMATS = new Set(['storage', 'arithmetic', 'basisStorage', 'residualArithmetic']);
const codeOf = (key: string) => (FORMATS.has(key) ? 'INVALID_FORMAT' : 'INVALID_OPTION');

const solvers: [string, (A: OperatorLike, b: number[], o?: any) => unknown, string[]][] = [
  ['cg', cg, COMMON], ['jacobiCg', jacobiCg, COMMON],
  ['bicgstab', bicgstab, [...COMMON, 'shadow', 'breakdownRestarts']],
  ['gmres', gmres, [...COMMON, 'restart', 'basisStorage', 'orthogonalization']],
];

/** A 3×3 operator (2·I) that counts its applications. */
function counted() {
  let calls = 0;
  const A = functionOperator({ size: 3, apply: (x, y) => { calls++; for (let i = 0; i < 3; i++) y.set(i, 2 * x.get(i)); }, diagonal: () => Float64Array.of(2, 2, 2) });
  return { A, calls: () => calls };
}

describe('a null option is refused, not taken as its default', () => {
  it.each(solvers)('%s on the CPU: every option set to null is a typed error naming it, and A is never applied', (_, solve, keys) => {
    const { A, calls } = counted();
    for (const key of keys) expectModprec(() => solve(A, [1, 2, 3], { [key]: null }), codeOf(key), `options.${key}`);
    expect(calls()).toBe(0);
    // undefined is still an omission: the solve runs
    const r = solve(A, [2, 4, 6], Object.fromEntries(keys.filter((k) => k !== 'backend').map((k) => [k, undefined]))) as { status: string };
    expect(r.status).toBe('converged');
  });

  it.each(solvers)('%s with backend gpu: the same errors, thrown before the device is asked for', (_, solve, keys) => {
    const A = matrix(3, 3, (i, j) => (i === j ? 2 : 0));
    for (const key of keys.filter((k) => k !== 'backend')) {
      // f32 arithmetic: one the GPU runs, so BiCGStab's own options (checked after the GPU's) are reached
      expectModprec(() => solve(A, [1, 2, 3], { backend: 'gpu', arithmetic: formats.f32, [key]: null }), codeOf(key), `options.${key}`);
    }
  });

  it('iterativeRefinement: every option set to null is a typed error naming it', () => {
    const A = matrix(2, 2, (i, j) => (i === j ? 2 : 0));
    for (const key of ['tolerance', 'maxIterations', 'storage', 'residualArithmetic', 'factorization', 'averaging', 'backend']) {
      expectModprec(() => iterativeRefinement(A, [1, 2], { [key]: null } as never), codeOf(key), `options.${key}`);
    }
    expect(iterativeRefinement(A, [2, 4], { tolerance: undefined, storage: undefined }).status).toBe('converged');
  });
});
