/**
 * The options every iterative solver takes, and their validation (done once, before any work).
 * @module
 */
import { Range } from '../core/range.js';
import { fail } from '../core/errors.js';
import { asArithmetic, asStorage, defaultArithmeticOf, findFormat, f64, type FormatLike } from '../formats/common/registry.js';
import type { ArithmeticFormat, StorageFormat } from '../formats/common/format.js';
import { FF_UNIT_ROUNDOFF } from '../formats/ff/ff.js';

/**
 * Options of the Krylov solvers ({@link cg}, {@link jacobiCg}, {@link bicgstab}, {@link gmres}).
 * @group Solvers
 */
export interface SolverOptions {
  /**
   * Stop when the true relative residual ‖b − Ax‖₂/‖b‖₂ is at most this (default 1e-8). A tolerance below the unit
   * roundoff of the arithmetic the true residual is computed in ({@link residualResolution}: fp64's 1.1e-16 for fp64
   * and narrower vectors in fp64 arithmetic) is never met, as the computed residual cannot tell it: such a solve (0
   * included) runs until its true residual stagnates (`stagnation`) or to `maxIterations`, and reports the residual it
   * attained — the same on every backend.
   */
  tolerance?: number;
  /** Most iterations (default max(1000, 10·n)). */
  maxIterations?: number;
  /** Storage of the solver's vectors (x, r, p, …; default fp64). Integer storage is refused (it needs scales). */
  storage?: FormatLike;
  /** Arithmetic of every kernel (default: the arithmetic of the format given as `storage`, else the one registered under the storage's name, else fp64). */
  arithmetic?: FormatLike;
  /** Initial guess (default zero). */
  x0?: ArrayLike<number> | Range<1, any>;
  /**
   * Consecutive true-residual checks that do not lower the true residual before the solver stops with the breakdown
   * `stagnation` (default 2). CG and BiCGStab check when their recurrence residual meets the tolerance (and then
   * restart from the true residual); GMRES at every restart.
   */
  stagnationChecks?: number;
  /** Also record the true relative residual after every iteration (one more operator application each; default false). */
  recordTrueResidual?: boolean;
}

/** Validated common options. */
export interface ResolvedSolverOptions {
  readonly n: number;
  readonly tolerance: number;
  readonly maxIterations: number;
  readonly storage: StorageFormat;
  readonly arithmetic: ArithmeticFormat<any>;
  readonly x0: ArrayLike<number> | Range<1, any> | undefined;
  readonly stagnationChecks: number;
  readonly recordTrueResidual: boolean;
}

/**
 * An option's value, or `fallback` where it is left out or `undefined` — `null` is a value, checked as any other and
 * refused by the option's check, as the kernels take it (docs/guide.md §6): `{ storage: null }` ran in fp64 and
 * `{ tolerance: null }` at 1e-8, where `dot(x, y, { arithmetic: null })` is a typed error.
 * @param value - the option as given
 * @param fallback - its default
 * @returns `value`, or `fallback` for `undefined`
 */
export function optionOr<T>(value: T | undefined, fallback: T): T {
  return value === undefined ? fallback : value;
}

/** Checks a count option: an integer ≥ `min`. @throws {@link ModprecError} `INVALID_OPTION` */
export function checkCount(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) fail('INVALID_OPTION', name, `must be an integer ≥ ${min}`, value);
  return value;
}

/**
 * Checks that `v` is a vector of n finite values: an array-like of numbers or a 1-D range.
 * @throws {@link ModprecError} `INVALID_OPTION` (not a vector), `DIMENSION_MISMATCH` (length), `INVALID_VALUE` (a
 *   non-finite entry, named)
 */
export function checkVectorInput(name: string, v: unknown, n: number): ArrayLike<number> | Range<1, any> {
  if (v instanceof Range) {
    if (v.dimensionality !== 1) fail('DIMENSION_MISMATCH', name, 'must be a 1-D range', `${v.dimensionality}-D range`);
    if (v.length() !== n) fail('DIMENSION_MISMATCH', name, `must have length ${n} (the order of A)`, v.length());
    const ar = v.accessor.arithmetic;
    for (let i = 0; i < n; i++) {
      const x = ar.toNumber(v.get(i));
      if (!Number.isFinite(x)) fail('INVALID_VALUE', `${name}[${i}]`, 'must be finite', x);
    }
    return v as Range<1, any>;
  }
  if (typeof v !== 'object' || v === null || typeof (v as ArrayLike<number>).length !== 'number') {
    fail('INVALID_OPTION', name, 'must be an array of numbers or a 1-D range', v);
  }
  const a = v as ArrayLike<unknown>;
  if (a.length !== n) fail('DIMENSION_MISMATCH', name, `must have length ${n} (the order of A)`, a.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) fail('INVALID_VALUE', `${name}[${i}]`, 'must be a finite number', x);
  }
  return a as ArrayLike<number>;
}

/**
 * Validates the common options for a system of order n.
 * @throws {@link ModprecError} `INVALID_OPTION` naming the option; `INVALID_FORMAT` for unknown or integer storage
 */
export function resolveSolverOptions(options: SolverOptions | undefined, n: number): ResolvedSolverOptions {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const tolerance = optionOr(options.tolerance, 1e-8);
  if (typeof tolerance !== 'number' || !(tolerance >= 0) || !Number.isFinite(tolerance)) {
    fail('INVALID_OPTION', 'options.tolerance', 'must be a finite number ≥ 0', tolerance);
  }
  const maxIterations = checkCount('options.maxIterations', optionOr(options.maxIterations, Math.max(1000, 10 * n)), 0);
  const storage = asStorage(optionOr(options.storage, f64), 'options.storage');
  if (storage.isInteger) fail('INVALID_FORMAT', 'options.storage', 'must be a floating-point or multiple-precision storage (integer storage needs a scaled accessor)', storage.name);
  const arithmetic = options.arithmetic !== undefined
    ? asArithmetic(options.arithmetic, 'options.arithmetic')
    : defaultArithmeticOf(optionOr(options.storage, f64), storage, 'options.storage');
  const x0 = options.x0 === undefined ? undefined : checkVectorInput('options.x0', options.x0, n);
  const stagnationChecks = checkCount('options.stagnationChecks', optionOr(options.stagnationChecks, 2), 1);
  const recordTrueResidual = optionOr(options.recordTrueResidual, false);
  if (typeof recordTrueResidual !== 'boolean') fail('INVALID_OPTION', 'options.recordTrueResidual', 'must be a boolean', recordTrueResidual);
  return { n, tolerance, maxIterations, storage, arithmetic, x0, stagnationChecks, recordTrueResidual };
}

/**
 * The smallest tolerance a Krylov solve can certify with arithmetic `arithmetic`: the unit roundoff of the arithmetic
 * its true residual b − A·x is computed in, the coarser of the CPU's and the GPU's (one rule on both backends): the
 * arithmetic's own where it is at least as precise as fp64 (dd, RNS, fp64), fp64's for float-float (the CPU's; the GPU
 * computes in double-double), float-float's for fp32 (the GPU's; the CPU computes in fp64), fp64's for any other
 * arithmetic coarser than fp64 (CPU only). A relative residual below it is rounding noise of that computation: a
 * tolerance below it is never met (the solve ends in `stagnation` or at its iteration limit, its residual reported).
 * @param arithmetic - the solve's arithmetic
 * @returns the unit roundoff that bounds the tolerances it certifies
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `arithmetic` for anything that is not an arithmetic format
 * @example
 * ```ts
 * import { residualResolution, formats } from 'modprec';
 *
 * residualResolution(formats.f64.arithmetic!); // → 1.1102230246251565e-16
 * residualResolution(formats.dd.arithmetic!) < 1e-30; // → true
 * ```
 * @group Solvers
 */
export function residualResolution(arithmetic: ArithmeticFormat<any>): number {
  // Checked as every public function checks a format (residualResolution(undefined) threw a TypeError).
  const ar = asArithmetic(arithmetic, 'arithmetic');
  const fp64 = 2 ** -53;
  if (ar.unitRoundoff <= fp64) return ar.unitRoundoff;
  return ar.name === 'f32' ? FF_UNIT_ROUNDOFF : fp64;
}

/**
 * The storage format's own arithmetic (fp32 for fp32, dd for dd, …), else fp64 (fp16, bf16): as the accessors default.
 * @param storage - a storage format
 * @returns its arithmetic
 */
export function ownArithmetic(storage: StorageFormat): ArithmeticFormat<any> {
  return findFormat(storage.name)?.arithmetic ?? asArithmetic(f64);
}
