/**
 * Building the operands of a study run in a configuration's formats, and reading results back.
 * Bulk fills go straight through the storage codec (range.set checks every index, which would dominate
 * the run time at 10^6 elements); the layouts are the packed ones, so element k of the fp64 input is
 * element k of the storage.
 * @module
 */
import { type ArithmeticFormat, asArithmetic, asStorage, colMajor, fitScale, range, type Range, rowMajor, scaledReducedColMajor, scaledReducedRowMajor, type StorageFormat, toArray } from '../modprec.js';
import type { Configuration } from './types.js';
import type { DdVector } from './relative-error.js';

/** A configuration with its formats resolved. */
export interface ResolvedConfiguration extends Configuration {
  readonly storageFormat: StorageFormat;
  readonly arithmeticFormat: ArithmeticFormat;
}

/** Resolves the format names of `c` (throws `INVALID_FORMAT` for an unknown name). */
export function resolveConfiguration(c: Configuration): ResolvedConfiguration {
  return { ...c, storageFormat: asStorage(c.storage, 'storage'), arithmeticFormat: asArithmetic(c.arithmetic, 'arithmetic') };
}

/**
 * How an input of a study case is stored when the storage is an integer format (scaled, Ginkgo's
 * scaled_reduced accessors): `'vector'` — one fp64 scale for the whole vector; `{ rows }` — a packed
 * column-major matrix with one scale per row; `'output'` — an operand the kernel overwrites (a right-hand
 * side solved in place), kept in the arithmetic's own format because an integer result has no scale yet.
 * Other storages ignore it.
 */
export type IntegerLayout = 'vector' | { readonly rows: number } | 'output';

/** Integer values and scales of a scaled-integer operand, as {@link integerImage} computes them. */
export interface IntegerImage {
  /** One scale per group (row, or the whole vector): largest magnitude / the storage's largest value. */
  readonly scales: Float64Array;
  /** The stored integers, element k of the input at k. */
  readonly integers: Float64Array;
  /** Group of element k: k mod rows for a matrix, 0 for a vector. */
  group(k: number): number;
}

/**
 * The scaled-integer image of `values` in integer storage `storage`: each group's scale maps its largest
 * magnitude to the storage's largest value ({@link fitScale}, as the library's `fitScales` chooses it), and each element is stored as round(fl(v / scale)), so
 * |integer·scale − v| ≤ scale/2 + 2^-53·|v|. The same function fills the operands and computes the
 * stored values of the reference, so both see the same numbers.
 */
export function integerImage(storage: StorageFormat, values: Float64Array, rows: number | null): IntegerImage {
  const groups = rows ?? 1;
  const group = rows === null ? () => 0 : (k: number) => k % rows;
  const scales = new Float64Array(groups);
  for (let k = 0; k < values.length; k++) {
    const g = group(k);
    scales[g] = Math.max(scales[g]!, Math.abs(values[k]!));
  }
  for (let g = 0; g < groups; g++) scales[g] = fitScale(scales[g]!, storage.maxValue);
  const buffer = storage.allocate(1);
  const integers = new Float64Array(values.length);
  for (let k = 0; k < values.length; k++) {
    storage.encode(buffer, 0, values[k]! / scales[group(k)]!);
    integers[k] = storage.decode(buffer, 0) as number;
  }
  return { scales, integers, group };
}

/** Writes fp64 `values` into element k of the storage of `r` (a packed range), rounding to the storage. */
export function fill(r: Range<any, any>, values: Float64Array): void {
  const a = r.accessor;
  const s = a.storage;
  if (a.scale) {
    // Scaled integer storage: scales fitted to the data (one per row for a matrix, one for a vector).
    const image = integerImage(s, values, a.size.length === 2 ? a.size[0]! : null);
    a.scale.data.set(image.scales);
    for (let k = 0; k < values.length; k++) s.encode(a.data, a.offset + k, image.integers[k]!);
    return;
  }
  if (s.kind === 'number') {
    for (let k = 0; k < values.length; k++) s.encode(a.data, a.offset + k, values[k]!);
    return;
  }
  // Other kinds (double-double, multiple precision): the arithmetic knows how to export a double exactly.
  const set = a.set.bind(a) as (...args: unknown[]) => void;
  const rows = a.size[0]!;
  for (let k = 0; k < values.length; k++) {
    const v = a.arithmetic.fromNumber(values[k]!);
    if (a.size.length === 1) set(k, v);
    else set(k % rows, Math.floor(k / rows), v);
  }
}

/**
 * A packed vector range holding `values` in the configuration's formats (an integer storage gets one
 * scale for the vector).
 */
export function vectorOf(c: ResolvedConfiguration, values: Float64Array): Range<1, any> {
  const layout = { size: [values.length] as [number], storage: c.storageFormat, arithmetic: c.arithmeticFormat };
  const r = range(c.storageFormat.isInteger
    ? scaledReducedRowMajor<1, any>({ ...layout, scaleMask: [false] })
    : rowMajor<1, any>(layout));
  fill(r, values);
  return r;
}

/**
 * A packed vector range for a kernel's output (or an operand solved in place) holding `values`: in the
 * configuration's storage, except for an integer storage, where it is the arithmetic's own format (see
 * {@link IntegerLayout}).
 */
export function outputOf(c: ResolvedConfiguration, values: Float64Array): Range<1, any> {
  return vectorOf(c.storageFormat.isInteger ? { ...c, storageFormat: outputStorage(c) } : c, values);
}

/** The storage of outputs in configuration `c`: its storage, or the arithmetic's format for integer storage. */
export function outputStorage(c: ResolvedConfiguration): StorageFormat {
  return c.storageFormat.isInteger ? asStorage(c.arithmeticFormat.name, 'arithmetic') : c.storageFormat;
}

/**
 * A packed column-major m×n range holding `values` (element (i, j) at i + j·m); an integer storage gets
 * one scale per row.
 */
export function matrixOf(c: ResolvedConfiguration, m: number, n: number, values: Float64Array): Range<2, any> {
  const layout = { size: [m, n] as [number, number], storage: c.storageFormat, arithmetic: c.arithmeticFormat };
  const r = range(c.storageFormat.isInteger
    ? scaledReducedColMajor<2, any>({ ...layout, scaleMask: [true, false] })
    : colMajor<2, any>(layout));
  fill(r, values);
  return r;
}

/**
 * The values of a packed 1-D range, exactly for storage of kind `number` and `dd` (as hi + lo); other
 * kinds (multiple precision) are rounded to doubles.
 */
export function valuesOf(r: Range<1, any>): DdVector {
  const a = r.accessor;
  const n = a.size[0]!;
  const hi = new Float64Array(n);
  const lo = new Float64Array(n);
  if (a.scale) {
    hi.set(toArray(r));
  } else if (a.storage.kind === 'number') {
    for (let k = 0; k < n; k++) hi[k] = a.storage.decode(a.data, a.offset + k) as number;
  } else if (a.storage.kind === 'dd') {
    for (let k = 0; k < n; k++) {
      const v = a.storage.decode(a.data, a.offset + k) as { hi: number; lo: number };
      hi[k] = v.hi;
      lo[k] = v.lo;
    }
  } else {
    hi.set(toArray(r));
  }
  return { hi, lo };
}

/**
 * `values` as configuration `c` keeps them (rounded to its storage), as doubles. Storage formats that are
 * not of kind `number` (double-double, RNS) hold every double exactly, so the values come back unchanged;
 * an integer storage keeps integer·scale with the scales of `layout` ({@link integerImage}), returned as
 * fl(integer·scale): what a read in fp64 arithmetic gives (one rounding of the product).
 */
export function storedValues(c: ResolvedConfiguration, values: Float64Array, layout: IntegerLayout = 'vector'): Float64Array {
  const storage = c.storageFormat.isInteger && layout === 'output' ? outputStorage(c) : c.storageFormat;
  if (storage.isInteger) {
    const image = integerImage(storage, values, typeof layout === 'object' ? layout.rows : null);
    return Float64Array.from(image.integers, (v, k) => v * image.scales[image.group(k)]!);
  }
  if (storage.kind !== 'number') return values;
  const buffer = storage.allocate(1);
  const out = new Float64Array(values.length);
  for (let k = 0; k < values.length; k++) {
    storage.encode(buffer, 0, values[k]!);
    out[k] = storage.decode(buffer, 0) as number;
  }
  return out;
}

/**
 * The largest scale of the scaled-integer operands of configuration `c` over `inputs` with `layouts`
 * (0 when the storage is not an integer format): the scale of the group holding the largest magnitude
 * ({@link fitScale} grows with it). Half of it bounds the absolute storage error of every stored element.
 */
export function largestScale(c: ResolvedConfiguration, inputs: readonly Float64Array[], layouts: readonly IntegerLayout[]): number {
  if (!c.storageFormat.isInteger) return 0;
  let top = 0;
  inputs.forEach((values, i) => {
    if ((layouts[i] ?? 'vector') === 'output') return;
    for (let k = 0; k < values.length; k++) top = Math.max(top, Math.abs(values[k]!));
  });
  return top > 0 ? fitScale(top, c.storageFormat.maxValue) : 0;
}

/**
 * Bytes one element of `storage` takes in memory, from the buffer it allocates for one element: a typed
 * array, or an object of typed arrays (split storage such as `dd-split`); null when neither.
 */
export function bytesPerElement(storage: StorageFormat): number | null {
  const buffer = storage.allocate(1) as unknown;
  if (ArrayBuffer.isView(buffer)) return buffer.byteLength;
  if (typeof buffer !== 'object' || buffer === null) return null;
  const parts = Object.values(buffer).filter((v): v is ArrayBufferView => ArrayBuffer.isView(v));
  return parts.length === 0 ? null : parts.reduce((sum, v) => sum + v.byteLength, 0);
}
