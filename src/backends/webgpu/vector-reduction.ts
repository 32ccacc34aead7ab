/**
 * The host side that every one-vector GPU reduction (ASUM, NRM2) shares: operand checks, the arithmetic, and the
 * choice between the device program and the CPU kernel for host-resident arrays.
 * @module
 */
import { fail } from '../../core/errors.js';
import type { GpuArithmetic } from './arithmetic.js';
import { checkOperandBinding, DeviceArray } from './device-array.js';
import { allowFallback, chooseArithmetic, commonRuntime, runInfo, type GpuKernelOptions, type GpuRunInfo } from './kernel-common.js';
import type { GpuRuntime } from './runtime.js';

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
): Promise<{ value: number } & GpuRunInfo> {
  if (!(x instanceof DeviceArray)) fail('INVALID_STORAGE', 'x', 'must be a DeviceArray (see toDevice)', x);
  checkOperandBinding('x', x);
  const arithmetic = chooseArithmetic(options, [x]);
  const runtime = commonRuntime({ x }, ['x']);
  if (!runtime) {
    allowFallback(options, x.fallbackReason);
    return { value: await onHost(x, arithmetic), ...runInfo(undefined, arithmetic, x.fallbackReason) };
  }
  const value = x.length === 0 ? 0 : await onDevice(runtime, x, arithmetic);
  return { value, ...runInfo(runtime, arithmetic, '') };
}
