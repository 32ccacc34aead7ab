/**
 * The CPU's scaled store of an integer range (i8, i16 with the CPU's scale model), on the device: each element of the
 * output view gets the exact quotient value / scale rounded ONCE to the nearest integer, ties to even, saturated to the
 * storage's range ([−128, 127], [−32768, 32767]) and NaN → 0 — `nearestIntegerOfQuotient` followed by the storage's
 * encode on the CPU. A dd arithmetic's value is the dd pair its kernel wrote (four words), rounded by `mpQuantizeDd`
 * (quantize-dd-scale.ts, with its proof). Otherwise the value is the arithmetic's f32 word or float-float pair as the kernel left it; the rounding is
 * `mpQuantize64` (quantize-f64-scale.ts, with its proof), which reads each fp64 scale as its two IEEE words and splits
 * it on the device into three binary32 parts: exact for every finite non-zero scale (0.1, 1/3, 2^-1000, subnormal,
 * negative); a scale of ±0, ±∞ or NaN gives what the CPU's quotient value/scale stores as (±0: saturated with the
 * signs' XOR, 0 for a zero or NaN value; ±∞, NaN: 0).
 *
 * One pass, a thread per word of the range's storage span: a lane of the word that is an element of the view gets its
 * integer, every other lane keeps its bits (elements of the span outside a strided view, neighbours sharing a word). A
 * span over one storage binding goes in windows of its words, each binding the values and scales of the view elements
 * in it (storeWindows).
 *
 * @module
 */
import { bindingLimit, deviceView, type DeviceArray } from './device-array.js';
import { kernelSource, memo } from './kernel-common.js';
import { getProgram, submitPasses, type ArgType, type Pass } from './program.js';
import type { GpuBuffer } from './webgpu-types.js';
import { toDeviceScaledSpan, type ScaledRangeLike } from './range-scale.js';
import { createWordBuffer, readWords } from './runtime.js';
import { ascendingWalk, viewIndex } from './view-output.js';

/** Bits of the integer storages the device stores into. */
const BITS: Readonly<Record<string, 8 | 16>> = { i8: 8, i16: 16 };

/** Thread per span word: the word with each view lane replaced by its rounded integer. */
function storeSource(bits: 8 | 16, components: number): { source: string; args: (readonly [string, ArgType])[] } {
  const args: (readonly [string, ArgType])[] = [['D', 'Array'], ['S', 'Array'], ['Rs', 'Array'],
    ...(['So', 'Sb', 'Sm', 'Sn', 'Qm', 'Qn', 'first', 'step', 'len', 'reverse', 'top', 'w0', 'dBase', 'qBase'] as const).map((n) => [n, 'Integer'] as const), ['qmax', 'Float']];
  const lanes = 32 / bits;
  const mask = 2 ** bits - 1;
  // A window of the span from word w0 (S and the output bound from it), the values bound from element dBase, the scales
  // from scale qBase.
  const body = ['const w = this.thread.x + w0;', 'const ow = mpBits(S[this.thread.x]);', 'let word = mpI32(0);'];
  for (let l = 0; l < lanes; l++) {
    body.push(`const e${l} = w * ${lanes} + ${l};`, ...viewIndex(`e${l}`, `i${l}`), `let b${l} = (ow >>> ${l * bits}) & ${mask};`);
    // The element's scale, found from its span index as the reads find it (range-scale.ts).
    const [hi, lo] = components === 2 ? [`D[2 * (i${l} - dBase)]`, `D[2 * (i${l} - dBase) + 1]`] : [`D[i${l} - dBase]`, '0.0'];
    // dd pairs (four words: hi's low and high IEEE words, then lo's) round with mpQuantizeDd (quantize-dd-scale.ts).
    const ddWord = (k: number): string => `mpBits(D[4 * (i${l} - dBase) + ${k}])`;
    const rs = (k: number): string => `mpBits(Rs[2 * (q${l} - qBase)${k ? ' + 1' : ''}])`;
    const quantize = components === 4
      ? `mpQuantizeDd(${ddWord(0)}, ${ddWord(1)}, ${ddWord(2)}, ${ddWord(3)}, ${rs(0)}, ${rs(1)}, qmax)`
      : `mpQuantize64([${hi}, ${lo}], ${rs(0)}, ${rs(1)}, qmax)`;
    body.push(`if (i${l} >= 0) {`,
      `const d${l} = e${l} - Sb; const a${l} = mpIdiv(d${l}, Sm); const q${l} = So + a${l} * Qm + mpIdiv(d${l} - a${l} * Sm, Sn) * Qn;`,
      // The scale's two IEEE words, split on the device into binary32 parts (mpQuantize64: exact for any finite non-zero double).
      `let n${l} = ${quantize};`,
      `if (n${l} > top) { n${l} = top; }`,
      `b${l} = n${l} & ${mask};`,
      '}',
      `word = word | (b${l} << ${l * bits});`);
  }
  body.push('return mpFloat(word);');
  return { source: kernelSource(args, body), args };
}

/**
 * Whether `r` is a scaled 1-D range stored in an integer the device stores into (i8, i16). Every fp64 scale is taken:
 * `mpQuantize64` gives the CPU's integer for each (see its proof; ±0, ±∞ and NaN scales included).
 * @param r - a scaled 1-D range
 * @returns true when {@link deviceScaledStore} takes it
 */
export function storesOnDevice(r: ScaledRangeLike): boolean {
  const a = r.accessor;
  return a.storage.name in BITS && !!a.scale && a.dimensionality === 1;
}

/** A window of the store pass: span words [w0, w0 + words), the values from element dBase, the scales from scale qBase. */
interface StoreWindow {
  readonly w0: number;
  readonly words: number;
  readonly d: { readonly offset: number; readonly size: number; readonly base: number };
  readonly q: { readonly offset: number; readonly size: number; readonly base: number };
}

/**
 * The store pass's windows over `r`'s span: runs of span words (a multiple of 64, so that each binding starts on a
 * 256-byte boundary) whose words, the values of the view elements in them (`c` words each) and their scales each fit a
 * binding of `limit` bytes; the values and scales are bound from the 256-byte boundary at or below the first one the
 * window needs. Undefined when not even 64 words' share fits.
 */
function storeWindows(spanWords: number, lanes: number, walk: { first: number; step: number; reverse: number }, n: number, c: number, scale: (i: number) => number, limit: number): StoreWindow[] | undefined {
  const size = windowWords(lanes, walk.step, c, limit);
  if (size < 64) return undefined;
  const out: StoreWindow[] = [];
  for (let w0 = 0; w0 < spanWords; w0 += size) {
    const count = Math.min(size, spanWords - w0);
    // The view elements whose span elements lie in the window: walk positions j ∈ [j0, j1].
    const j0 = Math.max(0, Math.ceil((w0 * lanes - walk.first) / walk.step));
    const j1 = Math.min(n - 1, Math.floor(((w0 + count) * lanes - 1 - walk.first) / walk.step));
    if (j1 < j0) {
      out.push({ w0, words: count, d: { offset: 0, size: 4 * c, base: 0 }, q: { offset: 0, size: 8, base: 0 } });
      continue;
    }
    const [i0, i1] = walk.reverse ? [n - 1 - j1, n - 1 - j0] : [j0, j1];
    const dBase = Math.floor(i0 / (64 / c)) * (64 / c);
    // A 1-D range's scale index is monotone in its element (range-scale.ts: one stride, one scale step).
    const [qa, qb] = [scale(walk.first + j0 * walk.step), scale(walk.first + j1 * walk.step)];
    const qBase = Math.floor(Math.min(qa, qb) / 32) * 32;
    out.push({ w0, words: count, d: { offset: dBase * c * 4, size: (i1 - dBase + 1) * c * 4, base: dBase }, q: { offset: qBase * 8, size: (Math.max(qa, qb) - qBase + 1) * 8, base: qBase } });
  }
  return out;
}

/** Span words per window of the store pass (a multiple of 64; below 64 when none fits): see {@link storeWindows}. */
function windowWords(lanes: number, step: number, c: number, limit: number): number {
  // View elements per span word ≤ lanes / step (+ 1 at a window's edge); each needs c words of values and 8 bytes of scale.
  const words = Math.floor((limit - 512) / Math.max(4, (lanes / step) * Math.max(4 * c, 8)) / 64) * 64;
  return Math.min(Math.floor(limit / 4 / 64) * 64, words);
}

/**
 * Whether the store pass can bind `r`'s span, the values `d` and the scales in windows that each fit one storage binding
 * (64 span words at the least: always, unless the binding limit is lowered far below WebGPU's minimum).
 * @param r - a scaled 1-D range
 * @param d - the values on the device
 * @returns true when {@link deviceScaledStore} takes it
 */
export function fitsStoreWindows(r: ScaledRangeLike, d: DeviceArray): boolean {
  const bits = BITS[r.accessor.storage.name]!;
  return windowWords(32 / bits, Math.max(1, Math.abs(r.accessor.strides[0]!)), d.format.wordsPerElement, bindingLimit(d.runtime!)) >= 64;
}

/**
 * Whether {@link scaledStorePasses} can bind a view's span, values of `components` words and scales in windows that each
 * fit one storage binding (as {@link fitsStoreWindows}).
 * @param view - an i8 or i16 view with range scales
 * @param components - words per value
 * @returns true when the store's windows exist
 */
export function storesViewInWindows(view: DeviceArray, components: number): boolean {
  return windowWords(view.format.elementsPerWord, Math.max(1, Math.abs(view.stride)), components, bindingLimit(view.runtime!)) >= 64;
}

/** The scale index of span element e (range-scale.ts's layout, as the store pass computes it). */
function scaleIndex(layout: Record<string, number>, e: number): number {
  const d = e - layout.Sb!;
  const a = Math.floor(d / layout.Sm!);
  return layout.So! + a * layout.Qm! + Math.floor((d - a * layout.Sm!) / layout.Sn!) * layout.Qn!;
}

let stores = 0;

/**
 * How many scaled stores ran on the device so far (tests check that a case took the device path).
 * @returns the count
 */
export function deviceScaledStoreCount(): number {
  return stores;
}

/**
 * Stores the arithmetic's values `d` (one f32 word or ff pair per element, element i of the range) into the scaled
 * integer range `r` on the device, as the CPU's scaled store: the range's storage span goes up, one pass rounds the
 * view's elements into it (every other element keeps its bits), and the span's bytes come back into the range's typed
 * array in one copy.
 * @param r - a 1-D range stored in i8 or i16 with its own scales ({@link storesOnDevice})
 * @param d - the values, on the device (`r.length` elements of the arithmetic's words)
 * @example
 * ```ts
 * if (storesOnDevice(r)) await deviceScaledStore(r, d);
 * ```
 */
export async function deviceScaledStore(r: ScaledRangeLike, d: DeviceArray): Promise<void> {
  const a = r.accessor;
  const n = a.size[0]!;
  if (n === 0) return;
  const { span, offset } = await toDeviceScaledSpan(r, 'out');
  try {
    const runtime = span.runtime!;
    const out = createWordBuffer(runtime.context, span.words);
    try {
      submitPasses(runtime.context, (await scaledStorePasses(deviceView(span, offset, n, a.strides[0]!), d, out)).map((pass) => ({ pass })));
      await scaledSpanToRange(r, span, out);
    } finally {
      out.destroy();
    }
  } finally {
    span.destroy();
  }
}

/**
 * The passes of the scaled store for a view already on the device: `view` (a 1-D view of an i8 or i16 span with its
 * range scales, as toDeviceScaledSpan uploads it) gets the values `d` rounded into its elements, written with every
 * other word of the span's bits into `out` (a buffer of the span's words, which then replaces or overwrites the
 * span's: the pass reads the span's old words, so it cannot write them). A span over one binding goes in windows.
 * @param view - the output view
 * @param d - the values, on the device (`view.length` elements of the arithmetic's words: f32, ff, dd pairs)
 * @param out - the buffer written (the span's words)
 * @returns the passes
 * @example
 * ```ts
 * submitPasses(context, (await scaledStorePasses(x, solution, spare)).map((pass) => ({ pass })));
 * ```
 */
export async function scaledStorePasses(view: DeviceArray, d: DeviceArray, out: GpuBuffer): Promise<Pass[]> {
  const bits = view.format.elementsPerWord === 4 ? 8 : 16;
  const n = view.length;
  const runtime = view.runtime!;
  const components = d.format.wordsPerElement;
  const spec = memo(`scaledStore|${bits}|${components}`, () => storeSource(bits, components));
  const program = await getProgram(runtime.context, { source: spec.source, args: spec.args, components: 1 });
  const rs = view.rangeScale!;
  const layout = { Sb: 0, Sm: 1, Sn: 1, Qm: 0, Qn: 0, ...rs.scalars };
  const walk = ascendingWalk(view);
  const top = 2 ** (bits - 1) - 1;
  const windows = storeWindows(view.words, 32 / bits, walk, n, components, (e) => scaleIndex(layout, e), bindingLimit(runtime))!;
  stores++;
  // A span over one storage binding goes in windows of words (storeWindows); one window otherwise.
  return windows.map((w) => ({
    program,
    arrays: {
      D: { buffer: d.buffer!, offset: w.d.offset, size: Math.min(w.d.size, d.words * 4 - w.d.offset) },
      S: { buffer: view.buffer!, offset: w.w0 * 4, size: w.words * 4 },
      Rs: { buffer: rs.buffer, offset: w.q.offset, size: Math.min(w.q.size, rs.buffer.size - w.q.offset) },
    },
    scalars: { ...layout, ...walk, len: n, top, qmax: top + 1, w0: w.w0, dBase: w.d.base, qBase: w.q.base },
    output: { buffer: out, offset: w.w0 * 4, size: w.words * 4 }, threads: w.words,
  }));
}

/**
 * Copies a scaled range's span words, read back from `buffer` (toDeviceScaledSpan's layout: from the word holding the
 * range's first element), into the range's typed array: one copy of the span's bytes.
 * @param r - the 1-D range
 * @param span - its span on the device (its length)
 * @param buffer - the words to read back (the span's buffer, or the store's output)
 */
export async function scaledSpanToRange(r: ScaledRangeLike, span: DeviceArray, buffer: GpuBuffer): Promise<void> {
  const a = r.accessor;
  const bits = BITS[a.storage.name]!;
  const words = await readWords(span.runtime!.context, buffer, span.words);
  // The span started on a word at element lo of the range's typed array (toDeviceScaledSpan).
  const [lo] = a.extent();
  const first = lo - (lo % (32 / bits));
  const bytes = span.spanLength * (bits / 8);
  new Uint8Array(a.data.buffer, a.data.byteOffset + first * (bits / 8), bytes).set(new Uint8Array(words.buffer, words.byteOffset, bytes));
}
