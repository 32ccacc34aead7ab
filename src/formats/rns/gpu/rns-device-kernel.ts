/**
 * Host side shared by the RNS device kernels: the set's table on the device, scratch buffers, scalar uploads,
 * operand checks, and running an accumulator pass followed by the rounding passes in one submit.
 *
 * A call's host work is kept to what changes from call to call: programs are looked up once per set and variant
 * (their sources are long strings), scratch and scalar buffers are reused, and every pass keeps its uniform buffer
 * and bind groups ({@link PassCache}) — so a warm call creates no buffer and no bind group, writes only its scalars
 * and the uniforms that changed, and submits once. Reusing a buffer across calls is safe without waiting: a
 * `queue.writeBuffer` and a submit run on the queue in the order they were issued, so a later call's writes land
 * after an earlier call's passes have read the buffer.
 *
 * @module
 */
import { fail } from '../../../core/errors.js';
import { getProgram, submitPasses, type Pass, type PassCache, type Program, type ProgramSpec } from '../../../backends/webgpu/program.js';
import { trackGpuWork } from '../../../backends/webgpu/backend.js';
import { createWordBuffer, type GpuRuntime } from '../../../backends/webgpu/runtime.js';
import type { GpuBuffer } from '../../../backends/webgpu/webgpu-types.js';
import type { RnsDeviceSet } from './device-set.js';
import { accumulatorWords, columnWords, normalizePassNames, normalizePasses, normalizePrograms, type AccumulatorBindings } from './normalize-webgpu.js';
import type { AccumulatorView } from './accumulator-view.js';
import { encodeValues, exactOfDouble, RnsDeviceArray, type RnsExactValue } from './rns-device-array.js';

const tables = new WeakMap<GpuRuntime, Map<RnsDeviceSet, GpuBuffer>>();

/** The set's constant table on the device (uploaded once per runtime). */
export function deviceTable(runtime: GpuRuntime, set: RnsDeviceSet): GpuBuffer {
  let byRuntime = tables.get(runtime);
  if (!byRuntime) tables.set(runtime, (byRuntime = new Map()));
  let t = byRuntime.get(set);
  if (!t) byRuntime.set(set, (t = createWordBuffer(runtime.context, set.table.length, set.table)));
  return t;
}

/**
 * A coefficient: a finite double, or an exact value (|exponent| ≤ 2^28, X ≤ 2^p).
 * @group GPU
 */
export type RnsCoefficient = number | RnsExactValue;

/** The exact value of a coefficient, or `INVALID_VALUE` naming it (RNS has no infinity or NaN). */
export function coefficient(name: string, value: unknown): RnsExactValue {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail('INVALID_VALUE', name, 'must be finite (RNS has no infinity or NaN)', value);
    return exactOfDouble(value);
  }
  if (typeof value === 'object' && value !== null && typeof (value as RnsExactValue).X === 'bigint') return value as RnsExactValue;
  return fail('INVALID_VALUE', name, 'must be a finite number or an exact RNS value', value);
}

/** Uploads scalars as a small device array (validated by {@link encodeValues}) into a new buffer the caller destroys. */
export function scalarBuffer(runtime: GpuRuntime, set: RnsDeviceSet, values: readonly RnsExactValue[]): GpuBuffer {
  const words = encodeValues(set, values);
  return createWordBuffer(runtime.context, words.length, words);
}

/**
 * Writes encoded scalars ({@link encodeValues}: encode, and so validate, them before anything is written) into the
 * scratch buffer of `role`, reused by every call: one role per scalar array of a submit, and only from a stage's
 * `before` ({@link RoundedStage}).
 * @returns the buffer
 */
export function sharedScalars(runtime: GpuRuntime, words: Uint32Array, role: string): GpuBuffer {
  const b = scratchBuffer(runtime, `scalars: ${role}`, words.length);
  runtime.context.device.queue.writeBuffer(b, 0, words);
  return b;
}

/**
 * Checks device operands: arrays, alive, of one runtime and one set.
 * @returns the runtime and set
 */
export function checkOperands(named: Readonly<Record<string, unknown>>): { runtime: GpuRuntime; set: RnsDeviceSet } {
  let first: RnsDeviceArray | undefined;
  for (const [name, a] of Object.entries(named)) {
    if (!(a instanceof RnsDeviceArray)) fail('INVALID_STORAGE', name, 'must be an RNS device array (rnsToDevice)', a);
    a.live(name);
    if (!first) first = a;
    else if (a.set !== first.set) fail('INVALID_FORMAT', name, `must use the moduli set of the other operands (precision ${first.set.precision})`, a.set.precision);
    else if (a.runtime !== first.runtime) fail('INVALID_STORAGE', name, 'must live on the device of the other operands');
  }
  return { runtime: first!.runtime, set: first!.set };
}

/** Compiled accumulator programs, by source. */
export function accumulatorProgram(runtime: GpuRuntime, spec: ProgramSpec): Promise<Program> {
  return getProgram(runtime.context, spec);
}

const programSets = new WeakMap<GpuRuntime, WeakMap<RnsDeviceSet, Map<string, Promise<unknown>>>>();

/**
 * The programs `make` builds for `set` and `variant` (a key naming everything their sources depend on), made once
 * per runtime: generating a source is string work of the host's on every call otherwise.
 */
export function programsOf<T>(runtime: GpuRuntime, set: RnsDeviceSet, variant: string, make: () => Promise<T>): Promise<T> {
  let bySet = programSets.get(runtime);
  if (!bySet) programSets.set(runtime, (bySet = new WeakMap()));
  let byVariant = bySet.get(set);
  if (!byVariant) bySet.set(set, (byVariant = new Map()));
  let p = byVariant.get(variant) as Promise<T> | undefined;
  if (!p) {
    p = make();
    byVariant.set(variant, p);
    p.catch(() => byVariant.delete(variant));
  }
  return p;
}

const scratch = new WeakMap<GpuRuntime, Map<string, GpuBuffer>>();

/**
 * A scratch buffer of at least `words` words for `role`, reused from call to call (calls wait for their work, so
 * one at a time uses it); a larger request replaces it.
 */
export function scratchBuffer(runtime: GpuRuntime, role: string, words: number): GpuBuffer {
  let byRuntime = scratch.get(runtime);
  if (!byRuntime) scratch.set(runtime, (byRuntime = new Map()));
  const known = byRuntime.get(role);
  if (known && known.size >= words * 4) return known;
  known?.destroy();
  const b = createWordBuffer(runtime.context, Math.max(words, 4));
  byRuntime.set(role, b);
  return b;
}

/**
 * An RNS device array of `length` elements over the scratch buffer of `role` (a kernel's intermediate vector): never
 * destroyed by the caller, valid until the next call that uses the role (taken in a stage's `before` or `out`).
 */
export function scratchArray(runtime: GpuRuntime, set: RnsDeviceSet, role: string, length: number): RnsDeviceArray {
  return new RnsDeviceArray(runtime, set, length, scratchBuffer(runtime, role, (set.size + 6) * length));
}

const passCaches = new WeakMap<GpuRuntime, Map<Program, PassCache[]>>();

/**
 * The passes with their caches: the k-th pass of a program in this submit gets that program's k-th cache, so a
 * program run twice in one submit (the rounding of two stages) keeps two uniform buffers.
 */
function withCaches(runtime: GpuRuntime, passes: readonly Pass[]): { pass: Pass; cache: PassCache }[] {
  let byProgram = passCaches.get(runtime);
  if (!byProgram) passCaches.set(runtime, (byProgram = new Map()));
  const seen = new Map<Program, number>();
  return passes.map((pass) => {
    const k = seen.get(pass.program) ?? 0;
    seen.set(pass.program, k + 1);
    let caches = byProgram.get(pass.program);
    if (!caches) byProgram.set(pass.program, (caches = []));
    return { pass, cache: (caches[k] ??= {}) };
  });
}

/**
 * One accumulate-then-round step: passes filling the accumulator of `count` elements, rounded into `out`.
 * `before` and `out` are called by {@link runStages} in the synchronous stretch that ends with the submit, and are
 * where a stage takes its shared buffers (scratch, scalars, written there): a call that awaited between taking a
 * shared buffer and submitting could have it rewritten, or replaced by a larger one, by another call meanwhile.
 */
export interface RoundedStage {
  readonly before: (acc: GpuBuffer) => Pass[];
  readonly count: number;
  /** The output buffer (called after `before`). */
  readonly out: () => GpuBuffer;
  /** Passes run after the rounding (e.g. moving the result into place). */
  readonly after?: readonly Pass[];
  /**
   * Where the rounding reads the values it rounds (accumulator-view.ts), when not from the shared accumulator
   * `before` gets: the view, and the arrays it reads (called after `before`, in the same synchronous stretch).
   */
  readonly reads?: { readonly view: AccumulatorView; readonly arrays: () => AccumulatorBindings['arrays'] };
}

/** Names of accumulator programs for {@link profileRnsPasses} (set where the programs are made). */
export const rnsProgramNames = new WeakMap<Program, string>();

let passProfiler: ((label: string, ms: number) => void) | undefined;

/**
 * Benchmarks only: while a recorder is set, {@link runStages} submits the passes one by one, waits for each, and
 * reports its host-measured time (a wait per pass adds its latency, so the times are upper bounds; their
 * proportions show which pass bounds a kernel). Without an argument, back to one submit per call.
 * @param record - called with a pass's label (stage, program) and milliseconds
 */
export function profileRnsPasses(record?: (label: string, ms: number) => void): void {
  passProfiler = record;
}

/**
 * Submits the stages in order (each: its accumulator passes, then the rounding into its output) in one command
 * buffer, and waits for it; `temporaries` are released then. Dispatches of one pass run in order, so a stage may
 * read what an earlier one wrote, and the scratch buffers are shared.
 */
export async function runStages(runtime: GpuRuntime, set: RnsDeviceSet, stages: readonly RoundedStage[], temporaries: GpuBuffer[]): Promise<void> {
  const ctx = runtime.context;
  const progs = await normalizePrograms(runtime, set);
  const stageProgs = await Promise.all(stages.map((s) => (s.reads ? normalizePrograms(runtime, set, s.reads.view) : progs)));
  const count = Math.max(...stages.map((s) => s.count));
  // Stages with a view of their own read no accumulator: it is sized for the others (a word at least).
  const accCount = Math.max(1, ...stages.map((s) => (s.reads ? 0 : s.count)));
  const acc = scratchBuffer(runtime, 'acc', accumulatorWords(set) * accCount);
  const columns = scratchBuffer(runtime, 'columns', columnWords(progs, set, count));
  const sizes = scratchBuffer(runtime, 'sizes', 4 * count);
  const table = deviceTable(runtime, set);
  const passes = withCaches(runtime, stages.flatMap((s, k) => {
    const before = s.before(acc);
    const reads = s.reads ? { arrays: s.reads.arrays() } : acc;
    return [...before, ...normalizePasses(stageProgs[k]!, set, reads, s.count, { columns, sizes }, table, s.out()), ...(s.after ?? [])];
  }));
  const profiler = passProfiler;
  if (profiler) {
    const labels = stages.flatMap((s, k) => {
      const before = s.before(acc).map((p, j) => `stage ${k} ${rnsProgramNames.get(p.program) ?? `accumulate ${j}`}`);
      return [...before, ...normalizePassNames(progs).map((r) => `stage ${k} round: ${r}`), ...(s.after ?? []).map((_, j) => `stage ${k} after ${j}`)];
    });
    for (const [k, pass] of passes.entries()) {
      const t0 = performance.now();
      submitPasses(ctx, [pass]);
      await trackGpuWork(ctx.device.queue.onSubmittedWorkDone());
      profiler(labels[k] ?? `pass ${k}`, performance.now() - t0);
    }
  } else {
    submitPasses(ctx, passes);
    await trackGpuWork(ctx.device.queue.onSubmittedWorkDone());
  }
  temporaries.forEach((b) => b.destroy());
}

/** {@link runStages} with one stage. */
export function runWithRounding(runtime: GpuRuntime, set: RnsDeviceSet, before: (acc: GpuBuffer) => Pass[], count: number, out: GpuBuffer, temporaries: GpuBuffer[]): Promise<void> {
  return runStages(runtime, set, [{ before, count, out: () => out }], temporaries);
}
