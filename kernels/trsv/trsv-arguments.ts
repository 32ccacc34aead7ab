/**
 * The arguments of TRSV and their validation, shared by the kernel and its error bound.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { Accessor } from '../../accessors/accessor.js';
import { fail } from '../../src/core/errors.js';
import { checkRange } from '../shared/kernel-options.js';
import { checkChoice } from '../gemv/gemv-arguments.js';
import { operatorView } from '../gemv/transposed-view.js';
import { checkNoOverlap } from '../shared/aliasing.js';

/**
 * Arguments of {@link trsv}: solve op(A)·x = b in place.
 * @group Kernels
 */
export interface TrsvArguments {
  /** The square matrix; only its `uplo` triangle is read (and not its diagonal when `diag = 'U'`). */
  A: Range<2, any>;
  /** On entry b, on return x; writable, length n. */
  x: Range<1, any>;
  /** `'U'`: A is upper triangular; `'L'`: lower (default `'U'`). */
  uplo?: 'U' | 'L';
  /** `'N'`: solve A·x = b; `'T'`: solve Aᵀ·x = b (default `'N'`). */
  trans?: 'N' | 'T';
  /** `'N'`: the diagonal is read; `'U'`: A has a unit diagonal, not read (default `'N'`). */
  diag?: 'N' | 'U';
}

/** Validated TRSV arguments, with op(A) as an accessor T and which triangle of T is read. */
export interface CheckedTrsv {
  readonly A: Range<2, any>;
  readonly x: Range<1, any>;
  /** op(A): A or its transposed view. */
  readonly T: Accessor<2, any>;
  /** Whether T (not A) is lower triangular: forward substitution. */
  readonly lower: boolean;
  readonly unit: boolean;
  readonly n: number;
}

/**
 * Validates TRSV arguments (nothing is read or written).
 * @throws {@link ModprecError} `INVALID_OPTION` (not an object, not a range, bad uplo/trans/diag),
 *   `DIMENSION_MISMATCH` (A not square, wrong ranks or x's length), `INVALID_STORAGE` (read-only x, or x
 *   overlapping A in memory)
 */
export function checkTrsvArguments(args: TrsvArguments): CheckedTrsv {
  if (typeof args !== 'object' || args === null) fail('INVALID_OPTION', 'arguments', 'must be an object { A, x, uplo, trans, diag }', args);
  const uplo = checkChoice('uplo', args.uplo, ['U', 'L'] as const, 'U');
  const trans = checkChoice('trans', args.trans, ['N', 'T'] as const, 'N');
  const diag = checkChoice('diag', args.diag, ['N', 'U'] as const, 'N');
  const A = checkRange('A', args.A, 2);
  const x = checkRange('x', args.x, 1, true);
  const n = A.length(0);
  if (A.length(1) !== n) fail('DIMENSION_MISMATCH', 'A', 'must be square', `${n}×${A.length(1)}`);
  if (x.length() !== n) fail('DIMENSION_MISMATCH', 'x', `must have length ${n} (the order of A)`, x.length());
  // x is overwritten row by row while A is still read.
  checkNoOverlap('x', x.accessor, [['A', A.accessor]]);
  return { A, x, T: operatorView(A.accessor, trans), lower: (uplo === 'L') !== (trans === 'T'), unit: diag === 'U', n };
}
