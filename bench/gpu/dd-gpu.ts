/**
 * Double-double on the GPU (issue 18): DD DOT n = 2^26 (dd·dd, f64·dd and f64·f64 storage) and DD GEMV N n = 8192
 * (dd storage and f64 storage; against the device copy bandwidth and cuBLAS DGEMV, timed by cuda-anchors.py in the
 * same device call), and TRSV L N n = 8192 with dd storage and dd arithmetic against fp32 storage + ff (goal: within
 * 3×). Every row is checked in the same run against the CPU's double-double kernels (formats.dd) on the same stored
 * values: DOT within 2·dotBound (with `--quick`, also against the exact BigInt value: within γ_{2n}(2^-110)·Σ|x·y|
 * plus the read-back's rounding), GEMV rows within 2·γ_{n+3}(2^-102)·Σ|a·x|, TRSV against the CPU dd solve.
 *
 * Rows per DOT and GEMV: `dd` (the default: DOT's dotVariant, GEMV's gemvVariant — windows of eight products since
 * session 18) and `dd window K` for each K of `--windows` (default 2,4,8,8t; ddGpuArithmeticWindowOf(K): windowed
 * multiply-adds of at most K products, checked against the bound only; `Kt`: the same with one slow-path call a term
 * instead of one loop a window, the form session 16 timed — the same words, another shader). GEMV (N and T, dd and f64
 * storage) also has `dd fused (before)`: the fused multiply-adds GEMV ran before session 18 (gemvVariant off), whose
 * words the other exact-path rows must match; GEMV N with f64 storage has `dd, x decoded once (ddGemvDecodedX)` (the
 * switch of kernel-switches.ts, off by default: x decoded once a call; the `dd` row's words, checked), and GEMV N and T
 * with f64 storage `dd, windows of 8 (ddGemvLong off…)` (the default has that switch on since session 19: f64·f64 terms in one long window a
 * thread, dd-gpu-gemv-long-wgsl.ts; checked against the bound; `--only=gemv --no-window` times it beside the default);
 * GEMV N and T with dd storage `dd, dd terms in the long window (ddGemvLongDd)` (that switch, off by default: dd·dd terms
 * in the same long window in the lean term form; checked against the bound), and GEMV N `dd, R rows a thread
 * (ddGemvRows)` (R = 2, 4: f64 storage, the `dd` row's words, checked) and `dd, dd terms in the long window, 2 rows a
 * thread (ddGemvLongDd, ddGemvRows)` (dd storage, the bound). `--before` adds the unfused arithmetic (the build before the fused
 * multiply-adds; the fused row's words) to GEMV and TRSV, and GEMV's two-chain row. `Kc1` windows: DOT only, with one
 * accumulator a thread, so DOT's eight-term step is one window. DOT also has rows `dd lean K` for each K of `--lean`
 * (default 4,8c1; `--no-lean` drops them): ddGpuArithmeticWindowLeanOf(K), the lean term form (8 with one chain is
 * DOT's dotVariant with the `ddDotLean` switch and dd's dotChains, on by default since session 20: the `dd` row's
 * arithmetic; 4 was session 20's first default; `--windows=4` times the wide form of session 18), checked against the bound only.
 * DOT's rows `dd, long window (ddDotLong)` and `dd, long window, 4 runs a step (ddDotLong)` run its first pass in GEMV's
 * long window for every storage (the ddDotLong switch set to true), `dd, lean windows (ddDotLong off)` the lean windows
 * for every storage (`--no-dot-long` drops the three), checked against the bound only; the `dd` row is the switch's
 * 'auto' default since session 23 (the long window for f64·dd with two runs a step and f64·f64 with four, the lean
 * windows for dd·dd):
 * `node dist/bench/gpu/dd-gpu.js --only=dot --no-window --no-lean --budget=dot:300 --deadline=400` times them beside the default.
 *
 * Sections run in the order dot, gemv, trsv (`--only=dot,gemv,trsv` picks some); each has a time budget
 * (`--budget=dot:200,gemv:150,trsv:150`, seconds) and the whole run a deadline (`--deadline=560`; with --quick none
 * unless given): a row that would
 * start after its section's budget or the deadline is not run but recorded as skipped, with the reason. The JSON
 * ($OUT/dd-gpu.json or `--out=<dir>`) is written after every row (`complete: false` until the end), so a run cut off
 * keeps what it measured. A row's timing takes at most about `--row-seconds=12` (fewer repetitions for slow kernels).
 * `--quick` (or `--small`): small sizes and one run each, for llvmpipe (checks that everything runs and is right),
 * with DOT's two-term step and GEMV's four-column step unless `--dot-shape=width,groups,chains` /
 * `--gemv-unroll=4|8|16` say otherwise (they also apply without --quick; the JSON records them).
 *
 * TRSV rows (L N, n = 8192; --quick 200): the fp32 + ff yardstick, then dd storage and f64 storage (A and x) under dd
 * arithmetic, each as shipped (`ddLanes` off: dd storage takes the one-thread blocked passes, 2 dispatches a 64-row
 * block; f64 x the one-workgroup substitution that rounds x to binary64 between rows) and with `ddLanes` on (the
 * lane-split blocked solve, kernels/trsv/trsv-lanes-source.ts; an f64 x then rounded once at the end) —
 * `--trsv-forms=old,lanes` and `--trsv-storage=dd,f64` pick some; `fused` adds rows with `ddLanesFused` (one dispatch a
 * block, checked to give the lanes row's words), `overlap16` … `overlap256` rows with `ddOverlapLanes` (per block a
 * near update of its rows, then its solve beside the far update of the later rows, W lanes a row in the near update and
 * the solve: kernels/trsv/trsv-lanes-overlap-source.ts; overlap16 checked to give the lanes row's words, listed after
 * `lanes`; `MODPREC_TRSV_DD_OVERLAP_SPLIT=0…100` sets their far-update split; `overlapWfF`, e.g. overlap64f64, sets the
 * far update's lanes a row too, `ddOverlapFarLanes`; a trailing `w`, e.g. overlap64f32w, turns `ddTrsvWindow` on: the
 * update terms in GEMV's window), and `--trsv-block=64,128,256` times the
 * lanes, fused and overlap rows at those block sizes (`blockSize`).
 * Each row checked against the CPU dd solve.
 *
 * `--from=<json> --anchors=<cuda-anchors.py output> [--device=…]` records a run into bench/results and
 * docs/performance.md (section `dd-gpu`).
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/gpu/dd-gpu.js [--quick] [--only=dot,gemv,trsv] [--windows=2,4,8,8t] [--lean=4,8c1]
 *   [--before] [--budget=…] [--deadline=…] [--out=<dir>] [--trsv-forms=old,lanes,fused,overlap64] [--trsv-storage=dd,f64]
 *   [--trsv-block=64,128,256] [--decoded-x-dd]
 * (`--decoded-x-dd`: GEMV's rows are only `dd` and `dd, dd x decoded once a call (ddGemvDecodedXDd)`, N and T, over dd
 * storage and over A in f64 with x in dd — `f64dd` — the switch's rows checked to give the `dd` row's words:
 * `node dist/bench/gpu/dd-gpu.js --only=gemv --no-window --decoded-x-dd --row-seconds=6 --budget=gemv:200 --deadline=230`.)
 * (TRSV old vs lanes alone: `node dist/bench/gpu/dd-gpu.js --only=trsv --budget=trsv:400`).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable, today, writePerformanceSection, writeResults } from '../report.js';
import { toDevice, toDeviceSpan, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { gpujsCopy, timeDeviceRuns } from './device-timing.js';
import { gpuRuntime, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { gpuUnavailableReason } from '../../src/backends/webgpu/backend.js';
import { setGpuKernelSwitches, setTrsvKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { dot, dotBound, trsv, vector, matrix, formats } from '../../src/index.js';
import { ddGpuArithmetic, ddGpuArithmeticUnfused, ddGpuArithmeticWindowLeanOf, ddGpuArithmeticWindowOf } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { exactDot } from '../../src/testing/exact.js';
import { absRational, compareRational, mulRational, subRational } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
// --quick / --small: small sizes and one run each (llvmpipe: checks that everything runs and is right).
const quick = argv.includes('--quick') || argv.includes('--small');
const outDir = flag('out') ?? process.env.OUT;
const SECTIONS = ['dot', 'gemv', 'trsv'] as const;
type Section = (typeof SECTIONS)[number];
const only = flag('only')?.split(',').map((s) => s.trim()) ?? [...SECTIONS];
for (const s of only) if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`--only: sections are ${SECTIONS.join(', ')}, not ${s}`);
// K: windows of at most K products, their slow path one loop a window; Kt: one slow call a term (session 16's form).
// Kc1: DOT only, its step's terms into one accumulator (chains 1: one window of 8 with the default step of 8 terms).
const windowTerms = argv.includes('--no-window') ? [] : (flag('windows') ?? '2,4,8,8t').split(',').filter((s) => s !== '');
for (const w of windowTerms) if (!/^[1-8](t|c1)?$/.test(w)) throw new Error(`--windows: K, Kt or Kc1 with K from 1 to 8, not ${w}`);
// The lean term form (ddGpuArithmeticWindowLeanOf(K)), DOT rows only: K or Kc1 as for --windows.
const leanTerms = argv.includes('--no-lean') ? [] : (flag('lean') ?? '4,8c1').split(',').filter((s) => s !== '');
for (const w of leanTerms) if (!/^[1-8](c1)?$/.test(w)) throw new Error(`--lean: K or Kc1 with K from 1 to 8, not ${w}`);
const before = argv.includes('--before');
// --quick (llvmpipe, whose compiles take minutes) has no budgets or deadline unless given.
const budgets: Record<Section, number> = quick ? { dot: Infinity, gemv: Infinity, trsv: Infinity } : { dot: 200, gemv: 150, trsv: 150 };
for (const part of flag('budget')?.split(',') ?? []) {
  const [name, seconds] = part.split(':');
  if (!(SECTIONS as readonly string[]).includes(name!) || !(Number(seconds) > 0)) throw new Error(`--budget: section:seconds, not ${part}`);
  budgets[name as Section] = Number(seconds);
}
// DOT's first-pass shape (`--dot-shape=width,groups,chains`) and GEMV N's columns a step (`--gemv-unroll=4|8|16`):
// the library's defaults unless given; --quick takes 2,1,1 and 4 (llvmpipe compiles DOT's default eight-term step
// in minutes per arithmetic, each windowed one in more).
const dotShapeFlag = flag('dot-shape') ?? (quick ? '2,1,1' : undefined);
const dotShape = dotShapeFlag === undefined ? {} : (() => {
  const [groupWidth, groups, chains] = dotShapeFlag.split(',').map(Number);
  if (groupWidth !== 1 && groupWidth !== 2 && groupWidth !== 4) throw new Error(`--dot-shape: width,groups,chains with width 1, 2 or 4, not ${dotShapeFlag}`);
  return { groupWidth, groups: groups!, chains: chains! } as const;
})();
const gemvUnrollFlag = flag('gemv-unroll') ?? (quick ? '4' : undefined);
if (gemvUnrollFlag !== undefined) {
  if (!['4', '8', '16'].includes(gemvUnrollFlag)) throw new Error(`--gemv-unroll: 4, 8 or 16, not ${gemvUnrollFlag}`);
  setGpuKernelSwitches({ gemvUnroll: Number(gemvUnrollFlag) as 4 | 8 | 16 });
}
// TRSV: `--trsv-forms=old,lanes,fused,overlap64` (ddLanes off; on; on with ddLanesFused — old and lanes by default),
// `--trsv-storage=dd,f64` (both by default) and `--trsv-block=64,128,256` (the blockSize of the lanes and fused rows; 64 by default).
// `overlapW` (W = 16, 32, 64, 128, 256) adds rows with `ddOverlapLanes` = W (near update, then the solve beside the far
// update; overlap16 checked to give the lanes row's words); `overlapWfF` (F = 16 … 256) also sets `ddOverlapFarLanes` = F
// (the far update's lanes a row; 16 without the suffix); a trailing `w` (overlap64f32w) turns `ddTrsvWindow` on (the
// near and far update terms in GEMV's window, kernels/trsv/trsv-window-update-source.ts).
const OVERLAP_FORM = /^overlap(16|32|64|128|256)(?:f(16|32|64|128|256))?(w)?$/;
const trsvForms = (flag('trsv-forms') ?? 'old,lanes').split(',').map((f) => {
  if (f !== 'old' && f !== 'lanes' && f !== 'fused' && !OVERLAP_FORM.test(f)) throw new Error(`--trsv-forms: old, lanes, fused and/or overlap16 … overlap256 (optionally f16 … f256: overlap64f64; then w: overlap64f32w), not ${f}`);
  return f;
});
const trsvBlocks = (flag('trsv-block') ?? '64').split(',').map((f) => {
  if (f !== '64' && f !== '128' && f !== '256') throw new Error(`--trsv-block: 64, 128 and/or 256, not ${f}`);
  return Number(f) as 64 | 128 | 256;
});
const trsvStorages = (flag('trsv-storage') ?? 'dd,f64').split(',').map((f) => {
  if (f !== 'dd' && f !== 'f64') throw new Error(`--trsv-storage: dd and/or f64, not ${f}`);
  return f;
});
const runStart = performance.now();
const deadlineMs = 1000 * Number(flag('deadline') ?? (quick ? Infinity : 560));
const rowMs = 1000 * Number(flag('row-seconds') ?? 12);

/** GEMV's storages: A and x in dd, both in f64, or (`--decoded-x-dd`) A in f64 and x in dd. */
type GemvStorage = 'dd' | 'f64' | 'f64dd';
// --decoded-x-dd: GEMV's rows are the default and the ddGemvDecodedXDd switch's, over dd and f64dd storage (N and T).
const decodedXDd = argv.includes('--decoded-x-dd');

/** An arithmetic option of a row: the default dd, or the unfused / windowed parts under their own names. */
type ArithmeticOption = 'dd' | { name: string; arithmetic: { gpu: typeof ddGpuArithmeticUnfused } };
interface Variant {
  readonly label: string;
  readonly option: ArithmeticOption;
  /** Another summation order than the default: checked against the bound only, not the default's words. */
  readonly boundOnly: boolean;
  readonly chains?: number;
  /** DOT's accumulators a thread (the `c1` rows: 1), where not DOT's default or `--dot-shape`'s. */
  readonly dotChains?: number;
  /** A DOT-only row (GEMV skips it). */
  readonly dotOnly?: boolean;
  /** DOT's runs a step (`groups`), where not DOT's default; `--dot-shape` overrides it. */
  readonly dotGroups?: number;
  /** Kernel switches the row runs under (restored after it). */
  readonly switches?: Partial<GpuKernelSwitches>;
  /** The default row's words, checked (a switch that keeps the bits). */
  readonly sameAsDefault?: boolean;
  /** Where the row applies (GEMV: trans — absent, both — and storage; `f64dd`: A in f64, x in dd); absent: everywhere. */
  readonly only?: { trans?: 'N' | 'T'; storage: GemvStorage };
}
const DEFAULT: Variant = { label: 'dd', option: 'dd', boundOnly: false };
const UNFUSED: Variant = { label: 'dd unfused (before)', option: { name: 'dd-unfused', arithmetic: { gpu: ddGpuArithmeticUnfused } }, boundOnly: false };
/** GEMV's fused multiply-adds in its partial pass too (its default before session 18: gemvVariant off). */
const FUSED_GEMV: Variant = { label: 'dd fused (before)', option: { name: 'dd-fused-gemv', arithmetic: { gpu: { ...ddGpuArithmetic, name: 'dd-fused-gemv', gemvVariant: undefined } } }, boundOnly: false };
/** GEMV's default runs its windowed gemvVariant: another rounding than the fused row, checked against the bound. */
const GEMV_DEFAULT: Variant = { ...DEFAULT, boundOnly: true };
/** GEMV N with f64 x decoded once a call (the ddGemvDecodedX switch, off by default) in the windows of 8 (ddGemvLong off): the bound. */
const DECODED_X: Variant = { label: 'dd, windows of 8, x decoded once (ddGemvDecodedX)', option: 'dd', boundOnly: true, switches: { ddGemvDecodedX: true, ddGemvLong: false }, only: { trans: 'N', storage: 'f64' } };
/** GEMV N and T with f64 storage in windows of 8 settled per step (ddGemvLong off; the default until session 19): the bound. */
const LONG: Variant = { label: 'dd, windows of 8 (ddGemvLong off: the default before session 19)', option: 'dd', boundOnly: true, switches: { ddGemvLong: false }, only: { storage: 'f64' } };
/** GEMV N and T with dd storage, dd terms in the long window (the ddGemvLongDd switch, off until timed): the bound. */
const LONG_DD: Variant = { label: 'dd, dd terms in the long window (ddGemvLongDd)', option: 'dd', boundOnly: true, switches: { ddGemvLongDd: true }, only: { storage: 'dd' } };
/**
 * GEMV N with 2 or 4 rows a partial-pass thread (the ddGemvRows switch, off until timed): f64 storage gives the default's
 * words (checked where its steps are the one-row pass's eight columns: gemvUnroll 8, not --quick's 4).
 */
const ROWS: Variant[] = [2, 4].map((R) => ({ label: `dd, ${R} rows a thread (ddGemvRows)`, option: 'dd', boundOnly: true, sameAsDefault: (gemvUnrollFlag ?? '8') === '8', switches: { ddGemvRows: R as 2 | 4 }, only: { trans: 'N', storage: 'f64' } }));
/** GEMV N, dd storage: dd terms in the long window with 2 rows a thread (both switches): the bound. */
const ROWS_LONG_DD: Variant = { label: 'dd, dd terms in the long window, 2 rows a thread (ddGemvLongDd, ddGemvRows)', option: 'dd', boundOnly: true, switches: { ddGemvLongDd: true, ddGemvRows: 2 }, only: { trans: 'N', storage: 'dd' } };
/**
 * GEMV N and T with x in dd decoded once a call (the ddGemvDecodedXDd switch, off until timed; `--decoded-x-dd`): the
 * default's words (only where the limbs come from changes), checked; A in dd and (storage f64dd) in f64.
 */
const DECODED_X_DD: Variant[] = (['dd', 'f64dd'] as const).map((storage) => ({ label: 'dd, dd x decoded once a call (ddGemvDecodedXDd)', option: 'dd', boundOnly: true, sameAsDefault: true, switches: { ddGemvDecodedXDd: true }, only: { storage } }));
/**
 * DOT with GEMV's long window in its first pass for every storage (the ddDotLong switch set to true; its 'auto' default
 * takes it for f64·dd and f64·f64 alone; one accumulator a thread), and the lean windows for every storage: the
 * library's step of two runs of four (eight terms, one long-window step), and four runs a step (two long-window steps a
 * loop iteration: more loads in flight, more registers). The bound: checked against 2·dotBound (and, with --quick, the
 * exact value within γ_{2n}(2^-110)·Σ|x·y|, which covers the long window's γ_{2n_c+1+d} there: 2n_c + 1 + d ≤ 2n).
 * `--no-dot-long` drops them.
 */
const DOT_LONG: Variant[] = argv.includes('--no-dot-long') ? [] : [
  // The lean windows of eight for every storage (ddDotLong off): the default row's arithmetic for dd·dd, and for f64
  // storage the form the 'auto' default replaced in session 23.
  { label: 'dd, lean windows (ddDotLong off)', option: 'dd', boundOnly: true, dotOnly: true, switches: { ddDotLong: false } },
  { label: 'dd, long window (ddDotLong)', option: 'dd', boundOnly: true, dotOnly: true, switches: { ddDotLong: true } },
  { label: 'dd, long window, 4 runs a step (ddDotLong)', option: 'dd', boundOnly: true, dotOnly: true, dotGroups: 4, switches: { ddDotLong: true } },
];
const oneChain = (w: string): Partial<Variant> => (w.endsWith('c1') ? { dotChains: 1, dotOnly: true } : {});
const WINDOWS: Variant[] = windowTerms.map((w) => {
  const part = ddGpuArithmeticWindowOf(Number(w[0]), !w.endsWith('t'));
  return { label: `dd window ${w[0]}${w.endsWith('t') ? ' per-term slow path' : ''}${w.endsWith('c1') ? ', 1 chain' : ''}`, option: { name: part.name, arithmetic: { gpu: part } }, boundOnly: true, ...oneChain(w) };
});
const LEAN: Variant[] = leanTerms.map((w) => {
  const part = ddGpuArithmeticWindowLeanOf(Number(w[0]));
  return { label: `dd lean ${w[0]}${w.endsWith('c1') ? ', 1 chain' : ''}`, option: { name: part.name, arithmetic: { gpu: part } }, boundOnly: true, ...oneChain(w) };
});

interface Row {
  kernel: string;
  size: string;
  storage: string;
  arithmetic: string;
  ms: number;
  gbs: number;
  copyFraction: number;
  check: string;
  goal: string;
  /** Why the row was not run (its section's budget or the run's deadline), when it was not. */
  skipped?: string;
}
const rows: Row[] = [];
let copyGbs = NaN;
let device = '';

/** Writes the rows so far ($OUT/dd-gpu.json), through a temporary file: a run cut off keeps a whole file. */
function save(complete: boolean): void {
  if (!outDir) return;
  const file = join(outDir, 'dd-gpu.json');
  writeFileSync(`${file}.tmp`, JSON.stringify({ device, copyGbs, rows, date: today(), complete, quick, windows: windowTerms, lean: leanTerms, dotShape, gemvUnroll: gemvUnrollFlag ?? 'default' }, null, 2));
  renameSync(`${file}.tmp`, file);
}

/** The section's clock: `over()` says why a row must be skipped (budget or deadline), or undefined. */
function sectionClock(section: Section): { over: () => string | undefined } {
  const t0 = performance.now();
  return {
    over: () => {
      if (performance.now() - runStart > deadlineMs) return `skipped: the run's deadline (${deadlineMs / 1000} s) had passed`;
      if (performance.now() - t0 > 1000 * budgets[section]) return `skipped: the ${section} section's budget (${budgets[section]} s) had passed`;
      return undefined;
    },
  };
}

function skip(row: Pick<Row, 'kernel' | 'size' | 'storage' | 'arithmetic'>, why: string): void {
  rows.push({ ...row, ms: NaN, gbs: NaN, copyFraction: NaN, check: '', goal: '', skipped: why });
  console.log(`${row.kernel} ${row.size} ${row.storage}/${row.arithmetic}: ${why}`);
  save(false);
}

/** Reproducible values in [-1, 1) (xorshift32). */
function fill(out: Float64Array, seed: number, step = 1, offset = 0, scale = 1): void {
  let s = seed >>> 0 || 1;
  for (let k = offset; k < out.length; k += step) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[k] = ((s >>> 0) / 2 ** 31 - 1) * scale;
  }
}

/** A dd vector of n pairs (hi random, lo a random fraction of hi's ulp: a genuine double-double). */
function ddVector(n: number, seed: number): ReturnType<typeof vector> {
  const v = vector(n, { storage: formats.dd, arithmetic: formats.dd });
  const d = v.accessor.data as Float64Array;
  fill(d, seed, 2, 0);
  fill(d, seed + 1, 2, 1, 2 ** -54);
  for (let k = 0; k < n; k++) d[2 * k + 1] = d[2 * k + 1]! * Math.abs(d[2 * k]!);
  return v;
}

/** The f64 vector of a dd vector's heads (the same data, half the bytes). */
function heads(v: ReturnType<typeof vector>, n: number): ReturnType<typeof vector> {
  const d = v.accessor.data as Float64Array;
  return vector(Float64Array.from({ length: n }, (_, k) => d[2 * k]!), { storage: formats.f64, arithmetic: formats.dd });
}

/**
 * Median per-call time: one untimed run sizes the batches so that the row's timing takes about `rowMs` at most
 * (slow kernels: fewer repetitions and batches, no warm-up beyond that run); the timing is repeated until two in a row
 * agree within 3 % (at most 4), as a row that follows seconds of host work (a CPU reference) meets a device that clocks
 * up only under load — the first f64-storage GEMV row of a section read 1.75–1.97 ms on the H100 in session 19 where
 * the same kernel took 0.57 ms a row later.
 */
async function timeRuns(rt: GpuRuntime, run: () => Promise<unknown>, reps = 5, batches = 5): Promise<number> {
  // --quick (llvmpipe): one run, to check that everything runs and is right.
  if (quick) return (await timeDeviceRuns(rt, run, { reps: 1, batches: 1, warmMs: 0, warmBurst: 1 })).ms;
  // An untimed run first: a row's first call compiles its shaders, and a `one` that included that took one rep without
  // warm-up (the gpu.js copy read 817 GB/s on the H100 in session 19, ~2970 once warm).
  await run();
  await rt.context.device.queue.onSubmittedWorkDone();
  const t0 = performance.now();
  await run();
  await rt.context.device.queue.onSubmittedWorkDone();
  const one = performance.now() - t0;
  const b = one * reps * batches > rowMs ? 3 : batches;
  const r = Math.max(1, Math.min(reps, Math.floor(rowMs / (b * one))));
  const shape = { reps: r, batches: b, warmMs: one > 100 ? 0 : 300, warmBurst: 1 };
  let ms = (await timeDeviceRuns(rt, run, shape)).ms;
  for (let round = 2; round <= 4 && one * r * b < rowMs / 2; round++) {
    const next = (await timeDeviceRuns(rt, run, shape)).ms;
    const settled = Math.abs(next - ms) <= 0.03 * Math.min(next, ms);
    ms = next;
    if (settled) break;
  }
  return ms;
}

function push(row: Omit<Row, 'copyFraction'>): void {
  const full = { ...row, copyFraction: row.gbs / copyGbs };
  rows.push(full);
  console.log(`${row.kernel} ${row.size} ${row.storage}/${row.arithmetic}: ${row.ms.toFixed(4)} ms, ${row.gbs.toFixed(0)} GB/s (${(100 * full.copyFraction).toFixed(0)} % of copy) ${row.check} ${row.goal}`);
  save(false);
}

async function benchCopy(rt: GpuRuntime): Promise<void> {
  copyGbs = (await gpujsCopy(rt, (run) => timeRuns(rt, run, 20, 7))).gbs;
}

/**
 * --quick only: |got − Σ x·y| against the windowed DOT's bound γ_{2n}(2^-110)·Σ|x·y| (plus the read-back's rounding
 * to a double, ≤ 2^-53·|Σ x·y|), with the exact value in BigInt rationals (each pair split into its two doubles).
 */
function exactCheck(got: number, x: Float64Array, y: Float64Array, xdd: boolean, ydd: boolean, n: number): string {
  const part = (d: Float64Array, dd: boolean, k: number, lo: boolean): number => (dd ? d[2 * k + (lo ? 1 : 0)]! : lo ? 0 : d[k]!);
  const xs: number[] = [];
  const ys: number[] = [];
  let mag = 0;
  for (let k = 0; k < n; k++) {
    for (const [lx, ly] of [[false, false], [false, true], [true, false], [true, true]] as const) {
      xs.push(part(x, xdd, k, lx));
      ys.push(part(y, ydd, k, ly));
    }
    mag += Math.abs((part(x, xdd, k, false) + part(x, xdd, k, true)) * (part(y, ydd, k, false) + part(y, ydd, k, true)));
  }
  const exact = exactDot(xs, ys);
  const u = 2 ** -110;
  const gamma = (2 * n * u) / (1 - 2 * n * u);
  // mag in doubles: relative error below n·2^-52; 2^-30 of headroom covers it.
  const limit = gamma * mag * (1 + 2 ** -30);
  const err = absRational(subRational(exactOf(got), exact));
  const readBack = absRational(mulRational(exactOf(2 ** -53), exact));
  const ok = compareRational(subRational(err, readBack), exactOf(limit)) <= 0;
  return `; exact: |gpu − Σx·y| − 2^-53·|Σx·y| ≤ γ_2n(2^-110)·Σ|x·y| ${limit.toExponential(2)}: ${ok ? 'ok' : 'FAILED'}`;
}

async function benchDot(rt: GpuRuntime): Promise<void> {
  const clock = sectionClock('dot');
  const n = quick ? 2 ** 12 : 2 ** 26;
  const size = `n=2^${Math.log2(n)}`;
  const x = ddVector(n, 3);
  const y = ddVector(n, 5);
  const hx = heads(x, n);
  const hy = heads(y, n);
  // dd·dd, f64·dd (x's heads with y's pairs) and f64·f64 (both heads): the windowed step's three products.
  const cases = [{ storage: 'dd', a: x, b: y }, { storage: 'f64·dd', a: hx, b: y }, { storage: 'f64', a: hx, b: hy }] as const;
  for (const c of cases) {
    const variants = [DEFAULT, ...DOT_LONG, ...WINDOWS, ...LEAN];
    const why = clock.over();
    if (why) {
      for (const v of variants) skip({ kernel: 'DOT', size, storage: c.storage, arithmetic: v.label }, why);
      continue;
    }
    const t0 = performance.now();
    const ref = dot(c.a, c.b);
    const cpuMs = performance.now() - t0;
    const refBound = dotBound(c.a, c.b);
    const dx = await toDevice(c.a as never, { strict: true });
    const dy = await toDevice(c.b as never, { strict: true });
    let first: number | undefined;
    for (const variant of variants) {
      const late = clock.over();
      if (late) {
        skip({ kernel: 'DOT', size, storage: c.storage, arithmetic: variant.label }, late);
        continue;
      }
      const options = { arithmetic: variant.option, strict: true, ...(variant.dotGroups ? { groups: variant.dotGroups } : {}), ...dotShape, ...(variant.dotChains ? { chains: variant.dotChains } : {}) } as const;
      // The row's kernel switches (ddDotLong) for its check and its timing, restored after.
      const previous = variant.switches ? setGpuKernelSwitches(variant.switches) : undefined;
      let got: number;
      let ms: number;
      try {
        got = (await gpuDot(dx, dy, options)).value;
        ms = await timeRuns(rt, () => gpuDot(dx, dy, options));
      } finally {
        if (previous) setGpuKernelSwitches(previous);
      }
      first ??= got;
      const err = Math.abs(got - ref);
      const ok = err <= 2 * refBound && (variant.boundOnly || Object.is(got, first));
      const exact = quick ? exactCheck(got, c.a.accessor.data as Float64Array, c.b.accessor.data as Float64Array, c.a !== hx, c.b === y, n) : '';
      const bytes = (c.storage === 'dd' ? 32 : c.storage === 'f64' ? 16 : 24) * n;
      const gbs = bytes / ms / 1e6;
      push({
        kernel: 'DOT', size, storage: c.storage, arithmetic: variant.label, ms, gbs,
        check: `|gpu − cpu dd| ${err.toExponential(2)} vs 2·dotBound ${(2 * refBound).toExponential(2)}${variant.boundOnly ? '' : ', same value as the first row'}: ${ok && !exact.includes('FAILED') ? 'ok' : 'FAILED'}${exact} (CPU dd ${cpuMs.toFixed(0)} ms)`,
        goal: c.storage === 'dd' && (variant === DEFAULT || DOT_LONG.includes(variant)) ? `goal ≥ 50 % of copy: ${gbs >= copyGbs / 2 ? 'met' : 'MISSED'}` : '',
      });
    }
    dx.destroy();
    dy.destroy();
  }
}

async function benchGemv(rt: GpuRuntime): Promise<void> {
  const clock = sectionClock('gemv');
  const n = quick ? 128 : 8192;
  const size = `n=${n}`;
  const A = matrix(n, n, undefined, { storage: formats.dd, arithmetic: formats.dd });
  const ad = A.accessor.data as Float64Array;
  fill(ad, 7, 2, 0);
  fill(ad, 8, 2, 1, 2 ** -54);
  for (let k = 0; k < n * n; k++) ad[2 * k + 1] = ad[2 * k + 1]! * Math.abs(ad[2 * k]!);
  const x = ddVector(n, 11);
  const xa = x.accessor.data as Float64Array;
  const variants = decodedXDd ? [GEMV_DEFAULT, ...DECODED_X_DD] : [GEMV_DEFAULT, LONG, LONG_DD, ROWS_LONG_DD, ...ROWS, DECODED_X, FUSED_GEMV, ...(before ? [UNFUSED, { label: 'dd, 2 chains', option: 'dd' as const, boundOnly: true, chains: 2 }] : []), ...WINDOWS.filter((v) => !v.dotOnly)];
  const storages: readonly GemvStorage[] = decodedXDd ? ['dd', 'f64dd'] : ['dd', 'f64'];
  for (const trans of ['N', 'T'] as const) {
    const kernel = `GEMV ${trans}`;
    for (const storage of storages) {
      const why = clock.over();
      if (why) {
        for (const v of variants) skip({ kernel, size, storage, arithmetic: v.label }, why);
        continue;
      }
      const hostA = storage === 'dd' ? A : matrix(n, n, undefined, { storage: formats.f64, arithmetic: formats.dd });
      if (storage !== 'dd') {
        const hd = hostA.accessor.data as Float64Array;
        for (let k = 0; k < n * n; k++) hd[k] = ad[2 * k]!;
      }
      const hx = storage === 'f64' ? heads(x, n) : x;
      const span = await toDeviceSpan(hostA as never, true);
      const dA = deviceMatrix(span.span, n, n);
      const dx = await toDevice(hx as never, { strict: true });
      const dy = await toDevice(new Float64Array(n), { format: 'dd', strict: true });
      // The exact-path rows (fused, unfused) must give the same words; the default and windows the bound.
      let exactWords: Uint32Array | undefined;
      let defaultWords: Uint32Array | undefined;
      for (const variant of variants.filter((v) => !v.only || ((v.only.trans ?? trans) === trans && v.only.storage === storage))) {
        const late = clock.over();
        if (late) {
          skip({ kernel, size, storage, arithmetic: variant.label }, late);
          continue;
        }
        const options = { arithmetic: variant.option, strict: true, ...(variant.chains ? { chains: variant.chains } : {}) };
        const previous = variant.switches ? setGpuKernelSwitches(variant.switches) : undefined;
        await gpuGemv({ A: dA, x: dx, y: dy, alpha: 1, beta: 0, trans }, options);
        const words = (await dy.encoded()).words.slice();
        const reference = variant.sameAsDefault ? defaultWords : variant.boundOnly ? undefined : exactWords;
        const same = reference === undefined || words.every((w, k) => w === reference[k]);
        if (variant === GEMV_DEFAULT) defaultWords = words;
        if (!variant.boundOnly) exactWords ??= words;
        const got = new Float64Array(words.buffer, words.byteOffset, 2 * n);
        // Rows checked against the CPU dd DOT of op(A)'s row (the same stored values): (i, j) of A at i + j·n.
        const at = (i: number, j: number): number => (trans === 'N' ? i + j * n : j + i * n);
        let worst = 0;
        let ok = same;
        for (const i of [0, 1, n >> 1, n - 1]) {
          const row = storage === 'dd'
            ? (() => { const r = vector(n, { storage: formats.dd, arithmetic: formats.dd }); const d = r.accessor.data as Float64Array; for (let j = 0; j < n; j++) { d[2 * j] = ad[2 * at(i, j)]!; d[2 * j + 1] = ad[2 * at(i, j) + 1]!; } return r; })()
            : vector(Float64Array.from({ length: n }, (_, j) => ad[2 * at(i, j)]!), { storage: formats.f64, arithmetic: formats.dd });
          const ref = dot(row, hx);
          let mag = 0;
          for (let j = 0; j < n; j++) mag += Math.abs(ad[2 * at(i, j)]! * xa[2 * j]!);
          const err = Math.abs(got[2 * i]! + got[2 * i + 1]! - ref);
          const allowed = 2 * ((n + 3) * 2 ** -102 * mag) + 2 ** -52 * Math.abs(ref);
          worst = Math.max(worst, err / mag);
          ok &&= err <= allowed;
        }
        const ms = await timeRuns(rt, () => gpuGemv({ A: dA, x: dx, y: dy, alpha: 1, beta: 0, trans }, options));
        if (previous) setGpuKernelSwitches(previous);
        const bytes = (storage === 'dd' ? 16 : 8) * n * n + (storage === 'f64' ? 8 : 16) * n + 16 * n;
        const gbs = bytes / ms / 1e6;
        const shipped = variant === GEMV_DEFAULT && trans === 'N' && storage !== 'f64dd';
        push({
          kernel, size, storage, arithmetic: variant.label, ms, gbs,
          check: `4 rows vs CPU dd: max |y−y*|/Σ|a·x| ${worst.toExponential(2)}${variant.sameAsDefault ? ', y words as the dd row' : variant.boundOnly ? '' : ', y words as the fused row'}: ${ok ? 'ok' : 'FAILED'}`,
          goal: !shipped ? '' : storage === 'dd' ? `goal ≥ 50 % of copy: ${gbs >= copyGbs / 2 ? 'met' : 'MISSED'}` : `goal ≤ 2× cuBLAS DGEMV (0.186 ms on the H100, 2026-11-27; this run's figure from cuda-anchors.py): ${ms <= 0.372 ? 'met' : 'MISSED'} vs 0.372 ms`,
        });
      }
      span.span.destroy();
      dx.destroy();
      dy.destroy();
    }
  }
}

async function benchTrsv(rt: GpuRuntime): Promise<void> {
  const clock = sectionClock('trsv');
  const n = quick ? 200 : 8192;
  const size = `n=${n}`;
  // Lower triangular, well conditioned: off-diagonal ±1/n, diagonal in [1, 2).
  const L = new Float64Array(n * n);
  fill(L, 13, 1, 0, 1 / n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < j; i++) L[i + j * n] = 0;
    L[j + j * n] = 1.5 + 0.5 * L[j + j * n]! * n;
  }
  const b = new Float64Array(n);
  fill(b, 17);
  const ddBytes = 16 * (n * (n + 1)) / 2 + 32 * n;
  const why = clock.over();
  if (why) {
    for (const [storage, arithmetic] of [['f32', 'ff'], ...trsvStorages.map((st) => [st, DEFAULT.label])]) skip({ kernel: 'TRSV L N', size, storage: storage!, arithmetic: arithmetic! }, why);
    return;
  }
  // fp32 storage + ff first: the goal's yardstick (issue 19's row: A in fp32, x in ff storage — an fp32 x would be
  // rounded to binary32 between rows, as the CPU does, which the GPU replays by substitution, not the blocked solve).
  const A32 = deviceMatrix(await toDevice(L, { format: 'f32', strict: true }), n, n);
  const x32 = await toDevice(b, { format: 'ff', strict: true });
  // Settled by timeRuns itself (an untimed run, then timings until two agree): this row follows seconds of host work
  // (building L), and unsettled it read 1.5–2.1 ms on the H100 in sessions 18 and 19 against 0.47–0.49 ms settled.
  const ffMs = await timeRuns(rt, () => gpuTrsv({ A: A32, x: x32, uplo: 'L' }, { arithmetic: 'ff', strict: true }), 3, 5);
  A32.data.destroy();
  push({ kernel: 'TRSV L N', size, storage: 'f32 (x ff)', arithmetic: 'ff', ms: ffMs, gbs: (4 * (n * (n + 1)) / 2 + 8 * n) / ffMs / 1e6, check: '', goal: '' });
  // dd storage (A and x), then f64 storage (A and x) under dd arithmetic: each in the one-thread blocked passes (dd) or
  // the one-workgroup substitution that rounds x to binary64 between rows (f64) — the `ddLanes` switch off, as shipped
  // — and in the lane-split blocked solve (`ddLanes` on: kernels/trsv/trsv-lanes-source.ts), in this order, checked
  // against the CPU dd solve of the same system.
  // Lanes and fused rows once per --trsv-block (a block size other than 64 named in the label); old rows at 64.
  const forms = trsvForms.flatMap((form) => (form === 'old' ? [64 as const] : trsvBlocks).map((blockSize) => ({
    lanes: form !== 'old', fused: form === 'fused', overlap: Number(OVERLAP_FORM.exec(form)?.[1] ?? 0), far: Number(OVERLAP_FORM.exec(form)?.[2] ?? 16), window: OVERLAP_FORM.exec(form)?.[3] !== undefined, blockSize,
    label: (v: Variant, storage: 'dd' | 'f64') => `${v.label}${form === 'old' ? (storage === 'f64' ? ' (substitution, x rounded between rows)' : '') : OVERLAP_FORM.test(form) ? `, ${OVERLAP_FORM.exec(form)![1]} lanes near + solve, far update beside (ddOverlapLanes)${OVERLAP_FORM.exec(form)![2] ? `, far ${OVERLAP_FORM.exec(form)![2]} lanes (ddOverlapFarLanes)` : ''}${OVERLAP_FORM.exec(form)![3] ? ', update terms in GEMV\'s window (ddTrsvWindow)' : ''}` : `, 16 lanes (ddLanes${form === 'fused' ? ', fused' : ''})`}${form !== 'old' && blockSize !== 64 ? `, bs ${blockSize}` : ''}`,
  })));
  // The lanes rows' words per block size: the fused rows must give them (the same sums in the same order).
  const laneWords = new Map<number, Uint32Array>();
  for (const storage of trsvStorages) {
    const Ad = deviceMatrix(await toDevice(L, { format: storage, strict: true }), n, n);
    let firstWords: Uint32Array | undefined;
    let cpu: Float64Array | undefined;
    for (const form of forms) {
      for (const variant of [DEFAULT, ...(before ? [UNFUSED] : [])]) {
        const label = form.label(variant, storage);
        const late = clock.over();
        if (late) {
          skip({ kernel: 'TRSV L N', size, storage, arithmetic: label }, late);
          continue;
        }
        const previous = setTrsvKernelSwitches({ ddLanes: form.lanes, ddLanesFused: form.fused, ddOverlapLanes: form.overlap, ddOverlapFarLanes: form.far, ddTrsvWindow: form.window });
        try {
          const options = { arithmetic: variant.option, strict: true, blockSize: form.blockSize } as const;
          const xd = await toDevice(b, { format: storage, strict: true });
          await gpuTrsv({ A: Ad, x: xd, uplo: 'L' }, options);
          const w = (await xd.encoded()).words.slice();
          // The unfused arithmetic gives the fused one's words in the same form.
          const same = variant === DEFAULT || firstWords === undefined || w.every((v, k) => v === firstWords![k]);
          if (variant === DEFAULT) firstWords = w;
          const lanesFirst = variant === DEFAULT && form.lanes ? laneWords.get(form.blockSize) : undefined;
          // The fused and 16-lane overlapped rows sum in the lanes row's order: its words (not in GEMV's window).
          const sameOrder = form.fused || (form.overlap === 16 && form.far === 16 && !form.window);
          const asLanes = !sameOrder || lanesFirst === undefined || w.every((v, k) => v === lanesFirst[k]);
          if (variant === DEFAULT && form.lanes && !form.fused && form.overlap === 0) laneWords.set(form.blockSize, w);
          const got = new Float64Array(w.buffer, w.byteOffset, storage === 'dd' ? 2 * n : n);
          if (!cpu) {
            // CPU dd solve of the same system (A's values are doubles; x in the same storage: f64 rounds between rows).
            const Lc = matrix(n, n, (i, j) => L[i + j * n]!, { storage: formats.f64, arithmetic: formats.dd });
            const xc = vector(b, { storage: storage === 'dd' ? formats.dd : formats.f64, arithmetic: formats.dd });
            trsv({ A: Lc, x: xc, uplo: 'L' });
            cpu = Float64Array.from(xc.accessor.data as Float64Array);
          }
          const step = storage === 'dd' ? 2 : 1;
          let worst = 0;
          let scale = 0;
          for (let i = 0; i < n; i++) {
            const diff = storage === 'dd' ? got[2 * i]! - cpu[2 * i]! + (got[2 * i + 1]! - cpu[2 * i + 1]!) : got[i]! - cpu[i]!;
            worst = Math.max(worst, Math.abs(diff));
            scale = Math.max(scale, Math.abs(cpu[step * i]!));
          }
          // Each timed solve overwrites its right-hand side; the timing runs on a copy (the time does not depend on b).
          const xt = await toDevice(b, { format: storage, strict: true });
          const ms = await timeRuns(rt, () => gpuTrsv({ A: Ad, x: xt, uplo: 'L' }, options), 3, 5);
          xd.destroy();
          xt.destroy();
          // dd: within 1e-25 of the CPU's x; f64: x rounded to binary64 (between rows by the CPU and the substitution,
          // once at the end by the lanes), so within a few units of binary64.
          const ok = worst / scale < (storage === 'dd' ? 1e-25 : 1e-14) && same && asLanes;
          push({
            kernel: 'TRSV L N', size, storage, arithmetic: label, ms, gbs: (storage === 'dd' ? ddBytes : ddBytes / 2) / ms / 1e6,
            check: `max |x−x_cpu dd|/max|x| ${(worst / scale).toExponential(2)}${variant === DEFAULT ? '' : ', x words as the fused row'}${sameOrder && lanesFirst ? ', x words as the lanes row' : ''} ${ok ? 'ok' : 'FAILED'}`,
            goal: variant === DEFAULT && storage === 'dd' ? `goal ≤ 3× fp32+ff (${(3 * ffMs).toFixed(3)} ms): ${ms <= 3 * ffMs ? 'met' : 'MISSED'} (${(ms / ffMs).toFixed(2)}×)` : `${(ms / ffMs).toFixed(2)}× fp32+ff`,
          });
        } finally {
          setTrsvKernelSwitches(previous);
        }
      }
    }
    Ad.data.destroy();
  }
}

/** CUDA figures of the same device call (cuda-anchors.py output), and the device copy bandwidth they measured. */
interface Anchors {
  readonly lines: readonly string[];
  readonly copyGbs: number;
  readonly dgemvMs: number;
}

function readAnchors(file: string): Anchors {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => /^(cuBLAS|cuSPARSE|device copy)/.test(l));
  const figure = (re: RegExp): number => Number(re.exec(lines.join('\n'))?.[1] ?? NaN);
  return { lines, copyGbs: figure(/device copy float64 n=2\^27: [\d.]+ ms\s+(\d+) GB\/s/), dgemvMs: figure(/cuBLAS DGEMV n=8192: ([\d.]+) ms/) };
}

function report(data: { device: string; copyGbs: number; rows: Row[]; date: string }, anchors: Anchors): void {
  const copy = anchors.copyGbs;
  const table = markdownTable(['kernel', 'size', 'storage', 'arithmetic', 'ms', 'GB/s', '% of device copy', 'check (same run)', 'goal'],
    data.rows.map((r) => {
      if (r.skipped) return [r.kernel, r.size, r.storage, r.arithmetic, '—', '—', '—', r.skipped, ''];
      const fraction = r.gbs / copy;
      let goal = r.goal;
      const shipped = r.arithmetic === 'dd';
      if (shipped && (r.kernel === 'DOT' && r.storage === 'dd' || r.kernel === 'GEMV N' && r.storage === 'dd')) goal = `≥ 50 % of device copy: ${fraction >= 0.5 ? 'met' : 'MISSED'}`;
      if (r.kernel === 'GEMV N' && r.storage === 'f64') goal = shipped ? '' : `${(r.ms / anchors.dgemvMs).toFixed(1)}× cuBLAS DGEMV`;
      if (shipped && r.kernel === 'GEMV N' && r.storage === 'f64') goal = `≤ 2× cuBLAS DGEMV (${anchors.dgemvMs} ms, same call): ${r.ms <= 2 * anchors.dgemvMs ? 'met' : 'MISSED'} (${(r.ms / anchors.dgemvMs).toFixed(1)}×)`;
      return [r.kernel, r.size, r.storage, r.arithmetic, r.ms.toFixed(4), r.gbs.toFixed(0), `${(100 * fraction).toFixed(1)} %`, r.check.replace(/\|/g, '\\|'), goal.replace(/\|/g, '\\|')];
    }));
  writePerformanceSection('dd-gpu', `## Double-double on the GPU (${data.device}) — ${data.date}

Issue 18's goals, produced by \`bench/gpu/dd-gpu.ts\` (raw figures in \`bench/results/dd-gpu.json\`): median per-call time over batches of resident runs; each variant checked in the same run against the CPU's double-double kernels (formats.dd) on the same stored values (DOT within 2·dotBound, GEMV rows within 2·γ_{n+3}(2^-102)·Σ|a·x|, TRSV against the CPU dd solve). Device: ${data.device}. Device copy: CUDA \`cp.copyto\` of 2^27 doubles in the same device call, ${copy} GB/s (gpu.js's f32 copy kernel measured ${data.copyGbs.toFixed(0)} GB/s in the node run). GB/s counts the bytes each kernel must move (dd: 16 bytes per element).

${table}

CUDA figures of the same call (\`cuda-anchors.py\`):

\`\`\`
${anchors.lines.join('\n')}
\`\`\`

**Reading it.** \`dd\` is the arithmetic as shipped: fused multiply-adds straight from the storage kinds in TRSV (no pack/unpack of each operand, 16 limb products for two f32/f64 operands instead of 39), DOT's \`dotVariant\` (windows of 4 products since 2026-11-27, \`ddGpuArithmeticWindow4\`; in the lean term form since session 20, windows of 8 with one accumulator a thread, \`ddGpuArithmeticWindowLean8\` — the \`ddDotLean\` switch) and GEMV's \`gemvVariant\` (windows of 8 products in the partial pass of N and T, \`ddGpuArithmeticGemvWindow8\`, since session 18; GEMV's \`dd fused (before)\` row is the fused multiply-adds it ran until then, and the reference words of the exact-path rows). With \`--before\`, GEMV and TRSV add \`dd unfused (before)\` (every operand packed into a register first; the fused path's words, checked) and GEMV \`dd, 2 chains\` (two accumulators per thread: another order, checked against the bound only). All remain compute-bound: every multiply-add still normalises and packs the 112-bit accumulator (docs/double-double.md, \"Limits\"). In the calls of 2026-11-26 the first f64-storage row of one section once took 4.1 ms instead of 1.9 (GEMV) or 3.3 (DOT), normal in the other call — a warm-up effect of the bench; a single row is worth checking against a second call. DOT and GEMV have rows \`dd window K\` (\`ddGpuArithmeticWindowOf(K)\`, off by default; \`--windows=2,4,8\` picks K, \`--no-window\` drops them): each unrolled step's products summed in 128-bit fixed-point windows of at most K products from 14-bit-limb products, one xf addition per window (docs/double-double.md, \"Windowed DOT multiply-adds\") — another rounding, so they are checked against the bound only; their ratio to the \`dd\` row is the gain. DOT's rows \`dd lean K\` (\`ddGpuArithmeticWindowLeanOf(K)\`, \`--lean=4,8c1\`) time the lean term form (signed limbs straight from the words, 45 limb products; docs/double-double.md, \"Lean term form\"), \`dd lean 8, 1 chain\` is DOT's dotVariant with dd's one accumulator (the \`ddDotLean\` switch, on by default: the \`dd\` row's arithmetic; \`dd window 4\` is the wide form DOT ran before session 20), checked against the bound only; \`, 1 chain\` rows run DOT with one accumulator a thread, so its eight-term step is one window of 8. DOT's \`dd, long window (ddDotLong)\` rows run its first pass in GEMV's long window for every storage (the \`ddDotLong\` switch set to true; docs/double-double.md, \"The long window in DOT\"), with the library's two runs of four a step or four runs a step, and \`dd, lean windows (ddDotLong off)\` the lean windows of eight for every storage, checked against the bound only; since session 23 the \`dd\` row itself is the switch's \`'auto'\`: the long window for f64·dd (two runs a step) and f64·f64 (four), the lean windows for dd·dd. A row marked skipped was not run: its section's time budget or the run's deadline had passed.`);
}

async function main(): Promise<void> {
  const from = process.argv.find((a) => a.startsWith('--from='))?.slice(7);
  if (from) {
    const saved = JSON.parse(readFileSync(from, 'utf8')) as { device: string; copyGbs: number; rows: Row[]; date: string };
    const device = process.argv.find((a) => a.startsWith('--device='))?.slice(9);
    if (device) saved.device = device;
    const anchorsFile = process.argv.find((a) => a.startsWith('--anchors='))?.slice(10);
    if (!anchorsFile) throw new Error('--from needs --anchors=<cuda-anchors.py output of the same call>');
    const anchors = readAnchors(anchorsFile);
    writeResults('dd-gpu', { ...saved, anchors });
    report(saved, anchors);
    return;
  }
  const rt = await gpuRuntime();
  if (!rt) {
    console.log(`no GPU: ${gpuUnavailableReason()}`);
    process.exit(1);
  }
  const ad = rt.context.adapter;
  device = `${ad.name} (${ad.backend})`;
  console.log(`adapter: ${ad.name} [${ad.vendor} ${ad.architecture}] via ${ad.backend}`);
  const sections = { dot: benchDot, gemv: benchGemv, trsv: benchTrsv } as const;
  // --quick skips the copy yardstick: its 256 MiB binding is over llvmpipe's 128 MiB limit (and no yardstick there).
  for (const [name, fn] of [...(quick ? [] : [['copy', benchCopy] as const]), ...SECTIONS.filter((s) => only.includes(s)).map((s) => [s, sections[s]] as const)] as const) {
    const t0 = performance.now();
    try {
      await fn(rt);
    } catch (e) {
      // A failed section is a row too (the JSON says what broke), and the others still run.
      console.log(`${name} failed: ${(e as Error).stack ?? e}`);
      rows.push({ kernel: name, size: '', storage: '', arithmetic: '', ms: NaN, gbs: NaN, copyFraction: NaN, check: `FAILED: ${(e as Error).message ?? e}`, goal: '' });
    }
    console.log(`[${name} section: ${((performance.now() - t0) / 1000).toFixed(1)} s]`);
    save(false);
  }
  save(true);
  if (quick) console.log(JSON.stringify(rows.map((r) => [r.kernel, r.storage, r.arithmetic, r.skipped ?? r.check])));
  process.exit(rows.some((r) => r.check.includes('FAILED')) ? 2 : 0);
}

void main();
