/**
 * The Jacobi (diagonal) preconditioner: z := D⁻¹·r, applied as an ELL SpMV with one slot per row, so it runs
 * through the same kernels (and arithmetic) as the rest of the solve.
 * @module
 */
import type { Range } from '../core/range.js';
import { fail } from '../core/errors.js';
import type { ArithmeticFormat } from '../formats/common/format.js';
import { ellSpmv } from '../../kernels/ell-spmv/ell-spmv.js';
import { ellFromMatrix, type EllOperand } from '../../kernels/ell-spmv/ell-operand.js';
import type { LinearOperator } from './operator.js';

/** A preconditioner M⁻¹ as the solvers apply it. */
export interface Preconditioner {
  /** z := M⁻¹·r. */
  apply(r: Range<1, any>, z: Range<1, any>, arithmetic: ArithmeticFormat): void;
  /** M⁻¹ as an ELL operand, for backends that apply it themselves. */
  readonly ell: EllOperand;
}

/**
 * The Jacobi preconditioner of A: M = diag(A).
 * @throws {@link ModprecError} `INVALID_OPTION` when A cannot give its diagonal (a function operator without one);
 *   `INVALID_VALUE` naming `A[i, i]` for a zero or non-finite diagonal entry
 */
export function jacobiPreconditioner(A: LinearOperator): Preconditioner {
  const d = A.diagonal();
  if (d === undefined) fail('INVALID_OPTION', 'A', 'must give its diagonal for the Jacobi preconditioner (functionOperator({ diagonal }))');
  const n = A.size;
  const inverse = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = d[i]!;
    if (v === 0 || !Number.isFinite(v)) fail('INVALID_VALUE', `A[${i}, ${i}]`, 'must be finite and non-zero for the Jacobi preconditioner', v);
    inverse[i] = 1 / v;
  }
  const ell = ellFromMatrix({ rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.from({ length: n }, (_, i) => i), values: inverse });
  return { ell, apply: (r, z, arithmetic) => ellSpmv({ alpha: 1, A: ell, x: r, beta: 0, y: z }, { arithmetic }) };
}
