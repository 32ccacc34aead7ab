/**
 * DOT's windowed dd multiply-adds (ddGpuArithmeticWindowOf(K), src/formats/dd/dd-gpu-window-wgsl.ts) against the exact
 * BigInt oracle, on llvmpipe: the properties of dd-window-dot-cases.ts (genuine double-doubles over a wide exponent
 * range, unnormalised pairs and subnormal products, ill-conditioned DOTs to cond 1e30, f64 and mixed operands, runs of
 * maximal significands — every finite result within γ_{2n}(2^-110)·Σ|x_i·y_i| and the CPU dd dotBound; ±∞ and NaN as
 * the unfused multiply-adds) for the wide term form, with windows of 1 and 2 terms (4 and 8: `MODPREC_SLOW_TESTS=1`).
 */
import { ddGpuArithmeticWindowOf } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { describeWindowedDot } from './dd-window-dot-cases.js';

describeWindowedDot({ title: 'windowed dd DOT on the GPU', name: (terms) => `dd-window${terms}`, gpu: (terms) => ddGpuArithmeticWindowOf(terms), windowsOfOne: true });
