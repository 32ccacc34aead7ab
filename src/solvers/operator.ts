/**
 * The matrix a solver works with, behind one interface: a dense range (GEMV), an ELL matrix (ELL SpMV), or any
 * user function computing y := A·x.
 * @module
 */
import { Range } from '../core/range.js';
import { fail } from '../core/errors.js';
import type { ArithmeticFormat } from '../formats/common/format.js';
import { colMajor } from '../../accessors/col-major.js';
import { range } from '../core/range.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { ellSpmv } from '../../kernels/ell-spmv/ell-spmv.js';
import { EllOperand, ellFromMatrix } from '../../kernels/ell-spmv/ell-operand.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { rowMajor } from '../../accessors/row-major.js';
import { denseMatrix, type DenseMatrix } from '../sparse/dense-matrix.js';
import type { EllMatrix } from '../sparse/ell-matrix.js';
import { ELL_PADDING } from '../sparse/ell-matrix.js';

/**
 * A square linear operator as the solvers see it.
 * @group Solvers
 */
export interface LinearOperator {
  /** Its order n (rows = columns). */
  readonly size: number;
  /** What it is made of: `dense` (GEMV), `ell` (ELL SpMV) or `function`. */
  readonly kind: 'dense' | 'ell' | 'function';
  /** y := α·A·x + β·y, computed in `arithmetic` (β = 0: y is not read). */
  apply(alpha: number, x: Range<1, any>, beta: number, y: Range<1, any>, arithmetic: ArithmeticFormat): void;
  /** The diagonal of A, as doubles (for the Jacobi preconditioner); undefined when the operator cannot say. */
  diagonal(): Float64Array | undefined;
  /** The dense matrix behind a `dense` operator (GEMV's A), else undefined. */
  readonly dense: Range<2, any> | undefined;
  /** The ELL operand behind an `ell` operator, else undefined. */
  readonly ell: EllOperand | undefined;
}

/**
 * What the solvers accept as A: a {@link LinearOperator}, a dense 2-D range (any storage), a plain fp64
 * {@link DenseMatrix}, an {@link EllOperand} (values in any storage) or a plain fp64 {@link EllMatrix}.
 * @group Solvers
 */
export type OperatorLike = LinearOperator | Range<2, any> | DenseMatrix | EllOperand | EllMatrix;

// The operators this module made. A WeakSet, not a marker property: a spread copy ({ ...op, apply: undefined }) copies
// a symbol-keyed marker too, and passed as an operator whose apply then failed with a native TypeError.
const OPERATORS = new WeakSet<object>();

function isLinearOperator(A: unknown): A is LinearOperator {
  return typeof A === 'object' && A !== null && OPERATORS.has(A);
}

function registered(op: LinearOperator): LinearOperator {
  OPERATORS.add(op);
  return op;
}

function denseOperator(A: Range<2, any>): LinearOperator {
  const n = A.length(0);
  if (A.length(1) !== n) fail('DIMENSION_MISMATCH', 'A', 'must be square', `${n}×${A.length(1)}`);
  const op: LinearOperator = {
    size: n, kind: 'dense', dense: A, ell: undefined,
    apply: (alpha, x, beta, y, arithmetic) => gemv({ alpha, A, x, beta, y, trans: 'N' }, { arithmetic }),
    diagonal: () => Float64Array.from({ length: n }, (_, i) => A.accessor.arithmetic.toNumber(A.get(i, i))),
  };
  return registered(op);
}

function ellOperatorOf(A: EllOperand): LinearOperator {
  const n = A.rows;
  if (A.cols !== n) fail('DIMENSION_MISMATCH', 'A', 'must be square', `${n}×${A.cols}`);
  const { colIndex, stride, width } = A.structure;
  const op: LinearOperator = {
    size: n, kind: 'ell', dense: undefined, ell: A,
    apply: (alpha, x, beta, y, arithmetic) => ellSpmv({ alpha, A, x, beta, y }, { arithmetic }),
    diagonal: () => {
      const d = new Float64Array(n);
      const ar = A.values.accessor.arithmetic;
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < width; k++) {
          const c = colIndex[i + k * stride]!;
          if (c === ELL_PADDING) break;
          if (c === i) d[i] = d[i]! + ar.toNumber(A.values.get(i, k));
        }
      }
      return d;
    },
  };
  return registered(op);
}

/**
 * The operator of a square matrix: a dense 2-D range (applied with GEMV through its accessor), a plain fp64
 * {@link DenseMatrix} (viewed, not copied), an {@link EllOperand} or a plain fp64 {@link EllMatrix} (applied with
 * ELL SpMV). Solvers call it on whatever they are given; call it once yourself to reuse the operator.
 * @param A - the matrix, or an operator (returned as is)
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` for a non-square matrix; `INVALID_OPTION` for anything else (a CSR or
 *   COO matrix included: convert it with `csrToEll` / `cooToEll`);
 *   as {@link denseMatrix} / {@link ellMatrix} for an invalid plain matrix
 * @example
 * ```ts
 * import { linearOperator, laplacianEll, vector, toArray, formats } from 'modprec';
 *
 * const A = linearOperator(laplacianEll([3]));   // [[2, -1, 0], [-1, 2, -1], [0, -1, 2]]
 * const y = vector(3);
 * A.apply(1, vector([1, 1, 1]), 0, y, formats.f64.arithmetic!);
 * toArray(y); // → Float64Array(3) [ 1, 0, 1 ]
 * A.diagonal(); // → Float64Array(3) [ 2, 2, 2 ]
 * ```
 * @group Solvers
 */
export function linearOperator(A: OperatorLike): LinearOperator {
  if (isLinearOperator(A)) return A;
  if (A instanceof Range) {
    if (A.dimensionality !== 2) fail('DIMENSION_MISMATCH', 'A', 'must be a 2-D range', `${A.dimensionality}-D range`);
    return denseOperator(A as Range<2, any>);
  }
  if (A instanceof EllOperand) return ellOperatorOf(A);
  // CSR and COO hold colIndex too: taken for ELL, they were refused as an ELL without a width (INVALID_SIZE 'width').
  if (typeof A === 'object' && A !== null && ('rowPtr' in A || 'rowIndex' in A)) {
    fail('INVALID_OPTION', 'A', `must be a LinearOperator, a 2-D range, a DenseMatrix, an EllOperand or an EllMatrix: convert a ${'rowPtr' in A ? 'CSR matrix with csrToEll' : 'COO matrix with cooToEll'}`, A);
  }
  if (typeof A === 'object' && A !== null && 'colIndex' in A) return ellOperatorOf(ellFromMatrix(A as EllMatrix));
  if (typeof A === 'object' && A !== null && 'ld' in A) {
    const d = denseMatrix(A as DenseMatrix);
    return denseOperator(range(colMajor<2>({ size: [d.rows, d.cols], stride: Math.max(1, d.ld), data: d.data })));
  }
  return fail('INVALID_OPTION', 'A', 'must be a LinearOperator, a 2-D range, a DenseMatrix, an EllOperand or an EllMatrix', A);
}

/**
 * Parts of {@link functionOperator}.
 * @group Solvers
 */
export interface FunctionOperatorParts {
  /** The order n. */
  size: number;
  /** Computes y := A·x (x and y are ranges of the solver's storage and arithmetic; y is written, never read). */
  apply: (x: Range<1, any>, y: Range<1, any>) => void;
  /** The diagonal of A, for the Jacobi preconditioner (optional). */
  diagonal?: () => Float64Array;
}

/**
 * An operator given by a function y := A·x: any matrix-free operator.
 * @param parts - size, apply, and optionally the diagonal
 * @throws {@link ModprecError} `INVALID_SIZE` for a bad size; `INVALID_OPTION` when apply or diagonal is not a function
 * @example
 * ```ts
 * import { functionOperator, cg } from 'modprec';
 *
 * // A = diag(1, 2, 4), matrix-free
 * const A = functionOperator({ size: 3, apply: (x, y) => { for (let i = 0; i < 3; i++) y.set(i, 2 ** i * x.get(i)); } });
 * const r = cg(A, [1, 2, 4]);
 * r.status; // → 'converged'
 * Math.abs(r.x.get(2) - 1) < 1e-15; // → true
 * ```
 * @group Solvers
 */
export function functionOperator(parts: FunctionOperatorParts): LinearOperator {
  if (typeof parts !== 'object' || parts === null) fail('INVALID_OPTION', 'parts', 'must be an object { size, apply, diagonal? }', parts);
  const n = parts.size;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) fail('INVALID_SIZE', 'size', 'must be a non-negative integer', n);
  if (typeof parts.apply !== 'function') fail('INVALID_OPTION', 'apply', 'must be a function (x, y) => void computing y := A·x', parts.apply);
  if (parts.diagonal !== undefined && typeof parts.diagonal !== 'function') fail('INVALID_OPTION', 'diagonal', 'must be a function returning a Float64Array', parts.diagonal);
  const user = parts.apply;
  let scratch: Range<1, any> | undefined;
  const op: LinearOperator = {
    size: n, kind: 'function', dense: undefined, ell: undefined,
    apply: (alpha, x, beta, y, arithmetic) => {
      if (alpha === 1 && beta === 0) { user(x, y); return; }
      // A·x into a scratch vector of y's formats, then y := α·(A·x) + β·y.
      const a = y.accessor;
      if (!scratch || scratch.accessor.storage !== a.storage || scratch.accessor.arithmetic !== a.arithmetic) {
        scratch = range(rowMajor<1, any>({ size: [n], storage: a.storage, arithmetic: a.arithmetic }));
      }
      user(x, scratch);
      waxpby(alpha, scratch, beta, y, y, { arithmetic });
    },
    diagonal: () => {
      if (!parts.diagonal) return undefined;
      const d = parts.diagonal();
      if (!(d instanceof Float64Array) || d.length !== n) fail('INVALID_OPTION', 'diagonal', `must return a Float64Array of length ${n}`, d);
      return d;
    },
  };
  return registered(op);
}
