/**
 * The options each solver takes, and the refusal of the ones modprec knows that a solver does not take (the kernels'
 * rule, docs/guide.md §6).
 * @module
 */
import { fail } from '../core/errors.js';
import { asArithmetic, asStorage } from '../formats/common/registry.js';
import { refuseOptionsNotTaken } from '../../kernels/shared/kernel-options.js';
import { resolveAccumulation } from '../../kernels/shared/accumulation.js';
import { threadsOf } from '../../kernels/shared/threads-option.js';
import { checkCount, checkVectorInput } from './solver-options.js';

/** A solver's name, as its messages say it. */
export type SolverName = 'cg' | 'jacobiCg' | 'bicgstab' | 'gmres' | 'iterativeRefinement';

const KRYLOV = ['tolerance', 'maxIterations', 'storage', 'arithmetic', 'x0', 'stagnationChecks', 'recordTrueResidual', 'backend', 'strict'];

/** The options each solver reads. */
const TAKEN: Readonly<Record<SolverName, readonly string[]>> = {
  cg: KRYLOV, jacobiCg: KRYLOV,
  bicgstab: [...KRYLOV, 'shadow', 'breakdownRestarts'],
  gmres: [...KRYLOV, 'restart', 'basisStorage', 'orthogonalization'],
  iterativeRefinement: ['tolerance', 'maxIterations', 'storage', 'residualArithmetic', 'factorization', 'averaging', 'backend', 'strict'],
};

const oneOf = (name: string, allowed: readonly string[]) => (v: unknown): void => {
  if (!allowed.includes(v as string)) fail('INVALID_OPTION', name, `must be ${allowed.map((a) => `'${a}'`).join(' or ')}`, v);
};
const isBoolean = (name: string) => (v: unknown): void => {
  if (typeof v !== 'boolean') fail('INVALID_OPTION', name, 'must be a boolean', v);
};

/**
 * How the call that takes each option checks its value (n: the order of A), and who takes it: an option of another
 * solver, or of the kernels, is checked so before it is refused, so a bad value is one error everywhere.
 */
const OWNED: Readonly<Record<string, readonly [string, (v: unknown, n: number) => void]>> = {
  shadow: ['an option of bicgstab', (v, n) => { checkVectorInput('options.shadow', v, n); }],
  breakdownRestarts: ['an option of bicgstab', (v) => { checkCount('options.breakdownRestarts', v, 0); }],
  restart: ['an option of gmres', (v) => { checkCount('options.restart', v, 1); }],
  basisStorage: ['an option of gmres', (v) => { asStorage(v as never, 'options.basisStorage'); }],
  orthogonalization: ['an option of gmres', oneOf('options.orthogonalization', ['dgks', 'cgs2'])],
  residualArithmetic: ['an option of iterativeRefinement', (v) => { asArithmetic(v as never, 'options.residualArithmetic'); }],
  factorization: ['an option of iterativeRefinement', oneOf('options.factorization', ['f32', 'f64'])],
  averaging: ['an option of iterativeRefinement', (v) => { checkCount('options.averaging', v, 0); }],
  arithmetic: ['an option of the Krylov solvers (iterativeRefinement takes residualArithmetic)', (v) => { asArithmetic(v as never, 'options.arithmetic'); }],
  x0: ['an option of the Krylov solvers', (v, n) => { checkVectorInput('options.x0', v, n); }],
  stagnationChecks: ['an option of the Krylov solvers', (v) => { checkCount('options.stagnationChecks', v, 1); }],
  recordTrueResidual: ['an option of the Krylov solvers', isBoolean('options.recordTrueResidual')],
  accumulation: ["a kernels' option (a solver's kernels sum as their arithmetic's default does)", (v) => { resolveAccumulation(v as never); }],
  threads: ["a kernels' option (a solver's kernels do not split over threads)", (v) => { threadsOf({ threads: v }, 'a solver'); }],
};

/**
 * Refuses every option modprec knows that `call` does not take — another solver's (`restart` passed to cg, `x0` to
 * iterativeRefinement), a kernel's (`accumulation`, `threads`, DOT's `into`, the GPU tuning options) —, its value
 * checked first as the call that takes it checks it; options modprec does not know are not read (an options object
 * may carry the caller's own). Until session 28 the solvers ignored them all: cg(A, b, { restart: 5 }) and
 * { accumulation: 'kahan' } ran as if they were not there.
 * @param options - the solver's options (an object or undefined, checked before)
 * @param call - the solver
 * @param n - the order of A, for the vector options' checks
 * @throws {@link ModprecError} the value check's error, else `INVALID_OPTION` naming `options.<key>`
 * @example
 * ```ts
 * refuseSolverOptionsNotTaken({ restart: 5 }, 'cg', 3); // throws INVALID_OPTION naming options.restart
 * ```
 */
export function refuseSolverOptionsNotTaken(options: unknown, call: SolverName, n: number): void {
  if (typeof options !== 'object' || options === null) return;
  const taken = TAKEN[call];
  for (const key in OWNED) {
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined || taken.includes(key)) continue;
    const [owner, check] = OWNED[key]!;
    check(value, n);
    fail('INVALID_OPTION', `options.${key}`, `is not an option of ${call}: it is ${owner}`, value);
  }
  refuseOptionsNotTaken(options, [], call);
}
