/**
 * Conversion between GPU storage formats on the device (e.g. re-store an fp32 vector as bf16 without a
 * round trip through the host). One thread per output word; values pass through float-float where either
 * format has more than 24 significand bits (or is a scaled integer), so narrowing rounds once: the
 * float-float value is rounded to odd in binary32 and then to nearest even in the 16-bit target.
 *
 * @module
 */
import { checkSize, fail } from '../../core/errors.js';
import { gpuFF, gpuF32, type GpuArithmetic, type GpuRegister } from './arithmetic.js';
import { bindingWindows, bindWindow, DeviceArray, splitBindings, windowOf } from './device-array.js';
import { gpuFormat, type GpuFormatName } from './formats.js';
import { arrayArgs, bindArray, elementIndex, type GpuRunInfo, kernelSource, memo, outputComponents, readKey, runInfo, defaultGpuArithmetic, exactBits } from './kernel-common.js';
import { getProgram, submitPasses, type BoundArray, type Pass } from './program.js';
import { readWords, type GpuRuntime } from './runtime.js';
import { integerMax, scaledConvertPasses } from './convert-scaled.js';
import type { GpuBuffer } from './webgpu-types.js';
import { gatherView, laneOutputOf, laneValues, outputWindow, writesLanes } from './view-output.js';
import type { GpuStorageFormat } from './formats.js';
import { checkGpuOptions } from '../backend.js';
import { ddSplitOf, throughInterleaved } from './dd-split-device.js';
import { isDdPairFormat } from './dd-split-bindings.js';

/**
 * Options of {@link gpuConvert}.
 * @group GPU
 */
export interface GpuConvertOptions {
  /** Elements per scale when the target is i8 or i16 (default: the source's block when it is scaled, else 256). */
  readonly scaleBlock?: number;
}

/**
 * Converts a resident array to another GPU storage format, on the device.
 *
 * Every pair of GPU formats converts. Narrowing rounds once to nearest even (values pass through
 * float-float where either side has more than 24 significand bits); f64 targets get the double nearest the
 * float-float value (exact for sources of at most 48 bits; an f64 source is copied word for word when the
 * target is f64 too); i8 and i16 targets get per-block scales — the smallest binary32 s with s·qmax at least
 * the block's largest magnitude, as {@link toDevice} chooses them — and each value's nearest integer
 * multiple of its scale (see convert-scaled.ts).
 *
 * @param x - the source array
 * @param format - the target format
 * @param options - scale block of integer targets
 * @returns the new array and the run report
 * @throws {@link modprec!ModprecError} `INVALID_FORMAT` for an unknown format; `INVALID_STORAGE` for a destroyed
 *   source; `INVALID_SIZE` for a bad scale block; `INVALID_VALUE` (naming `x`) when an integer target meets
 *   a non-finite value or a block maximum whose scale is not a normal binary32 (the new array is released)
 * @example
 * ```ts
 * import { toDevice, gpuConvert } from 'modprec/gpu';
 *
 * const x = await toDevice([1, 1 / 3, -200], { format: 'f32' });
 * const { array: xb } = await gpuConvert(x, 'bf16');
 * await xb.toHost(); // → Float64Array(3) [ 1, 0.333984375, -200 ]
 * const { array: xi } = await gpuConvert(x, 'i8', { scaleBlock: 64 }); // one scale per 64 values
 * // s is the smallest binary32 with 127·s ≥ 200, so -200 becomes -127·s
 * (await xi.toHost())[2]; // → -200.00001060962677
 * ```
 * @group GPU
 */
export async function gpuConvert(x: DeviceArray, format: GpuFormatName, options: GpuConvertOptions = {}): Promise<{ array: DeviceArray; info: GpuRunInfo }> {
  // dd-split goes through interleaved dd (dd-split-device.ts): a source as its copy, a target as dd, then split.
  if (format === 'dd-split') {
    const { array, info } = await gpuConvert(x, 'dd', options);
    return { array: await ddSplitOf(array), info };
  }
  // A dd-split source is interleaved (its pairs' bits: the conversion to dd is that copy; to other formats, dd's).
  return throughInterleaved([x], undefined, (dd) => gpuConvertOf(dd(x), format, options), true);
}

/** gpuConvert from a source in the kernels' layouts. */
async function gpuConvertOf(x: DeviceArray, format: GpuFormatName, options: GpuConvertOptions): Promise<{ array: DeviceArray; info: GpuRunInfo }> {
  checkGpuOptions(options);
  if (!(x instanceof DeviceArray)) fail('INVALID_STORAGE', 'x', 'must be a DeviceArray (see toDevice)', x);
  const target = gpuFormat(format, 'format');
  if (!target.writable && !target.scaled) fail('INVALID_FORMAT', 'format', 'must be a format the GPU writes', format);
  const scaleBlock = checkSize('options.scaleBlock', options.scaleBlock ?? (x.format.scaled ? x.scaleBlock : 256));
  if (scaleBlock < 1) fail('INVALID_SIZE', 'options.scaleBlock', 'must be at least 1', scaleBlock);
  // The default arithmetic of registers that hold both formats' values exactly (scaled integers: the product
  // with their binary32 scale): f32 between formats of at most 24 bits, float-float through f64, ff, i8, i16.
  const arithmetic = defaultGpuArithmetic([x.format, target], exactBits);
  const runtime = x.runtime;
  if (!runtime) {
    const encoded = target.encode(await x.toHost(), 'x', scaleBlock);
    const array = new DeviceArray(undefined, target, x.length, scaleBlock, encoded, x.fallbackReason);
    return { array, info: runInfo(undefined, arithmetic, x.fallbackReason) };
  }
  if (!x.buffer) fail('INVALID_STORAGE', 'x', 'has been destroyed');
  const out = new DeviceArray(runtime, target, x.length, scaleBlock, undefined, '');
  if (x.length === 0) return { array: out, info: runInfo(runtime, arithmetic, '') };
  if (target.scaled) {
    submitPasses(runtime.context, (await scaledConvertPasses(runtime, x, out, gpuFF)).map((pass) => ({ pass })));
    await checkScales(out);
  } else if (x.isView && x.format.name === target.name && !target.scaled) {
    // A strided view in its own format: its elements' bits, packed.
    await gatherView(runtime, x, out);
  } else if (x.format === target) {
    // The same format: a copy of the words keeps every bit (a pass through an arithmetic might not: f64 → ff → f64
    // keeps 48 bits).
    const encoder = runtime.context.device.createCommandEncoder();
    encoder.copyBufferToBuffer(x.buffer, 0, out.buffer!, 0, x.words * 4);
    runtime.context.device.queue.submit([encoder.finish()]);
  } else {
    // Arrays over one storage binding are converted window by window.
    const windows = bindingWindows([x, out], x.length);
    const split = splitBindings([x, out]);
    const passes = [];
    for (const w of windows) passes.push({ pass: await convertPass(runtime, x, target, out.buffer!, split ? w : undefined) });
    submitPasses(runtime.context, passes);
  }
  return { array: out, info: runInfo(runtime, arithmetic, '') };
}


/** Throws `INVALID_VALUE` (after releasing `out`) when the scale pass marked a block as unrepresentable. */
async function checkScales(out: DeviceArray): Promise<void> {
  const blocks = Math.ceil(out.length / out.scaleBlock);
  const words = await readWords(out.runtime!.context, out.scales!, blocks);
  const scales = new Float32Array(words.buffer, words.byteOffset, blocks);
  const bad = scales.findIndex((s) => !(s > 0));
  if (bad >= 0) {
    out.destroy();
    fail('INVALID_VALUE', 'x', `must be finite, with block maxima at least 2^-126·${integerMax(out.format)} in magnitude, for ${out.format.name} storage on the GPU (block ${bad}, elements ${bad * out.scaleBlock}…${Math.min(out.length, (bad + 1) * out.scaleBlock) - 1})`);
  }
}

/**
 * A pass writing the packed `x` converted into the output view `out`'s format into `out`'s elements of its span, in
 * place (view-output.ts: a strided-output program; `writesInPlace` or `writesLanes` must hold for `out`, and the
 * window's extent must fit one binding): a thread per word of a view the word store takes, else a sub-word lane per thread.
 * Nothing else of the span changes.
 * @param runtime - the runtime
 * @param x - the source, the window's elements (packed, or a view of a packed array from the window's first)
 * @param out - the output view
 * @param window - the view's elements written (all by default; a start a multiple of the format's elements per word)
 * @returns the pass
 */
export async function convertIntoViewPass(runtime: GpuRuntime, x: DeviceArray, out: DeviceArray, window = { start: 0, count: out.length }): Promise<Pass> {
  const target = out.format;
  const arithmetic = defaultGpuArithmetic([x.format, target], exactBits);
  const lanes = writesLanes(out);
  const epw = lanes ? 1 : target.elementsPerWord;
  const { args, body } = memo(`convertInto|${readKey(x)}|${target.name}|${lanes}`, () => {
    const args = [...arrayArgs('X', x), ['n', 'Integer'] as const, ['OutOff', 'Integer'] as const, ['OutInc', 'Integer'] as const];
    // The store goes to unit OutOff + t·OutInc (applyStridedOutput); gpu.js keeps only arguments the source names.
    const body: string[] = ['const outUnit = OutOff + this.thread.x * OutInc;'];
    const regs = readThreadElements(x, epw, arithmetic, body);
    // A lane store takes its element's bits from lane 0; a word store's last lanes past the view are outside the span
    // (writesInPlace).
    body.push(target.emitReturn(lanes ? laneValues(target.elementsPerWord, regs[0]!) : regs));
    return { args, body };
  });
  const program = await getProgram(runtime.context, { source: kernelSource(args, body), args, components: outputComponents(target), stridedOutput: true, laneOutput: laneOutputOf(out) });
  const arrays: Record<string, BoundArray> = {};
  const scalars: Record<string, number> = { n: window.count };
  bindArray('X', x, arrays, scalars);
  const o = outputWindow(out, window, lanes);
  Object.assign(scalars, o.scalars);
  return { program, arrays, scalars, output: o.bound, threads: Math.ceil(window.count / epw) };
}

/**
 * Reads a thread's `epw` elements of X (elements t·epw … t·epw + epw − 1; an index at or past n reads element n − 1) into
 * registers v0 … v(epw−1): the code goes into `body`, the registers are returned.
 */
function readThreadElements(x: DeviceArray, epw: number, arithmetic: GpuArithmetic, body: string[]): GpuRegister[] {
  const regs: GpuRegister[] = [];
  for (let e = 0; e < epw; e++) {
    body.push(`let k${e} = this.thread.x * ${epw} + ${e};`, `if (k${e} >= n) { k${e} = n - 1; }`);
    const read = x.format.emitRead('X', elementIndex('X', x, `k${e}`), `v${e}`, arithmetic);
    body.push(read.code);
    regs.push(read.register);
  }
  return regs;
}

/**
 * A pass writing `x` converted to `target` into `output` (thread per output word).
 * @param runtime - the runtime
 * @param x - the source (on the device)
 * @param target - a format kernels write (not a scaled integer)
 * @param output - the destination buffer (at least target.words(x.length) words)
 * @returns the pass
 */
export async function convertPass(runtime: GpuRuntime, x: DeviceArray, target: GpuStorageFormat, output: GpuBuffer, window?: { start: number; count: number }): Promise<Pass> {
  // The default arithmetic of registers that hold both formats' values exactly (scaled integers: the product
  // with their binary32 scale): f32 between formats of at most 24 bits, float-float through f64, ff, i8, i16.
  const arithmetic = defaultGpuArithmetic([x.format, target], exactBits);
  const epw = target.elementsPerWord;
  const { args, body } = memo(`convert|${readKey(x)}|${target.name}`, () => {
    const args = [...arrayArgs('X', x), ['n', 'Integer'] as const];
    const body: string[] = [];
    const regs = readThreadElements(x, epw, arithmetic, body);
    // A last half-filled word repeats its last element; the decoder never looks past `length`.
    body.push(target.emitReturn(regs));
    return { args, body };
  });
  // A dd pair target gets the pair store: a dd-split output buffer (createSpanBuffer) is written in its two blocks.
  const program = await getProgram(runtime.context, { source: kernelSource(args, body), args, components: outputComponents(target), pairOutput: isDdPairFormat(target) });
  const arrays: Record<string, BoundArray> = {};
  const count = window?.count ?? x.length;
  const scalars: Record<string, number> = { n: count };
  bindArray('X', x, arrays, scalars);
  let out: BoundArray = { buffer: output };
  if (window) {
    bindWindow('X', x, window, arrays, scalars);
    const wpe = target.wordsPerElement / target.elementsPerWord;
    out = { buffer: output, offset: window.start * wpe * 4, size: Math.max(4, Math.ceil(window.count * wpe) * 4) };
  }
  return { program, arrays, scalars, output: out, threads: Math.ceil(count / epw) };
}
