/**
 * Building the operands of a study run in a configuration's formats, and reading results back.
 * Bulk fills go straight through the storage codec (range.set checks every index, which would dominate
 * the run time at 10^6 elements); the layouts are the packed ones, so element k of the fp64 input is
 * element k of the storage.
 * @module
 */
import type { ArithmeticFormat, StorageFormat } from '../formats/format.js';
import { asArithmetic, asStorage } from '../formats/registry.js';
import { range, type Range } from '../range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import { toArray } from '../vectors.js';
import type { Configuration } from './types.js';
import type { DdVector } from './dd-reference.js';

/** A configuration with its formats resolved. */
export interface ResolvedConfiguration extends Configuration {
  readonly storageFormat: StorageFormat;
  readonly arithmeticFormat: ArithmeticFormat;
}

/** Resolves the format names of `c` (throws `INVALID_FORMAT` for an unknown name). */
export function resolveConfiguration(c: Configuration): ResolvedConfiguration {
  return { ...c, storageFormat: asStorage(c.storage, 'storage'), arithmeticFormat: asArithmetic(c.arithmetic, 'arithmetic') };
}

/** Writes fp64 `values` into element k of the storage of `r` (a packed range), rounding to the storage. */
export function fill(r: Range<any, any>, values: Float64Array): void {
  const a = r.accessor;
  const s = a.storage;
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

/** A packed vector range holding `values` in the configuration's formats. */
export function vectorOf(c: ResolvedConfiguration, values: Float64Array): Range<1, any> {
  const r = range(rowMajor<1, any>({ size: [values.length], storage: c.storageFormat, arithmetic: c.arithmeticFormat }));
  fill(r, values);
  return r;
}

/** A packed column-major m×n range holding `values` (element (i, j) at i + j·m). */
export function matrixOf(c: ResolvedConfiguration, m: number, n: number, values: Float64Array): Range<2, any> {
  const r = range(colMajor<2, any>({ size: [m, n], storage: c.storageFormat, arithmetic: c.arithmeticFormat }));
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
  if (a.storage.kind === 'number') {
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
 * `values` as storage `storage` keeps them (rounded to it), as doubles. Storage formats that are not of
 * kind `number` (double-double, RNS) hold every double exactly, so the values come back unchanged.
 */
export function storedValues(storage: StorageFormat, values: Float64Array): Float64Array {
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
