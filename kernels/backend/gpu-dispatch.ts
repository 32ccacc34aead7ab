/**
 * `backend: 'gpu'` for the main kernels: uploads host ranges in their own storage format, runs the
 * gpu.js-compiled WebGPU kernel (or its CPU fallback where no adapter exists, unless `strict`), and writes the
 * result back through the output range. For data that stays on the device between calls, use the resident
 * API of `src/gpu` (toDevice, gpuDot, gpuGemv, …) directly: this path uploads on every call.
 * @module
 */
import type { Range } from '../../src/range.js';
import { fail } from '../../src/errors.js';
import type { GpuArithmeticName } from '../../src/gpu/arithmetic.js';
import type { GpuFormatName } from '../../src/gpu/formats.js';
import type { GpuRunInfo } from '../../src/gpu/kernel-common.js';
import type { DeviceArray } from '../../src/gpu/device-array.js';
import type { GpuDotResult } from '../../src/gpu/dot.js';

/** Options that send a kernel to the GPU. */
export interface GpuBackendOptions {
  /** Run on WebGPU through gpu.js-compiled kernels (the result is a Promise). */
  backend: 'gpu';
  /** GPU arithmetic: `f32` or `ff` (float-float, ~48 bits). Default: `ff` when an operand is stored in fp64. */
  arithmetic?: GpuArithmeticName;
  /** Throw `BACKEND_UNAVAILABLE` instead of running the CPU fallback when no WebGPU adapter exists. */
  strict?: boolean;
}

/** What a GPU run of GEMV, TRSV or ELL SpMV reports: which backend and adapter ran it, and why a fallback happened. */
export type GpuKernelReport = GpuRunInfo;

/** Whether the options ask for the GPU backend. @throws {@link ModprecError} `INVALID_OPTION` for an unknown backend */
export function wantsGpu(options: { backend?: unknown } | undefined): options is GpuBackendOptions {
  const b = options?.backend;
  if (b === undefined || b === 'cpu') return false;
  if (b === 'gpu') return true;
  return fail('INVALID_OPTION', 'options.backend', "must be 'cpu' or 'gpu'", b);
}

const UPLOADABLE: Record<string, GpuFormatName> = { f64: 'f64', f32: 'f32', f16: 'f16', bf16: 'bf16' };

/** The GPU storage format a range is uploaded in (its own), or a typed error naming the operand. */
function gpuFormatOf(name: string, r: Range<any, any>, output: boolean): GpuFormatName {
  const st = r.accessor.storage.name;
  if (r.accessor.scale) {
    fail('INVALID_FORMAT', name, "is scaled: upload it with toDevice(…, { format: 'i8' | 'i16' }) and call the gpu* kernels", st);
  }
  const f = UPLOADABLE[st];
  if (!f) fail('INVALID_FORMAT', name, `must be stored in f64, f32, f16 or bf16 for backend 'gpu'`, st);
  // fp64 cannot be written on the device; an fp64 output is computed into float-float and rounded on the host.
  return output && f === 'f64' ? 'ff' : f;
}

async function gpu() {
  return import('../../src/gpu/index.js');
}

async function upload(name: string, r: Range<any, any>, options: GpuBackendOptions, output = false): Promise<DeviceArray> {
  const g = await gpu();
  return g.toDevice(r as never, { format: gpuFormatOf(name, r, output), strict: options.strict });
}

/** An output whose old values are not read (β = 0) is allocated on the device rather than uploaded. */
async function outputOf(name: string, r: Range<1, any>, beta: number, options: GpuBackendOptions): Promise<DeviceArray> {
  if (beta !== 0) return upload(name, r, options, true);
  const g = await gpu();
  return g.deviceZeros(r.length(), { format: gpuFormatOf(name, r, true), strict: options.strict });
}

async function writeBack(r: Range<1, any>, d: DeviceArray): Promise<void> {
  const v = await d.toHost();
  for (let i = 0; i < v.length; i++) r.set(i, v[i]!);
}

function free(...arrays: DeviceArray[]): void {
  for (const a of arrays) a.destroy();
}

/** DOT on the GPU. */
export async function dotOnGpu(x: Range<1, any>, y: Range<1, any>, options: GpuBackendOptions): Promise<GpuDotResult> {
  const g = await gpu();
  const dx = await upload('x', x, options);
  const dy = await upload('y', y, options);
  try {
    return await g.gpuDot(dx, dy, { arithmetic: options.arithmetic, strict: options.strict });
  } finally {
    free(dx, dy);
  }
}

/** GEMV on the GPU: y := α·op(A)·x + β·y, written back through y. */
export async function gemvOnGpu(
  args: { alpha: number; A: Range<2, any>; x: Range<1, any>; beta: number; y: Range<1, any>; trans?: 'N' | 'T' },
  options: GpuBackendOptions,
): Promise<GpuKernelReport> {
  const g = await gpu();
  const m = args.A.length(0), n = args.A.length(1);
  const dA = await upload('A', args.A, options);
  const dx = await upload('x', args.x, options);
  const dy = await outputOf('y', args.y, args.beta, options);
  try {
    const info = await g.gpuGemv({ A: g.deviceMatrix(dA, m, n, Math.max(1, m)), x: dx, y: dy, alpha: args.alpha, beta: args.beta, trans: args.trans ?? 'N' },
      { arithmetic: options.arithmetic, strict: options.strict });
    await writeBack(args.y, dy);
    return info;
  } finally {
    free(dA, dx, dy);
  }
}

/** TRSV on the GPU: x := op(A)⁻¹·x, written back through x. */
export async function trsvOnGpu(
  args: { A: Range<2, any>; x: Range<1, any>; uplo?: 'U' | 'L'; trans?: 'N' | 'T'; diag?: 'N' | 'U' },
  options: GpuBackendOptions,
): Promise<GpuKernelReport> {
  const g = await gpu();
  const n = args.A.length(0);
  const dA = await upload('A', args.A, options);
  const dx = await upload('x', args.x, options, true);
  try {
    const info = await g.gpuTrsv({ A: g.deviceMatrix(dA, n, n, Math.max(1, n)), x: dx, uplo: args.uplo ?? 'L', trans: args.trans ?? 'N', diag: args.diag ?? 'N' },
      { arithmetic: options.arithmetic, strict: options.strict });
    await writeBack(args.x, dx);
    return info;
  } finally {
    free(dA, dx);
  }
}

/** ELL SpMV on the GPU: y := α·A·x + β·y, written back through y. */
export async function ellSpmvOnGpu(
  args: { alpha: number; A: { structure: { rows: number; cols: number; width: number; stride: number; colIndex: Int32Array }; values: Range<2, any> }; x: Range<1, any>; beta: number; y: Range<1, any> },
  options: GpuBackendOptions,
): Promise<GpuKernelReport> {
  const g = await gpu();
  const { rows, cols, width, stride, colIndex } = args.A.structure;
  const values = args.A.values;
  // The stored values exactly (not rounded to the range's arithmetic); padding slots stay 0.
  const flat = new Float64Array(stride * width);
  const a = values.accessor;
  const vr = values.length(0);
  for (let k = 0; k < width; k++) {
    for (let i = 0; i < vr; i++) {
      if (colIndex[i + k * stride]! >= 0) flat[i + k * stride] = a.storage.decode(a.data as never, a.linearIndex([i, k])) as number;
    }
  }
  const dA = await g.toDeviceEll({ rows, cols, width, stride, colIndex, values: flat }, { format: gpuFormatOf('A.values', values, false), strict: options.strict });
  const dx = await upload('x', args.x, options);
  const dy = await outputOf('y', args.y, args.beta, options);
  try {
    const info = await g.gpuEllSpmv({ A: dA, x: dx, y: dy, alpha: args.alpha, beta: args.beta }, { arithmetic: options.arithmetic, strict: options.strict });
    await writeBack(args.y, dy);
    return info;
  } finally {
    free(dA.values, dx, dy);
  }
}
