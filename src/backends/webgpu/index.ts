/**
 * modprec on the GPU: resident arrays in GPU storage formats (f32, f16, bf16, f64, ff, i8, i16) and
 * gpu.js-compiled WebGPU kernels — DOT, GEMV, TRSV, ELL SpMV, format conversion — in f32 or float-float
 * arithmetic, with a CPU fallback where no adapter exists; RNS multiple precision on device mp_arrays
 * (`rnsToDevice`, `rnsGpuDot`, `rnsGpuGemv`, `rnsGpuTrsv`, `rnsGpuEllSpmv`, `rnsGpuWaxpby`, `rnsGpuAsum`, `rnsGpuNrm2`, …). See docs/gpu.md and docs/rns.md.
 *
 * @module modprec/gpu
 */
import { provideHostKernels } from './host-kernels.js';
import { dot } from '../../../kernels/dot/dot.js';
import { gemv } from '../../../kernels/gemv/gemv.js';
import { trsv } from '../../../kernels/trsv/trsv.js';
import { ellSpmv } from '../../../kernels/ell-spmv/ell-spmv.js';
import { ellOperand } from '../../../kernels/ell-spmv/ell-operand.js';
import { waxpby } from '../../../kernels/waxpby/waxpby.js';
import { asum } from '../../../kernels/asum/asum.js';
import { nrm2 } from '../../../kernels/nrm2/nrm2.js';

export * from './api.js';

// Host-resident arrays (no adapter) run on these CPU kernels; handed over here, not imported by the fallback.
provideHostKernels({ dot, gemv, trsv, ellSpmv, ellOperand, waxpby, asum, nrm2 });
