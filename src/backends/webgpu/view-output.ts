/**
 * Outputs that are strided views of a span ({@link deviceView}, what `toDevice` makes of a strided range). Kernels write
 * a view in a packed layout in place ({@link writesInPlace}: a unit per thread; {@link writesLanes}: one sub-word lane
 * per thread, every other lane of its word kept). The general path, where that cannot be bound: the kernel
 * computes into a packed array as for any output, and one more pass writes the view's elements into the span —
 * word for word, every other element of the span copied as its raw bits, so nothing outside the view changes (a
 * 16-bit element sharing a word with a view element keeps its bits). Where the view's old values are read (β ≠ 0,
 * TRSV's right-hand side) a first pass gathers them, bit for bit, into the packed array. Packed outputs take
 * neither pass (their kernels are unchanged). The host-resident fallback splices the same way ({@link spliceView}).
 *
 * @module
 */
import { fail, ModprecError } from '../../core/errors.js';
import { bindingLimit, bindingWindows, bindWindow, DeviceArray, splitBindings, windowOf, wordsPerElement } from './device-array.js';
import type { EncodedArray, GpuStorageFormat } from './formats.js';
import type { GpuBuffer } from './webgpu-types.js';
import { kernelSource, memo, outputComponents } from './kernel-common.js';
import { getProgram, submitPasses, type ArgType, type BoundArray, type Pass } from './program.js';
import { createWordBuffer, type GpuRuntime } from './runtime.js';
import { viewStoreSwitches } from './kernel-switches.js';

/**
 * A view's elements as an ascending walk: span element first + j·step for j < length, view element
 * `reverse ? length − 1 − j : j` (a negative stride walks the span backwards).
 */
export function ascendingWalk(view: { offset: number; stride: number; length: number }): { first: number; step: number; reverse: number } {
  const last = view.offset + (view.length - 1) * view.stride;
  return { first: Math.min(view.offset, last), step: Math.max(1, Math.abs(view.stride)), reverse: view.stride < 0 ? 1 : 0 };
}

/**
 * Lines setting `i` to the view element at span element `e` (expressions: names), or −1 where that element is outside
 * the view, given the Integer arguments `first`, `step`, `len` and `reverse` of {@link ascendingWalk}.
 * @param e - the span element's name
 * @param i - the name to declare
 * @returns the lines
 */
export function viewIndex(e: string, i: string): string[] {
  return [
    `const ${e}d = ${e} - first;`,
    `let ${i} = mpI32(-1);`,
    `if (${e}d >= 0) { if (mpImod(${e}d, step) === 0) { const ${e}j = mpIdiv(${e}d, step); if (${e}j < len) { ${i} = ${e}j; if (reverse === 1) { ${i} = len - 1 - ${e}j; } } } }`,
  ];
}

/**
 * The scatter pass: thread per span word from word `w0` on (a chunk of the view's extent), the packed element where
 * the word's element is in the view, else the old bits. `Old` is bound from span word `oldBase`, `P` from packed
 * element `pBase` (windows of a span over one storage binding).
 */
function scatterSource(format: GpuStorageFormat): { source: string; args: (readonly [string, ArgType])[] } {
  const args: (readonly [string, ArgType])[] = [['P', 'Array'], ['Old', 'Array'], ['first', 'Integer'], ['step', 'Integer'], ['len', 'Integer'], ['reverse', 'Integer'], ['w0', 'Integer'], ['oldBase', 'Integer'], ['pBase', 'Integer']];
  const body: string[] = ['const w = this.thread.x + w0;', 'const ow0 = w - oldBase;'];
  const lanes = format.elementsPerWord;
  if (lanes === 2 || lanes === 4) {
    // Sub-word elements (16-bit, or a user's 8-bit format with hostBytes): each lane of the word moved as its bits.
    const bits = 32 / lanes, mask = 2 ** bits - 1, laneShift = Math.log2(lanes), bitShift = Math.log2(bits);
    body.push('const ow = mpBits(Old[ow0]);');
    for (let h = 0; h < lanes; h++) {
      body.push(`let h${h} = (ow >>> ${h * bits}) & ${mask};`, `const e${h} = w * ${lanes} + ${h};`, ...viewIndex(`e${h}`, `i${h}`));
      body.push(`if (i${h} >= 0) { const p${h} = i${h} - pBase; h${h} = (mpBits(P[p${h} >> ${laneShift}]) >>> ((p${h} & ${lanes - 1}) << ${bitShift})) & ${mask}; }`);
    }
    body.push(`return mpFloat(${Array.from({ length: lanes }, (_, h) => (h === 0 ? 'h0' : `(h${h} << ${h * bits})`)).join(' | ')});`);
  } else if (format.wordsPerElement === 2) {
    body.push('const e0 = w;', ...viewIndex('e0', 'i0'), 'let a = Old[ow0 * 2];', 'let b = Old[ow0 * 2 + 1];', 'if (i0 >= 0) { const p0 = i0 - pBase; a = P[p0 * 2]; b = P[p0 * 2 + 1]; }', 'return [a, b];');
  } else if (format.wordsPerElement === 4) {
    // dd: the four words of a pair (the lanes carry raw bits; nothing rounds them).
    body.push('const e0 = w;', ...viewIndex('e0', 'i0'), 'let a = Old[ow0 * 4];', 'let b = Old[ow0 * 4 + 1];', 'let c = Old[ow0 * 4 + 2];', 'let d = Old[ow0 * 4 + 3];');
    body.push('if (i0 >= 0) { const p0 = i0 - pBase; a = P[p0 * 4]; b = P[p0 * 4 + 1]; c = P[p0 * 4 + 2]; d = P[p0 * 4 + 3]; }', 'return [a, b, c, d];');
  } else {
    body.push('const e0 = w;', ...viewIndex('e0', 'i0'), 'let a = Old[ow0];', 'if (i0 >= 0) { a = P[i0 - pBase]; }', 'return a;');
  }
  return { source: kernelSource(args, body), args };
}

/** The gather pass: thread per packed word, the view's elements' bits read from the span. */
function gatherSource(format: GpuStorageFormat): { source: string; args: (readonly [string, ArgType])[] } {
  const args: (readonly [string, ArgType])[] = [['S', 'Array'], ['off', 'Integer'], ['inc', 'Integer'], ['len', 'Integer']];
  const body: string[] = [];
  const lanes = format.elementsPerWord;
  if (lanes === 2 || lanes === 4) {
    const bits = 32 / lanes, mask = 2 ** bits - 1, laneShift = Math.log2(lanes), bitShift = Math.log2(bits);
    for (let h = 0; h < lanes; h++) {
      // Past the end (the later lanes of a last word) reads element len − 1 and stores zero.
      body.push(`let q${h} = this.thread.x * ${lanes} + ${h};`, `if (q${h} >= len) { q${h} = len - 1; }`, `const k${h} = off + q${h} * inc;`);
      body.push(`let h${h} = (mpBits(S[k${h} >> ${laneShift}]) >>> ((k${h} & ${lanes - 1}) << ${bitShift})) & ${mask};`);
      if (h > 0) body.push(`if (this.thread.x * ${lanes} + ${h} >= len) { h${h} = 0; }`);
    }
    body.push(`return mpFloat(${Array.from({ length: lanes }, (_, h) => (h === 0 ? 'h0' : `(h${h} << ${h * bits})`)).join(' | ')});`);
  } else if (format.wordsPerElement === 2) {
    body.push('const k = (off + this.thread.x * inc) * 2;', 'return [S[k], S[k + 1]];');
  } else if (format.wordsPerElement === 4) {
    body.push('const k = (off + this.thread.x * inc) * 4;', 'return [S[k], S[k + 1], S[k + 2], S[k + 3]];');
  } else {
    body.push('return S[off + this.thread.x * inc];');
  }
  return { source: kernelSource(args, body), args };
}

/**
 * Whether a format's device words have the packed layout the gather, scatter and in-place stores rely on: its part
 * says so (GpuStoragePart.bitCopy), or declares `hostBytes` (element k in slot k of 32 / elementsPerWord bits, or of
 * wordsPerElement words) with slots of 8, 16, 32 or 64 bits.
 * @param f - the format
 * @returns true for a packed layout
 */
export function packedLayout(f: GpuStorageFormat): boolean {
  return f.bitCopy === true || (f.hostBytes === true && [1, 2, 4].includes(f.elementsPerWord) && (f.elementsPerWord === 1 || f.wordsPerElement === 1) && f.wordsPerElement <= 2);
}

/**
 * Whether kernels write views of the format in place: a packed layout, or — with the `userViewsInPlace` switch off
 * (kernel-switches.ts), the form before it — only `bitCopy` parts, 8-bit elements never lane by lane.
 */
function inPlaceLayout(f: GpuStorageFormat, lanes = false): boolean {
  if (viewStoreSwitches().userViewsInPlace) return packedLayout(f);
  return f.bitCopy === true && (!lanes || f.elementsPerWord === 2);
}

/** Throws `INVALID_STORAGE` naming `parameter` where the view's elements cannot be moved bit for bit ({@link packedLayout}). */
function checkCopyable(view: DeviceArray, parameter: string): void {
  const f = view.format;
  if (!packedLayout(f)) {
    fail('INVALID_STORAGE', parameter, `must be a packed array: a strided view in ${f.name} cannot be moved element by element on the GPU`, f.name);
  }
}

const components = (format: GpuStorageFormat): 1 | 2 | 4 => outputComponents(format);

/**
 * The packed array a kernel writing `view` computes into: one per view length, kept with the storage the view shares
 * with its span (so views made afresh for each call reuse it) and destroyed with it; holding the view's current
 * elements (bits as they are) when `readsOld`.
 */
async function packedTwin(runtime: GpuRuntime, view: DeviceArray, readsOld: boolean): Promise<DeviceArray> {
  const twins = (view.storage.twins ??= new Map());
  let packed = twins.get(view.length);
  if (!packed?.buffer) {
    packed = new DeviceArray(runtime, view.format, view.length, view.scaleBlock, undefined, '');
    twins.set(view.length, packed);
  }
  if (readsOld) await gatherView(runtime, view, packed);
  return packed;
}

/**
 * Copies the bits of a view's elements, packed, into `into` (same format, `view.length` elements): one pass.
 * @param runtime - the runtime both live on
 * @param view - a strided view in a format with a packed layout on the device (f32, f16, bf16, f64, ff, dd)
 * @param into - the packed destination
 * @param parameter - the view's parameter name, for the error
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` for a view in a scaled or user format
 * @example
 * ```ts
 * await gatherView(runtime, deviceView(span, 3, 10, -2), await deviceZeros(10, { format: span.format.name }));
 * ```
 */
export async function gatherView(runtime: GpuRuntime, view: DeviceArray, into: DeviceArray, parameter = 'x'): Promise<void> {
  checkCopyable(view, parameter);
  if (view.length === 0) return;
  const spec = memo(`viewGather|${view.format.name}`, () => gatherSource(view.format));
  const program = await getProgram(runtime.context, { source: spec.source, args: spec.args, components: components(view.format) });
  // A view or a packed array over one storage binding is gathered window by window (starts on 128 elements: whole words);
  // a view whose extent fits one binding in one window, its extent bound (a span over the binding, any stride).
  const split = splitBindings([view, into]);
  const windows = split && extentFits(runtime, view) && into.words * 4 <= bindingLimit(runtime) ? [{ start: 0, count: view.length }] : bindingWindows([view, into], view.length);
  submitPasses(runtime.context, windows.map((w) => {
    const arrays: Record<string, BoundArray> = { S: { buffer: view.buffer! } };
    const scalars: Record<string, number> = { SOff: view.offset, SInc: view.stride };
    if (split) bindWindow('S', view, w, arrays, scalars);
    if (!view.isView && split) scalars.SOff = 0;
    return { pass: {
      program, arrays, scalars: { off: scalars.SOff!, inc: view.stride, len: w.count },
      output: split ? windowOf(into, w) : { buffer: into.buffer! }, threads: Math.ceil(w.count / view.format.elementsPerWord),
    } };
  }));
}

/** Whether a view's extent — its first to its last element, from the 256-byte boundary below — fits one binding. */
function extentFits(runtime: GpuRuntime, view: DeviceArray): boolean {
  if (!view.isView || view.rangeScale) return false;
  const arrays: Record<string, BoundArray> = {};
  bindWindow('S', view, { start: 0, count: view.length }, arrays, {});
  return arrays.S!.size! <= bindingLimit(runtime);
}

/**
 * Writes the packed result into the view's elements of its span, in place: one pass over the view's extent (the
 * span's words from its first to its last element) writes the storage's spare buffer — made once — and a copy puts
 * those words back into the span's buffer. The buffer stays the same object, so the span and every other view of it
 * see the write, and a view of a few elements in a large span costs its extent, not the span.
 */
async function scatter(runtime: GpuRuntime, packed: DeviceArray, view: DeviceArray): Promise<void> {
  const spec = memo(`viewScatter|${view.format.name}`, () => scatterSource(view.format));
  const program = await getProgram(runtime.context, { source: spec.source, args: spec.args, components: components(view.format) });
  const storage = view.storage;
  storage.spare ??= createWordBuffer(runtime.context, view.words);
  const walk = ascendingWalk(view);
  // Extent in units of the pass's threads: words (16-bit formats: two elements a word), elements otherwise.
  const perThread = view.format.elementsPerWord;
  const lastElement = walk.first + (view.length - 1) * walk.step;
  const w0 = Math.floor(walk.first / perThread), threads = Math.floor(lastElement / perThread) - w0 + 1;
  const bytesPerThread = 4 * view.format.wordsPerElement;
  // Chunks of the extent whose span words and packed elements each fit one storage binding (one chunk unless the
  // span is over it): 64-thread multiples, so every binding starts on a 256-byte boundary.
  const units = Math.floor(bindingLimit(runtime) / bytesPerThread);
  const chunk = Math.max(64, Math.floor((units - 256) / 64) * 64);
  const whole = view.words * 4 <= bindingLimit(runtime) && packed.words * 4 <= bindingLimit(runtime);
  const passes: { pass: Pass }[] = [];
  for (let t0 = 0; t0 < threads; t0 += whole ? threads : chunk) {
    const count = whole ? threads : Math.min(chunk, threads - t0);
    const scalars = { ...walk, len: view.length, w0: w0 + t0, oldBase: 0, pBase: 0 };
    let arrays: Record<string, BoundArray> = { P: { buffer: packed.buffer! }, Old: { buffer: storage.buffer! } };
    let output: BoundArray = { buffer: storage.spare };
    if (!whole) {
      // Span words [w0 + t0, w0 + t0 + count) hold elements [e0, e1]; their view elements are walk indices j0 … j1.
      const e0 = (w0 + t0) * perThread, e1 = (w0 + t0 + count) * perThread - 1;
      const j0 = Math.max(0, Math.ceil((e0 - walk.first) / walk.step)), j1 = Math.min(view.length - 1, Math.floor((e1 - walk.first) / walk.step));
      const [i0, i1] = walk.reverse ? [view.length - 1 - j1, view.length - 1 - j0] : [j0, j1];
      const oldBase = Math.floor((w0 + t0) / 64) * 64;
      // A chunk between two view elements (a stride longer than the chunk) reads no packed element: bind its first.
      const none = j0 > j1;
      // P's binding starts on a 256-byte boundary: 128 elements, 256 of an 8-bit format.
      const pWords = packed.format.wordsPerElement / packed.format.elementsPerWord;
      const pAlign = Math.max(128, Math.ceil(64 / pWords));
      const pBase = none ? 0 : Math.floor(Math.min(i0, i1) / pAlign) * pAlign;
      const pEnd = none ? 1 : Math.max(i0, i1) + 1;
      scalars.oldBase = oldBase;
      scalars.pBase = pBase;
      arrays = {
        P: { buffer: packed.buffer!, offset: pBase * pWords * 4, size: Math.max(4, Math.ceil((pEnd - pBase) * pWords) * 4) },
        Old: { buffer: storage.buffer!, offset: oldBase * bytesPerThread, size: (w0 + t0 + count - oldBase) * bytesPerThread },
      };
      output = { buffer: storage.spare, offset: t0 * bytesPerThread, size: count * bytesPerThread };
    }
    passes.push({ pass: { program, arrays, scalars, output, threads: count } });
  }
  submitPasses(runtime.context, passes);
  const encoder = runtime.context.device.createCommandEncoder();
  encoder.copyBufferToBuffer(storage.spare, 0, storage.buffer!, w0 * bytesPerThread, threads * bytesPerThread);
  runtime.context.device.queue.submit([encoder.finish()]);
  storage.version++;
}

/**
 * Runs `kernel` on an output that may be a view: an output covering its whole span is passed through; a view's kernel writes
 * a packed array (holding the view's old elements when `readsOld`), whose elements then go into the view's span.
 * @param runtime - the runtime the operands live on
 * @param out - the output (packed or a view)
 * @param readsOld - whether the kernel reads the output's old values
 * @param kernel - runs the kernel with the packed output
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` naming `out` for a view in a format the scatter does not write
 * @example
 * ```ts
 * await throughPackedOutput(runtime, y, beta !== 0, (packed) => gemvOnDevice(runtime, { ...args, y: packed }, …));
 * ```
 */
export async function throughPackedOutput(runtime: GpuRuntime, out: DeviceArray, readsOld: boolean, kernel: (packed: DeviceArray) => Promise<void>): Promise<void> {
  if (out.coversSpan) return kernel(out);
  checkCopyable(out, 'out');
  await serialisedViewWrite(out, async () => {
    const packed = await packedTwin(runtime, out, readsOld);
    await kernel(packed);
    if (out.length > 0) await scatter(runtime, packed, out);
  });
}

/**
 * Runs `write` after every earlier write through a view of `out`'s storage has been recorded. Writes through views of
 * one storage share its packed twins and spare: each waits for the one before it, so writes not awaited in between
 * (Promise.all over columns of one matrix) cannot interleave their passes.
 * @param out - the output view
 * @param write - records the write's passes
 */
export async function serialisedViewWrite(out: DeviceArray, write: () => Promise<void>): Promise<void> {
  const storage = out.storage;
  const before = storage.viewWrites;
  let done!: () => void;
  const mine = new Promise<void>((resolve) => { done = resolve; });
  storage.viewWrites = mine;
  try {
    await before;
    await write();
  } finally {
    done();
    if (storage.viewWrites === mine) storage.viewWrites = undefined;
  }
}

/**
 * Whether a kernel that writes one output unit per thread (its element; a word of several sub-word elements) can write
 * the view `out` in place, through {@link outputWindow} and a program with `stridedOutput`: a view in a packed layout
 * ({@link packedLayout}: the built-in formats but scaled ones, a user's part declaring `bitCopy` or `hostBytes`) or
 * dd-split (its pair store) whose every thread's unit holds view elements only — any stride for one-element units; for
 * several elements a word, a unit-stride view starting on a word whose last word holds no element of the span outside
 * the view.
 * @param out - the output
 * @returns true where the strided write applies
 */
export function writesInPlace(out: DeviceArray): boolean {
  // dd-split: its pair store writes the view's hi and lo elements in place (dd-split-bindings.ts); it has no scatter.
  if (out.coversSpan || (!inPlaceLayout(out.format) && out.format.name !== 'dd-split') || out.length === 0) return false;
  const epw = out.format.elementsPerWord;
  if (epw === 1) return true;
  return out.stride === 1 && out.offset % epw === 0 && (out.length % epw === 0 || out.offset + out.length === out.spanLength);
}

/**
 * Whether a sub-word output view (8-bit elements, four a word; 16-bit, two a word) is written one lane per thread, in
 * place, instead of a packed twin and a scatter pass: every such view in a packed layout ({@link packedLayout}) that
 * the word store ({@link writesInPlace}) does not take — any offset, any non-zero stride. The thread's element is
 * encoded by the format's own `emitReturn` into lane 0 of a word (the other lanes passed as `undefined`), and the
 * program's lane store moves those bits into the element's lane ({@link laneOutputOf}).
 * @param out - the output
 * @returns true where the lane store applies
 */
export function writesLanes(out: DeviceArray): boolean {
  const f = out.format;
  return !out.coversSpan && inPlaceLayout(f, true) && f.writable && (f.elementsPerWord === 2 || f.elementsPerWord === 4) && out.length > 0 && !out.rangeScale && !writesInPlace(out);
}

/** A program's lane store ({@link laneOutputOf}). */
export interface LaneOutput {
  /** Elements per word: 2 (16-bit lanes) or 4 (8-bit lanes). */
  readonly lanes: 2 | 4;
  /** Whether two threads may write lanes of one word (read-modify-writes through atomics). */
  readonly atomic: boolean;
}

/**
 * The program's `laneOutput` for an output: false unless {@link writesLanes}; atomic where two view elements may share a
 * word (|stride| below the lanes a word holds): several threads then write lanes of one word, which only atomic
 * read-modify-writes keep apart (a plain load and store of the word by each would lose the others' lanes); plain for
 * |stride| ≥ lanes (at most one view element a word).
 * @param out - the output
 * @param inPlace - whether the kernel writes views in place
 * @returns the ProgramSpec field
 */
export function laneOutputOf(out: DeviceArray, inPlace = true): LaneOutput | false {
  if (!inPlace || !writesLanes(out)) return false;
  const lanes = out.format.elementsPerWord as 2 | 4;
  return { lanes, atomic: Math.abs(out.stride) < lanes };
}

/**
 * The registers a one-element thread passes to its format's `emitReturn` for the lane store ({@link writesLanes}): its
 * element in lane 0, the other lanes zero-filled.
 * @param elementsPerWord - the output format's elements per word
 * @param r - the thread's element
 * @returns the `emitReturn` argument
 */
export function laneValues<R>(elementsPerWord: number, r: R): (R | undefined)[] {
  return [r, ...Array.from({ length: elementsPerWord - 1 }, () => undefined)];
}

/**
 * The output binding and the `OutOff`/`OutInc` uniforms of a strided-output program writing elements
 * [start, start + count) of the view `out` ({@link writesInPlace}) in its span's buffer: the part of the span those
 * elements cover, from the 256-byte boundary at or below the first, so a view of any length is written through as many
 * bindings as its windows need.
 * @param out - the output view
 * @param window - its elements (start a multiple of the format's elements per word)
 * @param lanes - for a lane-store program (program.ts, `laneOutput`): offset and increment in elements
 * @returns the binding and the uniforms
 */
export function outputWindow(out: DeviceArray, window: { start: number; count: number }, lanes = false): { bound: { buffer: GpuBuffer; offset: number; size: number }; scalars: { OutOff: number; OutInc: number } } {
  const epw = out.format.elementsPerWord;
  if (lanes) {
    // Lane stores (program.ts, laneOutput): OutOff and OutInc count sub-word elements from the binding's first word,
    // which lies on the 256-byte boundary (64 words) at or below the window's lowest element.
    const first = out.offset + window.start * out.stride;
    const last = first + (window.count - 1) * out.stride;
    const base = Math.floor(Math.min(first, last) / (64 * epw)) * 64 * epw;
    return { bound: { buffer: out.buffer!, offset: (base / epw) * 4, size: (Math.floor(Math.max(first, last) / epw) + 1 - base / epw) * 4 }, scalars: { OutOff: first - base, OutInc: out.stride } };
  }
  // Units: a thread's result (an element, or a word of epw elements when the view has unit stride).
  const unitWords = epw === 1 ? out.format.wordsPerElement : 1;
  const first = (out.offset + window.start * out.stride) / epw;
  const last = epw === 1 ? first + (window.count - 1) * out.stride : first + Math.ceil(window.count / epw) - 1;
  // dd-split: 32 elements, so that its binding of the hi block also starts on a 256-byte boundary (dd-split-bindings.ts).
  const step = out.format.name === 'dd-split' ? 32 : Math.max(1, 64 / unitWords);
  const base = Math.floor(Math.min(first, last) / step) * step;
  const size = (Math.max(first, last) + 1 - base) * unitWords * 4;
  return { bound: { buffer: out.buffer!, offset: base * unitWords * 4, size }, scalars: { OutOff: first - base, OutInc: epw === 1 ? out.stride : 1 } };
}

/**
 * Throws `BACKEND_LIMIT` (naming the limit, the output in its message) when an output does not fit one storage binding the way it will be bound:
 * a view written in place through its extent (first to last element), any other output through a packed array of its
 * length (itself, or its twin).
 * @param parameter - the output's name
 * @param out - the output
 * @param inPlace - whether the kernel writes views in place (false: always through the twin)
 */
export function checkOutputBinding(parameter: string, out: DeviceArray, inPlace = true): void {
  checkOwnedOutput(parameter, out);
  if (!out.runtime) return;
  const limit = bindingLimit(out.runtime);
  const extent = inPlace && writesInPlace(out);
  const bytes = extent ? outputWindow(out, { start: 0, count: out.length }).bound.size : Math.max(1, out.format.words(out.length)) * 4;
  if (bytes > limit) throw new ModprecError('BACKEND_LIMIT', `invalid argument: ${parameter} needs ${bytes} bytes in one storage binding (its ${extent ? 'extent in its span' : 'packed elements'}), over this adapter's maxStorageBufferBindingSize of ${limit} bytes`, 'maxStorageBufferBindingSize');
}

/**
 * Throws `INVALID_STORAGE` naming `parameter` when `out` is a view of a kernel's own buffer (gpuDotResident's result):
 * a kernel writing it would swap that buffer into its own plan (outputs ping-pong), and two plans would share it.
 * @param parameter - the output's name
 * @param out - the output
 */
export function checkOwnedOutput(parameter: string, out: DeviceArray): void {
  if (out.storage.borrowed) fail('INVALID_STORAGE', parameter, "must be an array of its own, not a kernel's result view (gpuDotResident): copy it first (gpuConvert)");
}

/**
 * Binds `Yold` — the old values of an output view written in place by a program whose thread t reads only its own
 * element(s) of y — to the output binding itself (program.ts, `readsOutput: ['Yold']`): no snapshot of y's extent.
 * @param y - the output view
 * @param output - the output binding ({@link outputWindow})
 * @param placeholder - a buffer to bind for `Yold` itself (not read; not the output's)
 * @param arrays - array bindings to add to
 * @param scalars - scalar bindings to add to
 */
export function bindOldFromOutput(y: DeviceArray, output: BoundArray, placeholder: GpuBuffer, arrays: Record<string, BoundArray>, scalars: Record<string, number>): void {
  arrays.Yold = { buffer: placeholder };
  scalars.YoldOff = y.offset - (output.offset ?? 0) / (4 * wordsPerElement(y));
  scalars.YoldInc = y.stride;
}

/**
 * The buffer an input sharing `out`'s buffer is read from while a strided-output program writes `out` in place
 * (WebGPU binds no buffer writable and read-only in one dispatch): the storage's spare buffer, holding a copy of the
 * input's extent of the span, taken before the write. `undefined` when `input` has another buffer.
 * @param runtime - the runtime
 * @param out - the output view
 * @param input - an input of the same kernel
 * @returns the buffer to bind for `input`, or undefined
 */
export function aliasSnapshot(runtime: GpuRuntime, out: DeviceArray, input: DeviceArray): GpuBuffer | undefined {
  if (input.buffer !== out.buffer) return undefined;
  const storage = out.storage;
  storage.spare ??= createWordBuffer(runtime.context, out.words);
  const last = input.offset + (input.length - 1) * input.stride;
  const wpe = input.format.wordsPerElement / input.format.elementsPerWord;
  const w0 = Math.floor(Math.min(input.offset, last) * wpe);
  const w1 = Math.min(out.words, Math.ceil((Math.max(input.offset, last) + 1) * wpe));
  const encoder = runtime.context.device.createCommandEncoder();
  encoder.copyBufferToBuffer(storage.buffer!, w0 * 4, storage.spare, w0 * 4, (w1 - w0) * 4);
  runtime.context.device.queue.submit([encoder.finish()]);
  return storage.spare;
}

/**
 * The host-resident twin of the scatter pass: the words of `span` with the view's elements replaced by those of
 * `packed` (both encoded in `format`), every other element's bits kept.
 * @param format - the storage format of both
 * @param span - the span's words
 * @param packed - the view's new elements, packed
 * @param view - offset, stride and length of the view in the span
 * @returns the new span words
 * @example
 * ```ts
 * a.host = { words: spliceView(a.format, a.host.words, format.encode(values, 'x', 1).words, a) };
 * ```
 */
export function spliceView(format: GpuStorageFormat, span: Uint32Array, packed: Uint32Array, view: { offset: number; stride: number; length: number }): Uint32Array {
  const words = span.slice();
  if (format.elementsPerWord === 2 || format.elementsPerWord === 4) {
    // Sub-word lanes (16 or 8 bits, little-endian slots of the words: packedLayout).
    const lanesOf = (w: Uint32Array, n: number): Uint8Array | Uint16Array => (format.elementsPerWord === 2 ? new Uint16Array(w.buffer, w.byteOffset, n) : new Uint8Array(w.buffer, w.byteOffset, n));
    const lanes = lanesOf(words, words.length * format.elementsPerWord), from = lanesOf(packed, packed.length * format.elementsPerWord);
    for (let i = 0; i < view.length; i++) lanes[view.offset + i * view.stride] = from[i]!;
  } else {
    const w = format.wordsPerElement;
    for (let i = 0; i < view.length; i++) for (let k = 0; k < w; k++) words[(view.offset + i * view.stride) * w + k] = packed[i * w + k]!;
  }
  return words;
}

/**
 * The host copy of a host-resident view's span after its elements became `values` (encoded once, in the view's format).
 * @param view - a host-resident view
 * @param values - its new elements
 * @returns the span's new encoding
 */
export function splicedHost(view: DeviceArray, values: ArrayLike<number>): EncodedArray {
  checkCopyable(view, 'out');
  const packed = view.format.encode(values, 'out', view.scaleBlock);
  return { words: spliceView(view.format, view.host!.words, packed.words, view) };
}
