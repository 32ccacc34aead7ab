/**
 * An ELL matrix as a kernel operand: the validated structure (sizes, column indices, padding) paired with
 * its values read through an accessor of any storage format. Validation happens once, here, so the SpMV
 * kernel walks the column indices without checking them.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { range } from '../../src/core/range.js';
import { colMajor } from '../../accessors/col-major.js';
import { scaledReducedColMajor, fitScales } from '../../accessors/scaled-reduced.js';
import { asStorage, asArithmetic, type FormatLike } from '../../src/formats/common/registry.js';
import { ellMatrix, ellStructure, type EllMatrix, type EllStructure } from '../../src/sparse/ell-matrix.js';
import { checkRange } from '../shared/kernel-options.js';
import { fail } from '../../src/core/errors.js';
import type { StorageMemory } from '../../accessors/layout-options.js';

/** Proof of validation: only this module's factories can build an {@link EllOperand}. */
const VALIDATED: unique symbol = Symbol('validated ELL operand');

/**
 * A validated ELL matrix whose values are read through an accessor. Build it with {@link ellOperand},
 * {@link ellFromMatrix} or {@link ellWithStorage}. Its column indices must not be changed afterwards: the
 * kernel relies on the validation done when it was built (it stays memory-safe, but reads wrong values).
 * @group Kernels
 */
export class EllOperand {
  /** Sizes, stride and column indices ({@link ELL_PADDING} in unused slots, which come last in a row). */
  readonly structure: EllStructure;
  /** Values: element (i, k) is slot k of row i; size [rows or stride, width]. Padding slots are never read. */
  readonly values: Range<2, any>;

  /**
   * Not for direct use: build operands with {@link ellOperand}, {@link ellFromMatrix} or {@link ellWithStorage}.
   * @throws {@link ModprecError} `INVALID_OPTION` when called from outside this module
   */
  constructor(token: symbol, structure: EllStructure, values: Range<2, any>) {
    if (token !== VALIDATED) fail('INVALID_OPTION', 'EllOperand', 'must be built by ellOperand, ellFromMatrix or ellWithStorage');
    this.structure = structure;
    this.values = values;
  }

  /** Number of rows. */
  get rows(): number { return this.structure.rows; }
  /** Number of columns. */
  get cols(): number { return this.structure.cols; }
}

/**
 * Pairs an ELL structure with a values range.
 * @param structure - rows, cols, width, stride and column indices (validated: indices inside the matrix
 *   or ELL_PADDING, padding last in each row)
 * @param values - a 2-D range of size [rows, width] or [stride, width]; element (i, k) is slot k of row i
 * @returns the operand
 * @throws {@link ModprecError} as {@link ellStructure} (e.g. `INDEX_OUT_OF_RANGE` for a column outside the
 *   matrix); `DIMENSION_MISMATCH` when `values` does not fit
 * @example
 * ```ts
 * import { range, vector, toArray, formats, colMajor, ellSpmv, ellOperand, ELL_PADDING, ellMatrix } from 'modprec';
 *
 * // the structure of E with its values in an fp16 accessor
 * const E = ellMatrix({ rows: 2, cols: 2, width: 2, stride: 2,
 *   colIndex: Int32Array.of(0, 1, 1, ELL_PADDING), values: Float64Array.of(2, 3, 0.1, 0) });
 * const values = range(colMajor({ size: [E.stride, E.width], stride: E.stride, storage: formats.f16, arithmetic: formats.f32 }));
 * for (let k = 0; k < E.width; k++) for (let i = 0; i < E.stride; i++) values.set(i, k, E.values[i + k * E.stride]!);
 * const A = ellOperand(E, values);
 * const y = vector(2);
 * ellSpmv({ alpha: 1, A, x: vector([1, 1]), beta: 0, y });
 * toArray(y); // → Float64Array(2) [ 2.0999755859375, 3 ]
 * ```
 * @group Kernels
 */
export function ellOperand(structure: EllStructure, values: Range<2, any>): EllOperand {
  const s = ellStructure(structure);
  checkRange('values', values, 2);
  const [r, w] = [values.length(0), values.length(1)];
  if ((r !== s.rows && r !== s.stride) || w !== s.width) {
    fail('DIMENSION_MISMATCH', 'values', `must be ${s.rows}×${s.width} or ${s.stride}×${s.width} (rows or stride × width)`, `${r}×${w}`);
  }
  return new EllOperand(VALIDATED, s, values);
}

/**
 * Views an fp64 ELL matrix as an operand, sharing its values (no copy).
 * @param ell - the matrix (validated, values included)
 * @param arithmetic - arithmetic of the view (default fp64)
 * @throws {@link ModprecError} as {@link ellMatrix}
 * @example
 * ```ts
 * import { vector, toArray, ellSpmv, ellFromMatrix, ellMatrix } from 'modprec';
 *
 * const E = ellMatrix({ rows: 2, cols: 2, width: 1, stride: 2, colIndex: Int32Array.of(0, 1), values: Float64Array.of(2, 3) });
 * const A = ellFromMatrix(E);   // shares E.values
 * const y = vector(2);
 * ellSpmv({ alpha: 1, A, x: vector([1, 1]), beta: 0, y });
 * toArray(y); // → Float64Array(2) [ 2, 3 ]
 * ```
 * @group Kernels
 */
export function ellFromMatrix(ell: EllMatrix, arithmetic: FormatLike = 'f64'): EllOperand {
  const m = ellMatrix(ell);
  const values = range(colMajor<2>({
    size: [m.stride, m.width], stride: Math.max(1, m.stride), storage: 'f64', arithmetic: asArithmetic(arithmetic, 'arithmetic'), data: m.values,
  }));
  return new EllOperand(VALIDATED, m, values);
}

/**
 * Formats of {@link ellWithStorage}.
 * @group Kernels
 */
export interface EllStorageOptions {
  /** Storage of the values (an integer storage gets one fp64 scale per row, fitted to the row's largest entry). */
  storage: FormatLike;
  /** Arithmetic of the values' accessor (default fp64). */
  arithmetic?: FormatLike;
  /**
   * Allocate the values and a copy of the column indices in this {@link WasmArena} (see {@link wasmArena}), where the
   * WebAssembly ELL SpMV reads them in place (default: ordinary memory, the structure shared).
   */
  memory?: StorageMemory;
}

/**
 * Copies the values of an fp64 ELL matrix into a new column-major accessor of the chosen storage, rounding
 * each (correctly, to nearest); the structure is shared. For an integer storage (i8, i16, i32) the accessor is
 * scaled per row: each row keeps one fp64 scale, so each value is within half a quantum of the original.
 * @param ell - the matrix (validated, values included)
 * @param options - storage and arithmetic
 * @returns the operand
 * @throws {@link ModprecError} as {@link ellMatrix}; `INVALID_FORMAT` for unknown formats
 * @example
 * ```ts
 * import { vector, toArray, formats, ellSpmv, ellWithStorage, csrMatrix, csrToEll } from 'modprec';
 *
 * const csr = csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 2, 4), colIndex: Int32Array.of(0, 1, 0, 1),
 *                         values: Float64Array.of(4, 0.1, 0.1, 4) });
 * const A = ellWithStorage(csrToEll(csr), { storage: formats.f32, arithmetic: formats.f64 });
 * const x = vector([1, 1]), y = vector(2);
 * ellSpmv({ alpha: 1, A, x, beta: 0, y });
 * toArray(y); // → Float64Array(2) [ 4.100000001490116, 4.100000001490116 ]
 * ```
 * @group Kernels
 */
export function ellWithStorage(ell: EllMatrix, options: EllStorageOptions): EllOperand {
  const m = ellMatrix(ell);
  if (typeof options !== 'object' || options === null) fail('INVALID_OPTION', 'options', 'must be { storage, arithmetic? }', options);
  const storage = asStorage(options.storage, 'options.storage');
  const arithmetic = asArithmetic(options.arithmetic ?? 'f64', 'options.arithmetic');
  const memory = options.memory;
  const layout = { size: [m.stride, m.width] as const, stride: Math.max(1, m.stride), storage, arithmetic, memory };
  const at = (i: number, k: number): number => m.values[i + k * m.stride]!;
  // The column indices follow the values into the arena (a copy of the validated ones).
  const structure = memory === undefined ? m : { ...m, colIndex: copyInto(m.colIndex, layout) };
  if (storage.isInteger) {
    const a = scaledReducedColMajor<2>({ ...layout, scaleMask: [true, false] });
    fitScales(a, at);
    return new EllOperand(VALIDATED, structure, range(a));
  }
  const values = range(colMajor<2>(layout));
  for (let k = 0; k < m.width; k++) for (let i = 0; i < m.stride; i++) values.set(i, k, at(i, k));
  return new EllOperand(VALIDATED, structure, values);
}

/** A copy of `colIndex` allocated in the layout's `memory`. */
function copyInto(colIndex: Int32Array, layout: { memory?: StorageMemory }): Int32Array {
  const memory = layout.memory as StorageMemory | null;
  if (typeof memory !== 'object' || memory === null || typeof memory.allocate !== 'function') fail('INVALID_OPTION', 'options.memory', 'must be a wasmArena', memory);
  const copy = memory.allocate(Int32Array, colIndex.length);
  copy.set(colIndex);
  return copy;
}

/**
 * Rows lo..hi of a validated operand, as an operand (not re-validated: the rows of a valid operand are valid). Its
 * column indices are `colIndex.subarray(lo)` with the same stride, which reaches every slot of those rows. Internal:
 * the parts of an ELL SpMV split over threads (src/threads), built on the calling thread from a checked call.
 */
export function ellRowsOf(structure: EllStructure, values: Range<2, any>): EllOperand {
  return new EllOperand(VALIDATED, structure, values);
}
