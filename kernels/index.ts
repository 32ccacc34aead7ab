/**
 * Kernels: written once, specialised per accessor signature, run through any accessor.
 * @module
 */
export { dot, type DotOptions } from './dot/dot.js';
export { setKernelDebug, cachedKernelCount } from './codegen/program-cache.js';
export type { KernelOptions } from './codegen/kernel-options.js';
export { registerAccumulation, accumulationNames, resolveAccumulation, recursiveAccumulation, gamma, type Accumulation } from './codegen/accumulation.js';
export { axpy } from './axpy/axpy.js';
export { waxpby } from './waxpby/waxpby.js';
export { scal } from './scal/scal.js';
export { asum } from './asum/asum.js';
export { nrm2 } from './nrm2/nrm2.js';
export { dotBound, type DotBoundOptions } from './dot/dot-bound.js';
export { readRoundings, writeRelativeError, writeAbsoluteError } from './codegen/bound-terms.js';
