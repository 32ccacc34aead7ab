/**
 * Interleaved sweeps of issue 19 item 4's GEMV N and DOT forms in fp32 storage (bench/gpu/h19-goals.ts `--gemv-sweep`,
 * `--dot-sweep`): every variant is first checked — its result within the bound of a compensated reference of the stored
 * values, and bit for bit equal to the variant it names in `sameBitsAs` (forms that change only the schedule) — then
 * timed in rounds, one batch of resident calls per variant a round, the variants in a rotated order each round, until a
 * time budget or a round limit is spent. The GPU's clock state is then shared by all variants alike; each row reports
 * the median batch of its rounds (and the quartiles) and its ratio to its reference row.
 *
 * @module
 */
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { deviceZeros, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot, gpuDotResident, type GpuDotOptions } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv, type GpuGemvOptions } from '../../kernels/gemv/gemv-webgpu.js';
import type { GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { Accurate, checkGemvRows, GEMV_BENCH_U, gemvReference, rand32 } from './bench-data.js';
import { readWords, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { MISS_COUNTER } from '../../kernels/dot/dot-fused-finish-source.js';

/** One form to time: switches beyond the all-off state of the bench, the call's options, and what it must match. */
export interface SweepVariant<O> {
  readonly label: string;
  readonly arithmetic: 'f32' | 'ff';
  readonly switches: Partial<GpuKernelSwitches>;
  readonly options: O;
  /** The label of an earlier variant whose result this one must equal bit for bit (a change of schedule only). */
  readonly sameBitsAs?: string;
}

/** A timed variant. */
export interface SweepRow {
  readonly kernel: string;
  readonly variant: string;
  readonly arithmetic: 'f32' | 'ff';
  /** Median batch (ms per call) over the timed rounds; quartiles beside it. */
  readonly ms: number;
  readonly p25: number;
  readonly p75: number;
  readonly issueMs: number;
  readonly rounds: number;
  readonly bytes: number;
  /** Largest error relative to Σ|terms| and the bound it is checked against. */
  readonly error: number;
  readonly bound: number;
  readonly correct: boolean;
  /** The ratio to the reference row (sameBitsAs, else the arithmetic's first row). */
  readonly note: string;
}

/** How the bench sets switches for a call (its all-off state plus `switches`, restored afterwards). */
export type WithSwitches = <T>(switches: Partial<GpuKernelSwitches>, f: () => Promise<T>) => Promise<T>;

/** Sweep settings: the timing budget, the most rounds, the calls per batch and the first rounds left out (clock ramp). */
export interface SweepSettings {
  readonly budgetMs: number;
  readonly maxRounds: number;
  readonly reps: number;
  readonly warmRounds: number;
}

const U = { f32: 2 ** -24, ff: 8 * 2 ** -48 } as const;
const gamma = (n: number, u: number): number => (n * u < 1 ? (n * u) / (1 - n * u) : Infinity);

/**
 * The library's defaults of 2026-11-27 in float-float and in f32 (the bench's all-off state plus these): GEMV N's two
 * passes, the default until session 20 (since: `gemvWorkgroupSplit` 256 + `gemvFfFourRows`, ./gemv-default-sweep.ts).
 */
const FF_BASE = { lazy: true, tree: true, ffFmaKeep: true, gemvPrefetch: true, gemvVectorX: true } as const;
const F32_BASE = { lazy: true, tree: true, f32FmaKeep: true, gemvPrefetch: true, gemvVectorX: true } as const;

/**
 * GEMV N's variants: the reduction inside a workgroup (`gemvWorkgroupSplit` 256 and 128, one dispatch, the default's
 * bits) and the partial pass in wider workgroups (`gemvPartialWorkgroup` 256 and 128, the default's bits) beside the
 * two-pass default, with 2 chains and 1, split targets of 2^18 (32 chunks of 256 columns at n = 8192)
 * and 2^17 (16 chunks: 16 row groups a 256-invocation workgroup), four rows a float-float thread, and the ticketed
 * one-dispatch form for comparison; f32 arithmetic likewise.
 * @returns the variants, references first within each group
 */
export function gemvSweepVariants(): SweepVariant<GpuGemvOptions>[] {
  const wg = (W: 128 | 256) => ({ gemvWorkgroupSplit: W }) as const;
  const four = { gemvFfFourRows: true } as const;
  const ffRef = 'ff two passes (2 dispatches)';
  const ff1 = 'ff two passes, 1 chain';
  const ff17 = 'ff two passes, 2^17 target (16 chunks)';
  const f32Ref = 'f32 two passes (2 dispatches)';
  const f3217 = 'f32 two passes, 2^17 target (16 chunks)';
  return [
    { label: ffRef, arithmetic: 'ff', switches: FF_BASE, options: {} },
    { label: 'ff gemvWorkgroupSplit 256 (1 dispatch)', arithmetic: 'ff', switches: { ...FF_BASE, ...wg(256) }, options: {}, sameBitsAs: ffRef },
    { label: 'ff gemvWorkgroupSplit 128', arithmetic: 'ff', switches: { ...FF_BASE, ...wg(128) }, options: {}, sameBitsAs: ffRef },
    { label: 'ff gemvWorkgroupSplit 256 + gemvFfFourRows', arithmetic: 'ff', switches: { ...FF_BASE, ...wg(256), ...four }, options: {}, sameBitsAs: ffRef },
    { label: 'ff gemvFusedFinish (tickets, 1 dispatch)', arithmetic: 'ff', switches: { ...FF_BASE, gemvFusedFinish: true }, options: {}, sameBitsAs: ffRef },
    { label: 'ff gemvPartialWorkgroup 256 (2 dispatches)', arithmetic: 'ff', switches: { ...FF_BASE, gemvPartialWorkgroup: 256 }, options: {}, sameBitsAs: ffRef },
    { label: 'ff gemvPartialWorkgroup 128', arithmetic: 'ff', switches: { ...FF_BASE, gemvPartialWorkgroup: 128 }, options: {}, sameBitsAs: ffRef },
    { label: 'ff gemvPartialWorkgroup 256 + gemvFinishBatch 32', arithmetic: 'ff', switches: { ...FF_BASE, gemvPartialWorkgroup: 256, gemvFinishBatch: 32 }, options: {}, sameBitsAs: ffRef },
    { label: ff1, arithmetic: 'ff', switches: FF_BASE, options: { chains: 1 } },
    { label: 'ff gemvPartialWorkgroup 256, 1 chain', arithmetic: 'ff', switches: { ...FF_BASE, gemvPartialWorkgroup: 256 }, options: { chains: 1 }, sameBitsAs: ff1 },
    { label: 'ff gemvWorkgroupSplit 256, 1 chain', arithmetic: 'ff', switches: { ...FF_BASE, ...wg(256) }, options: { chains: 1 }, sameBitsAs: ff1 },
    { label: 'ff gemvWorkgroupSplit 256 + gemvFfFourRows, 1 chain', arithmetic: 'ff', switches: { ...FF_BASE, ...wg(256), ...four }, options: { chains: 1 }, sameBitsAs: ff1 },
    { label: ff17, arithmetic: 'ff', switches: FF_BASE, options: { targetThreads: 2 ** 17 } },
    { label: 'ff gemvWorkgroupSplit 256, 2^17 target', arithmetic: 'ff', switches: { ...FF_BASE, ...wg(256) }, options: { targetThreads: 2 ** 17 }, sameBitsAs: ff17 },
    { label: 'ff gemvWorkgroupSplit 128, 2^17 target', arithmetic: 'ff', switches: { ...FF_BASE, ...wg(128) }, options: { targetThreads: 2 ** 17 }, sameBitsAs: ff17 },
    { label: 'ff gemvWorkgroupSplit 256 + gemvFfFourRows + ffLongLazy, 1 chain', arithmetic: 'ff', switches: { ...FF_BASE, ...wg(256), ...four, ffLongLazy: true }, options: { chains: 1 } },
    { label: f32Ref, arithmetic: 'f32', switches: F32_BASE, options: {} },
    { label: 'f32 gemvWorkgroupSplit 256 (1 dispatch)', arithmetic: 'f32', switches: { ...F32_BASE, ...wg(256) }, options: {}, sameBitsAs: f32Ref },
    { label: 'f32 gemvPartialWorkgroup 256 (2 dispatches)', arithmetic: 'f32', switches: { ...F32_BASE, gemvPartialWorkgroup: 256 }, options: {}, sameBitsAs: f32Ref },
    { label: 'f32 gemvPartialWorkgroup 128', arithmetic: 'f32', switches: { ...F32_BASE, gemvPartialWorkgroup: 128 }, options: {}, sameBitsAs: f32Ref },
    { label: 'f32 gemvWorkgroupSplit 128', arithmetic: 'f32', switches: { ...F32_BASE, ...wg(128) }, options: {}, sameBitsAs: f32Ref },
    // One chain in f32: 16 columns a step sum in the same order as 8.
    { label: 'f32 gemvWorkgroupSplit 256, gemvUnroll 16', arithmetic: 'f32', switches: { ...F32_BASE, ...wg(256), gemvUnroll: 16 }, options: {}, sameBitsAs: f32Ref },
    { label: f3217, arithmetic: 'f32', switches: F32_BASE, options: { targetThreads: 2 ** 17 } },
    { label: 'f32 gemvWorkgroupSplit 256, 2^17 target', arithmetic: 'f32', switches: { ...F32_BASE, ...wg(256) }, options: { targetThreads: 2 ** 17 }, sameBitsAs: f3217 },
  ];
}

/**
 * DOT's variants: the default (3 dispatches) beside the ticketed one-dispatch finish and the prefetching first pass
 * (the default's bits), combined, first passes with more loads a thread (2^16 threads, 4 runs a step) and with each
 * workgroup's runs of a step in one contiguous block (`dotBlockRuns`) — other orders within the bound; f32 arithmetic's
 * default, one-dispatch and block-run forms.
 * @returns the variants
 */
export function dotSweepVariants(): SweepVariant<GpuDotOptions>[] {
  const ffRef = 'ff default (3 dispatches)';
  const f32Ref = 'f32 default (3 dispatches)';
  const ff = { lazy: true, tree: true, ffFmaKeep: true } as const;
  const f32 = { lazy: true, tree: true, f32FmaKeep: true } as const;
  return [
    { label: ffRef, arithmetic: 'ff', switches: ff, options: {} },
    { label: 'ff dotFusedFinish (1 dispatch)', arithmetic: 'ff', switches: { ...ff, dotFusedFinish: true }, options: {}, sameBitsAs: ffRef },
    { label: 'ff dotPrefetch', arithmetic: 'ff', switches: { ...ff, dotPrefetch: true }, options: {}, sameBitsAs: ffRef },
    { label: 'ff dotFusedFinish + dotPrefetch', arithmetic: 'ff', switches: { ...ff, dotFusedFinish: true, dotPrefetch: true }, options: {}, sameBitsAs: ffRef },
    { label: 'ff dotFusedFinish, 2^16 threads, 4 runs a step', arithmetic: 'ff', switches: { ...ff, dotFusedFinish: true }, options: { maxThreads: 2 ** 16, groups: 4 } },
    { label: 'ff dotFusedFinish + ffLongLazy', arithmetic: 'ff', switches: { ...ff, dotFusedFinish: true, ffLongLazy: true }, options: {} },
    { label: 'ff dotBlockRuns', arithmetic: 'ff', switches: { ...ff, dotBlockRuns: true }, options: {} },
    { label: 'ff dotBlockRuns + dotFusedFinish', arithmetic: 'ff', switches: { ...ff, dotBlockRuns: true, dotFusedFinish: true }, options: {}, sameBitsAs: 'ff dotBlockRuns' },
    { label: 'ff dotBlockRuns, 4 runs a step', arithmetic: 'ff', switches: { ...ff, dotBlockRuns: true }, options: { groups: 4 } },
    { label: 'ff dotBlockRuns + dotFusedFinish, 2^16 threads, 4 runs a step', arithmetic: 'ff', switches: { ...ff, dotBlockRuns: true, dotFusedFinish: true }, options: { maxThreads: 2 ** 16, groups: 4 } },
    { label: f32Ref, arithmetic: 'f32', switches: f32, options: {} },
    { label: 'f32 dotFusedFinish (1 dispatch)', arithmetic: 'f32', switches: { ...f32, dotFusedFinish: true }, options: {}, sameBitsAs: f32Ref },
    { label: 'f32 dotBlockRuns', arithmetic: 'f32', switches: { ...f32, dotBlockRuns: true }, options: {} },
  ];
}

/** One batch: a few untimed calls (a form's first call after a switch rebuilds its bindings), then `reps` timed ones. */
async function batch(rt: GpuRuntime, run: () => Promise<unknown>, reps: number): Promise<{ ms: number; issueMs: number }> {
  for (let r = 0; r < 3; r++) await run();
  await rt.context.device.queue.onSubmittedWorkDone();
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) await run();
  const issued = performance.now();
  await rt.context.device.queue.onSubmittedWorkDone();
  return { ms: (performance.now() - t0) / reps, issueMs: (issued - t0) / reps };
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Times the variants in interleaved rounds (round r starts at variant r mod count), dropping the first `warmRounds`.
 * @param rt - the runtime
 * @param forms - each variant's switches and call
 * @param settings - budget, rounds, calls a batch, warm rounds
 * @param withSwitches - how the bench sets switches for a call
 * @returns per variant: the sorted batch times and the median issue time
 */
export async function interleaved(rt: GpuRuntime, forms: readonly { switches: Partial<GpuKernelSwitches>; run: () => Promise<unknown> }[], settings: SweepSettings, withSwitches: WithSwitches): Promise<{ times: number[]; issue: number }[]> {
  const times = forms.map(() => [] as number[]);
  const issue = forms.map(() => [] as number[]);
  const start = performance.now();
  for (let round = 0; round < settings.maxRounds + settings.warmRounds && performance.now() - start < settings.budgetMs; round++) {
    for (let k = 0; k < forms.length; k++) {
      const i = (round + k) % forms.length;
      const f = forms[i]!;
      const t = await withSwitches(f.switches, () => batch(rt, f.run, settings.reps));
      if (round >= settings.warmRounds) {
        times[i]!.push(t.ms);
        issue[i]!.push(t.issueMs);
      }
    }
  }
  return times.map((t, i) => ({ times: t.sort((a, b) => a - b), issue: quantile(issue[i]!.sort((a, b) => a - b), 0.5) }));
}

/**
 * Rows of timed variants from their checks and interleaved times; the note is the ratio to the reference row.
 * @param kernel - the rows' kernel column
 * @param variants - the variants
 * @param checks - each variant's check
 * @param timed - each variant's interleaved times
 * @param bytes - bytes a call moves
 * @returns the rows
 */
export function sweepRows<O>(kernel: string, variants: readonly SweepVariant<O>[], checks: readonly { error: number; bound: number; correct: boolean; why: string }[], timed: readonly { times: number[]; issue: number }[], bytes: number): SweepRow[] {
  const medians = timed.map((t) => (t.times.length ? quantile(t.times, 0.5) : NaN));
  return variants.map((v, i) => {
    const refIndex = v.sameBitsAs ? variants.findIndex((w) => w.label === v.sameBitsAs) : variants.findIndex((w) => w.arithmetic === v.arithmetic);
    const ratio = medians[i]! / medians[refIndex]!;
    const t = timed[i]!;
    return { kernel, variant: v.label, arithmetic: v.arithmetic, ms: medians[i]!, p25: quantile(t.times, 0.25), p75: quantile(t.times, 0.75), issueMs: t.issue, rounds: t.times.length, bytes, error: checks[i]!.error, bound: checks[i]!.bound, correct: checks[i]!.correct, note: `${refIndex === i ? 'reference' : `${ratio.toFixed(3)}× ${variants[refIndex]!.label}`}${checks[i]!.why}` };
  });
}

/**
 * The GEMV N sweep: an n×n fp32 matrix (n = 8192, 1024 with `small`), each variant checked, then timed interleaved.
 * @returns the rows
 */
export async function gemvSweep(rt: GpuRuntime, small: boolean, settings: SweepSettings, withSwitches: WithSwitches): Promise<SweepRow[]> {
  const n = small ? 1024 : 8192;
  const hostA = rand32(n * n, 7);
  const hostX = rand32(n, 11);
  const A = deviceMatrix(await toDevice(hostA, { format: 'f32', strict: true }), n, n);
  const x = await toDevice(hostX, { format: 'f32', strict: true });
  const y = await deviceZeros(n, { format: 'f32', strict: true });
  const yCheck = await deviceZeros(n, { format: 'f64', strict: true });
  const { ref, mag } = gemvReference(hostA, hostX, n);
  const variants = gemvSweepVariants();
  const results = new Map<string, Float64Array>();
  const checks = [];
  for (const v of variants) {
    checks.push(await withSwitches(v.switches, async () => {
      await gpuGemv({ A, x, y: yCheck }, { arithmetic: v.arithmetic, ...v.options });
      const got = await yCheck.toHost();
      results.set(v.label, got);
      const earlier = v.sameBitsAs ? results.get(v.sameBitsAs) : undefined;
      const { error, bound, correct, sameBits } = checkGemvRows(got, ref, mag, GEMV_BENCH_U[v.arithmetic], earlier);
      return { error, bound, correct, why: sameBits ? (earlier ? '; same bits' : '') : '; BITS DIFFER' };
    }));
  }
  const timed = await interleaved(rt, variants.map((v) => ({ switches: v.switches, run: () => gpuGemv({ A, x, y }, { arithmetic: v.arithmetic, ...v.options }) })), settings, withSwitches);
  for (const b of [A.data, x, y, yCheck]) b.destroy();
  return sweepRows(`GEMV N n=${n}`, variants, checks, timed, n * n * 4 + 8 * n);
}

/** A DOT variant's check: its error and bound relative to Σ|x·y|, and what the note says. */
interface DotCheck { error: number; bound: number; correct: boolean; why: string }

/**
 * Runs a DOT variant twice and checks it: within γ_{2n+3}(u)·Σ|x·y| of the reference, its `sameBitsAs` row's bits,
 * the same value twice; a `ratioTo` row's bits are noted, not required. Records the value under the variant's label.
 * @param v - the variant (label, arithmetic, options, sameBitsAs / ratioTo)
 * @param x - x on the device
 * @param y - y on the device
 * @param reference - the compensated sum and Σ|x·y| ({@link productSums})
 * @param values - the values of the variants checked so far, by label
 * @returns the check
 */
async function checkDotVariant(v: SweepVariant<GpuDotOptions> & { readonly ratioTo?: string }, x: DeviceArray, y: DeviceArray, reference: { sum: number; mag: number }, values: Map<string, number>): Promise<DotCheck> {
  const { sum, mag } = reference;
  const r1 = await gpuDot(x, y, { arithmetic: v.arithmetic, ...v.options });
  const r2 = await gpuDot(x, y, { arithmetic: v.arithmetic, ...v.options });
  values.set(v.label, r1.value);
  const earlier = v.sameBitsAs ? values.get(v.sameBitsAs) : undefined;
  const sameBits = earlier === undefined || Object.is(earlier, r1.value);
  const other = v.ratioTo ? values.get(v.ratioTo) : undefined;
  const error = Math.abs(r1.value - sum);
  const bound = gamma(2 * x.length + 3, U[v.arithmetic]) * mag;
  const why = `${sameBits ? (earlier === undefined ? '' : '; same bits') : '; BITS DIFFER'}${other === undefined ? '' : Object.is(other, r1.value) ? '; same bits' : '; other bits'}${Object.is(r1.value, r2.value) ? '' : '; NOT reproducible'}`;
  return { error: error / mag, bound: bound / mag, correct: error <= bound && sameBits && Object.is(r1.value, r2.value), why };
}

/**
 * The DOT reference of stored operands: Σ xᵢ·yᵢ compensated, and Σ |xᵢ·yᵢ| (the bounds' scale).
 * @param hx - x as doubles
 * @param hy - y as doubles
 * @returns the sum and the magnitude
 */
function productSums(hx: ArrayLike<number>, hy: ArrayLike<number>): { sum: number; mag: number } {
  const acc = new Accurate();
  let mag = 0;
  for (let k = 0; k < hx.length; k++) {
    const p = hx[k]! * hy[k]!;
    acc.add(p);
    mag += Math.abs(p);
  }
  return { sum: acc.value, mag };
}

/**
 * The DOT sweep: fp32 x and y of n = 2^27 (2^20 with `small`), each variant checked (and run twice: the same value),
 * then timed interleaved.
 * @returns the rows
 */
export async function dotSweep(rt: GpuRuntime, small: boolean, settings: SweepSettings, withSwitches: WithSwitches): Promise<SweepRow[]> {
  const n = small ? 2 ** 20 : 2 ** 27;
  const hx = rand32(n, 3);
  const hy = rand32(n, 5);
  const x: DeviceArray = await toDevice(hx, { format: 'f32', strict: true });
  const y: DeviceArray = await toDevice(hy, { format: 'f32', strict: true });
  const { sum, mag } = productSums(hx, hy);
  const variants = dotSweepVariants();
  const values = new Map<string, number>();
  const checks = [];
  for (const v of variants) checks.push(await withSwitches(v.switches, () => checkDotVariant(v, x, y, { sum, mag }, values)));
  const timed = await interleaved(rt, variants.map((v) => ({ switches: v.switches, run: () => gpuDotResident(x, y, { arithmetic: v.arithmetic, ...v.options }) })), settings, withSwitches);
  x.destroy();
  y.destroy();
  return sweepRows(`DOT n=2^${Math.log2(n)}`, variants, checks, timed, 8 * n);
}

/** A DOT variant of session 22's 16-bit sweep: which storage it reads, and the row its ratio is taken to. */
export interface DotSixteenVariant extends SweepVariant<GpuDotOptions> {
  readonly storage: 'bf16' | 'f16' | 'f32';
  /** The row this one's ratio is taken to where it may have other bits (rows with neither this nor sameBitsAs are references). */
  readonly ratioTo?: string;
}

/**
 * Session 22's DOT rows (`--dot-sweep --dot-rows=s22`), bf16 and fp16 storage, n = 2^27, issue 19's goal ≤ 0.21 ms in
 * float-float: the default (exact 16-bit products, settles every 4 terms of an accumulator: 2 chains, 2 runs of four a
 * step) beside `ffLeanSettle` (the default's bits, checked), `ffLongLazy` (a settle every 16 terms) with and without the
 * lean settle, `dotOctetRuns` (runs of eight: one 16-byte load an operand) alone and with both, one chain, 2^16
 * first-pass threads (half the partials) and `dotFusedTree` on the best guess; f32 arithmetic's default and its runs of eight as the floor.
 * @returns the variants, each storage's default first
 */
export function dotSixteenBitSweepVariants(): DotSixteenVariant[] {
  const ff = { lazy: true, tree: true, ffFmaKeep: true, ffExactProducts: true } as const;
  const f32 = { lazy: true, tree: true, f32FmaKeep: true } as const;
  const lean = { ffLeanSettle: true } as const, long = { ffLongLazy: true } as const, octet = { dotOctetRuns: true } as const;
  const rows: DotSixteenVariant[] = [];
  for (const s of ['bf16', 'f16'] as const) {
    const ref = `${s} + ff: default`, f32Ref = `${s} + f32: default (floor)`;
    const v = (label: string, switches: Partial<GpuKernelSwitches>, options: GpuDotOptions = {}, to: { sameBitsAs?: string; ratioTo?: string } = { ratioTo: ref }): DotSixteenVariant => ({ label: `${s} + ff: ${label}`, arithmetic: 'ff', storage: s, switches: { ...ff, ...switches }, options, ...to });
    rows.push(
      { label: ref, arithmetic: 'ff', storage: s, switches: ff, options: {} },
      v('ffLeanSettle', lean, {}, { sameBitsAs: ref }),
      v('ffLongLazy', long),
      v('ffLongLazy + ffLeanSettle', { ...long, ...lean }),
      v('dotOctetRuns', octet),
      v('dotOctetRuns + ffLongLazy + ffLeanSettle', { ...octet, ...long, ...lean }),
      v('dotOctetRuns + ffLongLazy + ffLeanSettle, 1 chain', { ...octet, ...long, ...lean }, { chains: 1 }),
      v('dotOctetRuns + ffLongLazy + ffLeanSettle + dotFusedTree', { ...octet, ...long, ...lean, dotFusedTree: true }),
      v('dotOctetRuns + ffLongLazy + ffLeanSettle, 2^16 threads', { ...octet, ...long, ...lean }, { maxThreads: 2 ** 16 }),
      // The octet runs' 16 elements a step in four 8-byte loads an operand instead of two 16-byte ones.
      v('ffLongLazy + ffLeanSettle, 4 runs of four a step', { ...long, ...lean }, { groups: 4 }),
      { label: f32Ref, arithmetic: 'f32', storage: s, switches: f32, options: {} },
      { label: `${s} + f32: dotOctetRuns`, arithmetic: 'f32', storage: s, switches: { ...f32, ...octet }, options: {}, ratioTo: f32Ref },
    );
  }
  // fp32 storage (the goal ≤ 0.36 ms): the session-21 default, its TwoProd error folded (`ffFoldedProducts`), with the
  // fused tree, and f32 arithmetic.
  const f32Ref = 'fp32 + ff: default before session 22';
  const w = (label: string, switches: Partial<GpuKernelSwitches>): DotSixteenVariant => ({ label: `fp32 + ff: ${label}`, arithmetic: 'ff', storage: 'f32', switches: { ...ff, ...switches }, options: {}, ratioTo: f32Ref });
  rows.push(
    { label: f32Ref, arithmetic: 'ff', storage: 'f32', switches: ff, options: {} },
    w('ffFoldedProducts', { ffFoldedProducts: true }),
    w('ffFoldedProducts + dotFusedTree', { ffFoldedProducts: true, dotFusedTree: true }),
    w('ffFoldedProducts + ffLongLazy + ffLeanSettle + dotFusedTree', { ffFoldedProducts: true, ffLongLazy: true, ffLeanSettle: true, dotFusedTree: true }),
    w('ffFoldedProducts + dotFusedFinish (one dispatch)', { ffFoldedProducts: true, dotFusedFinish: true }),
    w('ffFoldedProducts + dotFusedTree + dotFusedFinish', { ffFoldedProducts: true, dotFusedTree: true, dotFusedFinish: true }),
    { label: 'fp32 + f32: default (floor)', arithmetic: 'f32', storage: 'f32', switches: f32, options: {}, ratioTo: f32Ref },
  );
  return rows;
}

/**
 * Session 23's DOT rows (`--dot-sweep --dot-rows=s23`), fp32 storage only, n = 2^27, issue 19's goal ≤ 0.36 ms in
 * float-float: the default (3 dispatches) beside `dotFusedTree` (2 dispatches, another order) and `dotWorkgroupFinish`
 * (its first pass and its one tree pass in 1 dispatch: `dotFusedTree`'s bits, checked), both also with 2^18 first-pass
 * threads; f32 arithmetic's default as the floor. The one-ticket rows report the workgroup sums they recomputed.
 * @returns the variants, the default first
 */
export function dotFinishSweepVariants(): DotSixteenVariant[] {
  // The library's defaults for these operands (the bench's all-off state plus these).
  const ff = { lazy: true, tree: true, ffFmaKeep: true, ffExactProducts: true, ffFoldedProducts: true, dotOctetRuns: true } as const;
  const f32 = { lazy: true, tree: true, f32FmaKeep: true, dotOctetRuns: true } as const;
  const ref = 'fp32 + ff: default (3 dispatches)', tree = 'fp32 + ff: dotFusedTree (2 dispatches)', tree18 = 'fp32 + ff: dotFusedTree, 2^18 threads';
  const row = (label: string, switches: Partial<GpuKernelSwitches>, options: GpuDotOptions, to: { sameBitsAs?: string; ratioTo?: string }): DotSixteenVariant => ({ label, arithmetic: 'ff', storage: 'f32', switches: { ...ff, ...switches }, options, ...to });
  return [
    { label: ref, arithmetic: 'ff', storage: 'f32', switches: ff, options: {} },
    row(tree, { dotFusedTree: true }, {}, { ratioTo: ref }),
    row('fp32 + ff: dotWorkgroupFinish (1 dispatch)', { dotWorkgroupFinish: true }, {}, { sameBitsAs: tree }),
    row(tree18, { dotFusedTree: true }, { maxThreads: 2 ** 18 }, { ratioTo: ref }),
    row('fp32 + ff: dotWorkgroupFinish, 2^18 threads', { dotWorkgroupFinish: true }, { maxThreads: 2 ** 18 }, { sameBitsAs: tree18 }),
    { label: 'fp32 + f32: default (floor)', arithmetic: 'f32', storage: 'f32', switches: f32, options: {}, ratioTo: ref },
  ];
}

/**
 * The one-dispatch DOT's miss counter for these operands and options (word MISS_COUNTER of the buffer its resident result
 * views, after one more call): the partials or workgroup sums it recomputed over all calls of its plan (rows whose
 * calls share a plan — the same operands, options and first-pass shape — share the counter).
 */
async function oneDispatchMisses(rt: GpuRuntime, x: DeviceArray, y: DeviceArray, v: DotSixteenVariant): Promise<number> {
  const { result } = await gpuDotResident(x, y, { arithmetic: v.arithmetic, ...v.options });
  return (await readWords(rt.context, result.buffer!, 1, MISS_COUNTER))[0]!;
}

/** Whether a variant runs one of the one-dispatch DOTs (whose plans count recomputed sums). */
const oneDispatch = (v: DotSixteenVariant): boolean => v.switches.dotFusedFinish === true || v.switches.dotWorkgroupFinish === true;

/**
 * A DOT sweep over the storages its variants read (n = 2^27, 2^20 with `small`; session 22's bf16 / fp16 rows by
 * default, `--dot-rows=s23`'s fp32 rows): every variant checked (within γ_{2n+3}(u)·Σ|x·y| of a compensated sum of the
 * stored values, its sameBitsAs row's bits, the same value twice), then all timed in interleaved rounds; the one-dispatch
 * rows note how many sums they recomputed over the timed calls (and the checks and counter reads around them).
 * @returns the rows (storage set)
 */
export async function dotSixteenBitSweep(rt: GpuRuntime, small: boolean, settings: SweepSettings, withSwitches: WithSwitches, variants: readonly DotSixteenVariant[] = dotSixteenBitSweepVariants()): Promise<(SweepRow & { storage: string })[]> {
  const n = small ? 2 ** 20 : 2 ** 27;
  const x32 = await toDevice(rand32(n, 3), { format: 'f32', strict: true });
  const y32 = await toDevice(rand32(n, 5), { format: 'f32', strict: true });
  const operands = new Map<string, { x: DeviceArray; y: DeviceArray; sum: number; mag: number }>();
  for (const s of ['bf16', 'f16', 'f32'] as const) {
    if (!variants.some((v) => v.storage === s)) continue;
    const x = s === 'f32' ? x32 : (await gpuConvert(x32, s)).array;
    const y = s === 'f32' ? y32 : (await gpuConvert(y32, s)).array;
    operands.set(s, { x, y, ...productSums(await x.toHost(), await y.toHost()) });
  }
  if (!operands.has('f32')) {
    x32.destroy();
    y32.destroy();
  }
  const missesBefore = new Map<string, number>();
  for (const v of variants.filter(oneDispatch)) {
    const { x, y } = operands.get(v.storage)!;
    missesBefore.set(v.label, await withSwitches(v.switches, () => oneDispatchMisses(rt, x, y, v)));
  }
  const values = new Map<string, number>();
  const checks: DotCheck[] = [];
  for (const v of variants) {
    const { x, y, sum, mag } = operands.get(v.storage)!;
    checks.push(await withSwitches(v.switches, () => checkDotVariant(v, x, y, { sum, mag }, values)));
  }
  const timed = await interleaved(rt, variants.map((v) => {
    const { x, y } = operands.get(v.storage)!;
    return { switches: v.switches, run: () => gpuDotResident(x, y, { arithmetic: v.arithmetic, ...v.options }) };
  }), settings, withSwitches);
  const recomputed = new Map<string, string>();
  for (const v of variants.filter(oneDispatch)) {
    const { x, y } = operands.get(v.storage)!;
    const after = await withSwitches(v.switches, () => oneDispatchMisses(rt, x, y, v));
    recomputed.set(v.label, `; ${after - missesBefore.get(v.label)!} sums recomputed`);
  }
  for (const { x, y } of operands.values()) {
    x.destroy();
    y.destroy();
  }
  // Ratios per storage: a sameBitsAs or ratioTo row to that row, others are references. Bytes: both operands, once.
  const swept = sweepRows(`DOT n=2^${Math.log2(n)}`, variants, checks, timed, 4 * n);
  return swept.map((r, i) => {
    const v = variants[i]!;
    const to = v.sameBitsAs ?? v.ratioTo;
    const j = to === undefined ? i : variants.findIndex((w) => w.label === to);
    const note = `${j === i ? 'reference' : `${(swept[i]!.ms / swept[j]!.ms).toFixed(3)}× ${to}`}${checks[i]!.why}${recomputed.get(v.label) ?? ''}`;
    return { ...r, storage: v.storage, bytes: 2 * n * (v.storage === 'f32' ? 4 : 2), note };
  });
}
