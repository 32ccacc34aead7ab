/**
 * Conversion between GPU storage formats on the device (e.g. re-store an fp32 vector as bf16 without a
 * round trip through the host). One thread per output word; values pass through float-float where either
 * format has more than 24 significand bits (or is a scaled integer), so narrowing rounds once: the
 * float-float value is rounded to odd in binary32 and then to nearest even in the 16-bit target.
 *
 * @module
 */
import { fail } from '../errors.js';
import { gpuFF, gpuF32 } from './arithmetic.js';
import { bindingWindows, DeviceArray, windowOf } from './device-array.js';
import { gpuFormat, type GpuFormatName } from './formats.js';
import { arrayArgs, bindArray, kernelSource, memo, runInfo, type GpuRunInfo } from './kernel-common.js';
import { getProgram, submitPasses, type BoundArray, type Pass } from './program.js';
import type { GpuRuntime } from './runtime.js';
import type { GpuBuffer } from './webgpu-types.js';
import type { GpuStorageFormat } from './formats.js';

/**
 * Converts a resident array to another GPU storage format, on the device.
 *
 * @param x - the source array
 * @param format - the target format (one the GPU writes: f32, f16, bf16, ff)
 * @returns the new array and the run report
 * @throws {@link ModprecError} `INVALID_FORMAT` when the target cannot be written on the GPU; `INVALID_STORAGE` for a destroyed source
 * @example
 * ```ts
 * const xb = (await gpuConvert(x, 'bf16')).array;
 * ```
 */
export async function gpuConvert(x: DeviceArray, format: GpuFormatName): Promise<{ array: DeviceArray; info: GpuRunInfo }> {
  if (!(x instanceof DeviceArray)) fail('INVALID_STORAGE', 'x', 'must be a DeviceArray (see toDevice)', x);
  const target = gpuFormat(format, 'format');
  if (!target.writable) fail('INVALID_FORMAT', 'format', 'must be a format the GPU writes (f32, f16, bf16, ff)', format);
  const wide = (f: string): boolean => f === 'f64' || f === 'ff' || f === 'i8' || f === 'i16';
  const arithmetic = wide(x.format.name) || wide(target.name) ? gpuFF : gpuF32;
  const runtime = x.runtime;
  if (!runtime) {
    const encoded = target.encode(await x.toHost(), 'x', 256);
    const array = new DeviceArray(undefined, target, x.length, 256, encoded, x.fallbackReason);
    return { array, info: runInfo(undefined, arithmetic, x.fallbackReason) };
  }
  if (!x.buffer) fail('INVALID_STORAGE', 'x', 'has been destroyed');
  const out = new DeviceArray(runtime, target, x.length, 256, undefined, '');
  if (x.length > 0) {
    // Arrays over one storage binding are converted window by window.
    const windows = bindingWindows([x, out], x.length);
    const passes = [];
    for (const w of windows) passes.push({ pass: await convertPass(runtime, x, target, out.buffer!, windows.length > 1 ? w : undefined) });
    submitPasses(runtime.context, passes);
  }
  return { array: out, info: runInfo(runtime, arithmetic, '') };
}

/**
 * A pass writing `x` converted to `target` into `output` (thread per output word).
 * @param runtime - the runtime
 * @param x - the source (on the device)
 * @param target - a format the GPU writes
 * @param output - the destination buffer (at least target.words(x.length) words)
 * @returns the pass
 */
export async function convertPass(runtime: GpuRuntime, x: DeviceArray, target: GpuStorageFormat, output: GpuBuffer, window?: { start: number; count: number }): Promise<Pass> {
  const wide = (f: string): boolean => f === 'f64' || f === 'ff' || f === 'i8' || f === 'i16';
  const arithmetic = wide(x.format.name) || wide(target.name) ? gpuFF : gpuF32;
  const epw = target.elementsPerWord;
  const { args, body } = memo(`convert|${x.format.name}|${target.name}`, () => {
    const args = [...arrayArgs('X', x), ['n', 'Integer'] as const];
    const body: string[] = [];
    const regs = [];
    for (let e = 0; e < epw; e++) {
      body.push(`let k${e} = this.thread.x * ${epw} + ${e};`, `if (k${e} >= n) { k${e} = n - 1; }`);
      const read = x.format.emitRead('X', `k${e}`, `v${e}`, arithmetic);
      body.push(read.code);
      regs.push(read.register);
    }
    // A last half-filled word repeats its last element; the decoder never looks past `length`.
    body.push(target.emitReturn(regs));
    return { args, body };
  });
  const program = await getProgram(runtime.context, { source: kernelSource(args, body), args, components: target.wordsPerElement === 2 ? 2 : 1 });
  const arrays: Record<string, BoundArray> = {};
  const count = window?.count ?? x.length;
  const scalars: Record<string, number> = { n: count };
  bindArray('X', x, arrays, scalars);
  let out: BoundArray = { buffer: output };
  if (window) {
    arrays.X = windowOf(x, window);
    const wpe = target.wordsPerElement / target.elementsPerWord;
    out = { buffer: output, offset: window.start * wpe * 4, size: Math.max(4, Math.ceil(window.count * wpe) * 4) };
  }
  return { program, arrays, scalars, output: out, threads: Math.ceil(count / epw) };
}
