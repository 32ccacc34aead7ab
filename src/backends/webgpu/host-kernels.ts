/**
 * The CPU kernels the resident API's host fallback (./host-fallback.ts) runs, handed over by whoever loads the GPU
 * API for users: the entry `modprec/gpu` (./index.ts) and the GPU solvers (src/solvers/solve-start.ts). The fallback
 * does not import them because it sits in lazily loaded chunks: esbuild puts a file that a lazy chunk imports and
 * the main entry reaches into a chunk the page loads, so a static import here made TRSV, ELL SpMV, the updates, ASUM
 * and NRM2 (about 28 KB) load with every CPU-only `import { dot } from 'modprec'`.
 * @module
 */
import type { dot } from '../../../kernels/dot/dot.js';
import type { gemv } from '../../../kernels/gemv/gemv.js';
import type { trsv } from '../../../kernels/trsv/trsv.js';
import type { ellSpmv } from '../../../kernels/ell-spmv/ell-spmv.js';
import type { ellOperand } from '../../../kernels/ell-spmv/ell-operand.js';
import type { waxpby } from '../../../kernels/waxpby/waxpby.js';
import type { asum } from '../../../kernels/asum/asum.js';
import type { nrm2 } from '../../../kernels/nrm2/nrm2.js';

/** The CPU kernels a host-resident call runs. */
export interface HostKernels {
  dot: typeof dot;
  gemv: typeof gemv;
  trsv: typeof trsv;
  ellSpmv: typeof ellSpmv;
  ellOperand: typeof ellOperand;
  waxpby: typeof waxpby;
  asum: typeof asum;
  nrm2: typeof nrm2;
}

let provided: HostKernels | undefined;

/** Hands the CPU kernels to the host fallback (the last call wins; every caller hands the same kernels). */
export function provideHostKernels(kernels: HostKernels): void {
  provided = kernels;
}

/** The CPU kernels handed over; an internal error where no loader handed them (a library bug, not a user's). */
export function hostKernels(): HostKernels {
  if (!provided) throw new Error('modprec internal error: the GPU API was loaded without its host fallback kernels (import modprec/gpu, or provideHostKernels)');
  return provided;
}
