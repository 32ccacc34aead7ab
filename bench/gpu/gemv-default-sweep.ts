/**
 * GEMV N's default since session 20 — the reduction inside 256-invocation workgroups (`gemvWorkgroupSplit` 256) with
 * four float-float rows a thread (`gemvFfFourRows`) — against the two-pass default it replaced, in one interleaved
 * sweep (bench/gpu/h19-goals.ts `--gemv-default-sweep`, the rounds of ./h19-sweep.ts): fp32 storage in float-float and
 * in f32 arithmetic, and bf16 / f16 storage in float-float with an fp32 x (issue 19's goal rows, 2 chains and 1) and
 * with x stored in A's format. Each new-default row must have its two-pass partner's bits (a change of schedule
 * only) and its ratio is taken to that partner; each row's note names the form that ran (1 or 2 dispatches). With x in
 * A's format float-float takes exact 16-bit products (`ffExactProducts`), whose partial pass the split does not run:
 * there the new default is the two passes with four float-float rows a thread (`gemvFfFourRows` alone).
 * `--rows=s21` times session 21's bf16 / f16 rows instead ({@link gemvSixteenBitSweepVariants}): the defaults beside
 * the split running those exact products (`gemvWorkgroupSplitExact`), 16-column steps and eight rows a thread.
 * `--rows=s22`: session 22's cheaper float-float terms and settles ({@link gemvS22SweepVariants}).
 *
 * @module
 */
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { deviceZeros, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gpuGemv, type DeviceMatrix, type GpuGemvOptions } from '../../kernels/gemv/gemv-webgpu.js';
import { gemvWorkgroupSplitCalls } from '../../kernels/gemv/gemv-workgroup-split.js';
import type { GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import type { GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { checkGemvRows, GEMV_BENCH_U, gemvReference, rand32 } from './bench-data.js';
import { interleaved, sweepRows, type SweepRow, type SweepSettings, type SweepVariant, type WithSwitches } from './h19-sweep.js';

/** A variant of this sweep: which matrix (A's storage) and x (fp32, or `x16`: stored in A's format) it reads. */
export interface DefaultSweepVariant extends SweepVariant<GpuGemvOptions> {
  readonly storage: 'f32' | 'bf16' | 'f16';
  readonly x16: boolean;
  /**
   * The row this one's ratio is taken to where it may have other bits (another fixed order within the same bound;
   * the note says whether the bits happen to match); `sameBitsAs` rows take theirs, rows with neither are references.
   */
  readonly ratioTo?: string;
}

/**
 * The library's defaults over the bench's all-off state (h19-goals.ts ITEM4_OFF): the two-pass one of session 19 and
 * the one since session 20 (the same plus the split and four rows; since session 21 the split takes the exact products too). gemvFfFourRows changes nothing in f32 arithmetic
 * (four rows a thread there already); ffExactProducts nothing where x is fp32.
 */
const TWO_PASS: Partial<GpuKernelSwitches> = { lazy: true, tree: true, f32FmaKeep: true, ffFmaKeep: true, gemvPrefetch: true, gemvVectorX: true, ffExactProducts: true, gemvWorkgroupSplit: 0, gemvFfFourRows: false };
const SPLIT: Partial<GpuKernelSwitches> = { ...TWO_PASS, gemvWorkgroupSplit: 256, gemvFfFourRows: true };
/** The default since session 21: the split also takes float-float's exact 16-bit products (the two passes' bits). */
const DEFAULT: Partial<GpuKernelSwitches> = { ...SPLIT, gemvWorkgroupSplitExact: true };

/**
 * The variants, each two-pass row followed by its new-default partner.
 * @returns them
 */
export function gemvDefaultSweepVariants(): DefaultSweepVariant[] {
  const pair = (name: string, arithmetic: 'f32' | 'ff', storage: DefaultSweepVariant['storage'], x16: boolean, options: GpuGemvOptions): DefaultSweepVariant[] => {
    const old = `${name}: two passes (session-19 default)`;
    return [
      { label: old, arithmetic, storage, x16, switches: TWO_PASS, options },
      { label: `${name}: gemvWorkgroupSplit 256 + gemvFfFourRows${x16 ? ' + gemvWorkgroupSplitExact' : ''} (default)`, arithmetic, storage, x16, switches: DEFAULT, options, sameBitsAs: old },
    ];
  };
  return [
    ...pair('fp32 + ff', 'ff', 'f32', false, {}),
    ...pair('fp32 + f32', 'f32', 'f32', false, {}),
    ...(['bf16', 'f16'] as const).flatMap((s) => [
      ...pair(`${s} + ff, x fp32`, 'ff', s, false, {}),
      ...pair(`${s} + ff, x fp32, 1 chain`, 'ff', s, false, { chains: 1 }),
      ...pair(`${s} + ff, x ${s}`, 'ff', s, true, {}),
      ...pair(`${s} + ff, x ${s}, 1 chain`, 'ff', s, true, { chains: 1 }),
    ]),
  ];
}

/**
 * Session 21's rows (`--gemv-default-sweep --rows=s21`), bf16 and f16 storage only: the defaults as references — float-float
 * with x fp32 and with x in A's format (exact products: two passes), 1 chain (the default) and 2, and f32 arithmetic with
 * both x — beside the candidates: `gemvWorkgroupSplitExact` (the split runs the exact products: the two passes' bits),
 * `gemvUnroll` 16 (16 columns a step: twice the bytes in flight a thread, 128 as an fp32 matrix's 8 columns; f32 keeps
 * its bits, float-float settles as often with one chain and half as often with two), `gemvEightRows` (8 rows a thread
 * from one 16-byte load: the same bits; half the threads, and 64 rows — 128 bytes — of a column a chunk in a split
 * workgroup instead of 32), both together, eight rows at a 2^19 target (64 chunks: as many threads as the default, twice
 * its bytes in flight; other chunks, other bits), and f32's two passes (the split's share in f32). Two f32 rows tell
 * the split's short runs from the bytes in flight: 16 columns a step at a 2^17 target (16 chunks: the default's bytes in
 * flight, 64 rows of a column a chunk in a split workgroup) and the two passes with 16 columns a step (256 rows a
 * workgroup, twice the bytes in flight); float-float's two passes with x fp32, and with 16-column steps, likewise.
 * @returns the variants, each storage's references before their candidates
 */
export function gemvSixteenBitSweepVariants(): DefaultSweepVariant[] {
  const exact = { ...SPLIT, gemvWorkgroupSplitExact: true } as const;
  const rows: DefaultSweepVariant[] = [];
  for (const s of ['bf16', 'f16'] as const) {
    const ffX32 = `${s} + ff, x fp32, 1 chain: default`, ffX32c2 = `${s} + ff, x fp32, 2 chains: default`;
    const ffX16 = `${s} + ff, x ${s}, 1 chain: session-20 default (two passes)`, ffX16c2 = `${s} + ff, x ${s}, 2 chains: session-20 default (two passes)`;
    const f32X32 = `${s} + f32, x fp32: default`, f32X16 = `${s} + f32, x ${s}: default`;
    const ff = (x16: boolean, label: string, switches: Partial<GpuKernelSwitches>, options: GpuGemvOptions, to: { sameBitsAs?: string; ratioTo?: string } = {}): DefaultSweepVariant => ({ label, arithmetic: 'ff', storage: s, x16, switches, options, ...to });
    const f32 = (x16: boolean, label: string, switches: Partial<GpuKernelSwitches>, options: GpuGemvOptions, to: { sameBitsAs?: string; ratioTo?: string } = {}): DefaultSweepVariant => ({ label, arithmetic: 'f32', storage: s, x16, switches, options, ...to });
    rows.push(
      ff(false, ffX32, SPLIT, {}),
      ff(false, ffX32c2, SPLIT, { chains: 2 }),
      ff(false, `${s} + ff, x fp32, 1 chain: gemvUnroll 16`, { ...SPLIT, gemvUnroll: 16 }, {}, { ratioTo: ffX32 }),
      ff(false, `${s} + ff, x fp32, 2 chains: gemvUnroll 16`, { ...SPLIT, gemvUnroll: 16 }, { chains: 2 }, { ratioTo: ffX32c2 }),
      ff(false, `${s} + ff, x fp32, 1 chain: gemvEightRows`, { ...SPLIT, gemvEightRows: true }, {}, { sameBitsAs: ffX32 }),
      ff(false, `${s} + ff, x fp32, 1 chain: gemvEightRows + gemvUnroll 16`, { ...SPLIT, gemvEightRows: true, gemvUnroll: 16 }, {}, { ratioTo: ffX32 }),
      // The two passes: 256 rows of a column a 64-invocation workgroup (the split's: 32), a second dispatch.
      ff(false, `${s} + ff, x fp32, 1 chain: two passes`, { ...SPLIT, gemvWorkgroupSplit: 0 }, {}, { sameBitsAs: ffX32 }),
      ff(false, `${s} + ff, x fp32, 1 chain: two passes + gemvUnroll 16`, { ...SPLIT, gemvWorkgroupSplit: 0, gemvUnroll: 16 }, {}, { ratioTo: ffX32 }),
      ff(true, ffX16, SPLIT, {}),
      ff(true, ffX16c2, SPLIT, { chains: 2 }),
      ff(true, `${s} + ff, x ${s}, 1 chain: gemvWorkgroupSplitExact`, exact, {}, { sameBitsAs: ffX16 }),
      ff(true, `${s} + ff, x ${s}, 2 chains: gemvWorkgroupSplitExact`, exact, { chains: 2 }, { sameBitsAs: ffX16c2 }),
      ff(true, `${s} + ff, x ${s}, 1 chain: gemvWorkgroupSplitExact + gemvUnroll 16`, { ...exact, gemvUnroll: 16 }, {}, { ratioTo: ffX16 }),
      ff(true, `${s} + ff, x ${s}, 1 chain: two passes + gemvUnroll 16`, { ...SPLIT, gemvUnroll: 16 }, {}, { ratioTo: ffX16 }),
      ff(true, `${s} + ff, x ${s}, 1 chain: gemvWorkgroupSplitExact + gemvEightRows`, { ...exact, gemvEightRows: true }, {}, { sameBitsAs: ffX16 }),
      f32(false, f32X32, SPLIT, {}),
      f32(false, `${s} + f32, x fp32: two passes`, { ...SPLIT, gemvWorkgroupSplit: 0 }, {}, { sameBitsAs: f32X32 }),
      f32(false, `${s} + f32, x fp32: gemvUnroll 16`, { ...SPLIT, gemvUnroll: 16 }, {}, { sameBitsAs: f32X32 }),
      f32(false, `${s} + f32, x fp32: gemvEightRows`, { ...SPLIT, gemvEightRows: true }, {}, { sameBitsAs: f32X32 }),
      f32(false, `${s} + f32, x fp32: gemvEightRows + gemvUnroll 16`, { ...SPLIT, gemvEightRows: true, gemvUnroll: 16 }, {}, { sameBitsAs: f32X32 }),
      f32(false, `${s} + f32, x fp32: gemvEightRows, 2^19 target (64 chunks)`, { ...SPLIT, gemvEightRows: true }, { targetThreads: 2 ** 19 }, { ratioTo: f32X32 }),
      // Diagnostics: the default's bytes in flight with 64 rows of a column a chunk (half the threads, 16 columns a
      // step), and the two passes' 256 rows a 64-invocation workgroup with twice the bytes in flight.
      f32(false, `${s} + f32, x fp32: gemvUnroll 16, 2^17 target (16 chunks)`, { ...SPLIT, gemvUnroll: 16 }, { targetThreads: 2 ** 17 }, { ratioTo: f32X32 }),
      f32(false, `${s} + f32, x fp32: two passes + gemvUnroll 16`, { ...SPLIT, gemvWorkgroupSplit: 0, gemvUnroll: 16 }, {}, { sameBitsAs: f32X32 }),
      f32(true, f32X16, SPLIT, {}),
      f32(true, `${s} + f32, x ${s}: gemvUnroll 16`, { ...SPLIT, gemvUnroll: 16 }, {}, { sameBitsAs: f32X16 }),
      f32(true, `${s} + f32, x ${s}: gemvEightRows`, { ...SPLIT, gemvEightRows: true }, {}, { sameBitsAs: f32X16 }),
    );
  }
  return rows;
}

/**
 * Session 22's rows (`--gemv-default-sweep --rows=s22`): the cheaper float-float streaming terms and settles against
 * the default, above all for issue 19's goal rows (bf16 / f16 storage, x fp32, ≤ 0.075 ms). `ffFoldedProducts`: TwoProd's
 * error folded into the TwoSum tail by one fma (8 operations a term instead of 10; other bits, within the bound);
 * `ffLeanSettle`: settles without ffFinish's zero test (the default's bits, checked); `ffLongLazy`: a settle every 16
 * terms instead of 8 (other bits, within the bound); their combinations. With x in A's format (exact products: 8
 * operations a term already) the lean settle and long runs; f32 arithmetic as the floor. All three on x fp32 also with
 * `prefetchPingPong`, with 128-invocation split workgroups, eight rows a thread (`gemvEightRows`), and at a 2^17 target
 * (16 chunks). fp32 storage in float-float
 * too (its goal ≤ 0.105 ms): the default, the folded terms, and all three together.
 * @returns the variants, each storage's default before its candidates
 */
export function gemvS22SweepVariants(): DefaultSweepVariant[] {
  const fold = { ffFoldedProducts: true } as const, lean = { ffLeanSettle: true } as const, long = { ffLongLazy: true } as const;
  const rows: DefaultSweepVariant[] = [];
  for (const s of ['bf16', 'f16'] as const) {
    const ref = `${s} + ff, x fp32, 1 chain: default`, ref16 = `${s} + ff, x ${s}, 1 chain: default (exact products)`;
    const ff = (x16: boolean, label: string, switches: Partial<GpuKernelSwitches>, to: { sameBitsAs?: string; ratioTo?: string } = {}): DefaultSweepVariant => ({ label, arithmetic: 'ff', storage: s, x16, switches: { ...DEFAULT, ...switches }, options: {}, ...to });
    rows.push(
      ff(false, ref, {}),
      ff(false, `${s} + ff, x fp32, 1 chain: ffLeanSettle`, lean, { sameBitsAs: ref }),
      ff(false, `${s} + ff, x fp32, 1 chain: ffFoldedProducts`, fold, { ratioTo: ref }),
      ff(false, `${s} + ff, x fp32, 1 chain: ffFoldedProducts + ffLeanSettle`, { ...fold, ...lean }, { ratioTo: ref }),
      ff(false, `${s} + ff, x fp32, 1 chain: ffLongLazy`, long, { ratioTo: ref }),
      ff(false, `${s} + ff, x fp32, 1 chain: ffLongLazy + ffLeanSettle`, { ...long, ...lean }, { ratioTo: ref }),
      ff(false, `${s} + ff, x fp32, 1 chain: ffFoldedProducts + ffLongLazy`, { ...fold, ...long }, { ratioTo: ref }),
      ff(false, `${s} + ff, x fp32, 1 chain: ffFoldedProducts + ffLongLazy + ffLeanSettle`, { ...fold, ...long, ...lean }, { ratioTo: ref }),
      // The same with the prefetch's carried registers in two alternating sets (no moves: ~1.2 a term in the count),
      // with 128-invocation split workgroups, and at a 2^17 target (16 chunks of 512 columns: half the threads).
      ff(false, `${s} + ff, x fp32, 1 chain: ffFoldedProducts + ffLongLazy + ffLeanSettle + prefetchPingPong`, { ...fold, ...long, ...lean, prefetchPingPong: true }, { ratioTo: ref }),
      ff(false, `${s} + ff, x fp32, 1 chain: ffFoldedProducts + ffLongLazy + ffLeanSettle, gemvWorkgroupSplit 128`, { ...fold, ...long, ...lean, gemvWorkgroupSplit: 128 }, { ratioTo: ref }),
      // Eight rows a thread (one 16-byte load of A a column): the bits of four rows.
      ff(false, `${s} + ff, x fp32, 1 chain: ffFoldedProducts + ffLongLazy + ffLeanSettle + gemvEightRows`, { ...fold, ...long, ...lean, gemvEightRows: true }, { sameBitsAs: `${s} + ff, x fp32, 1 chain: ffFoldedProducts + ffLongLazy + ffLeanSettle` }),
      { ...ff(false, `${s} + ff, x fp32, 1 chain: ffFoldedProducts + ffLongLazy + ffLeanSettle, 2^17 target (16 chunks)`, { ...fold, ...long, ...lean }, { ratioTo: ref }), options: { targetThreads: 2 ** 17 } },
      ff(true, ref16, {}),
      ff(true, `${s} + ff, x ${s}, 1 chain: ffLeanSettle`, lean, { sameBitsAs: ref16 }),
      ff(true, `${s} + ff, x ${s}, 1 chain: ffLongLazy + ffLeanSettle`, { ...long, ...lean }, { ratioTo: ref16 }),
      { label: `${s} + f32, x fp32: default (floor)`, arithmetic: 'f32', storage: s, x16: false, switches: DEFAULT, options: {} },
    );
  }
  const ref32 = 'fp32 + ff: default';
  const ff32 = (label: string, switches: Partial<GpuKernelSwitches>, to: { sameBitsAs?: string; ratioTo?: string } = {}): DefaultSweepVariant => ({ label, arithmetic: 'ff', storage: 'f32', x16: false, switches: { ...DEFAULT, ...switches }, options: {}, ...to });
  rows.push(
    ff32(ref32, {}),
    ff32('fp32 + ff: ffFoldedProducts', fold, { ratioTo: ref32 }),
    ff32('fp32 + ff: ffFoldedProducts + ffLongLazy + ffLeanSettle', { ...fold, ...long, ...lean }, { ratioTo: ref32 }),
    { label: 'fp32 + f32: default (floor)', arithmetic: 'f32', storage: 'f32', x16: false, switches: DEFAULT, options: {} },
  );
  return rows;
}

/**
 * The sweep: an n×n matrix (n = 8192, 1024 with `small`) in fp32, bf16 and f16, x in fp32 and in each 16-bit format;
 * every variant checked (γ_{2n+3}(u)·Σ|a·x| of a compensated reference of the stored values, and its partner's bits),
 * then all timed in interleaved rounds.
 * @returns the rows (storage set)
 */
export async function gemvDefaultSweep(rt: GpuRuntime, small: boolean, settings: SweepSettings, withSwitches: WithSwitches, set?: string): Promise<(SweepRow & { storage: string })[]> {
  const n = small ? 1024 : 8192;
  const hostX = rand32(n, 11);
  const a32 = await toDevice(rand32(n * n, 7), { format: 'f32', strict: true });
  const x32 = await toDevice(hostX, { format: 'f32', strict: true });
  const y = await deviceZeros(n, { format: 'f32', strict: true });
  const yCheck = await deviceZeros(n, { format: 'f64', strict: true });
  const variants = set === 's21' ? gemvSixteenBitSweepVariants() : set === 's22' ? gemvS22SweepVariants() : gemvDefaultSweepVariants();
  const owned: DeviceArray[] = [a32, x32, y, yCheck];
  // Per storage: A, its stored values, and x in fp32 and in A's format with their references.
  const operands = new Map<string, { A: DeviceMatrix; x: DeviceArray; ref: Float64Array; mag: Float64Array }>();
  const operandsOf = async (v: DefaultSweepVariant): Promise<{ A: DeviceMatrix; x: DeviceArray; ref: Float64Array; mag: Float64Array }> => {
    const key = `${v.storage}|${v.x16}`;
    const known = operands.get(key);
    if (known) return known;
    const same = operands.get(`${v.storage}|${!v.x16}`);
    let A = same?.A;
    if (!A) {
      const data = v.storage === 'f32' ? a32 : (await gpuConvert(a32, v.storage)).array;
      if (data !== a32) owned.push(data);
      A = deviceMatrix(data, n, n);
    }
    let x = x32;
    if (v.x16) {
      x = (await gpuConvert(x32, v.storage)).array;
      owned.push(x);
    }
    const made = { A, x, ...gemvReference(await A.data.toHost(), await x.toHost(), n) };
    operands.set(key, made);
    return made;
  };
  const results = new Map<string, Float64Array>();
  const checks: { error: number; bound: number; correct: boolean; why: string }[] = [];
  const runs: { switches: Partial<GpuKernelSwitches>; run: () => Promise<unknown> }[] = [];
  for (const v of variants) {
    const { A, x, ref, mag } = await operandsOf(v);
    checks.push(await withSwitches(v.switches, async () => {
      const before = gemvWorkgroupSplitCalls();
      await gpuGemv({ A, x, y: yCheck }, { arithmetic: v.arithmetic, ...v.options });
      // Which form ran: the split (one dispatch) or the two passes (where it does not apply, as with exact products).
      const form = gemvWorkgroupSplitCalls() > before ? '1 dispatch' : '2 dispatches';
      const got = await yCheck.toHost();
      results.set(v.label, got);
      const earlier = v.sameBitsAs ? results.get(v.sameBitsAs) : undefined;
      const { error, bound, correct, sameBits } = checkGemvRows(got, ref, mag, GEMV_BENCH_U[v.arithmetic], earlier);
      // A ratioTo row may differ in bits (within the bound); the note says whether they match.
      const other = v.ratioTo ? results.get(v.ratioTo) : undefined;
      const bits = other ? (got.every((g, i) => Object.is(g, other[i])) ? '; same bits' : '; other bits') : '';
      return { error, bound, correct, why: `; ${form}${sameBits ? (earlier ? '; same bits' : '') : '; BITS DIFFER'}${bits}` };
    }));
    runs.push({ switches: v.switches, run: () => gpuGemv({ A, x, y }, { arithmetic: v.arithmetic, ...v.options }) });
  }
  const timed = await interleaved(rt, runs, settings, withSwitches);
  const bytes = (v: DefaultSweepVariant): number => n * n * (v.storage === 'f32' ? 4 : 2) + n * (v.x16 ? 2 : 4) + 4 * n;
  // A two-pass row is its partner's reference (sweepRows would take the arithmetic's first row); a ratioTo row's ratio
  // is to that row.
  const swept = sweepRows(`GEMV N n=${n}`, variants, checks, timed, 0);
  const ratioNote = (i: number): string => {
    const to = variants.findIndex((w) => w.label === variants[i]!.ratioTo);
    return `${(swept[i]!.ms / swept[to]!.ms).toFixed(3)}× ${variants[to]!.label}${checks[i]!.why}`;
  };
  const rows = swept.map((r, i) => ({ ...r, bytes: bytes(variants[i]!), storage: variants[i]!.storage, note: variants[i]!.sameBitsAs ? r.note : variants[i]!.ratioTo ? ratioNote(i) : `reference${checks[i]!.why}` }));
  for (const b of owned) b.destroy();
  return rows;
}
