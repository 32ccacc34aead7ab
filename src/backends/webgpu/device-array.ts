/**
 * Arrays resident on the GPU (upload once, run many kernels, read back on request), in one of the GPU
 * storage formats. Where no adapter exists the same objects hold their encoded words on the host and the
 * GPU entry points run the CPU fallback on them, so code written against them runs everywhere.
 *
 * @module
 */
import { checkSize, fail, ModprecError } from '../../core/errors.js';
import { fallbackNotice, gpuUnavailableReason } from './backend.js';
import { gpuFormat, type EncodedArray, type GpuFormatName, type GpuStorageFormat } from './formats.js';
import { createWordBuffer, gpuRuntime, readWords, type GpuRuntime } from './runtime.js';
import { checkBindingsAgainst } from './program.js';
import { bindArray } from './kernel-common.js';
import { storedValues } from '../webgpu-bridge/stored-values.js';
import { ddSplitLoWord } from '../../formats/dd/dd-split-gpu-words.js';
import { registerDdSplitBuffer } from './dd-split-bindings.js';
import type { GpuBuffer } from './webgpu-types.js';
import { checkGpuOptions } from '../backend.js';

/**
 * Options of {@link toDevice}.
 * @group GPU
 */
export interface ToDeviceOptions {
  /** GPU storage format (default: a 1-D range's own storage format when it is f64, f32, f16 or bf16; else `f32`). */
  readonly format?: GpuFormatName;
  /** Elements per scale of `i8`/`i16` storage (default 256; a column length makes per-column scales). */
  readonly scaleBlock?: number;
  /** Throw `BACKEND_UNAVAILABLE` instead of keeping the data on the host when there is no GPU. */
  readonly strict?: boolean;
}

/**
 * A one-dimensional view the core's `Range` satisfies.
 * @group GPU
 */
export interface RangeLike {
  length(dim?: number): number;
  get(...index: number[]): unknown;
  readonly dimensionality?: number;
}

/**
 * An array in a GPU storage format, on the device (or, without a GPU, on the host).
 * @example
 * ```ts
 * import { toDevice, type DeviceArray } from 'modprec/gpu';
 *
 * const x: DeviceArray = await toDevice([1, 2, 3], { format: 'f16' });
 * x.length; // → 3
 * x.format.name; // → 'f16'
 * console.log(x.onDevice); // true where a WebGPU adapter exists
 * await x.toHost(); // → Float64Array(3) [ 1, 2, 3 ]
 * x.destroy();
 * ```
 * @group GPU
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
  /** Why this array is on the host ('' when on the device). */
  readonly fallbackReason: string;
  /** @internal The storage this array shares with every view of it (see {@link SharedStorage}). */
  readonly storage: SharedStorage;
  /**
   * For a strided view ({@link DeviceArray.isView}): the word-array element of view element 0, and the distance
   * between view elements (negative: walking backwards), as a range's accessor has them. 0 and 1 otherwise.
   */
  readonly offset: number = 0;
  readonly stride: number = 1;
  /** Elements the buffer holds (the view's span; `length` for a plain array). */
  readonly spanLength: number = 0;
  /**
   * @internal A view even at offset 0 and stride 1: the rows of a matrix view whose columns overlap (column stride
   * below the rows), which the packed-matrix paths (ld ≥ rows) must not take.
   */
  readonly alwaysView: boolean = false;
  /**
   * For a range with its own scales (a scaled accessor's scale model, range-scale.ts): the buffer of its fp64
   * scales and the uniforms that find element p's scale. Its format's reads multiply by it.
   */
  rangeScale: RangeScaleBinding | undefined;

  /** @internal */
  constructor(runtime: GpuRuntime | undefined, format: GpuStorageFormat, length: number, scaleBlock: number, encoded: EncodedArray | undefined, fallbackReason: string) {
    // new DeviceArray(undefined) threw a TypeError reading format.words: the arrays are made by toDevice and its kin.
    if (typeof format?.words !== 'function') fail('INVALID_FORMAT', 'format', 'must be a GPU storage format: make device arrays with toDevice, deviceZeros or deviceView');
    checkSize('length', length);
    this.runtime = runtime;
    this.format = format;
    this.length = length;
    this.scaleBlock = scaleBlock;
    this.words = Math.max(1, format.words(length));
    this.fallbackReason = fallbackReason;
    this.spanLength = length;
    this.storage = { buffer: undefined, scales: undefined, host: undefined, spare: undefined, version: 0 };
    if (runtime) {
      // Streaming kernels (DOT, conversion) bind windows of larger arrays; the others check the binding
      // limit per operand. Scales of integer formats are always bound whole.
      if (format.scaled) checkBinding(runtime, this.words, format.name);
      else checkBufferSize(runtime, this.words, format.name);
      this.buffer = createWordBuffer(runtime.context, this.words, encoded?.words);
      if (format.scaled) this.scales = createWordBuffer(runtime.context, Math.max(1, Math.ceil(length / scaleBlock)), encoded?.scales);
    } else {
      this.host = encoded ?? { words: new Uint32Array(this.words) };
    }
  }

  /** Device buffer of the words (replaced when a kernel writes the array: every view of it sees the new one). */
  get buffer(): GpuBuffer | undefined {
    return this.storage.buffer;
  }
  set buffer(b: GpuBuffer | undefined) {
    this.storage.buffer = b;
    // Kernels read a dd-split span's two blocks directly: its bindings are split at dispatch (dd-split-bindings.ts).
    if (b && this.format.name === 'dd-split') registerDdSplitBuffer(b, this.spanLength, ddSplitLoWord(this.spanLength));
  }

  /** Device buffer of the scales (integer formats). */
  get scales(): GpuBuffer | undefined {
    return this.storage.scales;
  }
  set scales(b: GpuBuffer | undefined) {
    this.storage.scales = b;
  }

  /** Host copy of the words (host-resident arrays only). */
  get host(): EncodedArray | undefined {
    return this.storage.host;
  }
  set host(h: EncodedArray | undefined) {
    this.storage.host = h;
  }

  /** Incremented whenever a kernel writes the array or any view of it (caches derived from its contents key on it). */
  get version(): number {
    return this.storage.version;
  }
  set version(v: number) {
    this.storage.version = v;
  }

  /** Whether the data lives on the GPU. */
  get onDevice(): boolean {
    return this.runtime !== undefined;
  }

  /** Whether this is a strided view of its buffer (offset ≠ 0 or stride ≠ 1): what toDevice makes of a strided range. */
  get isView(): boolean {
    return this.alwaysView || this.offset !== 0 || this.stride !== 1;
  }

  /**
   * Whether the array's elements are all of its storage (not a view, nor a prefix of a longer span): only then may a
   * kernel write it by replacing its words wholesale; any other output goes through a view's scatter.
   */
  get coversSpan(): boolean {
    return !this.isView && this.length === this.spanLength;
  }

  /**
   * Reads the array (or the view's elements) back, decoded exactly to doubles.
   * @returns the values
   * @throws {@link modprec!ModprecError} `INVALID_STORAGE` naming `array` when it (or its span) has been destroyed
   */
  async toHost(): Promise<Float64Array> {
    const all = this.format.decode(await this.encoded(), this.spanLength, this.scaleBlock);
    if (!this.isView) return all.length === this.length ? all : all.subarray(0, this.length);
    return Float64Array.from({ length: this.length }, (_, i) => all[this.offset + i * this.stride]!);
  }

  /**
   * The encoded words (and scales), copied back from the device when needed.
   * @returns words and scales
   * @throws {@link modprec!ModprecError} `INVALID_STORAGE` naming `array` when it (or its span) has been destroyed
   */
  async encoded(): Promise<EncodedArray> {
    if (!this.runtime) return this.host!;
    // As the kernels refuse a destroyed operand (commonRuntime): WebGPU threw a TypeError copying from no buffer.
    if (!this.buffer) fail('INVALID_STORAGE', 'array', 'has been destroyed');
    const words = await readWords(this.runtime.context, this.buffer!, this.words);
    if (!this.scales) return { words };
    const s = await readWords(this.runtime.context, this.scales, Math.max(1, Math.ceil(this.length / this.scaleBlock)));
    return { words, scales: new Float32Array(s.buffer, s.byteOffset, s.length) };
  }

  /** Releases the device memory — the storage it shares with its span and every other view of that span, too. */
  destroy(): void {
    const s = this.storage;
    if (s.borrowed) {
      s.buffer = undefined;
      return;
    }
    s.buffer?.destroy();
    s.scales?.destroy();
    s.spare?.destroy();
    s.twins?.forEach((t) => t.destroy());
    s.buffer = s.scales = s.spare = s.twins = undefined;
    this.rangeScale?.buffer.destroy();
    this.rangeScale = undefined;
  }
}

/**
 * What an array and every view of it share. Kernels write an output into another buffer and then swap it in (the
 * output may also be an input of the same pass), so the buffer is held here, not by each view: a write through
 * one view is seen by the span and by every other view of it, and caches keyed on `version` see it too.
 * @internal
 */
export interface SharedStorage {
  buffer: GpuBuffer | undefined;
  /** Whether the buffer belongs to someone else (a kernel's plan): destroying the array then only lets go of it. */
  borrowed?: boolean;
  scales: GpuBuffer | undefined;
  host: EncodedArray | undefined;
  /** A buffer of the span's size that the scatter pass of an output view writes before copying it back. */
  spare: GpuBuffer | undefined;
  /** Packed arrays that kernels writing a view of this length compute into (view-output.ts), made once per length. */
  twins?: Map<number, DeviceArray>;
  /** The last write through a view, which the next one waits for (they share the packed array and the spare). */
  viewWrites?: Promise<void>;
  version: number;
}

/**
 * A new buffer laid out as `array`'s span (its words; a dd-split span's blocks registered for the dispatch,
 * dd-split-bindings.ts): what a kernel writes a packed output into before swapping it in.
 * @param runtime - the runtime
 * @param array - the output
 * @returns the buffer
 * @internal
 */
export function createSpanBuffer(runtime: GpuRuntime, array: DeviceArray): GpuBuffer {
  const buffer = createWordBuffer(runtime.context, array.words);
  if (array.format.name === 'dd-split') registerDdSplitBuffer(buffer, array.spanLength, ddSplitLoWord(array.spanLength));
  return buffer;
}

/**
 * A view of `span` (same storage): its own shape over the span's elements.
 * @internal
 */
export function viewOf(span: DeviceArray, shape: { length: number; offset: number; stride: number; alwaysView?: boolean }): DeviceArray {
  const view = Object.create(DeviceArray.prototype) as DeviceArray;
  Object.assign(view, span, { alwaysView: false }, shape, { spanLength: span.spanLength });
  return view;
}

/**
 * The scales of a range-scaled array on the device: its fp64 scales as words (low word first) and the uniforms
 * (suffixes of the array's argument name) the reads use to find an element's scale.
 */
export interface RangeScaleBinding {
  readonly buffer: GpuBuffer;
  readonly scalars: Readonly<Record<string, number>>;
}

let bindingLimitOverride: number | undefined;

/**
 * Lowers the storage-binding size the kernels plan with below the adapter's (`undefined` restores it), so
 * tests can exercise the splitting of large operands with small ones. Not for production use.
 * @param bytes - the limit in bytes (a multiple of 256), or undefined
 */
export function setBindingLimitForTests(bytes: number | undefined): void {
  bindingLimitOverride = bytes;
  // Every dispatch then checks its bindings against it: an operand bound whole over it fails the test.
  checkBindingsAgainst(bytes);
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

/**
 * Whether a kernel reading all of `array` binds only the part of its span its elements cover (bindExtent in
 * kernel-common.ts): any view or prefix, except block-scaled arrays, whose scales are indexed from the whole binding
 * (a range-scaled array's scale base moves with the binding: {@link moveScaleBase}).
 * @param array - the operand
 * @returns true when the extent is bound
 */
export function bindsExtent(array: DeviceArray): boolean {
  return !array.coversSpan && !array.format.scaled;
}

/**
 * For a range-scaled array (range-scale.ts) bound from span element `start` on: its reads find an element's scale from
 * the index they pass, which counts from the binding's first element, so the scale layout's base (`…Sb`) moves with the
 * binding. Nothing for other arrays, or for a range with one scale.
 * @param name - the array's argument name
 * @param array - the array
 * @param start - the span element the binding starts at
 * @param scalars - scalar bindings (after bindArray)
 */
export function moveScaleBase(name: string, array: DeviceArray, start: number, scalars: Record<string, number>): void {
  const base = array.rangeScale?.scalars.Sb;
  if (base !== undefined) scalars[`${name}Sb`] = base - start;
}

/**
 * Bytes of the binding that reads all of `array`: its elements' extent in its span where {@link bindsExtent}, else
 * all its words.
 * @param array - the operand
 * @returns bytes
 */
export function extentBytes(array: DeviceArray): number {
  if (!bindsExtent(array) || array.length === 0) return array.words * 4;
  const last = array.offset + (array.length - 1) * array.stride;
  const wpe = wordsPerElement(array);
  const lo = Math.floor(Math.min(array.offset, last) / alignmentElements(array)) * alignmentElements(array);
  return Math.max(4, (Math.ceil((Math.max(array.offset, last) + 1) * wpe) - lo * wpe) * 4);
}

/**
 * Throws `BACKEND_LIMIT` naming the limit (and `parameter` in the message) when a resident operand read whole does
 * not fit one storage binding: its extent in its span for a view ({@link extentBytes}), else all of it.
 * @param parameter - the operand's name
 * @param array - the operand
 */
export function checkExtentBinding(parameter: string, array: DeviceArray): void {
  if (!array.runtime) return;
  checkScaleBinding(parameter, array);
  const limit = bindingLimit(array.runtime);
  const bytes = extentBytes(array);
  if (bytes > limit) {
    throw new ModprecError('BACKEND_LIMIT', `invalid argument: ${parameter} needs ${bytes} bytes${bindsExtent(array) ? ' (its extent in its span)' : ''}, over this adapter's maxStorageBufferBindingSize of ${limit} bytes (this operand is read whole; see docs/gpu.md, Limits, for what is split over several bindings)`, 'maxStorageBufferBindingSize');
  }
}

/**
 * The binding of columns [c0, c1) of a matrix over `data` (element (i, j) at offset + i·rowStride + j·ld of its span for
 * a view — `data.offset`, `data.stride` — or i + j·ld for a packed array): the span elements those columns cover, from
 * the 256-byte boundary at or below the first.
 * @param A - the matrix: its elements, rows and column stride
 * @param c0 - first column
 * @param c1 - end column (exclusive, > c0)
 * @returns the binding and its first span element (`start`: index expressions subtract it)
 */
export function columnRegion(A: { readonly data: DeviceArray; readonly rows: number; readonly ld: number }, c0: number, c1: number): { bound: { buffer: GpuBuffer; offset: number; size: number }; start: number } {
  const [offset, rs] = A.data.isView ? [A.data.offset, A.data.stride] : [0, 1];
  const first = offset + c0 * A.ld;
  const corners = [first, first + (Math.max(1, A.rows) - 1) * rs, first + (c1 - c0 - 1) * A.ld, first + (Math.max(1, A.rows) - 1) * rs + (c1 - c0 - 1) * A.ld];
  const lo = Math.min(...corners), hi = Math.min(A.data.spanLength - 1, Math.max(...corners));
  const step = alignmentElements(A.data);
  const start = Math.floor(lo / step) * step;
  const wpe = wordsPerElement(A.data);
  return { bound: { buffer: A.data.buffer!, offset: start * wpe * 4, size: Math.max(4, (Math.ceil((hi + 1) * wpe) - start * wpe) * 4) }, start };
}

/**
 * Columns of a matrix one binding holds through {@link columnRegion} (with slack for aligning a binding's start):
 * for a view, what its rows' span (rows − 1)·|rowStride| leaves of the binding, per |column stride|.
 * @param A - the matrix
 * @param limit - the binding size in bytes
 * @returns the columns (0 when not even one fits)
 */
export function columnsPerRegion(A: { readonly data: DeviceArray; readonly rows: number; readonly ld: number }, limit: number): number {
  const elements = Math.floor(limit / (4 * wordsPerElement(A.data))) - alignmentElements(A.data);
  const rowSpan = A.data.isView ? (Math.max(1, A.rows) - 1) * Math.abs(A.data.stride) + 1 : A.rows;
  if (elements < rowSpan) return 0;
  return A.ld === 0 ? Infinity : Math.floor((elements - rowSpan) / Math.abs(A.ld)) + 1;
}

/**
 * Binds `array` as bindArray (kernel-common.ts) does, then — for a view or prefix ({@link bindsExtent}) — only the part of
 * its span its elements cover, from the 256-byte boundary below the first, its offset uniform moved to match: an operand
 * read whole by every thread needs its extent, not its span, to fit one storage binding.
 * @param name - argument name
 * @param array - the operand
 * @param arrays - array bindings to add to
 * @param scalars - scalar bindings to add to
 */
export function bindExtent(name: string, array: DeviceArray, arrays: Record<string, { buffer: GpuBuffer; offset?: number; size?: number }>, scalars: Record<string, number>): void {
  bindArray(name, array, arrays, scalars);
  if (bindsExtent(array) && array.length > 0) bindWindow(name, array, { start: 0, count: array.length }, arrays, scalars);
}

/** Words per element of a format (½ for 16-bit formats, 2 for f64/ff). */
export function wordsPerElement(array: DeviceArray): number {
  return array.format.wordsPerElement / array.format.elementsPerWord;
}

/**
 * Whether some operand does not fit one storage binding: its windows ({@link bindingWindows}) must then be bound with
 * {@link bindWindow} — also when there is only one (a short view of a span over the limit).
 * @param arrays - the operands windowed together
 * @returns true when the windows are to be bound
 */
export function splitBindings(arrays: readonly DeviceArray[]): boolean {
  const limit = bindingLimit(arrays[0]!.runtime!);
  return !arrays.every((a) => fitsWhole(a, limit));
}

/** Whether an array's words, and a range-scaled array's scales, each fit one binding of `limit` bytes. */
function fitsWhole(array: DeviceArray, limit: number): boolean {
  return array.words * 4 <= limit && (array.rangeScale === undefined || array.rangeScale.buffer.size <= limit);
}

/**
 * Throws `BACKEND_LIMIT` (naming the limit, `parameter` in the message) when a range-scaled matrix's scales, which
 * kernels bind whole (a window of a matrix's elements may read any of them), exceed one storage binding.
 * @param parameter - the operand's name
 * @param array - the matrix's elements
 */
export function checkScaleBinding(parameter: string, array: DeviceArray): void {
  if (!array.runtime || !array.rangeScale) return;
  const limit = bindingLimit(array.runtime);
  if (array.rangeScale.buffer.size > limit) {
    throw new ModprecError('BACKEND_LIMIT', `invalid argument: ${parameter} is a scaled range whose ${array.rangeScale.buffer.size / 8} scales (bound whole) exceed this adapter's maxStorageBufferBindingSize of ${limit} bytes`, 'maxStorageBufferBindingSize');
  }
}

/**
 * Element windows [start, start + count) covering `length` elements such that every operand's window fits
 * one storage binding and starts on a 256-byte boundary (start a multiple of 128 elements).
 * @param arrays - the operands windowed together
 * @param length - elements
 * @param anyStart - the caller binds every window through {@link bindWindow} and nothing else (no packed array of
 *   its own in the same windows): where every operand is a strided view whose stride spans a binding per 128
 *   elements, windows of fewer elements at any start (each binds the part of its span it covers)
 * @returns the windows (one when everything fits)
 * @throws {@link modprec!ModprecError} `BACKEND_LIMIT` for block-scaled integer formats over the limit (their scales are
 *   bound whole)
 */
export function bindingWindows(arrays: readonly DeviceArray[], length: number, anyStart = false): { start: number; count: number }[] {
  const limit = bindingLimit(arrays[0]!.runtime!);
  if (arrays.every((a) => fitsWhole(a, limit))) return [{ start: 0, count: length }];
  const scaled = arrays.find((a) => a.format.scaled);
  if (scaled) throw new ModprecError('BACKEND_LIMIT', `invalid argument: an operand over maxStorageBufferBindingSize (${limit} bytes) cannot be split while another is stored in ${scaled.format.name} (its scales are bound whole)`, 'maxStorageBufferBindingSize');
  // A window of `size` elements covers (size − 1)·|stride| + 1 elements of a view's span, plus up to one alignment
  // step before its first one (bindings start on 256-byte boundaries).
  const perWindow = arrays.map((a) => {
    const wpe = wordsPerElement(a);
    const elements = Math.floor(limit / (4 * wpe));
    const own = a.isView ? Math.floor((elements - alignmentElements(a) - 1) / Math.abs(a.stride)) + 1 : elements;
    // Per-element scales go in windows too (bindScaleWindow: from the 256-byte boundary below the first).
    const q = Math.abs(a.rangeScale?.scalars.Qm ?? 0);
    return q === 0 ? own : Math.min(own, Math.floor((limit / 8 - 33) / q) + 1);
  });
  // Windows start on 256-byte boundaries of every operand (8-bit elements: multiples of 256).
  const unit = Math.max(...arrays.map(alignmentElements));
  let size = Math.floor(Math.min(...perWindow) / unit) * unit;
  if (size < 128 && anyStart && arrays.every((a) => a.isView)) size = Math.min(...perWindow);
  if (size < 1 || (size < 128 && !anyStart)) throw new ModprecError('BACKEND_LIMIT', `invalid argument: a strided view whose stride spans more than maxStorageBufferBindingSize (${limit} bytes) per 128 elements cannot be split into windows`, 'maxStorageBufferBindingSize');
  const windows = [];
  for (let start = 0; start < length; start += size) windows.push({ start, count: Math.min(size, length - start) });
  return windows;
}

/** Span elements per 256-byte binding-offset step (at least 128, the windows' granularity). */
function alignmentElements(array: DeviceArray): number {
  return Math.max(128, Math.ceil(64 / wordsPerElement(array)));
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

/**
 * Binds window `window` of operand `name` (declared by arrayArgs, bound by bindArray): for a packed array the
 * window's elements ({@link windowOf}); for a strided view the part of its span those elements cover, from the
 * 256-byte boundary at or below the first, with the view's offset uniform moved to match — so a view of any length
 * is read through as many bindings as it needs, by the same program.
 * @param name - argument name
 * @param array - the operand
 * @param window - elements [start, start + count) of the operand
 * @param arrays - array bindings to replace the operand's in
 * @param scalars - scalar bindings (the view's offset is replaced)
 */
export function bindWindow(name: string, array: DeviceArray, window: { start: number; count: number }, arrays: Record<string, { buffer: GpuBuffer; offset?: number; size?: number }>, scalars: Record<string, number>): void {
  bindScaleWindow(name, array, window, arrays, scalars);
  if (!array.isView) {
    arrays[name] = windowOf(array, window);
    moveScaleBase(name, array, window.start, scalars);
    return;
  }
  const first = array.offset + window.start * array.stride;
  const last = first + (window.count - 1) * array.stride;
  const step = alignmentElements(array);
  const base = Math.floor(Math.min(first, last) / step) * step;
  const wpe = wordsPerElement(array);
  const words = Math.ceil((Math.max(first, last) + 1) * wpe) - base * wpe;
  arrays[name] = { buffer: array.buffer!, offset: base * wpe * 4, size: Math.max(4, words * 4) };
  scalars[`${name}Off`] = first - base;
  moveScaleBase(name, array, base, scalars);
}

/**
 * The scales a window of a range-scaled vector reads (element i's scale is `So + i·Qm`): bound from the 256-byte boundary
 * below the first, `…So` moved to match, so per-element scales larger than one binding are windowed with their elements.
 */
function bindScaleWindow(name: string, array: DeviceArray, window: { start: number; count: number }, arrays: Record<string, { buffer: GpuBuffer; offset?: number; size?: number }>, scalars: Record<string, number>): void {
  const rs = array.rangeScale;
  const step = rs?.scalars.Qm;
  if (!rs || step === undefined || window.count === 0) return;
  const so = rs.scalars.So!;
  const [q0, q1] = [so + window.start * step, so + (window.start + window.count - 1) * step];
  const base = Math.floor(Math.min(q0, q1) / 32) * 32;
  arrays[`${name}Rs`] = { buffer: rs.buffer, offset: base * 8, size: (Math.max(q0, q1) - base + 1) * 8 };
  scalars[`${name}So`] = so - base;
}

/** The parts of a core range (src/core/range.ts) the upload reads: its accessor. */
interface CoreRangeLike {
  readonly accessor: {
    readonly dimensionality: number;
    readonly size: readonly number[];
    readonly strides: readonly number[];
    readonly offset: number;
    readonly data: unknown;
    readonly scale: unknown;
    readonly storage: { readonly name: string; readonly kind: string; decode(data: never, index: number): unknown };
    extent(): [number, number];
  };
}

function isCoreRange(data: unknown): data is CoreRangeLike {
  return typeof data === 'object' && data !== null && typeof (data as CoreRangeLike).accessor?.extent === 'function';
}

/**
 * Built-in formats whose CPU storage bytes are the device words (f64: low word first; 16-bit: element 2k low; dd:
 * the interleaved pairs hi, lo; dd-split: the bytes of its hi array, then of its lo array — dd-split-gpu-words.ts).
 */
const SAME_BYTES = new Set(['f64', 'f32', 'f16', 'bf16', 'dd', 'dd-split']);

/** A dd-split range's storage: its hi and lo arrays (src/formats/dd/dd-storage.ts, DdSplitArray). */
interface SplitPairs {
  readonly hi: Float64Array;
  readonly lo: Float64Array;
}

/** Whether a range's storage is dd-split (its data two Float64Arrays). */
const isSplitStorage = (name: string): boolean => name === 'dd-split';

/** User parts whose `hostBytes` has been checked against their CPU storage. */
const checkedHostBytes = new WeakSet<object>();

/**
 * The GPU format a core range goes up in as the bytes of its storage span, or undefined: a built-in format whose CPU
 * bytes are its device words, or a part declaring `hostBytes` — checked once against its CPU storage (its typed
 * array's slots as wide as the part's elements; its `decode` of CPU-encoded bytes the CPU's values).
 * @param range - a core range (anything else: undefined)
 * @param parameter - its parameter name, for the error
 * @returns the format, or undefined where the range goes up as its stored values
 * @throws {@link modprec!ModprecError} `INVALID_FORMAT` naming `parameter` for a part whose declaration does not hold
 */
export function bytesFormatOf(range: unknown, parameter: string): GpuStorageFormat | undefined {
  if (!isCoreRange(range)) return undefined;
  const r = range;
  const a = r.accessor;
  if (a.scale) return undefined;
  if (SAME_BYTES.has(a.storage.name)) return gpuFormat(a.storage.name);
  const st = a.storage as unknown as { gpu?: GpuStorageFormat; allocate(n: number): unknown; encode(d: unknown, k: number, v: number): void; decode(d: unknown, k: number): unknown };
  const part = st.gpu;
  if (part?.hostBytes !== true) return undefined;
  if (!checkedHostBytes.has(part)) {
    const bad = (why: string): never => fail('INVALID_FORMAT', parameter, `is stored in ${a.storage.name}, whose GPU part declares hostBytes but ${why}`, part.name);
    const width = (4 * part.wordsPerElement) / part.elementsPerWord;
    const slot = (data: unknown): number => (ArrayBuffer.isView(data) ? (data as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 0 : 0);
    if (slot(a.data) !== width) bad(`its storage is not a typed array of ${width}-byte slots`);
    // A sample stored by the CPU codec, read back by the part from the same bytes.
    const sample = [0, 1, -2, 0.75, 3, -0.5, 1.5, 2, -1, 0.25, 5, -3];
    const data = st.allocate(sample.length) as ArrayBufferView;
    sample.forEach((v, k) => st.encode(data, k, v));
    const words = new Uint32Array(Math.max(1, part.words(sample.length)));
    new Uint8Array(words.buffer).set(new Uint8Array(data.buffer, data.byteOffset, Math.min(data.byteLength, words.byteLength)));
    const got = part.decode({ words }, sample.length, 1);
    sample.forEach((_, k) => { if (!Object.is(got[k], Number(st.decode(data, k)))) bad(`reads element ${k} of its CPU bytes as ${got[k]}, not the CPU's ${Number(st.decode(data, k))}`); });
    checkedHostBytes.add(part);
  }
  return part;
}

/**
 * A 1-D range stored in a format whose bytes are its device words, uploaded as the bytes of the storage span it
 * covers (no per-element work) and viewed with its offset and stride.
 */
function rangeSpan(r: CoreRangeLike, format: GpuStorageFormat): { encoded: EncodedArray; spanLength: number; offset: number; length: number; stride: number } {
  const a = r.accessor;
  const n = a.size.reduce((p, s) => p * s, 1);
  let [lo, hi] = n === 0 ? [0, -1] : a.extent();
  if (isSplitStorage(format.name)) {
    // The span's hi doubles, then (from the 256-byte boundary the format puts them on) its lo doubles: two copies.
    const pairs = a.data as SplitPairs, spanLength = Math.max(0, hi - lo + 1);
    const words = new Uint32Array(Math.max(1, format.words(spanLength)));
    new Float64Array(words.buffer, 0, spanLength).set(pairs.hi.subarray(lo, lo + spanLength));
    new Float64Array(words.buffer, 4 * ddSplitLoWord(spanLength), spanLength).set(pairs.lo.subarray(lo, lo + spanLength));
    return { encoded: { words }, spanLength, offset: n === 0 ? 0 : a.offset - lo, length: n, stride: a.strides[0]! };
  }
  const data = a.data as Float64Array | Float32Array | Uint16Array;
  // Sub-word formats pack elementsPerWord elements a word, element k in slot k mod elementsPerWord: start the span on a word.
  lo -= lo % format.elementsPerWord;
  const spanLength = Math.max(0, hi - lo + 1);
  // Bytes per element: 4 / elementsPerWord for sub-word elements, else the element's words (a dd element is two doubles).
  const bpe = (4 * format.wordsPerElement) / format.elementsPerWord;
  const bytes = new Uint8Array(data.buffer, data.byteOffset + lo * bpe, spanLength * bpe);
  const words = new Uint32Array(Math.max(1, format.words(spanLength)));
  new Uint8Array(words.buffer).set(bytes);
  return { encoded: { words }, spanLength, offset: n === 0 ? 0 : a.offset - lo, length: n, stride: a.strides[0]! };
}

/** Formats whose upload is the plain bytes of the range's span (dd and dd-split have their own layouts and caches). */
const PLAIN_SPAN = new Set(['f64', 'f32', 'f16', 'bf16']);

/**
 * @internal For reusing an upload (src/backends/webgpu-bridge/upload-slots.ts): a key equal for two unscaled core
 * ranges exactly when {@link toDevice} (1-D) or {@link toDeviceSpan} makes arrays of the same format, span length and
 * view shape of them; undefined for a range whose upload is not the plain bytes of its span.
 * @param r - the range
 * @returns the key, or undefined
 */
export function spanShapeKey(r: unknown): string | undefined {
  if (!isCoreRange(r)) return undefined;
  const a = r.accessor;
  if (a.scale || !PLAIN_SPAN.has(a.storage.name)) return undefined;
  const n = a.size.reduce((p, q) => p * q, 1);
  let [lo, hi] = n === 0 ? [0, -1] : a.extent();
  lo -= lo % gpuFormat(a.storage.name).elementsPerWord;
  // The tests' lowered binding limit too: arrays keep plans made under the limit they were planned with.
  return `${a.storage.name}|${hi - lo + 1}|${n === 0 ? 0 : a.offset - lo}|${a.size.join(',')}|${a.strides.join(',')}|${bindingLimitOverride ?? ''}`;
}

/**
 * @internal Writes the span of `r` over the storage of `array` — an earlier upload (or a view of it) of a range with
 * the same {@link spanShapeKey} — as a kernel's write would: caches keyed on the version see new contents.
 * @param array - the earlier upload, on the device
 * @param r - the range
 */
export function refillSpan(array: DeviceArray, r: RangeLike): void {
  const queue = array.runtime!.context.device.queue;
  const bytes = plainSpanBytes(r as unknown as CoreRangeLike, array.format);
  // The span's own bytes when WebGPU takes them as they lie (4-byte aligned, whole words): no copy on the host.
  if (bytes.byteOffset % 4 === 0 && bytes.byteLength % 4 === 0) queue.writeBuffer(array.buffer!, 0, bytes);
  else queue.writeBuffer(array.buffer!, 0, rangeSpan(r as unknown as CoreRangeLike, array.format).encoded.words);
  array.version++;
}

/** The bytes of the span of a range in a plain format (f64, f32, f16, bf16), from its first word: a view, not a copy. */
function plainSpanBytes(r: CoreRangeLike, format: GpuStorageFormat): Uint8Array {
  const a = r.accessor;
  const n = a.size.reduce((p, q) => p * q, 1);
  let [lo, hi] = n === 0 ? [0, -1] : a.extent();
  lo -= lo % format.elementsPerWord;
  const data = a.data as Float64Array | Float32Array | Uint16Array;
  const bpe = (4 * format.wordsPerElement) / format.elementsPerWord;
  return new Uint8Array(data.buffer, data.byteOffset + lo * bpe, Math.max(0, hi - lo + 1) * bpe);
}

/**
 * Copies the span of `array` — what {@link toDevice} made of the 1-D range `r` (f64, f32, f16, bf16, dd, dd-split, or a
 * format whose GPU part declares `hostBytes`: its words are its CPU bytes), after kernels
 * wrote its view — back into the bytes of `r`'s storage it came from: one byte copy of the span, no per-element work.
 * Elements of the span outside the view are copied back as they went up (kernels leave them as they were).
 * @param array - the device array (or view) made from `r`
 * @param r - the range
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` naming `array` when it is not `r`'s span
 * @example
 * ```ts
 * import { vector, formats } from 'modprec';
 * import { toDevice, gpuUpdate, spanToRange } from 'modprec/gpu';
 *
 * const y = vector([1, 2, 3], { storage: formats.f32 });
 * const d = await toDevice(y);
 * await gpuUpdate({ alpha: 2, x: d, beta: 0, out: d });
 * await spanToRange(d, y);
 * y.get(2); // → 6
 * ```
 * @group GPU
 */
export async function spanToRange(array: DeviceArray, r: RangeLike): Promise<void> {
  if (!isCoreRange(r) || r.accessor.dimensionality !== 1 || !(SAME_BYTES.has(r.accessor.storage.name) || (!r.accessor.scale && bytesFormatOf(r, 'r')))) {
    return fail('INVALID_STORAGE', 'r', 'must be a 1-D range stored in f64, f32, f16, bf16, dd, dd-split or a format whose GPU part declares hostBytes', isCoreRange(r) ? r.accessor.storage.name : r);
  }
  const a = r.accessor;
  const n = a.size[0]!;
  if (n === 0) return;
  let [lo, hi] = a.extent();
  lo -= lo % array.format.elementsPerWord;
  const spanLength = hi - lo + 1;
  if (array.format.name !== a.storage.name || array.spanLength !== spanLength || array.length !== n || array.offset !== a.offset - lo || (n > 1 && array.stride !== a.strides[0])) {
    fail('INVALID_STORAGE', 'array', `must be the device span of this range (toDevice(range), ${a.storage.name}, ${spanLength} elements)`, array.spanLength);
  }
  const words = (await array.encoded()).words;
  if (isSplitStorage(array.format.name)) {
    const pairs = a.data as SplitPairs, lw = ddSplitLoWord(spanLength);
    pairs.hi.set(new Float64Array(words.slice(0, 2 * spanLength).buffer), lo);
    pairs.lo.set(new Float64Array(words.slice(lw, lw + 2 * spanLength).buffer), lo);
    return;
  }
  const data = a.data as Float64Array | Float32Array | Uint16Array;
  // Bytes per element: 4 / elementsPerWord for sub-word elements (16-bit, a user's 8-bit), else its words.
  const bpe = (4 * array.format.wordsPerElement) / array.format.elementsPerWord;
  const bytes = spanLength * bpe;
  new Uint8Array(data.buffer, data.byteOffset + lo * bpe, bytes).set(new Uint8Array(words.buffer, words.byteOffset, bytes));
}

function hostValues(data: ArrayLike<number> | RangeLike, parameter: string): ArrayLike<number> {
  if (ArrayBuffer.isView(data)) {
    // A bigint array holds no numbers, as vector() says: the float encoders threw a TypeError converting its elements.
    if ((data instanceof BigInt64Array || data instanceof BigUint64Array) && data.length > 0) fail('INVALID_VALUE', `${parameter}[0]`, 'must be a number', data[0]);
    return data as ArrayLike<number>;
  }
  if (Array.isArray(data)) {
    // Numbers only, as vector() takes them: the encoders coerced '1' to 1, null to 0, undefined and holes to NaN, and
    // threw a TypeError for a bigint.
    for (let i = 0; i < data.length; i++) if (typeof data[i] !== 'number') fail('INVALID_VALUE', `${parameter}[${i}]`, 'must be a number', data[i]);
    return data as ArrayLike<number>;
  }
  // A core range of numbers: its STORED values (get() would round them to the range's arithmetic first).
  if (isCoreRange(data) && !data.accessor.scale && data.accessor.storage.kind === 'number' && data.accessor.dimensionality <= 2) {
    return storedValues(data as never);
  }
  const r = data as RangeLike;
  if (typeof r === 'object' && r !== null && typeof r.get === 'function' && typeof r.length === 'function') {
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
 * @param data - numbers, a typed array, or a range: a 1-D range stored in f64, f32, f16 or bf16 (with no other
 *   `format` asked for) goes up as the bytes of the storage span it covers, no per-element work, and comes back as a
 *   strided view ({@link deviceView}: offset and stride as uniforms) when it is not packed; any other range goes up as
 *   its stored values (decoded exactly, a 2-D range column-major), converted to `format`
 * @param options - format, scale block, strictness
 * @returns the resident array (host-resident with a notice when there is no GPU)
 * @throws {@link modprec!ModprecError} `INVALID_FORMAT` for an unknown format; `INVALID_VALUE` for non-finite values
 *   in a scaled integer format (every other value is accepted: f64 exactly; f32/f16/bf16/ff round to nearest,
 *   overflowing to ±∞ as on the CPU);
 *   `BACKEND_LIMIT` when the array exceeds one storage binding; `BACKEND_UNAVAILABLE` when strict without GPU
 * @example
 * ```ts
 * import { toDevice } from 'modprec/gpu';
 *
 * const x = await toDevice(new Float64Array([1, 2.5, 1 / 3]), { format: 'bf16' });
 * await x.toHost(); // → Float64Array(3) [ 1, 2.5, 0.333984375 ]
 * ```
 * @group GPU
 */
export async function toDevice(data: ArrayLike<number> | RangeLike, options: ToDeviceOptions = {}): Promise<DeviceArray> {
  checkGpuOptions(options);
  // A 1-D range in f64, f32, f16, bf16, dd or dd-split (and no other format asked for), or in a part declaring
  // hostBytes asked for by name, goes up as its storage span, viewed.
  const bytes = isCoreRange(data) && data.accessor.dimensionality === 1
    && (options.format === undefined ? SAME_BYTES.has(data.accessor.storage.name) : options.format === data.accessor.storage.name)
    ? bytesFormatOf(data, 'data') : undefined;
  if (bytes) {
    const format = bytes;
    const span = rangeSpan(data as unknown as CoreRangeLike, format);
    const { runtime, reason } = await runtimeOrFallback(options.strict);
    const whole = new DeviceArray(runtime, format, span.spanLength, 256, span.encoded, reason);
    return span.offset === 0 && span.stride === 1 && span.length === span.spanLength ? whole : deviceView(whole, span.offset, span.length, span.stride);
  }
  const format = gpuFormat(options.format ?? 'f32', 'options.format');
  const scaleBlock = scaleBlockOf(options);
  const values = hostValues(data, 'data');
  const encoded = format.encode(values, 'data', scaleBlock);
  const { runtime, reason } = await runtimeOrFallback(options.strict);
  return new DeviceArray(runtime, format, values.length, scaleBlock, encoded, reason);
}

/** `options.scaleBlock`, checked: an integer ≥ 1 (default 256). @throws {@link modprec!ModprecError} `INVALID_SIZE` */
export function scaleBlockOf(options: ToDeviceOptions): number {
  const scaleBlock = checkSize('options.scaleBlock', options.scaleBlock ?? 256);
  if (scaleBlock < 1) fail('INVALID_SIZE', 'options.scaleBlock', 'must be at least 1', scaleBlock);
  return scaleBlock;
}

/**
 * Allocates a zero-filled resident array.
 * @param length - number of elements
 * @param options - format and strictness
 * @returns the array
 * @throws {@link modprec!ModprecError} as {@link toDevice}
 * @example
 * ```ts
 * import { deviceZeros } from 'modprec/gpu';
 *
 * const y = await deviceZeros(4, { format: 'ff' });
 * await y.toHost(); // → Float64Array(4) [ 0, 0, 0, 0 ]
 * ```
 * @group GPU
 */
export async function deviceZeros(length: number, options: ToDeviceOptions = {}): Promise<DeviceArray> {
  // The options are toDevice's, checked as there: a null options threw a TypeError, a strict that is not a boolean
  // was taken, and a scaleBlock of 0 (or −1, 1.5) asked for an array of Infinity (or NaN) scales, a RangeError.
  checkGpuOptions(options);
  checkSize('length', length);
  const format = gpuFormat(options.format ?? 'f32', 'options.format');
  const scaleBlock = scaleBlockOf(options);
  const { runtime, reason } = await runtimeOrFallback(options.strict);
  const words = new Uint32Array(Math.max(1, format.words(length)));
  const scales = format.scaled ? new Float32Array(Math.max(1, Math.ceil(length / scaleBlock))).fill(1) : undefined;
  return new DeviceArray(runtime, format, length, scaleBlock, scales ? { words, scales } : { words }, reason);
}

/**
 * A non-owning view of `words` of a device buffer as an array of `format` (kernel internals, and results that stay in
 * a kernel's plan buffer): destroying it lets go of the buffer without destroying it.
 * @param runtime - the runtime
 * @param buffer - the buffer
 * @param format - how its words are read
 * @param length - elements
 * @returns the view
 */
export function bufferView(runtime: GpuRuntime, buffer: GpuBuffer, format: GpuStorageFormat, length: number): DeviceArray {
  const view = Object.create(DeviceArray.prototype) as DeviceArray;
  const storage: SharedStorage = { buffer, borrowed: true, scales: undefined, host: undefined, spare: undefined, version: 0 };
  Object.assign(view, { runtime, format, length, spanLength: length, offset: 0, stride: 1, scaleBlock: 1, words: Math.max(1, format.words(length)), storage, fallbackReason: '' });
  return view;
}

/**
 * Uploads a core range (1-D or 2-D, unscaled, stored in f64, f32, f16 or bf16) as the bytes of the storage span it
 * covers — no per-element work on the host — and says where its element (0, …) sits in it and its strides.
 * @param r - the range
 * @param strict - throw `BACKEND_UNAVAILABLE` instead of keeping the span on the host when there is no GPU
 * @returns the span array, the offset of element (0, …) in it, and the range's strides
 * @throws {@link modprec!ModprecError} `INVALID_FORMAT` for another storage or a scaled range
 * @example
 * ```ts
 * import { matrix, formats } from 'modprec';
 * import { toDeviceSpan } from 'modprec/gpu';
 *
 * // [[1, 2, 3], [4, 5, 6]] in fp32, column-major
 * const A = matrix(2, 3, (i, j) => 3 * i + j + 1, { storage: formats.f32 });
 * const { span, offset, strides } = await toDeviceSpan(A);
 * offset; // → 0
 * strides; // → [ 1, 2 ]
 * await span.toHost(); // → Float64Array(6) [ 1, 4, 2, 5, 3, 6 ]
 * ```
 * @group GPU
 */
export async function toDeviceSpan(r: RangeLike, strict?: boolean): Promise<{ span: DeviceArray; offset: number; strides: readonly number[] }> {
  const format = bytesFormatOf(r, 'range');
  if (!format || !isCoreRange(r)) {
    return fail('INVALID_FORMAT', 'range', 'must be an unscaled range stored in f64, f32, f16, bf16, dd, dd-split or a format whose GPU part declares hostBytes', isCoreRange(r) ? r.accessor.storage.name : r);
  }
  const s = rangeSpan(r, format);
  const { runtime, reason } = await runtimeOrFallback(strict);
  return { span: new DeviceArray(runtime, format, s.spanLength, 256, s.encoded, reason), offset: s.offset, strides: r.accessor.strides };
}

/**
 * A strided view of `span`'s elements: element i of the view is element offset + i·stride of the span (stride may
 * be negative). The view shares the span's storage: a kernel's write through the view is seen by the span and by
 * every other view of it, and destroying any of them releases the storage of all. Every kernel reads views, and
 * outputs may be views (only the view's elements of the span are written; see docs/gpu.md, Ranges on the device).
 * @param span - the array holding the elements
 * @param offset - span element of view element 0
 * @param length - view elements
 * @param stride - span elements between view elements
 * @returns the view
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` when `span` is not a DeviceArray or the view reaches outside
 *   it; `INVALID_SIZE` naming `length` unless it is a non-negative integer; `INVALID_STRIDE` naming `offset` unless it
 *   is a non-negative integer, `stride` unless it is a non-zero integer
 * @example
 * ```ts
 * import { toDevice, deviceView } from 'modprec/gpu';
 *
 * const evens = deviceView(await toDevice([1, 2, 3, 4]), 0, 2, 2);
 * await evens.toHost(); // → Float64Array(2) [ 1, 3 ]
 * ```
 * @group GPU
 */
export function deviceView(span: DeviceArray, offset: number, length: number, stride: number): DeviceArray {
  // Checked as deviceMatrixView checks its shape, and as the CPU's layouts refuse a zero increment: a fractional, NaN,
  // string or negative argument made a view that read NaN or other elements, or failed inside WebGPU.
  if (!(span instanceof DeviceArray)) fail('INVALID_STORAGE', 'span', 'must be a DeviceArray (see toDevice)', span);
  checkSize('length', length);
  if (!Number.isSafeInteger(offset) || offset < 0) fail('INVALID_STRIDE', 'offset', 'must be a non-negative integer', offset);
  if (!Number.isSafeInteger(stride) || stride === 0) fail('INVALID_STRIDE', 'stride', 'must be a non-zero integer', stride);
  const last = length === 0 ? offset : offset + (length - 1) * stride;
  if (length > 0 && (Math.min(offset, last) < 0 || Math.max(offset, last) >= span.spanLength)) {
    fail('INVALID_STORAGE', 'span', `must hold elements ${Math.min(offset, last)}..${Math.max(offset, last)} of the view`, span.spanLength);
  }
  return viewOf(span, { length, offset, stride });
}
