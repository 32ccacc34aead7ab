/**
 * The GPU backend of the study: loads the library's GPU module (`modprec/gpu`) on demand, opens a device,
 * and describes the GPU configurations. GPU kernels are asynchronous and keep their operands resident
 * in GPU storage formats (f64, f32, f16, bf16, ff = float-float, i16/i8 with block scales) computing in f32 or ff arithmetic;
 * WebGPU has no fp64 arithmetic.
 * @module
 */
import { existsSync } from 'node:fs';
import type { Configuration } from './types.js';

/** The library's GPU module, `modprec/gpu` (loaded only when a GPU configuration runs). */
export type GpuLibrary = typeof import('../modprec-gpu.js');
/** An array resident on the GPU. */
export type GpuArray = import('../modprec-gpu.js').DeviceArray;
/** Which backend ran a GPU call (the library falls back to the CPU without an adapter). */
export type GpuRun = import('../modprec-gpu.js').GpuRunInfo;

/** An open GPU for the study. */
export interface GpuStudy {
  readonly lib: GpuLibrary;
  /** Adapter name and backend, e.g. `NVIDIA H100 (vulkan)`. */
  readonly adapter: string;
  /** Whether the adapter is a software rasteriser (Mesa llvmpipe through OpenGL ES): a CPU in disguise. */
  readonly software: boolean;
}

/**
 * GPU storage formats of real data; the integer ones (i8, i16) carry one binary32 scale per block of 256
 * elements (the GPU module's layout, not the CPU study's per-row scales). dd is the interleaved double-double pair.
 */
export const GPU_STORAGES: readonly string[] = ['dd', 'f64', 'ff', 'f32', 'f16', 'bf16', 'i16', 'i8'];
/** GPU arithmetics (dd: the GPU's integer-based double-double, docs/double-double.md "On the GPU"). */
export const GPU_ARITHMETIC_NAMES: readonly string[] = ['dd', 'ff', 'f32'];
/**
 * Significand bits of the GPU formats (ff: two binary32 words; integers: bits below the sign; dd: the pair's 106,
 * which the GPU dd arithmetic (unit roundoff 2^-110) at least matches).
 */
export const GPU_BITS: Readonly<Record<string, number>> = { dd: 106, f64: 53, ff: 48, f32: 24, f16: 11, bf16: 8, i16: 15, i8: 7 };

/** Storages the GPU dd arithmetic reads (issue 18: dd storage, and fp64 / fp32 / fp16 / bf16 read into dd). */
const DD_READS: readonly string[] = ['dd', 'f64', 'f32', 'f16', 'bf16'];

/**
 * Whether the GPU runs `storage` read in `arithmetic`: dd storage only in dd arithmetic (another arithmetic would
 * drop the low half, a typed error in the library), and dd arithmetic over the storages it reads ({@link DD_READS}).
 */
export function gpuPairRuns(storage: string, arithmetic: string): boolean {
  if (!GPU_STORAGES.includes(storage) || !GPU_ARITHMETIC_NAMES.includes(arithmetic)) return false;
  if (storage === 'dd') return arithmetic === 'dd';
  return arithmetic !== 'dd' || DD_READS.includes(storage);
}

/**
 * The storage of a GPU kernel's output for operands stored in `storage` and computed in `arithmetic`: the
 * same (fp64 outputs are the nearest double of the float-float or binary32 result, which is exact), except
 * the scaled integers, whose results stay in the arithmetic's format (as on the CPU).
 */
export function gpuOutputFormat(storage: string, arithmetic: string): string {
  if (storage === 'i8' || storage === 'i16') return arithmetic;
  return storage;
}

/**
 * The GPU configurations of a mode: `full` every storage × arithmetic the GPU runs ({@link gpuPairRuns}); `quick`
 * those whose arithmetic is at least as precise as the storage, plus f64 storage read in ff (the widest binary32-based
 * arithmetic) — and double-double arithmetic only over dd, f64 and f32 storage (its integer emulation is the slowest).
 */
export function gpuConfigurations(mode: 'quick' | 'full'): Configuration[] {
  const out: Configuration[] = [];
  for (const storage of GPU_STORAGES) {
    for (const arithmetic of GPU_ARITHMETIC_NAMES) {
      if (!gpuPairRuns(storage, arithmetic)) continue;
      const quickDd = arithmetic !== 'dd' || ['dd', 'f64', 'f32'].includes(storage);
      const keep = mode === 'full' || (quickDd && (GPU_BITS[arithmetic]! >= GPU_BITS[storage]! || (storage === 'f64' && arithmetic === 'ff')));
      if (keep) out.push({ storage, arithmetic, backend: 'gpu' });
    }
  }
  return out;
}

/** Whether this machine shows a GPU device node (cheap, no driver loaded): NVIDIA or a DRM render node. */
export function gpuHardwarePresent(): boolean {
  return existsSync('/dev/nvidia0') || existsSync('/dev/dri/renderD128') || existsSync('/dev/dxg');
}

let opened: Promise<GpuStudy | { reason: string }> | undefined;

/**
 * Loads the library's GPU module and opens a device (once per process).
 * @returns the GPU, or the reason there is none
 */
export function openGpu(): Promise<GpuStudy | { reason: string }> {
  opened ??= (async () => {
    let lib: GpuLibrary;
    try {
      // Loaded here, not at start-up: a CPU-only study never loads gpu.js or Dawn.
      lib = await import('../modprec-gpu.js');
    } catch (error) {
      return { reason: `the GPU module could not be loaded (${error instanceof Error ? error.message : String(error)})` };
    }
    const ctx = await lib.gpuDevice();
    if (!ctx) return { reason: `no WebGPU adapter: ${lib.gpuUnavailableReason()}` };
    const a = ctx.adapter;
    // Without a GPU device node the adapter can only be a software rasteriser (Mesa llvmpipe, SwiftShader).
    return { lib, adapter: `${a.name} (${a.backend})`, software: !gpuHardwarePresent() || /llvmpipe|swiftshader/i.test(a.name) };
  })();
  return opened;
}

/** The `format` option of `toDevice`, as the GPU module types it. */
type DeviceFormat = NonNullable<Parameters<GpuLibrary['toDevice']>[1]>['format'];
/** The `arithmetic` option of the GPU kernels, as the GPU module types it. */
type KernelArithmetic = NonNullable<Parameters<GpuLibrary['gpuDot']>[2]>['arithmetic'];

/** Upload options for storage format `storage` (a name from {@link GPU_STORAGES}); strict: no silent CPU fallback. */
export function deviceOptions(storage: string): { format: DeviceFormat; strict: true } {
  return { format: storage as DeviceFormat, strict: true };
}

/**
 * The values of a device array as double-double pairs: exactly, through its format's `decodePair` where it holds
 * more than a double (dd storage, the dd arithmetic's register words, ff); otherwise the doubles with zero low parts.
 */
export async function hostPairs(array: GpuArray): Promise<{ hi: Float64Array; lo: Float64Array }> {
  const decodePair = array.format.decodePair;
  if (!decodePair) return { hi: await array.toHost(), lo: new Float64Array(array.length) };
  const { words } = await array.encoded();
  const w = array.format.wordsPerElement;
  const hi = new Float64Array(array.length), lo = new Float64Array(array.length);
  for (let k = 0; k < array.length; k++) [hi[k], lo[k]] = decodePair(words.subarray(k * w, (k + 1) * w));
  return { hi, lo };
}

/** Kernel options for GPU arithmetic `arithmetic` (a name from {@link GPU_ARITHMETIC_NAMES}). */
export function kernelOptions(arithmetic: string): { arithmetic: KernelArithmetic } {
  return { arithmetic: arithmetic as KernelArithmetic };
}
