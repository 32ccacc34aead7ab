/**
 * Switches between a GPU kernel's current form and the one it replaced, for benchmarks that time both in one run
 * and for tests that check both: lazy float-float accumulation in streaming loops (`lazy`), DOT's tree
 * reduction passes (`tree`). Read once from the environment when the module loads (`MODPREC_GPU_LAZY=0`,
 * `MODPREC_GPU_TREE=0` turn them off) — not per call: a `process.env` read costs microseconds in Node, a visible
 * share of a small call's host time — and changed in-process only through {@link setGpuKernelSwitches}.
 * @module
 */

/** The switches (all on by default). */
export interface GpuKernelSwitches {
  /** Lazy multiply-adds where the arithmetic has them (see `mulAddGroup` in ./kernel-common.ts). */
  readonly lazy: boolean;
  /** DOT's partials summed by tree passes where the device has 256-invocation workgroups. */
  readonly tree: boolean;
}

function envOff(name: string): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] === '0';
}

let current: GpuKernelSwitches = { lazy: !envOff('MODPREC_GPU_LAZY'), tree: !envOff('MODPREC_GPU_TREE') };

/**
 * The current switches.
 * @returns them
 */
export function gpuKernelSwitches(): GpuKernelSwitches {
  return current;
}

/**
 * Sets some switches (the generated sources and plans are cached per setting, so later calls use the new form).
 * @param changes - the switches to change
 * @returns the previous switches (to restore them)
 */
export function setGpuKernelSwitches(changes: Partial<GpuKernelSwitches>): GpuKernelSwitches {
  const previous = current;
  current = { ...current, ...changes };
  return previous;
}
