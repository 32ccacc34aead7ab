/**
 * Switches between a GPU kernel's current form and the one it replaced, for benchmarks that time both in one run
 * and for tests that check both: lazy float-float accumulation in streaming loops (`lazy`), DOT's tree
 * reduction passes (`tree`) and the RNS rounding bounded by each value's size (`rnsBounded`). Read once from the
 * environment when the module loads (`MODPREC_GPU_LAZY=0`, `MODPREC_GPU_TREE=0`, `MODPREC_GPU_RNS_BOUNDED=0` turn them off) — not per call: a `process.env` read costs microseconds in Node, a visible
 * share of a small call's host time — and changed in-process only through {@link setGpuKernelSwitches}.
 * @module
 */

/** The switches (all on by default). */
export interface GpuKernelSwitches {
  /** Lazy multiply-adds where the arithmetic has them (see `mulAddGroup` in ./kernel-common.ts). */
  readonly lazy: boolean;
  /** DOT's partials summed by tree passes where the device has 256-invocation workgroups. */
  readonly tree: boolean;
  /**
   * RNS rounding on the device by a CRT over the fewest moduli and limbs that hold the value (on), or over all
   * of them, Θ(n²) per number (off: the form before; src/formats/rns/gpu/normalize-webgpu.ts). Same results.
   */
  readonly rnsBounded: boolean;
}

function envOff(name: string): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] === '0';
}

let current: GpuKernelSwitches = { lazy: !envOff('MODPREC_GPU_LAZY'), tree: !envOff('MODPREC_GPU_TREE'), rnsBounded: !envOff('MODPREC_GPU_RNS_BOUNDED') };

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

/**
 * Forms of TRSV's one-dispatch solve (kernels/trsv/trsv-walker-source.ts) under test for issue 19, all off by
 * default (the form measured before). Each keeps the solve within `trsvBound` with `backend: 'gpu'`; the ones
 * marked "same bits" change only where values come from, not the operations on them.
 */
export interface TrsvKernelSwitches {
  /** The walker reads a column-major copy of the block inverses (made once per matrix), so a warp's loads of a column are adjacent (same bits). */
  readonly columnInverse: boolean;
  /** In the sums of A's tiles, four lanes per row, each over every fourth column (instead of 64 lanes down a column, 16 adjacent columns each): adjacent lanes read adjacent elements of op(A) = Aᵀ. */
  readonly rowLanes: boolean;
  /** Float-float tile sums added lazily (settled every few terms), as the inverse product already is. */
  readonly lazyTiles: boolean;
  /** The walker issues its loads of a helper's sum at the top of a step and checks them after its own tile (same bits). */
  readonly earlyPoll: boolean;
  /** The walker's loads of A's tile, the inverse's row and b go out two steps ahead instead of one (same bits). */
  readonly ahead: boolean;
  /** A row's four quarters summed pairwise, (q0 + q1) + (q2 + q3), instead of one after another: a shorter float-float dependency chain. */
  readonly treeQuarters: boolean;
}

function envOn(name: string): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] === '1';
}

let trsvCurrent: TrsvKernelSwitches = {
  columnInverse: envOn('MODPREC_TRSV_COLUMN_INVERSE'),
  rowLanes: envOn('MODPREC_TRSV_ROW_LANES'),
  lazyTiles: envOn('MODPREC_TRSV_LAZY_TILES'),
  earlyPoll: envOn('MODPREC_TRSV_EARLY_POLL'),
  ahead: envOn('MODPREC_TRSV_AHEAD'),
  treeQuarters: envOn('MODPREC_TRSV_TREE_QUARTERS'),
};

/**
 * The current TRSV switches (read once from `MODPREC_TRSV_COLUMN_INVERSE=1`, `…_ROW_LANES`, `…_LAZY_TILES`,
 * `…_EARLY_POLL`, `…_AHEAD`, `…_TREE_QUARTERS`).
 * @returns them
 */
export function trsvKernelSwitches(): TrsvKernelSwitches {
  return trsvCurrent;
}

/**
 * Sets some TRSV switches (sources and plans are kept per setting, so the next solve uses the new form).
 * @param changes - the switches to change
 * @returns the previous switches (to restore them)
 */
export function setTrsvKernelSwitches(changes: Partial<TrsvKernelSwitches>): TrsvKernelSwitches {
  const previous = trsvCurrent;
  trsvCurrent = { ...trsvCurrent, ...changes };
  return previous;
}
