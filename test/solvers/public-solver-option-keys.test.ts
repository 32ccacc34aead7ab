/**
 * The solvers' options objects, fuzzed (the kernels' rule, docs/guide.md §6): an option left out or undefined takes
 * its default; a key modprec does not know is not read; one it knows that the solver does not take — another solver's
 * (cg(A, b, { restart: 5 })), a kernel's ({ accumulation: 'kahan' }, { into: … }, the GPU tuning options) — is
 * refused, its value checked first as the call that takes it checks it; these ran as if absent until session 28. A
 * value of any type is a result or a typed error naming the option, before the operator is applied, and the same
 * error from every solver that takes the option.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, functionOperator, gmres, iterativeRefinement, jacobiCg, matrix, ModprecError, type OperatorLike } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const KRYLOV = ['tolerance', 'maxIterations', 'storage', 'arithmetic', 'x0', 'stagnationChecks', 'recordTrueResidual', 'strict'];
const solvers: [string, (A: OperatorLike, b: number[], o?: any) => unknown, string[]][] = [
  ['cg', cg, KRYLOV], ['jacobiCg', jacobiCg, KRYLOV],
  ['bicgstab', bicgstab, [...KRYLOV, 'shadow', 'breakdownRestarts']],
  ['gmres', gmres, [...KRYLOV, 'restart', 'basisStorage', 'orthogonalization']],
];
/** A valid value of every option modprec's solvers and kernels know (for a system of order 3). */
const VALID: Record<string, unknown> = {
  shadow: [1, 1, 1], breakdownRestarts: 2, restart: 5, basisStorage: 'f32', orthogonalization: 'cgs2',
  residualArithmetic: 'dd', factorization: 'f64', averaging: 4, arithmetic: 'f64', x0: [0, 0, 0], stagnationChecks: 3,
  recordTrueResidual: true, accumulation: 'kahan', into: [0], loop: 'dot', blockSize: 64, groups: 4, chains: 2,
  maxThreads: 64, groupWidth: 2, vectorLoads: true, targetThreads: 64, rowsPerThread: 2,
};

/** A 3×3 operator (2·I) that counts its applications. */
function counted() {
  let calls = 0;
  const A = functionOperator({ size: 3, apply: (x, y) => { calls++; for (let i = 0; i < 3; i++) y.set(i, 2 * x.get(i)); }, diagonal: () => Float64Array.of(2, 2, 2) });
  return { A, calls: () => calls };
}

/** What a call does: 'ran', or its typed error's code and parameter (anything else is rethrown: a bug). */
function outcome(f: () => unknown): string {
  try { f(); return 'ran'; } catch (e) {
    if (!(e instanceof ModprecError)) throw e;
    return `${e.code} ${e.parameter}`;
  }
}

describe('solver options objects', () => {
  it.each(solvers)('%s refuses every option modprec knows that it does not take (valid value), naming it, before A runs', (name, solve, taken) => {
    const { A, calls } = counted();
    for (const key of Object.keys(VALID).filter((k) => !taken.includes(k))) {
      const e = expectModprec(() => solve(A, [2, 4, 6], { [key]: VALID[key] }), 'INVALID_OPTION', `options.${key}`);
      expect(e.message).toContain(`not an option of ${name}`);
    }
    expect(calls()).toBe(0);
  });

  it('iterativeRefinement refuses the Krylov solvers\' and the kernels\' options', () => {
    const A = matrix(3, 3, (i, j) => (i === j ? 2 : 0));
    for (const key of Object.keys(VALID).filter((k) => !['residualArithmetic', 'factorization', 'averaging'].includes(k))) {
      expectModprec(() => iterativeRefinement(A, [2, 4, 6], { [key]: VALID[key] } as never), 'INVALID_OPTION', `options.${key}`);
    }
    expect(iterativeRefinement(A, [2, 4, 6], { strict: true, factorization: 'f64' } as never).status).toBe('converged');
  });

  it('an option another solver takes, with a bad value, is the error that solver gives, not the refusal', () => {
    const { A } = counted();
    fc.assert(fc.property(fc.constantFrom('restart', 'breakdownRestarts', 'orthogonalization', 'basisStorage', 'shadow', 'averaging', 'factorization', 'accumulation'),
      fc.anything(), (key, value) => {
        const owner = key === 'restart' || key === 'orthogonalization' || key === 'basisStorage' ? gmres : key === 'averaging' || key === 'factorization' ? undefined : bicgstab;
        const mine = outcome(() => cg(A, [2, 4, 6], { [key]: value }));
        if (owner === undefined || value === undefined) return;
        const theirs = outcome(() => owner(A, [2, 4, 6], { [key]: value }));
        expect(mine).toBe(theirs === 'ran' ? `INVALID_OPTION options.${key}` : theirs);
      }), { numRuns: 300, seed: 28 });
  });

  it('keys modprec does not know are not read: the solve is the same with and without them', () => {
    const known = new Set([...Object.keys(VALID), ...KRYLOV, 'backend', 'threads', 'tolerance', 'maxIterations', 'storage']);
    fc.assert(fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !known.has(k) && !(k in Object.prototype)), fc.anything()),
      fc.constantFrom(...solvers), (extra, [, solve]) => {
        const plain = solve(matrix(3, 3, (i, j) => (i === j ? 2 : i + j === 2 ? 1 : 0)), [1, 2, 3], { storage: 'f32' }) as { history: number[] };
        const withExtra = solve(matrix(3, 3, (i, j) => (i === j ? 2 : i + j === 2 ? 1 : 0)), [1, 2, 3], { ...extra, storage: 'f32' }) as { history: number[] };
        expect(withExtra.history).toEqual(plain.history);
      }), { numRuns: 100, seed: 2028 });
  });

  it('any value of an option a solver takes is a result or a typed error naming it, before A runs — the same from every solver that takes it', () => {
    fc.assert(fc.property(fc.constantFrom(...KRYLOV), fc.oneof(fc.anything(), fc.constantFrom(null, NaN, -1, 0, 1.5, 2 ** 53, Infinity, 'f16', 'i8', [1, 2], [1, NaN, 3], true)),
      (key, value) => {
        const outcomes = solvers.map(([, solve]) => {
          const { A, calls } = counted();
          const o = outcome(() => solve(A, [2, 4, 6], { [key]: value, maxIterations: key === 'maxIterations' ? value : 20 }));
          if (o !== 'ran') {
            expect(o).toMatch(new RegExp(` options\\.${key}(\\[\\d+\\])?$`));
            expect(calls()).toBe(0);
          }
          return o;
        });
        expect(new Set(outcomes).size).toBe(1);
      }), { numRuns: 300, seed: 1128 });
  });

  it.each(solvers)('%s with backend gpu: the same refusals, thrown before the device is asked for', (name, solve, taken) => {
    const A = matrix(3, 3, (i, j) => (i === j ? 2 : 0));
    for (const key of Object.keys(VALID).filter((k) => !taken.includes(k))) {
      const e = expectModprec(() => solve(A, [2, 4, 6], { backend: 'gpu', arithmetic: 'f32', [key]: VALID[key] }), 'INVALID_OPTION', `options.${key}`);
      expect(e.message).toContain(`not an option of ${name}`);
    }
  });

  it('any value of a solver\'s own option, or of refinement\'s, is a result or a typed error naming it', () => {
    const own: [string, (o: object) => unknown][] = [
      ...['shadow', 'breakdownRestarts'].map((k) => [k, (o: object) => bicgstab(counted().A, [2, 4, 6], o)] as [string, (o: object) => unknown]),
      ...['restart', 'basisStorage', 'orthogonalization'].map((k) => [k, (o: object) => gmres(counted().A, [2, 4, 6], o)] as [string, (o: object) => unknown]),
      ...['tolerance', 'maxIterations', 'storage', 'residualArithmetic', 'factorization', 'averaging', 'backend', 'strict'].map((k) =>
        [k, (o: object) => iterativeRefinement(matrix(3, 3, (i, j) => (i === j ? 2 : 0)), [2, 4, 6], o as never)] as [string, (o: object) => unknown]),
    ];
    fc.assert(fc.property(fc.constantFrom(...own), fc.oneof(fc.anything(), fc.constantFrom(null, NaN, -1, 0, 1.5, 'f16', 'i8', 'gpu', [1, 2], [1, NaN, 3], true)),
      ([key, solve], value) => {
        const o = outcome(() => solve({ [key]: value, ...(key === 'maxIterations' ? {} : { maxIterations: 20 }) }));
        if (o !== 'ran') expect(o).toMatch(new RegExp(` options\\.${key}(\\[\\d+\\])?$`));
      }), { numRuns: 400, seed: 2811 });
  });
});
