/** DOT under two switch settings on the same operands, for the tests of DOT's one-dispatch forms (bit-for-bit checks). */
import { expect } from 'vitest';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot, type GpuDotOptions } from '../../kernels/dot/dot-webgpu.js';
import { setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';

/**
 * The value with the `base` switches, then `calls` values in a row with the `form` switches (one plan: its counters and
 * slot regions are reused, the parity alternating).
 */
export async function dotBothForms(x: DeviceArray, y: DeviceArray, arithmetic: 'f32' | 'ff', calls: number, switches: { base: Partial<GpuKernelSwitches>; form: Partial<GpuKernelSwitches> }, options: GpuDotOptions = {}): Promise<{ base: number; form: number[] }> {
  setGpuKernelSwitches(switches.base);
  const base = (await gpuDot(x, y, { arithmetic, ...options })).value;
  setGpuKernelSwitches(switches.form);
  const form: number[] = [];
  for (let k = 0; k < calls; k++) form.push((await gpuDot(x, y, { arithmetic, ...options })).value);
  return { base, form };
}

/** Every value has `base`'s bits (NaN for NaN). */
export function expectSameBits(base: number, values: readonly number[]): void {
  for (const v of values) expect(Object.is(v, base), `${v} vs ${base}`).toBe(true);
}
