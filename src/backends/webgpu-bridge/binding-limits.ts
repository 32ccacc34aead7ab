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

/** ELL SpMV's remaining `BACKEND_LIMIT` cases on the GPU. */
export const ELL_BINDING_LIMITS: readonly BindingLimitCase[] = [
  {
    kernel: 'ellSpmv',
    when: "A's values block-scaled (i8, i16 of the resident API) as a matrix view over a binding, other than a whole array at leading dimension stride (read as the packed values it is)",
    reason: "a format reads element k's scale at ⌊k / scaleBlock⌋ from its binding's start; a matrix view's windows are column regions, which start on no block boundary",
  },
  {
    kernel: 'ellSpmv',
    when: "A's values block-scaled and packed, over a binding, whose window step lcm(256 for i8 or 128 for i16, 64·scaleBlock) entries leaves less than a row of indices in a binding (scaleBlock above 2^17 to 2^19 at 128 MiB)",
    reason: 'each window of values starts on a multiple of 64 scale blocks, so that its scales bind from a 256-byte boundary and its first element starts a block',
  },
  {
    kernel: 'ellSpmv',
    when: 'x block-scaled (i8, i16 of the resident API) over a binding',
    reason: 'toDevice refuses such an array first: its block scales are bound whole and indexed from the array start',
  },
];
