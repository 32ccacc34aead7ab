/**
 * Arrays resident on the GPU (upload once, run many kernels, read back on request), in one of the GPU
 * storage formats. Where no adapter exists the same objects hold their encoded words on the host and the
 * GPU entry points run the CPU fallback on them, so code written against them runs everywhere.
 *
 * @module
 */
import { checkSize, fail, ModprecError } from '../errors.js';
import { fallbackNotice, gpuUnavailableReason } from './backend.js';
import { gpuFormat, type EncodedArray, type GpuFormatName, type GpuStorageFormat } from './formats.js';
import { createWordBuffer, gpuRuntime, readWords, type GpuRuntime } from './runtime.js';
import type { GpuBuffer } from './webgpu-types.js';

/** Options of {@link toDevice}. */
export interface ToDeviceOptions {
  /** GPU storage format (default `f32`). */
  readonly format?: GpuFormatName;
  /** Elements per scale of `i8`/`i16` storage (default 256; a column length makes per-column scales). */
  readonly scaleBlock?: number;
  /** Throw `BACKEND_UNAVAILABLE` instead of keeping the data on the host when there is no GPU. */
  readonly strict?: boolean;
}

/** A one-dimensional view the core's `Range` satisfies. */
export interface RangeLike {
  length(dim?: number): number;
  get(...index: number[]): unknown;
  readonly dimensionality?: number;
}

/** An array in a GPU storage format, on the device (or, without a GPU, on the host). * @example
 * ```ts
 * const x: DeviceArray = await toDevice([1, 2, 3], { format: 'f16' });
 * console.log(x.onDevice, await x.toHost());
 * x.destroy();
 * ```
 */
export class DeviceArray {
  /** The runtime it lives on; `undefined` when it lives on the host (CPU fallback). */
  readonly runtime: GpuRuntime | undefined;
  readonly format: GpuStorageFormat;
  /** Number of elements. */
  readonly length: number;
  /** Elements per scale (integer formats). */
  readonly scaleBlock: number;
  /** Number of 32-bit words. */
  readonly words: number;
  /** Device buffer of the words (replaced when a kernel writes the array). */
  buffer: GpuBuffer | undefined;
  /** Device buffer of the scales (integer formats). */
  scales: GpuBuffer | undefined;
  /** Host copy of the words (host-resident arrays only). */
  host: EncodedArray | undefined;
  /** Why this array is on the host ('' when on the device). */
  readonly fallbackReason: string;
  /** Incremented whenever a kernel writes the array (caches derived from its contents key on it). */
  version = 0;

  /** @internal */
  constructor(runtime: GpuRuntime | undefined, format: GpuStorageFormat, length: number, scaleBlock: number, encoded: EncodedArray | undefined, fallbackReason: string) {
    this.runtime = runtime;
    this.format = format;
    this.length = length;
    this.scaleBlock = scaleBlock;
    this.words = Math.max(1, format.words(length));
    this.fallbackReason = fallbackReason;
    if (runtime) {
      // Streaming kernels (DOT, conversion) bind windows of larger arrays; the others check the binding
      // limit per operand. Scales of integer formats are always bound whole.
      if (format.scaled) checkBinding(runtime, this.words, format.name);
      else checkBufferSize(runtime, this.words, format.name);
      this.buffer = createWordBuffer(runtime.context, this.words, encoded?.words);
      if (format.scaled) this.scales = createWordBuffer(runtime.context, Math.max(1, Math.ceil(length / scaleBlock)), encoded?.scales);
      this.host = undefined;
    } else {
      this.host = encoded ?? { words: new Uint32Array(this.words) };
    }
  }

  /** Whether the data lives on the GPU. */
  get onDevice(): boolean {
    return this.runtime !== undefined;
  }

  /**
   * Reads the array back, decoded exactly to doubles.
   * @returns the values
   */
  async toHost(): Promise<Float64Array> {
    return this.format.decode(await this.encoded(), this.length, this.scaleBlock);
  }

  /**
   * The encoded words (and scales), copied back from the device when needed.
   * @returns words and scales
   */
  async encoded(): Promise<EncodedArray> {
    if (!this.runtime) return this.host!;
    const words = await readWords(this.runtime.context, this.buffer!, this.words);
    if (!this.scales) return { words };
    const s = await readWords(this.runtime.context, this.scales, Math.max(1, Math.ceil(this.length / this.scaleBlock)));
    return { words, scales: new Float32Array(s.buffer, s.byteOffset, s.length) };
  }

  /** Releases the device memory. */
  destroy(): void {
    this.buffer?.destroy();
    this.scales?.destroy();
    this.buffer = undefined;
    this.scales = undefined;
  }
}

let bindingLimitOverride: number | undefined;

/**
 * Lowers the storage-binding size the kernels plan with below the adapter's (`undefined` restores it), so
 * tests can exercise the splitting of large operands with small ones. Not for production use.
 * @param bytes - the limit in bytes (a multiple of 256), or undefined
 */
export function setBindingLimitForTests(bytes: number | undefined): void {
  bindingLimitOverride = bytes;
}

/**
 * The largest storage binding in bytes kernels may use on `runtime` (the adapter's
 * `maxStorageBufferBindingSize`, unless lowered for tests).
 * @param runtime - the runtime
 * @returns bytes
 */
export function bindingLimit(runtime: GpuRuntime): number {
  const limit = runtime.context.adapter.limits.maxStorageBufferBindingSize;
  return bindingLimitOverride === undefined ? limit : Math.min(limit, bindingLimitOverride);
}

/**
 * Throws `BACKEND_LIMIT` when `words` words exceed one storage binding of the adapter.
 * @param runtime - the runtime
 * @param words - array size in words
 * @param what - what the array is (for the message)
 */
export function checkBinding(runtime: GpuRuntime, words: number, what: string): void {
  const limit = bindingLimit(runtime);
  if (words * 4 > limit) {
    throw new ModprecError('BACKEND_LIMIT', `invalid argument: ${what} needs ${words * 4} bytes, over this adapter's maxStorageBufferBindingSize of ${limit} bytes`, 'maxStorageBufferBindingSize');
  }
}

/**
 * Throws `BACKEND_LIMIT` when `words` words exceed the adapter's largest buffer.
 * @param runtime - the runtime
 * @param words - array size in words
 * @param what - what the array is (for the message)
 */
export function checkBufferSize(runtime: GpuRuntime, words: number, what: string): void {
  const limit = runtime.context.adapter.limits.maxBufferSize;
  if (words * 4 > limit) {
    throw new ModprecError('BACKEND_LIMIT', `invalid argument: ${what} needs ${words * 4} bytes, over this adapter's maxBufferSize of ${limit} bytes`, 'maxBufferSize');
  }
}

/**
 * Throws `BACKEND_LIMIT` naming `parameter` when a resident operand exceeds one storage binding (for
 * kernels that bind whole arrays: GEMV, TRSV, ELL SpMV).
 * @param parameter - the operand's name
 * @param array - the operand
 */
export function checkOperandBinding(parameter: string, array: DeviceArray): void {
  if (!array.runtime) return;
  const limit = bindingLimit(array.runtime);
  if (array.words * 4 > limit) {
    throw new ModprecError('BACKEND_LIMIT', `invalid argument: ${parameter} needs ${array.words * 4} bytes, over this adapter's maxStorageBufferBindingSize of ${limit} bytes (this operand is read whole; see docs/gpu.md, Limits, for what is split over several bindings)`, 'maxStorageBufferBindingSize');
  }
}

/** Words per element of a format (½ for 16-bit formats, 2 for f64/ff). */
export function wordsPerElement(array: DeviceArray): number {
  return array.format.wordsPerElement / array.format.elementsPerWord;
}

/**
 * Element windows [start, start + count) covering `length` elements such that every operand's window fits
 * one storage binding and starts on a 256-byte boundary (start a multiple of 128 elements).
 * @param arrays - the operands windowed together
 * @param length - elements
 * @returns the windows (one when everything fits)
 * @throws {@link ModprecError} `BACKEND_LIMIT` for integer formats over the limit (their scales are bound whole)
 */
export function bindingWindows(arrays: readonly DeviceArray[], length: number): { start: number; count: number }[] {
  const limit = bindingLimit(arrays[0]!.runtime!);
  if (arrays.every((a) => a.words * 4 <= limit)) return [{ start: 0, count: length }];
  const scaled = arrays.find((a) => a.format.scaled);
  if (scaled) throw new ModprecError('BACKEND_LIMIT', `invalid argument: an operand over maxStorageBufferBindingSize (${limit} bytes) cannot be split while another is stored in ${scaled.format.name} (its scales are bound whole)`, 'maxStorageBufferBindingSize');
  const wpe = Math.max(...arrays.map(wordsPerElement));
  const size = Math.floor(limit / (4 * wpe) / 128) * 128;
  const windows = [];
  for (let start = 0; start < length; start += size) windows.push({ start, count: Math.min(size, length - start) });
  return windows;
}

/**
 * The binding of elements [start, start + count) of `array` (start a multiple of 128).
 * @param array - the operand
 * @param window - the elements
 * @returns buffer, byte offset and byte size
 */
export function windowOf(array: DeviceArray, window: { start: number; count: number }): { buffer: GpuBuffer; offset: number; size: number } {
  const wpe = wordsPerElement(array);
  return { buffer: array.buffer!, offset: window.start * wpe * 4, size: Math.max(4, Math.ceil(window.count * wpe) * 4) };
}

function hostValues(data: ArrayLike<number> | RangeLike, parameter: string): ArrayLike<number> {
  if (ArrayBuffer.isView(data) || Array.isArray(data)) return data as ArrayLike<number>;
  const r = data as RangeLike;
  if (typeof r.get === 'function' && typeof r.length === 'function') {
    const rank = r.dimensionality ?? 1;
    if (rank === 1) {
      const n = r.length(0);
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = Number(r.get(i));
      return out;
    }
    if (rank === 2) {
      // Matrices go to the device column-major.
      const m = r.length(0);
      const n = r.length(1);
      const out = new Float64Array(m * n);
      for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) out[i + j * m] = Number(r.get(i, j));
      return out;
    }
    fail('DIMENSION_MISMATCH', parameter, 'must be a 1- or 2-dimensional range', rank);
  }
  return fail('INVALID_STORAGE', parameter, 'must be an array of numbers, a typed array or a range', data);
}

/**
 * The runtime to use, or `undefined` with a notice (or a `BACKEND_UNAVAILABLE` error when strict).
 * @param strict - throw instead of falling back
 * @returns the runtime and the fallback reason
 */
export async function runtimeOrFallback(strict: boolean | undefined): Promise<{ runtime: GpuRuntime | undefined; reason: string }> {
  const runtime = await gpuRuntime();
  if (runtime) return { runtime, reason: '' };
  const reason = gpuUnavailableReason();
  if (strict) throw new ModprecError('BACKEND_UNAVAILABLE', `no WebGPU adapter: ${reason}`, 'backend');
  return { runtime: undefined, reason: fallbackNotice(reason) };
}

/**
 * Uploads values to the GPU in a GPU storage format (rounding to nearest even).
 *
 * @param data - numbers, a typed array, or a 1-D range (a 2-D range is uploaded column-major)
 * @param options - format, scale block, strictness
 * @returns the resident array (host-resident with a notice when there is no GPU)
 * @throws {@link ModprecError} `INVALID_FORMAT` for an unknown format; `INVALID_VALUE` for non-finite values
 *   in a scaled integer format (every other value is accepted: f64 exactly; f32/f16/bf16/ff round to nearest,
 *   overflowing to ±∞ as on the CPU);
 *   `BACKEND_LIMIT` when the array exceeds one storage binding; `BACKEND_UNAVAILABLE` when strict without GPU
 * @example
 * ```ts
 * const x = await toDevice(new Float64Array([1, 2, 3]), { format: 'bf16' });
 * console.log(await x.toHost()); // Float64Array [1, 2, 3]
 * ```
 */
export async function toDevice(data: ArrayLike<number> | RangeLike, options: ToDeviceOptions = {}): Promise<DeviceArray> {
  const format = gpuFormat(options.format ?? 'f32', 'options.format');
  const scaleBlock = checkSize('options.scaleBlock', options.scaleBlock ?? 256);
  if (scaleBlock < 1) fail('INVALID_SIZE', 'options.scaleBlock', 'must be at least 1', scaleBlock);
  const values = hostValues(data, 'data');
  const encoded = format.encode(values, 'data', scaleBlock);
  const { runtime, reason } = await runtimeOrFallback(options.strict);
  return new DeviceArray(runtime, format, values.length, scaleBlock, encoded, reason);
}

/**
 * Allocates a zero-filled resident array.
 * @param length - number of elements
 * @param options - format and strictness
 * @returns the array
 * @throws {@link ModprecError} as {@link toDevice}
 * @example
 * ```ts
 * const y = await deviceZeros(1024, { format: 'ff' });
 * ```
 */
export async function deviceZeros(length: number, options: ToDeviceOptions = {}): Promise<DeviceArray> {
  checkSize('length', length);
  const format = gpuFormat(options.format ?? 'f32', 'options.format');
  const scaleBlock = options.scaleBlock ?? 256;
  const { runtime, reason } = await runtimeOrFallback(options.strict);
  const words = new Uint32Array(Math.max(1, format.words(length)));
  const scales = format.scaled ? new Float32Array(Math.max(1, Math.ceil(length / scaleBlock))).fill(1) : undefined;
  return new DeviceArray(runtime, format, length, scaleBlock, scales ? { words, scales } : { words }, reason);
}

/**
 * A non-owning view of `words` of a device buffer as an array of `format` (for kernel internals).
 * @param runtime - the runtime
 * @param buffer - the buffer
 * @param format - how its words are read
 * @param length - elements
 * @returns the view (do not destroy it)
 */
export function bufferView(runtime: GpuRuntime, buffer: GpuBuffer, format: GpuStorageFormat, length: number): DeviceArray {
  const view = Object.create(DeviceArray.prototype) as DeviceArray;
  Object.assign(view, { runtime, format, length, scaleBlock: 1, words: Math.max(1, format.words(length)), buffer, scales: undefined, host: undefined, fallbackReason: '', version: 0 });
  return view;
}
