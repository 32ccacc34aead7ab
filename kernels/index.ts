/**
 * Kernels: written once, specialised per accessor signature, run through any accessor.
 * @module
 */
export { dot, type DotOptions } from './dot/dot.js';
export { setKernelDebug, cachedKernelCount } from './codegen/program-cache.js';
export type { KernelOptions } from './codegen/kernel-options.js';
export { registerAccumulation, accumulationNames, resolveAccumulation, recursiveAccumulation, gamma, type Accumulation } from './codegen/accumulation.js';
