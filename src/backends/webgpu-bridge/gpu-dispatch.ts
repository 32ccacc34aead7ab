/**
 * The kernels' way onto `backend: 'gpu'`: choosing the backend and checking a call (./gpu-backend.ts) happen here, at
 * once, before anything is written; the runs themselves (upload, dispatch, write-back: ./gpu-runs.ts) load on first
 * use, so a bundle that never asks for the GPU does not carry them.
 * @module
 */
import type { GpuRunInfo } from '../webgpu/kernel-common.js';
import { onGpuOrCpu, type GpuCall } from './gpu-backend.js';
export { isRnsArithmetic, prepareGpuCall } from './gpu-backend.js';
export { chooseBackend } from '../backend.js';
export type { GpuBackendOptions } from './gpu-backend.js';

/**
 * What a GPU run of GEMV, TRSV, ELL SpMV, AXPY, WAXPBY or SCAL reports: backend, adapter, why the CPU ran it.
 * @group Kernels
 */
export type GpuKernelReport = GpuRunInfo;

type Runs = typeof import('./gpu-runs.js');
const runs = (): Promise<Runs> => import('./gpu-runs.js');

/** DOT on the GPU (or the CPU backend, `cpu`, where no adapter exists). */
export const dotOnGpu = (...a: Parameters<Runs['dotOnGpu']>): ReturnType<Runs['dotOnGpu']> => runs().then((m) => m.dotOnGpu(...a));
/** GEMV on the GPU (or `cpu`). */
export const gemvOnGpu = (...a: Parameters<Runs['gemvOnGpu']>): ReturnType<Runs['gemvOnGpu']> => runs().then((m) => m.gemvOnGpu(...a));
/** TRSV on the GPU (or `cpu`). */
export const trsvOnGpu = (...a: Parameters<Runs['trsvOnGpu']>): ReturnType<Runs['trsvOnGpu']> => runs().then((m) => m.trsvOnGpu(...a));
/** ELL SpMV on the GPU (or `cpu`). */
export const ellSpmvOnGpu = (...a: Parameters<Runs['ellSpmvOnGpu']>): ReturnType<Runs['ellSpmvOnGpu']> => runs().then((m) => m.ellSpmvOnGpu(...a));
/** AXPY, WAXPBY and SCAL on the GPU (or `cpu`). */
export const updateOnGpu = (...a: Parameters<Runs['updateOnGpu']>): ReturnType<Runs['updateOnGpu']> => runs().then((m) => m.updateOnGpu(...a));
/** ASUM on the GPU (or `cpu`). */
export const asumOnGpu = (...a: Parameters<Runs['asumOnGpu']>): ReturnType<Runs['asumOnGpu']> => runs().then((m) => m.asumOnGpu(...a));
/** NRM2 on the GPU (or `cpu`). */
export const nrm2OnGpu = (...a: Parameters<Runs['nrm2OnGpu']>): ReturnType<Runs['nrm2OnGpu']> => runs().then((m) => m.nrm2OnGpu(...a));

/**
 * A report of a call that had nothing to run (a quick return), on the backend that would have run it.
 * @param call - the checked call
 * @returns the report
 */
export function quickReport(call: GpuCall): Promise<GpuKernelReport> {
  return onGpuOrCpu<GpuKernelReport>(call, async (_g, report) => report, () => ({}));
}
