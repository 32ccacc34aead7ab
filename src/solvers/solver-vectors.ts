/**
 * The vectors of a solve: made in the solver's storage and arithmetic, filled from the user's inputs, and the
 * true residual b − A·x recomputed through the operator.
 * @module
 */
import { Range, range } from '../core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { nrm2 } from '../../kernels/nrm2/nrm2.js';
import type { LinearOperator } from './operator.js';
import type { ResolvedSolverOptions } from './solver-options.js';
import type { ArithmeticFormat } from '../formats/common/format.js';

/** Vectors of one storage and arithmetic, and the few vector operations every solver needs. */
export class SolverVectors {
  readonly n: number;
  readonly arithmetic: ArithmeticFormat<any>;
  private readonly options: ResolvedSolverOptions;

  constructor(options: ResolvedSolverOptions) {
    this.n = options.n;
    this.arithmetic = options.arithmetic;
    this.options = options;
  }

  /** A new zero vector. */
  make(): Range<1, any> {
    return range(rowMajor<1, any>({ size: [this.n], storage: this.options.storage, arithmetic: this.arithmetic }));
  }

  /** A new vector holding `values` (a range is copied through its accessor, in the solver's arithmetic). */
  from(values: ArrayLike<number> | Range<1, any> | undefined): Range<1, any> {
    const v = this.make();
    if (values === undefined) return v;
    if (values instanceof Range) this.copy(values, v);
    else for (let i = 0; i < this.n; i++) v.set(i, values[i]!);
    return v;
  }

  /** dst := src. */
  copy(src: Range<1, any>, dst: Range<1, any>): void {
    waxpby(1, src, 0, src, dst, { arithmetic: this.arithmetic });
  }

  /** ‖v‖₂. */
  norm(v: Range<1, any>): number {
    return nrm2(v, { arithmetic: this.arithmetic });
  }

  /** r := b − A·x; returns ‖r‖₂. */
  residual(A: LinearOperator, b: Range<1, any>, x: Range<1, any>, r: Range<1, any>): number {
    this.copy(b, r);
    A.apply(-1, x, 1, r, this.arithmetic);
    return this.norm(r);
  }
}
