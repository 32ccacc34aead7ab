/**
 * Fused multiply-adds of the GPU dd arithmetic (dd-gpu-wgsl.ts): c + a·b straight from the operands' storage
 * kinds, so a kernel's inner loop neither packs each operand into a register nor multiplies limbs a binary64 read
 * leaves zero. Names and gpu.js types live here (the CPU-side part needs them); the WGSL is generated in
 * dd-gpu-wgsl.ts and loaded with the rest of the library, so CPU bundles carry none of it.
 * @module
 */

/** The register kinds a fused multiply-add takes directly (without packing them into registers first), as gpu.js types. */
const FUSED_KINDS = { f32: 'Number', f64: 'Array(2)', ff: 'Array(2)', dd: 'Array(4)', xf: 'Array(4)' } as const;

/** Register kinds {@link fusedFmaName} has a function for. */
export type FusedKind = keyof typeof FUSED_KINDS;

/**
 * The name of the fused multiply-add c + a·b for operands of kinds `a` and `b`: `mpXfFma` + the kinds
 * (e.g. `mpXfFmaF64Dd`).
 * @param a - kind of a
 * @param b - kind of b
 * @returns the WGSL function name
 */
export function fusedFmaName(a: FusedKind, b: FusedKind): string {
  const cap = (k: string): string => k[0]!.toUpperCase() + k.slice(1);
  return `mpXfFma${cap(a)}${cap(b)}`;
}

/**
 * Whether `kind` has fused multiply-adds.
 * @param kind - a register kind
 * @returns whether it has
 */
export function isFusedKind(kind: string): kind is FusedKind {
  return Object.hasOwn(FUSED_KINDS, kind);
}

/**
 * The fused multiply-add functions and their gpu.js types: one per pair of kinds.
 * @returns name → types
 */
export function fusedFmaTypes(): Record<string, { args: ['Array(4)', FusedGpuType, FusedGpuType]; returns: 'Array(4)' }> {
  const gpuType = (k: FusedKind): FusedGpuType => FUSED_KINDS[k];
  const out: Record<string, { args: ['Array(4)', FusedGpuType, FusedGpuType]; returns: 'Array(4)' }> = {};
  for (const a of Object.keys(FUSED_KINDS) as FusedKind[]) for (const b of Object.keys(FUSED_KINDS) as FusedKind[]) out[fusedFmaName(a, b)] = { args: ['Array(4)', gpuType(a), gpuType(b)], returns: 'Array(4)' };
  return out;
}
type FusedGpuType = 'Number' | 'Array(2)' | 'Array(4)';

