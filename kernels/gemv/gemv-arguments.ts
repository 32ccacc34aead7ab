/**
 * The arguments of GEMV and their validation, shared by the kernel and its error bound.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { Accessor } from '../../accessors/accessor.js';
import { fail } from '../../src/core/errors.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { checkCoefficientsIn, checkRange, checkReadableIn, checkScalar } from '../shared/kernel-options.js';
import { operatorView } from './transposed-view.js';
import { checkNoOverlap } from '../shared/aliasing.js';

/**
 * Arguments of {@link gemv}: y := α·op(A)·x + β·y.
 * @group Kernels
 */
export interface GemvArguments {
  /** The coefficient α. */
  alpha: number;
  /** The matrix, any layout (row-/column-major, strided, scaled, a sub-range). */
  A: Range<2, any>;
  /** The vector multiplied, of length n (the number of columns of op(A)). */
  x: Range<1, any>;
  /** The coefficient β (β = 0: y is not read). */
  beta: number;
  /** The vector updated, of length m (the number of rows of op(A)); writable. */
  y: Range<1, any>;
  /** `'N'`: op(A) = A; `'T'`: op(A) = Aᵀ (default `'N'`). */
  trans?: 'N' | 'T';
}

/** Validated GEMV arguments: op(A) as an m×n accessor. */
export interface CheckedGemv {
  readonly alpha: number;
  readonly beta: number;
  /** op(A): A or its transposed view (shared storage). */
  readonly opA: Accessor<2, any>;
  readonly A: Range<2, any>;
  readonly x: Range<1, any>;
  readonly y: Range<1, any>;
  /** Rows of op(A) (the length of y). */
  readonly m: number;
  /** Columns of op(A) (the length of x). */
  readonly n: number;
}

/** Checks `trans`-like options against their allowed values. @throws {@link ModprecError} `INVALID_OPTION` */
export function checkChoice<C extends string>(name: string, value: unknown, allowed: readonly C[], fallback: C): C {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail('INVALID_OPTION', name, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  }
  return value as C;
}

/**
 * Validates GEMV arguments (nothing is read or written).
 * @throws {@link ModprecError} `INVALID_OPTION` (not an object, not a range, bad `trans`), `INVALID_VALUE`
 *   (α or β not a number), `DIMENSION_MISMATCH` (wrong ranks or lengths), `INVALID_STORAGE` (read-only y, or y
 *   overlapping A or x in memory)
 */
export function checkGemvArguments(args: GemvArguments): CheckedGemv {
  if (typeof args !== 'object' || args === null) fail('INVALID_OPTION', 'arguments', 'must be an object { alpha, A, x, beta, y, trans }', args);
  const trans = checkChoice('trans', args.trans, ['N', 'T'] as const, 'N');
  const alpha = checkScalar('alpha', args.alpha);
  const beta = checkScalar('beta', args.beta);
  const A = checkRange('A', args.A, 2);
  const x = checkRange('x', args.x, 1);
  const y = checkRange('y', args.y, 1, true);
  const opA = operatorView(A.accessor, trans);
  const [m, n] = opA.size;
  if (x.length() !== n) {
    fail('DIMENSION_MISMATCH', 'x', `must have length ${n} (the columns of ${trans === 'N' ? 'A' : 'Aᵀ'}, A is ${A.length(0)}×${A.length(1)})`, x.length());
  }
  if (y.length() !== m) {
    fail('DIMENSION_MISMATCH', 'y', `must have length ${m} (the rows of ${trans === 'N' ? 'A' : 'Aᵀ'}, A is ${A.length(0)}×${A.length(1)})`, y.length());
  }
  // y is written row by row while A and x are still read: no element of y may share memory with them.
  checkNoOverlap('y', y.accessor, [['A', A.accessor], ['x', x.accessor]]);
  return { alpha, beta, opA, A, x, y, m, n };
}

/**
 * α, β and the values GEMV reads, checked in its arithmetic (an RNS one holds no NaN or ±∞) on every backend and by its bound: none for
 * an empty op(A) or α = 0 with β = 1 (which return at once and read nothing), A and x only with α ≠ 0, y only with β ≠ 0.
 * @throws {@link ModprecError} `INVALID_VALUE` naming the coefficient or the element
 */
export function checkGemvValues(ar: ArithmeticFormat, args: GemvArguments, m: number, n: number): void {
  const { alpha, beta, A, x, y } = args;
  if (m === 0 || n === 0 || (alpha === 0 && beta === 1)) return;
  checkCoefficientsIn(ar, [['alpha', alpha], ['beta', beta]]);
  checkReadableIn(ar, [...(alpha !== 0 ? [['A', A], ['x', x]] as const : []), ...(beta !== 0 ? [['y', y] as const] : [])]);
}
