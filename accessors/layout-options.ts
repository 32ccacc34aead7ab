/**
 * Option parsing shared by the layout factories: sizes, formats, strides, offsets, storage.
 * Strides are given as in Ginkgo: the contiguous dimension has stride 1 and is not given; the others
 * are given in order (for a 2-D row-major matrix, the leading dimension).
 * @module
 */
import { Accessor, MAX_EXTENT, type Dimensionality, type LayoutName, type Tuple, type ScaleInfo } from './accessor.js';
import { asArithmetic, asStorage, defaultArithmeticOf, type FormatLike } from '../src/formats/common/registry.js';
import type { ArithmeticFormat, StorageFormat } from '../src/formats/common/format.js';
import { checkSize, fail } from '../src/core/errors.js';
import { sharedLike } from '../src/core/shared-memory.js';

/**
 * Options every layout factory takes.
 * @group Ranges & accessors
 */
export interface LayoutOptions<D extends Dimensionality, T = number> {
  /** Extent along each dimension (a number means a 1-D vector). */
  size: Tuple<D> | number;
  /** Storage format (default fp64). */
  storage?: FormatLike;
  /**
   * Arithmetic format (default: the arithmetic of the format given as `storage` if it has one on the CPU — a format
   * registered with storage and arithmetic pairs them — else the one registered under the storage's name, else fp64).
   */
  arithmetic?: FormatLike<T>;
  /** Existing buffer to view (default: a new zeroed one). Its type must match the storage format. */
  data?: unknown;
  /**
   * Strides of the non-contiguous dimensions, in dimension order (a number when there is one): for a 2-D
   * row-major matrix the leading dimension (≥ columns), for a 1-D vector the increment (non-zero; negative
   * walks backwards, as BLAS's incX). Default: packed.
   */
  stride?: number | readonly number[];
  /** Storage element of index (0,…,0) (default 0; for a negative vector increment, the far end). */
  offset?: number;
  /**
   * Allocate the storage (and the scales of a scaled accessor) in a SharedArrayBuffer, so that a call split over
   * threads (`options.threads`) can read and write it in place (default false). Ignored when `data` is given: pass a
   * typed array over a SharedArrayBuffer there instead.
   */
  shared?: boolean;
  /**
   * Allocate the storage in this block of the CPU kernels' WebAssembly memory (a {@link WasmArena} from
   * {@link wasmArena}), which the WebAssembly kernels then read and write in place (default: a new ArrayBuffer).
   * Not with `data` or `shared`. Scales stay in ordinary memory.
   */
  memory?: StorageMemory;
}

/**
 * Where a layout factory allocates storage instead of a new ArrayBuffer ({@link WasmArena} is one).
 * @group Ranges & accessors
 */
export interface StorageMemory {
  /** A zeroed typed array of `length` entries of this type. */
  allocate<A extends ArrayBufferView>(type: new (buffer: ArrayBuffer, byteOffset: number, length: number) => A, length: number): A;
}

/** The formats of a factory call, resolved. */
export function resolveFormats<T>(opts: { storage?: FormatLike; arithmetic?: FormatLike<T> }): {
  storage: StorageFormat; arithmetic: ArithmeticFormat<T>;
} {
  const storage = asStorage(opts.storage ?? 'f64', 'storage');
  let arithmetic: ArithmeticFormat<T>;
  if (opts.arithmetic !== undefined) arithmetic = asArithmetic(opts.arithmetic, 'arithmetic');
  else arithmetic = defaultArithmeticOf(opts.storage ?? 'f64', storage) as ArithmeticFormat<T>;
  return { storage, arithmetic };
}

// Defined with the Accessor, whose constructor enforces it too.
export { MAX_EXTENT };

/**
 * Checks that a factory's options argument is an object (undefined or null crashed every factory with a TypeError).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `opts`
 */
export function checkLayoutOptions(opts: unknown): void {
  if (typeof opts !== 'object' || opts === null) fail('INVALID_OPTION', 'opts', 'must be an object of layout options ({ size, … })', opts);
}

/** Validated sizes as a tuple. */
export function resolveSize<D extends Dimensionality>(size: Tuple<D> | number, allowed: readonly number[]): Tuple<D> {
  const s = typeof size === 'number' ? [size] : size;
  if (!Array.isArray(s) || !allowed.includes(s.length)) {
    fail('INVALID_SIZE', 'size', `must have ${allowed.join(' or ')} entries`, size);
  }
  s.forEach((v, d) => {
    checkSize(`size[${d}]`, v);
    if (v > MAX_EXTENT) fail('INVALID_SIZE', `size[${d}]`, 'must be below 2^31 (kernels index with 32-bit integers)', v);
  });
  return [...s] as unknown as Tuple<D>;
}

/** The user's strides for the non-contiguous dimensions, or the packed defaults. */
export function resolveGivenStrides(stride: number | readonly number[] | undefined, packed: readonly number[]): number[] {
  if (stride === undefined) return [...packed];
  // Any other value (null, a string's characters) is not a stride list: refused here, not a TypeError or a list of letters.
  const given = typeof stride === 'number' ? [stride as unknown]
    : Array.isArray(stride) || ArrayBuffer.isView(stride) ? Array.from(stride as ArrayLike<unknown>)
    : fail('INVALID_STRIDE', 'stride', `must be ${packed.length === 1 ? 'an integer' : `${packed.length} integers`}`, stride);
  if (given.length !== packed.length) {
    fail('INVALID_STRIDE', 'stride', `must give ${packed.length} stride${packed.length === 1 ? '' : 's'}`, stride);
  }
  given.forEach((v, i) => {
    if (!Number.isSafeInteger(v)) fail('INVALID_STRIDE', packed.length === 1 ? 'stride' : `stride[${i}]`, 'must be an integer', v);
  });
  return given as number[];
}

/**
 * Checks that positive strides of a multi-dimensional layout keep distinct indices apart:
 * each non-contiguous stride must be at least the extent of what it steps over.
 */
export function checkStrideAtLeast(value: number, minimum: number, parameter: string): void {
  if (value <= 0 || value < minimum) {
    fail('INVALID_STRIDE', parameter, `must be ≥ ${Math.max(1, minimum)} (positive and at least the extent it steps over)`, value);
  }
}

/** Builds the accessor, allocating storage when none is given. */
export function makeAccessor<D extends Dimensionality, T>(
  layout: LayoutName,
  opts: LayoutOptions<D, T>,
  size: Tuple<D>,
  strides: readonly number[],
  defaultOffset: number,
  scale?: (size: Tuple<D>) => ScaleInfo,
): Accessor<D, T> {
  const { storage, arithmetic } = resolveFormats(opts);
  const offset = opts.offset ?? defaultOffset;
  if (!Number.isSafeInteger(offset) || offset < 0) fail('INVALID_SIZE', 'offset', 'must be a non-negative integer', offset);
  // A negative stride walks backwards from the offset: a smaller offset reaches below element 0, which no data can
  // hold (this was reported against `data`, even the buffer the factory had just allocated for it).
  let backward = 0;
  for (let d = 0; d < size.length; d++) if (strides[d]! < 0) backward += -strides[d]! * Math.max(0, size[d]! - 1);
  if (offset < backward && !size.includes(0)) {
    fail('INVALID_SIZE', 'offset', `must be ≥ ${backward} (negative strides reach that far below it)`, offset);
  }
  if (opts.shared !== undefined && typeof opts.shared !== 'boolean') fail('INVALID_OPTION', 'shared', 'must be a boolean', opts.shared);
  const memory = opts.memory;
  if (memory !== undefined) {
    if (typeof memory !== 'object' || memory === null || typeof memory.allocate !== 'function') fail('INVALID_OPTION', 'memory', 'must be a wasmArena', memory);
    if (opts.data !== undefined) fail('INVALID_OPTION', 'memory', 'cannot be combined with data (the storage is either given or allocated there)');
    if (opts.shared === true) fail('INVALID_OPTION', 'memory', 'cannot be combined with shared: true');
  }
  let data = opts.data;
  if (data === undefined) {
    // The offset already reaches past the backward (negative-stride) extent; add only the forward one.
    let need = offset + 1;
    let empty = false;
    for (let d = 0; d < size.length; d++) {
      if (size[d] === 0) empty = true;
      if (strides[d]! > 0) need += strides[d]! * Math.max(0, size[d]! - 1);
    }
    // An empty view touches no element: it needs no storage, whatever its offset (an offset of 1e9 allocated 8 GB).
    const length = empty ? 0 : need;
    // An offset that alone is past what kernels index is the offset's fault, not the size's.
    if (offset >= MAX_EXTENT) fail('INVALID_SIZE', 'offset', 'must be below 2^31 − 1 when the factory allocates the storage', offset);
    if (length > MAX_EXTENT) fail('INVALID_SIZE', 'size', `needs ${length} storage elements, more than 2^31 − 1`, size);
    try {
      if (memory !== undefined) {
        // The storage's typed array type and entries per element (double-double: two) from a one-element allocation.
        const one = storage.allocate(1) as ArrayBufferView & { length: number };
        if (!ArrayBuffer.isView(one)) fail('INVALID_FORMAT', 'storage', 'must be one typed array to live in a wasmArena');
        data = memory.allocate(one.constructor as new (b: ArrayBuffer, o: number, l: number) => ArrayBufferView, length * one.length);
      } else data = storage.allocate(length);
      if (opts.shared === true) data = sharedLike(data, 'shared');
    } catch (e) {
      if (e instanceof RangeError) fail('INVALID_SIZE', 'size', `needs ${length} storage elements, more than can be allocated`, size);
      throw e;
    }
  }
  let scales = scale?.(size);
  // Scales the factory made follow the storage into shared memory; scales the caller gave are theirs (kept as given).
  if (scales && opts.shared === true && (opts as { scale?: unknown }).scale === undefined) {
    const s = sharedLike(scales.data, 'shared');
    s.set(scales.data);
    scales = { ...scales, data: s };
  }
  return new Accessor<D, T>({
    size, strides: strides as unknown as Tuple<D>, offset, storage, arithmetic, data, layout,
    scale: scales,
  });
}
