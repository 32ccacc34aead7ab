/**
 * Split double-double arrays (`dd-split`: the hi block, then the lo block, of a span — dd-split-gpu-words.ts) through
 * the GPU kernels. Kernel inputs on the device are read in their two blocks directly, and outputs written there by
 * the pair store (dd-split-bindings.ts) where one storage binding reaches both blocks ({@link throughInterleaved}).
 * Otherwise a kernel call whose output is dd-split converts the output's span into an interleaved `dd` span on the
 * device (one pass
 * copying each pair's four words as raw bits), runs the dd kernel on the same view of that copy — so the results are
 * those of `dd` storage, bit for bit, with dd's views, windows, limits and errors — and copies the elements of the
 * view's extent back into the two blocks (two raw-bit passes; every other element of the span keeps its bytes). That
 * copy costs one read and one write of the output's span and a buffer of its size for the call; it is released when
 * the call returns. Host-resident arrays (no adapter) are rearranged on the host alike.
 * @module
 */
import { ModprecError } from '../../core/errors.js';
import { ddSplitLoWord } from '../../formats/dd/dd-split-gpu-words.js';
import { bindingLimit, DeviceArray, viewOf, windowOf, type SharedStorage } from './device-array.js';
import { GPU_FORMATS } from './formats.js';
import { kernelSource, memo } from './kernel-common.js';
import { getProgram, submitPasses, type ArgType, type Pass } from './program.js';
import type { GpuRuntime } from './runtime.js';
import { ascendingWalk, serialisedViewWrite } from './view-output.js';

/**
 * Whether `a` is a device array (or view) in dd-split.
 * @param a - anything a kernel was given
 * @returns true for a dd-split array
 */
export function isDdSplit(a: unknown): a is DeviceArray {
  return a instanceof DeviceArray && a.format.name === 'dd-split';
}

/**
 * Span elements a pass binds at once: a multiple of 32 (so every binding of either block and of the interleaved copy
 * starts on a 256-byte boundary) whose interleaved pairs fit one storage binding.
 */
function windowElements(runtime: GpuRuntime): number {
  const limit = bindingLimit(runtime);
  const n = Math.floor(limit / (16 * 32)) * 32;
  if (n < 32) throw new ModprecError('BACKEND_LIMIT', `invalid argument: a dd-split operand is copied in windows of 32 pairs (512 bytes), over this adapter's maxStorageBufferBindingSize of ${limit} bytes`, 'maxStorageBufferBindingSize');
  return n;
}

/** Device passes run by the copies between dd-split and interleaved dd so far (for tests: the direct reads run none). */
let copyPasses = 0;

/**
 * Device passes that copied dd-split spans to or from interleaved dd since the process started (interleaving a span,
 * moving an output's pairs back into its blocks). Kernel inputs read their blocks directly and add none.
 * @returns the count
 */
export function ddSplitCopyPassCount(): number {
  return copyPasses;
}

type Spec = { source: string; args: (readonly [string, ArgType])[] };

/** Thread k: pair k of the interleaved copy from the hi block `H` and the lo block `L` (raw bits; nothing rounds). */
const interleaveSpec = (): Spec => memo('ddSplitInterleave', () => {
  const args: (readonly [string, ArgType])[] = [['H', 'Array'], ['L', 'Array']];
  return { args, source: kernelSource(args, ['const k = this.thread.x * 2;', 'return [H[k], H[k + 1], L[k], L[k + 1]];']) };
});

/** Thread k: the hi (`half` 0) or lo (1) double of pair k of the interleaved copy `D`. */
const halfSpec = (half: 0 | 1): Spec => memo(`ddSplitHalf|${half}`, () => {
  const args: (readonly [string, ArgType])[] = [['D', 'Array']];
  return { args, source: kernelSource(args, [`const k = this.thread.x * 4 + ${2 * half};`, 'return [D[k], D[k + 1]];']) };
});

/** The interleaved dd copy of the span of `split` (on the device, or on the host for a host-resident array). */
async function interleavedSpan(split: DeviceArray): Promise<DeviceArray> {
  const n = split.spanLength;
  const lw = ddSplitLoWord(n);
  const runtime = split.runtime;
  if (!runtime) {
    const w = split.host!.words;
    const out = new Uint32Array(Math.max(1, 4 * n));
    for (let k = 0; k < n; k++) out.set([w[2 * k]!, w[2 * k + 1]!, w[lw + 2 * k]!, w[lw + 2 * k + 1]!], 4 * k);
    return new DeviceArray(undefined, GPU_FORMATS.dd, n, 256, { words: out }, split.fallbackReason);
  }
  const dd = new DeviceArray(runtime, GPU_FORMATS.dd, n, 256, undefined, '');
  if (n === 0) return dd;
  const spec = interleaveSpec();
  const program = await getProgram(runtime.context, { ...spec, components: 4 });
  const size = windowElements(runtime);
  const passes: { pass: Pass }[] = [];
  for (let s = 0; s < n; s += size) {
    const c = Math.min(size, n - s);
    passes.push({ pass: {
      program, scalars: {}, threads: c, output: windowOf(dd, { start: s, count: c }),
      arrays: { H: { buffer: split.buffer!, offset: 8 * s, size: 8 * c }, L: { buffer: split.buffer!, offset: 4 * lw + 8 * s, size: 8 * c } },
    } });
  }
  submitPasses(runtime.context, passes);
  copyPasses += passes.length;
  return dd;
}

/**
 * Copies the elements of the extent of the view `split` (from the 32-element boundary at or below its first element to
 * its last) from the interleaved copy `dd` of its span back into its hi and lo blocks.
 */
async function splitBack(dd: DeviceArray, split: DeviceArray): Promise<void> {
  if (split.length === 0) return;
  const walk = ascendingWalk(split);
  const first = Math.floor(walk.first / 32) * 32, last = walk.first + (split.length - 1) * walk.step;
  const lw = ddSplitLoWord(split.spanLength);
  const runtime = split.runtime;
  if (!runtime) {
    const from = dd.host!.words, words = split.host!.words.slice();
    for (let k = first; k <= last; k++) words.set([from[4 * k]!, from[4 * k + 1]!], 2 * k), words.set([from[4 * k + 2]!, from[4 * k + 3]!], lw + 2 * k);
    split.host = { words };
    split.version++;
    return;
  }
  const programs = await Promise.all(([0, 1] as const).map((h) => getProgram(runtime.context, { ...halfSpec(h), components: 2 })));
  const size = windowElements(runtime);
  const passes: { pass: Pass }[] = [];
  for (let s = first; s <= last; s += size) {
    const c = Math.min(size, last + 1 - s);
    for (const h of [0, 1] as const) {
      passes.push({ pass: {
        program: programs[h]!, scalars: {}, threads: c, arrays: { D: windowOf(dd, { start: s, count: c }) },
        output: { buffer: split.buffer!, offset: 4 * h * lw + 8 * s, size: 8 * c },
      } });
    }
  }
  submitPasses(runtime.context, passes);
  copyPasses += passes.length;
  split.version++;
}

/**
 * Whether a kernel writes the dd-split output `out` in its two blocks in place (dd-split-bindings.ts, the pair store):
 * it is on the device, its buffer fits one storage binding (the pair store binds from a window's hi elements through
 * its lo elements, which lie the lo block's distance — the span's hi bytes — further), the kernel writes it so
 * (`inPlace`: TRSV writes a view through a packed twin and a scatter, which move interleaved pairs only), and no other
 * operand shares its storage (an input in the output's buffer would be read through a snapshot of interleaved words).
 */
function writtenInPlace(out: DeviceArray, operands: readonly unknown[], inPlace: (out: DeviceArray) => boolean): boolean {
  if (!out.runtime || !out.buffer) return out.runtime !== undefined;
  if (out.words * 4 > bindingLimit(out.runtime) || !inPlace(out)) return false;
  return operands.every((a) => a === out || !isDdSplit(a) || a.storage !== out.storage);
}

/**
 * Runs a kernel whose operands may be dd-split arrays: device inputs as they are (the kernels read their two blocks
 * directly, dd-split-bindings.ts), and the output too where the kernel writes its blocks in place (the pair store:
 * {@link writtenInPlace}); else the output's storage — and every operand sharing it — and host-resident arrays on
 * their interleaved dd copies (see the module's notes). `run` receives the map from each operand to what the kernel
 * takes (a copied array's view of its span's copy; anything else itself). Without a copied operand `run` is called
 * at once, and no copy pass runs.
 * @param operands - every array the kernel reads or writes (anything else, undefined included, is passed through)
 * @param output - the array it writes, if any (also among `operands`): its view's elements come back into its blocks
 * @param run - the kernel on the mapped operands
 * @param copyInputs - copy the device inputs too (gpuConvert: the conversion to dd is the copy)
 * @param inPlace - whether the kernel writes the output (a dd-split device array) with the pair store (default: always)
 * @returns what `run` returns
 * @example
 * ```ts
 * return throughInterleaved([x, y], undefined, (dd) => dotOf(dd(x), dd(y), options));
 * ```
 */
export async function throughInterleaved<T>(operands: readonly unknown[], output: unknown, run: (dd: <A>(a: A) => A) => Promise<T>, copyInputs = false, inPlace: (out: DeviceArray) => boolean = () => true): Promise<T> {
  // Inputs on the device read their two blocks directly (dd-split-bindings.ts), and an output written in place its
  // own; an output that is not (and every operand sharing its storage, so that the kernel sees their aliasing as dd's)
  // and host-resident arrays go through the copy.
  const outputStorage = isDdSplit(output) && !writtenInPlace(output, operands, inPlace) ? output.storage : undefined;
  const copied = (a: unknown): a is DeviceArray => isDdSplit(a) && (copyInputs || !a.runtime || a.storage === outputStorage);
  if (!operands.some(copied)) return run((a) => a);
  const go = async (): Promise<T> => {
    const spans = new Map<SharedStorage, DeviceArray>();
    const views = new Map<DeviceArray, DeviceArray>();
    try {
      for (const a of operands) {
        // A destroyed array stays as it is: the kernel's own checks name it (INVALID_STORAGE).
        if (!copied(a) || views.has(a) || (a.runtime && !a.buffer)) continue;
        let span = spans.get(a.storage);
        if (!span) spans.set(a.storage, span = await interleavedSpan(a));
        views.set(a, viewOf(span, { length: a.length, offset: a.offset, stride: a.stride, alwaysView: a.alwaysView }));
      }
      const result = await run(<A>(a: A): A => (copied(a) ? (views.get(a) ?? a) as A : a));
      const copy = isDdSplit(output) ? spans.get(output.storage) : undefined;
      if (copy) await splitBack(copy, output as DeviceArray);
      return result;
    } finally {
      for (const span of spans.values()) span.destroy();
    }
  };
  // Writes through views of one dd-split storage wait for each other: each copies the extent of its view back.
  if (!isDdSplit(output)) return go();
  let result!: T;
  await serialisedViewWrite(output, async () => { result = await go(); });
  return result;
}

/**
 * `o` with its array `o[key]` mapped by `dd` ({@link throughInterleaved}): `o` itself where that changes nothing (its
 * identity keys the kernels' plans), else a copy.
 * @param o - a matrix or ELL operand (or anything a caller passed)
 * @param key - the field holding its elements
 * @param dd - the operand map
 * @returns `o` or its copy
 */
export function withMapped<O>(o: O, key: keyof O & string, dd: <A>(a: A) => A): O {
  if (typeof o !== 'object' || o === null || !isDdSplit(o[key])) return o;
  return { ...o, [key]: dd(o[key]) };
}

/**
 * The field `key` of `o` where `o` is an object (what a kernel's operand list names before validation).
 * @param o - anything
 * @param key - a field name
 * @returns the field, or undefined
 */
export function fieldOf(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined;
}

/**
 * A packed dd array as a new dd-split array (its pairs moved into the two blocks on the device, or on the host for a
 * host-resident array); `dd` is released.
 * @param dd - a packed interleaved dd array (not a view)
 * @returns the dd-split array
 */
export async function ddSplitOf(dd: DeviceArray): Promise<DeviceArray> {
  const words = dd.runtime ? undefined : { words: new Uint32Array(Math.max(1, GPU_FORMATS['dd-split'].words(dd.length))) };
  const split = new DeviceArray(dd.runtime, GPU_FORMATS['dd-split'], dd.length, 256, words, dd.fallbackReason);
  try {
    await splitBack(dd, split);
  } finally {
    dd.destroy();
  }
  return split;
}
