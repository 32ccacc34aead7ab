/**
 * What ELL SpMV on the GPU still refuses with `BACKEND_LIMIT` (naming `maxStorageBufferBindingSize`) when an operand
 * exceeds one storage binding, and why: data for the capability table (src/backends/capabilities.ts), kept beside
 * the checks that raise them (kernels/ell-spmv/ell-spmv-webgpu.ts, ell-spmv-chain-webgpu.ts,
 * src/backends/webgpu/device-array.ts). Everything else of ELL SpMV over a binding is split (docs/gpu.md, Limits).
 * @module
 */

/** One case a backend refuses for its size, with the reason. */
export interface BindingLimitCase {
  /** The kernel. */
  readonly kernel: string;
  /** The operand and the condition. */
  readonly when: string;
  /** Why it is not split. */
  readonly reason: string;
}

/**
 * ELL SpMV's remaining `BACKEND_LIMIT` cases on the GPU. Block-scaled values over a binding, packed or a matrix view
 * of any layout and any scale block, are split (windows of entries whose scales bind from the 64-scale boundary below,
 * the read's scale offset moved to match: ell-spmv-chain-webgpu.ts).
 */
export const ELL_BINDING_LIMITS: readonly BindingLimitCase[] = [
  {
    kernel: 'ellSpmv',
    when: 'x block-scaled (i8, i16 of the resident API) over a binding',
    reason: 'toDevice refuses such an array first: its block scales are bound whole and indexed from the array start',
  },
  {
    kernel: 'ellSpmv',
    when: "x block-scaled whose block scales (4 bytes a block) exceed a binding while its words fit (scaleBlock below 4 for i8, 2 for i16), α ≠ 0",
    reason: "x's block scales are bound whole; x's windows (as DOT's) carry no scale offset",
  },
];
