/**
 * The diagonal block size of the GPU's TRSV as an option of `trsv` and `trsvBound` with `backend: 'gpu'`: the same
 * values as the resident gpuTrsv's `blockSize` (64, 128, 256), validated the same way; the CPU's substitution has no
 * blocks, so the option is a typed error there.
 * @module
 */
import { fail } from '../../src/core/errors.js';
import type { GpuBackendOptions } from '../../src/backends/webgpu-bridge/gpu-backend.js';

/**
 * Options of `trsv` and `trsvBound` on the GPU.
 * @group Kernels
 */
export interface TrsvGpuOptions extends GpuBackendOptions {
  /**
   * Rows of the diagonal blocks the GPU inverts: 64, 128 or 256; by default 64, and 256 in the double-double
   * arithmetic up to 16384 rows (fewer dispatches in a row; docs/double-double.md, TRSV). `trsvBound` with the same options bounds the run with that block size.
   */
  blockSize?: 64 | 128 | 256;
}

/**
 * The GPU TRSV's default block size in the double-double arithmetic (`formats.dd`; 64 in the others). Its lane-split
 * blocked solve issues two dispatches a block, so bigger blocks mean fewer steps in a row: on the H100 (2026-11-27) L N
 * n = 8192 on dd storage took 11.6 / 4.40 / 3.85 ms with blocks of 64 / 128 / 256 (f64 storage: 5.61 / 3.90 /
 * 3.29 ms), against 1.74 ms for fp32 + ff in the same run (bench/gpu/dd-gpu.ts). The block inverses, computed once per
 * matrix, take more passes (one a row of a block). Only up to {@link DD_GPU_TRSV_BLOCK_MAX_N} rows: a matrix over one
 * storage binding is read in windows of whole blocks of columns, and 256 columns of a larger dd matrix could exceed
 * the 128 MiB every adapter binds.
 * @group Kernels
 */
export const DD_GPU_TRSV_BLOCK_SIZE = 256;

/** Most rows for which double-double's default blocks are {@link DD_GPU_TRSV_BLOCK_SIZE} (256 columns of 16-byte elements: 64 MiB); 64 above. */
export const DD_GPU_TRSV_BLOCK_MAX_N = 16384;

/**
 * The GPU TRSV's default block size: {@link DD_GPU_TRSV_BLOCK_SIZE} in the double-double arithmetic up to
 * {@link DD_GPU_TRSV_BLOCK_MAX_N} rows, else 64.
 * @param ddArithmetic - whether the GPU computes in the double-double arithmetic (its GPU part named `dd`)
 * @param n - rows of the triangular matrix
 * @returns the block size
 */
export function defaultGpuTrsvBlockSize(ddArithmetic: boolean, n: number): number {
  return ddArithmetic && n <= DD_GPU_TRSV_BLOCK_MAX_N ? DD_GPU_TRSV_BLOCK_SIZE : 64;
}

/** Block sizes the GPU TRSV accepts. */
export const GPU_TRSV_BLOCK_SIZES: readonly number[] = [64, 128, 256];

/**
 * The block size of `options` for `backend` (when omitted on the GPU: {@link defaultGpuTrsvBlockSize}).
 * @param options - the call's options
 * @param backend - the backend chosen
 * @param ddArithmetic - whether the GPU computes in the double-double arithmetic (its GPU part named `dd`)
 * @param n - rows of the triangular matrix
 * @returns the block size (GPU), or undefined (CPU, where it must be omitted)
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `options.blockSize` for another value, or for any value on the CPU
 * @example
 * ```ts
 * trsvBlockSize({ backend: 'gpu', blockSize: 128 }, 'gpu'); // 128
 * ```
 */
export function trsvBlockSize(options: object, backend: 'cpu' | 'gpu', ddArithmetic = false, n = 0): number | undefined {
  const bs = (options as { blockSize?: unknown }).blockSize;
  if (backend === 'cpu') {
    if (bs !== undefined) fail('INVALID_OPTION', 'options.blockSize', "must be omitted for backend 'cpu' (substitution has no diagonal blocks)", bs);
    return undefined;
  }
  if (bs === undefined) return defaultGpuTrsvBlockSize(ddArithmetic, n);
  if (typeof bs !== 'number' || !GPU_TRSV_BLOCK_SIZES.includes(bs)) fail('INVALID_OPTION', 'options.blockSize', 'must be 64, 128 or 256', bs);
  return bs;
}

/**
 * Refuses `blockSize` for an RNS arithmetic on the GPU, which solves by substitution (no diagonal blocks).
 * @param options - the call's options
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.blockSize` when it is given
 */
export function rnsGpuBlockSize(options: object): void {
  const bs = (options as { blockSize?: unknown }).blockSize;
  if (bs !== undefined) fail('INVALID_OPTION', 'options.blockSize', 'must be omitted with an RNS arithmetic on the GPU (it solves by substitution, without diagonal blocks)', bs);
}
