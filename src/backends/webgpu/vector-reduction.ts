/**
 * The host side that every one-vector GPU reduction (ASUM, NRM2) shares: operand checks, the arithmetic, and the
 * choice between the device program and the CPU kernel for host-resident arrays.
 * @module
 */
import { fail } from '../../core/errors.js';
import type { GpuArithmetic } from './arithmetic.js';
import { bindingWindows, bindWindow, DeviceArray, splitBindings } from './device-array.js';
import { allowFallback, bindArray, chooseArithmetic, commonRuntime, runInfo, type GpuKernelOptions, type GpuRunInfo } from './kernel-common.js';
import type { BoundArray } from './program.js';
import type { GpuBuffer } from './webgpu-types.js';
import type { GpuRuntime } from './runtime.js';
import { checkResidentOptions } from './resident-options.js';

/**
 * Runs a reduction of `x` to one number: on the device with `onDevice` (0 for an empty x), or — for a
 * host-resident x, where the options allow the fallback — with `onHost`, the CPU kernel on the same values.
 * @returns the value and the run report
 */
export async function runVectorReduction(
  x: DeviceArray,
  options: GpuKernelOptions,
  onDevice: (runtime: GpuRuntime, x: DeviceArray, arithmetic: GpuArithmetic) => Promise<number>,
  onHost: (x: DeviceArray, arithmetic: GpuArithmetic) => Promise<number>,
  call: 'gpuAsum' | 'gpuNrm2',
): Promise<{ value: number } & GpuRunInfo> {
  checkResidentOptions(options, call);
  if (!(x instanceof DeviceArray)) fail('INVALID_STORAGE', 'x', 'must be a DeviceArray (see toDevice)', x);
  const arithmetic = chooseArithmetic(options, [x]);
  const runtime = commonRuntime({ x }, ['x']);
  if (!runtime) {
    allowFallback(options, x.fallbackReason);
    return { value: await onHost(x, arithmetic), ...runInfo(undefined, arithmetic, x.fallbackReason) };
  }
  const value = x.length === 0 ? 0 : await onDevice(runtime, x, arithmetic);
  return { value, ...runInfo(runtime, arithmetic, '') };
}

/** One first pass of a reduction: its bindings of x, its uniforms (`n`, `T`, x's offset) and where its partials go. */
export interface FirstPass {
  readonly arrays: Record<string, BoundArray>;
  readonly scalars: Record<string, number>;
  readonly output: BoundArray;
}

/**
 * The first passes of a reduction of `x` (argument `X`) by `threads` threads: one pass over all of x, or — for an x over
 * one storage binding — one per binding window ({@link bindingWindows}), each with `threads` rounded up to 64 threads
 * and its partials in its own 256-byte-aligned slot of `partials`, so the reduction passes after them see one array of
 * `count` partials.
 * @param x - the vector (packed or a view)
 * @param threads - first-pass threads of the unsplit reduction
 * @param components - words per partial
 * @returns the windows' count, the total partial count and a function making window k's pass on `partials`
 */
export function firstPasses(x: DeviceArray, threads: number, components: number): { windows: number; count: number; pass: (k: number, partials: GpuBuffer, scalars?: Record<string, number>) => FirstPass } {
  const windows = bindingWindows([x], x.length);
  const split = splitBindings([x]);
  const perWindow = windows.length === 1 ? threads : Math.ceil(threads / 64) * 64;
  return {
    windows: windows.length,
    count: perWindow * windows.length,
    pass(k, partials, extra = {}) {
      const w = windows[k]!;
      const arrays: Record<string, BoundArray> = {};
      const scalars: Record<string, number> = { ...extra, n: w.count, T: perWindow };
      bindArray('X', x, arrays, scalars);
      if (!split) return { arrays, scalars, output: { buffer: partials } };
      bindWindow('X', x, w, arrays, scalars);
      return { arrays, scalars, output: { buffer: partials, offset: k * perWindow * components * 4, size: perWindow * components * 4 } };
    },
  };
}
