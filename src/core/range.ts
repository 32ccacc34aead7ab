/**
 * `range<Accessor>`: the user-facing handle. It only forwards to its accessor (Ginkgo's range), adding
 * the names users expect: `get`, `set`, `length(dim)`, `sub`, `toConst`.
 * @module
 */
import type { Accessor, Dimensionality, IndexAndValue } from '../../accessors/accessor.js';
import type { SpanLike } from './span.js';
import { fail } from './errors.js';

/**
 * A range over an accessor. Kernels take ranges; sub-ranges share storage with their parent.
 * @typeParam D - dimensionality
 * @typeParam T - arithmetic value type
 * @group Ranges & accessors
 */
export class Range<D extends Dimensionality = Dimensionality, T = number> {
  /** The accessor this range forwards to. */
  readonly accessor: Accessor<D, T>;

  /**
   * Wraps `accessor`. Prefer {@link range}.
   * @throws {@link ModprecError} `INVALID_OPTION` naming `accessor` when it is not an Accessor (the exported
   *   constructor took anything: `toArray(new Range({}))` failed later with a TypeError)
   */
  constructor(accessor: Accessor<D, T>) {
    if (!accessor || typeof accessor !== 'object' || typeof (accessor as Accessor<D, T>).linearIndex !== 'function') {
      fail('INVALID_OPTION', 'accessor', 'must be an Accessor (made by rowMajor, colMajor, …)', accessor);
    }
    this.accessor = accessor;
  }

  /** Number of dimensions. */
  get dimensionality(): D {
    return this.accessor.dimensionality;
  }

  /**
   * Extent along dimension `dim`.
   * @throws {@link ModprecError} `INDEX_OUT_OF_RANGE` for a dimension the range does not have
   */
  length(dim = 0): number {
    if (!Number.isInteger(dim) || dim < 0 || dim >= this.accessor.dimensionality) {
      fail('INDEX_OUT_OF_RANGE', 'dim', `must be in [0, ${this.accessor.dimensionality})`, dim);
    }
    return this.accessor.size[dim]!;
  }

  /** Reads an element (storage → arithmetic). @throws {@link ModprecError} `INDEX_OUT_OF_RANGE` */
  get(...index: number[]): T {
    return this.accessor.get(...index);
  }

  /**
   * Writes an element (arithmetic → storage, rounded).
   * @throws {@link ModprecError} `INDEX_OUT_OF_RANGE`; `INVALID_VALUE` naming `value` for a value that is neither a
   *   number nor one of the arithmetic (a string is refused, not coerced)
   */
  set(...args: IndexAndValue<D, T | number>): void {
    this.accessor.set(...args);
  }

  /**
   * The sub-range of the given spans, sharing storage (an integer i is the point span [i, i+1); rank is kept).
   * @example `A.sub(span(0, 2), 3)` — rows 0–1 of column 3, as a 2×1 range
   */
  sub(...spans: SpanLike[]): Range<D, T> {
    return new Range(this.accessor.sub(...spans));
  }

  /** A read-only range over the same storage. */
  toConst(): Range<D, T> {
    return new Range(this.accessor.toConst());
  }

  /** The scale at an index (1 when unscaled). */
  readScale(...index: number[]): number {
    return this.accessor.readScale(...index);
  }

  /** Sets the scale at an index (scaled accessors only). */
  writeScale(...args: IndexAndValue<D, number>): void {
    this.accessor.writeScale(...args);
  }
}

/**
 * Wraps an accessor in a range.
 * @example
 * ```ts
 * import { range, formats, reducedRowMajor } from 'modprec';
 *
 * const A = range(reducedRowMajor({ size: [3, 4], storage: formats.f32, arithmetic: formats.f64 }));
 * A.set(2, 3, 0.1);
 * A.get(2, 3); // → 0.10000000149011612
 * // the fp32-rounded value, read as fp64
 * ```
 * @throws {@link ModprecError} `INVALID_OPTION` naming `accessor` when it is not an Accessor
 * @group Ranges & accessors
 */
export function range<D extends Dimensionality, T>(accessor: Accessor<D, T>): Range<D, T> {
  // The constructor checks the accessor.
  return new Range(accessor);
}
