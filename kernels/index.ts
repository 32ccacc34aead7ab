/**
 * Kernels: written once, specialised per accessor signature, run through any accessor.
 * @module
 */
export { dot, type DotOptions } from './dot/dot.js';
export { setKernelDebug, cachedKernelCount } from '../src/backends/cpu/program-cache.js';
export type { KernelOptions } from './shared/kernel-options.js';
export { registerAccumulation, accumulationNames, resolveAccumulation, recursiveAccumulation, gamma, type Accumulation } from './shared/accumulation.js';
export { axpy } from './axpy/axpy.js';
export { waxpby } from './waxpby/waxpby.js';
export { scal } from './scal/scal.js';
export { asum } from './asum/asum.js';
export { nrm2 } from './nrm2/nrm2.js';
export { dotBound, type DotBoundOptions } from './dot/dot-bound.js';
export type { BoundBackendOptions } from './shared/bound-options.js';
export { readRoundings, writeRelativeError, writeAbsoluteError } from './shared/bound-terms.js';
export { gemv, type GemvOptions } from './gemv/gemv.js';
export type { GemvArguments } from './gemv/gemv-arguments.js';
export { gemvBound } from './gemv/gemv-bound.js';
export { trsv } from './trsv/trsv.js';
export type { TrsvArguments } from './trsv/trsv-arguments.js';
export { trsvBound } from './trsv/trsv-bound.js';
export type { TrsvGpuOptions } from './trsv/trsv-block-size.js';
export { ellSpmv } from './ell-spmv/ell-spmv.js';
export type { EllSpmvArguments } from './ell-spmv/ell-spmv-arguments.js';
export { ellSpmvBound } from './ell-spmv/ell-spmv-bound.js';
export { EllOperand, ellOperand, ellFromMatrix, ellWithStorage, type EllStorageOptions } from './ell-spmv/ell-operand.js';
export { axpyBound } from './axpy/axpy-bound.js';
export { waxpbyBound } from './waxpby/waxpby-bound.js';
export { scalBound } from './scal/scal-bound.js';
export { asumBound } from './asum/asum-bound.js';
export { nrm2Bound, nrm2RelativeBound } from './nrm2/nrm2-bound.js';
export { type GpuBackendOptions, type GpuKernelReport } from '../src/backends/webgpu-bridge/gpu-dispatch.js';
export { type CpuBackendOption } from './shared/cpu-backend.js';
export { cpuBackendOf, type CpuBackendOfOptions } from './shared/cpu-backend-of.js';
export { wasmSimdAvailable } from '../src/backends/wasm/wasm-runtime.js';
export { wasmFusedFmaAvailable } from '../src/backends/wasm/wasm-fused-fma.js';
export { wasmArena, WasmArena, type WasmArenaOptions } from '../src/backends/wasm/wasm-arena.js';
