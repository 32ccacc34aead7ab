/**
 * The Krylov basis of GMRES: an n × (m+1) column-major range whose storage is chosen independently of the
 * arithmetic (Ginkgo's compressed basis), with 1-D views of its columns for the kernels.
 * @module
 */
import { Range, range } from '../core/range.js';
import { Accessor } from '../../accessors/accessor.js';
import { colMajor } from '../../accessors/col-major.js';
import { span } from '../core/span.js';
import type { ArithmeticFormat, StorageFormat } from '../formats/common/format.js';

/** An n × (m+1) basis in one storage format, read and written in one arithmetic. */
export class KrylovBasis {
  /** All m+1 columns. */
  readonly matrix: Range<2, any>;
  private readonly columns: Range<1, any>[];

  constructor(n: number, columns: number, storage: StorageFormat, arithmetic: ArithmeticFormat<any>) {
    this.matrix = range(colMajor<2, any>({ size: [n, columns], stride: Math.max(1, n), storage, arithmetic }));
    const a = this.matrix.accessor;
    // Column j as a 1-D range over the same memory (sub-ranges keep their rank, so build the view directly).
    this.columns = Array.from({ length: columns }, (_, j) => new Range(new Accessor<1, any>({
      size: [n], strides: [a.strides[0]], offset: a.offset + j * a.strides[1], storage, arithmetic,
      data: a.data, layout: 'strided',
    })));
  }

  /** Column j (1-D, shares memory with the basis). */
  column(j: number): Range<1, any> {
    return this.columns[j]!;
  }

  /** The first k columns (n × k, shares memory). */
  leading(k: number): Range<2, any> {
    return this.matrix.sub(span(0, this.matrix.length(0)), span(0, k));
  }
}
