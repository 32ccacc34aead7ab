/**
 * The Jacobi (diagonal) preconditioner: z := D⁻¹·r, applied as an ELL SpMV with one slot per row, so it runs
 * through the same kernels (and arithmetic) as the rest of the solve.
 * @module
 */
import type { Range } from '../core/range.js';
import { fail } from '../core/errors.js';
import type { ArithmeticFormat, StorageFormat } from '../formats/common/format.js';
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
 *   `INVALID_VALUE` naming `A[i, i]` for a zero or non-finite diagonal entry, or one whose inverse cannot be held with
 *   the others' (a diagonal spanning about the whole double range: 5e-324 and 1e300)
 * @param A - the operator
 * @param storage - the vectors' storage, which holds z = M⁻¹·r (default: one of fp32's range or wider)
 */
export function jacobiPreconditioner(A: LinearOperator, storage?: StorageFormat): Preconditioner {
  const d = A.diagonal();
  if (d === undefined) fail('INVALID_OPTION', 'A', 'must give its diagonal for the Jacobi preconditioner (functionOperator({ diagonal }))');
  const n = A.size;
  const inverse = new Float64Array(n);
  let smallest = Infinity, largest = 0;
  for (let i = 0; i < n; i++) {
    const v = d[i]!;
    if (v === 0 || !Number.isFinite(v)) fail('INVALID_VALUE', `A[${i}, ${i}]`, 'must be finite and non-zero for the Jacobi preconditioner', v);
    smallest = Math.min(smallest, Math.abs(v));
    largest = Math.max(largest, Math.abs(v));
  }
  // z = M⁻¹·r is stored in the vectors' storage, r near 1 (b is solved at ‖b‖₂ near 1): a storage narrower than fp32's
  // range (fp16: 65504) held 1/dᵢ beyond it as ±∞ — jacobiCg([[1.9e-9]], [−4]) with fp16 vectors broke down
  // 'non-finite' at 0 iterations, where cg converges —, so there the inverses are always centred on 1.
  const narrow = storage !== undefined && storage.kind === 'number' && storage.maxValue < 2 ** 127;
  const c = inverseScale(smallest, largest, narrow);
  for (let i = 0; i < n; i++) {
    inverse[i] = c / d[i]!;
    if (inverse[i] === 0 || !Number.isFinite(inverse[i]!)) {
      fail('INVALID_VALUE', `A[${i}, ${i}]`, `must lie within the double range of the other diagonal entries for the Jacobi preconditioner: the inverses share one power-of-two scale, and this one's overflows or underflows there (the diagonal spans ${v2(largest) - v2(smallest)} binades)`, d[i]!);
    }
  }
  const ell = ellFromMatrix({ rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.from({ length: n }, (_, i) => i), values: inverse });
  return { ell, apply: (r, z, arithmetic) => ellSpmv({ alpha: 1, A: ell, x: r, beta: 0, y: z }, { arithmetic }) };
}

/** ⌊log₂|v|⌋. */
function v2(v: number): number {
  return Math.floor(Math.log2(v));
}

/**
 * The power of two c of M⁻¹ = c·D⁻¹. Preconditioned CG does not depend on c (z, ρ and p scale by c, α by 1/c, x not at
 * all), but the inverses must fit the arithmetic: c = 1 while every 1/|dᵢ| lies in [2^-126, 2^127] (fp32's range, the
 * narrowest arithmetic of the solvers), else the c that centres them on 1 — 1/dᵢ overflowed for dᵢ among the
 * subnormals (diag(1e-310, 1) broke down 'non-finite' at 0 iterations, where plain CG converges), and in fp32
 * arithmetic beyond 2^128 (diag(1e-39, 1)). Where the vectors' storage is narrower than fp32's range (`narrow`), they
 * are always centred: z is stored there.
 */
function inverseScale(smallest: number, largest: number, narrow: boolean): number {
  const high = -v2(smallest), low = -v2(largest) - 1;    // 2^low < 1/|dᵢ| < 2^(high + 1)
  if (!narrow && low >= -126 && high <= 126) return 1;
  const k = -Math.floor((low + high) / 2);
  return k >= -1022 && k <= 1023 ? 2 ** k : 2 ** Math.trunc(k / 2) * 2 ** (k - Math.trunc(k / 2));
}
