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
   * Rows of the diagonal blocks the GPU inverts: 64 (default), 128 or 256. `trsvBound` with the same options bounds
   * the run with that block size.
   */
  blockSize?: 64 | 128 | 256;
}

/** Block sizes the GPU TRSV accepts. */
export const GPU_TRSV_BLOCK_SIZES: readonly number[] = [64, 128, 256];

/**
 * The block size of `options` for `backend` (64 when omitted on the GPU).
 * @param options - the call's options
 * @param backend - the backend chosen
 * @returns the block size (GPU), or undefined (CPU, where it must be omitted)
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `options.blockSize` for another value, or for any value on the CPU
 * @example
 * ```ts
 * trsvBlockSize({ backend: 'gpu', blockSize: 128 }, 'gpu'); // 128
 * ```
 */
export function trsvBlockSize(options: object, backend: 'cpu' | 'gpu'): number | undefined {
  const bs = (options as { blockSize?: unknown }).blockSize;
  if (backend === 'cpu') {
    if (bs !== undefined) fail('INVALID_OPTION', 'options.blockSize', "must be omitted for backend 'cpu' (substitution has no diagonal blocks)", bs);
    return undefined;
  }
  if (bs === undefined) return 64;
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
