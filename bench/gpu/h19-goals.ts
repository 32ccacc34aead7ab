/**
 * Issue 19's goals in one short device run: GEMV N n = 8192 and DOT n = 2^27 with fp32, bf16 and fp16 storage in
 * float-float (and fp32) arithmetic, TRSV L N N n = 8192 (f32 and ff, with U N N and L T N for the variant ratio),
 * and the fixed cost of a small GEMV/DOT call. Each kernel runs in its new form (GEMV: R rows per thread; float-float
 * loops: lazy accumulation; DOT: tree reduction passes) AND its previous one (rowsPerThread 1, the lazy and tree
 * switches off: src/backends/webgpu/kernel-switches.ts) in the same run, and every
 * variant's result is checked against a compensated double-precision reference of the stored values, within the
 * bound the tests use (γ_{2n+3}(u)·Σ|a·b|, u = 2^-24 in f32, 8·2^-48 in ff). TRSV also runs every form of its
 * one-dispatch solve under test (TRSV_FORMS: the `TrsvKernelSwitches` of kernel-switches.ts, and the walker's lead),
 * each variant's ratio taken to the L N N of the same form (U T N too for the forms marked `upperT`: --trsv-forms=16,17
 * times the default and the transposed copy beside each other).
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/gpu/h19-goals.js --out=$OUT [--small] [--device="…"]
 * (--small: n = 1024 GEMV, 2^20 DOT, 512 TRSV — for llvmpipe; --only=gemv,dot,trsv,small; --trsv-forms=0,4: only
 * those TRSV_FORMS; --rows=s15: only the GEMV / DOT rows of that set — session 15's ffLongLazy and prefetchPingPong
 * beside the defaults: `--only=gemv,dot --rows=s15`; `--rows=s16`: session 16's gemvFfFourRows, gemvEightRows and
 * whole-workgroups-per-SM splits, DOT's thread counts likewise; `--rows=s18`: DOT and GEMV N in one dispatch, `dotFusedFinish` and
 * `gemvFusedFinish`, beside the defaults, bits compared; `--rows=s19`: float-float with exact 16-bit products,
 * `ffExactProducts`, beside the defaults on bf16/f16 storage — DOT, and GEMV N with x in A's format — bits compared). Writes <out>/h19-goals.json;
 * `--gemv-sweep` / `--dot-sweep` (./h19-sweep.ts): only the interleaved sweeps of fp32-storage GEMV N / DOT forms, each
 * form checked (bound, and the bits of the form it reschedules) then timed in rotated rounds within `--sweep-budget=90`
 * seconds (at most `--sweep-rounds=300` rounds of `--sweep-reps=20` calls a form); `--gemv-default-sweep`
 * (./gemv-default-sweep.ts) likewise for GEMV N's default since session 20 beside the two-pass one, fp32 / bf16 / f16
 * storage; `--gemv-default-sweep --rows=s21`: instead session 21's bf16 / f16 rows — the defaults (x fp32 and x in A's
 * format, 1 and 2 chains, f32 and float-float) beside `gemvWorkgroupSplitExact`, `gemvUnroll` 16, `gemvEightRows`;
 * `--rows=s22`: session 22's cheaper float-float terms and settles (`ffFoldedProducts`, `ffLeanSettle`, `ffLongLazy`) on
 * bf16 / f16 (x fp32 and x in A's format) and fp32 storage. `--dot-sweep --dot-rows=s22`: instead of the fp32 DOT forms,
 * session 22's bf16 / fp16 DOT rows (`ffLeanSettle`, `ffLongLazy`, `dotOctetRuns`; ./h19-sweep.ts, dotSixteenBitSweep);
 * `--dot-sweep --dot-rows=s23`: only fp32 DOT rows — the default, `dotFusedTree` and `dotWorkgroupFinish` (one dispatch,
 * `dotFusedTree`'s bits), both also at 2^18 first-pass threads, and f32 arithmetic's floor (dotFinishSweepVariants).
 * `--from=<json> [--device=…]` records such a file into bench/results and the `gpu-h19-goals` section of
 * docs/performance.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable, today, writePerformanceSection, writeResults } from '../report.js';
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { deviceZeros, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot, gpuDotResident, type GpuDotOptions } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv, lastGemvFusedMisses, type DeviceMatrix, type GpuGemvOptions } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { timeDeviceRuns, timeFixedCost } from './device-timing.js';
import { setGpuKernelSwitches, setTrsvKernelSwitches, type GpuKernelSwitches, type TrsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';
import { gpuRuntime, readWords, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { MISS_COUNTER } from '../../kernels/dot/dot-fused-finish-source.js';
import { gpuUnavailableReason } from '../../src/backends/webgpu/backend.js';
import { Accurate, gemvReference, rand32 } from './bench-data.js';
import { dotFinishSweepVariants, dotSixteenBitSweep, dotSweep, gemvSweep, type SweepRow, type SweepSettings } from './h19-sweep.js';
import { gemvDefaultSweep } from './gemv-default-sweep.js';

const small = process.argv.includes('--small');
const outDir = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? process.env.OUT;
const deviceName = process.argv.find((a) => a.startsWith('--device='))?.slice(9);
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
// --trsv-forms=0,4: only those rows of TRSV_FORMS (indices; default all).
const trsvForms = process.argv.find((a) => a.startsWith('--trsv-forms='))?.slice(13).split(',').map(Number);
// --rows=s15: only the GEMV / DOT rows of that set (a row's `sets`), the set's first row timed again at its end.
const rowSet = process.argv.find((a) => a.startsWith('--rows='))?.slice(7);
// --dot-rows=s22 (with --dot-sweep): session 22's bf16 / fp16 DOT rows (./h19-sweep.ts, dotSixteenBitSweep); s23: session
// 23's fp32 rows only (dotFinishSweepVariants: the default, dotFusedTree, dotWorkgroupFinish, f32's floor).
const dotRows = process.argv.find((a) => a.startsWith('--dot-rows='))?.slice(11);
// Row sets whose rows are all 16-bit storage: the fp32 groups (and their host references) are skipped.
const sixteenBitSet = rowSet === 's19';
// --gemv-sweep / --dot-sweep: only the interleaved sweeps of ./h19-sweep.ts (fp32 storage), timed within
// --sweep-budget=<seconds> (default 90, shared by the sweeps asked for; checks and uploads come on top) and at most
// --sweep-rounds=<r> rounds (default 300) of --sweep-reps=<c> calls a batch (default 20).
// --gemv-default-sweep: GEMV N's default since session 20 beside the two-pass one (./gemv-default-sweep.ts).
const sweeps = (['gemv', 'dot', 'gemv-default'] as const).filter((k) => process.argv.includes(`--${k}-sweep`));
const numberArg = (name: string, fallback: number): number => {
  const v = Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3));
  return Number.isFinite(v) && v > 0 ? v : fallback;
};


/** The rows to time: all of them, or (--rows=…) those of the set, its first row again at the end. */
function chosenRows<V extends { label: string; sets?: readonly string[] }>(variants: V[]): V[] {
  if (!rowSet) return variants;
  const chosen = variants.filter((v) => v.sets?.includes(rowSet));
  return chosen.length === 0 ? chosen : [...chosen, { ...chosen[0]!, label: `${chosen[0]!.label} (again, end of set)` }];
}

interface Row {
  kernel: string;
  variant: string;
  storage: string;
  arithmetic: string;
  ms: number;
  issueMs: number;
  gbs: number;
  error: number;
  bound: number;
  correct: boolean;
  goal: string;
}
const rows: Row[] = [];

const U = { f32: 2 ** -24, ff: 8 * 2 ** -48 } as const;
// γ_n = nu/(1 − nu) holds only for nu < 1; past that the a-priori bound says nothing (+∞), never a negative number.
const gamma = (n: number, u: number): number => (n * u < 1 ? (n * u) / (1 - n * u) : Infinity);

async function time(rt: GpuRuntime, run: () => Promise<unknown>): Promise<{ ms: number; issueMs: number }> {
  // --small (llvmpipe: a check that every variant runs and is correct) times a few calls only.
  return timeDeviceRuns(rt, run, small ? { reps: 2, batches: 3, warmMs: 0, warmBurst: 1 } : { reps: 20, batches: 7, warmMs: 300, warmBurst: 5 });
}

/**
 * {@link time} repeated until two timings in a row agree within 3 % (at most 6): the first variant timed after the
 * host computed a reference (seconds without device work) read up to 3× slower than the same kernel later in the
 * run, as the device clocks back up. Returns the last timing and how many were taken.
 */
async function timeStable(rt: GpuRuntime, run: () => Promise<unknown>): Promise<{ ms: number; issueMs: number; rounds: number }> {
  let last = await time(rt, run);
  if (small) return { ...last, rounds: 1 };
  for (let round = 2; round <= 6; round++) {
    const next = await time(rt, run);
    if (Math.abs(next.ms - last.ms) <= 0.03 * Math.min(next.ms, last.ms)) return { ...next, rounds: round };
    last = next;
  }
  return { ...last, rounds: 6 };
}

function push(row: Row): void {
  rows.push(row);
  console.log(`${row.kernel} [${row.variant}] ${row.storage}/${row.arithmetic}: ${row.ms.toFixed(4)} ms (issue ${row.issueMs.toFixed(3)}), ${row.gbs.toFixed(0)} GB/s, error ${row.error.toExponential(2)} ≤ ${row.bound.toExponential(2)} ${row.correct ? 'ok' : 'WRONG'} ${row.goal}`);
}

/**
 * The issue-19 item-4 switches as they were before they were timed (all off, 8 columns a step): every row starts from
 * these, so a row has exactly the switches it names — the library's GEMV defaults are the rows naming ffFmaKeep +
 * gemvPrefetch + gemvVectorX + ffExactProducts (ff) or f32FmaKeep + gemvPrefetch + gemvVectorX (f32) with, since
 * session 20, gemvWorkgroupSplit 256 + gemvFfFourRows (rows that leave those two out say "two passes": the default
 * until then; `--gemv-default-sweep` times both); DOT's: ffFmaKeep (+ ffExactProducts), tree.
 */
const ITEM4_OFF: Partial<GpuKernelSwitches> = { dotFusedFinish: false, dotWorkgroupFinish: false, gemvFusedFinish: false, f32FmaKeep: false, ffFmaKeep: false, gemvPrefetch: false, gemvVectorX: false, gemvUnroll: 8, dotPrefetch: false, dotFusedTree: false, ffLongLazy: false, prefetchPingPong: false, gemvFfFourRows: false, gemvEightRows: false, gemvFinishBatch: 8, gemvWorkgroupSplit: 0, gemvWorkgroupSplitExact: false, gemvPartialWorkgroup: 64, dotBlockRuns: false, ffExactProducts: false, ffFoldedProducts: false, ffLeanSettle: false, dotOctetRuns: false };

/**
 * Session 16 (issue 19 item 4, `--rows=s16`): GEMV N's wide row groups — `gemvFfFourRows` (float-float, 4 rows a thread,
 * 8 words of partials stored by the thread) and `gemvEightRows` (16-bit matrices, 8 rows a thread from one 16-byte
 * load) — and the finish pass's batch of loads (`gemvFinishBatch`) beside the defaults, with 1 or 2 chains, 4- or 8-column steps, with and without prefetch, and split targets
 * that give whole numbers of 64-thread workgroups per SM of the H100's 132 (G row groups × 33 or 66 chunks: with 2 rows
 * a thread 33 chunks are 16 workgroups per SM, with 4 rows 66 are; with 8 rows 66 are 8 — such chunks are no multiple of 4,
 * so x is read a column a load there); and the f32
 * arithmetic's default and eight-row form for the gap between the arithmetics. The switches change no bit: every row
 * is checked against the first with the same options.
 */
function session16Gemv(n: number): { label: string; arithmetic: 'f32' | 'ff'; switches: Partial<GpuKernelSwitches>; options: GpuGemvOptions; sets: readonly string[]; storages?: readonly string[] }[] {
  const base = { lazy: true, ffFmaKeep: true, gemvPrefetch: true, gemvVectorX: true } as const;
  const f32Base = { f32FmaKeep: true, gemvPrefetch: true, gemvVectorX: true } as const;
  const four = { ...base, gemvFfFourRows: true } as const;
  const eight = { ...base, gemvEightRows: true } as const;
  const sixteen = ['bf16', 'f16'] as const;
  const sets = ['s16'] as const;
  return [
    { label: 'two passes: ffFmaKeep + gemvPrefetch + gemvVectorX', arithmetic: 'ff', switches: base, options: {}, sets },
    { label: 'two passes, 1 chain', arithmetic: 'ff', switches: base, options: { chains: 1 }, sets },
    { label: 'two passes, 33 chunks (16 workgroups/SM)', arithmetic: 'ff', switches: base, options: { targetThreads: 33 * n }, sets },
    { label: 'gemvFfFourRows: 4 rows/thread', arithmetic: 'ff', switches: four, options: {}, sets },
    { label: 'gemvFfFourRows, 1 chain', arithmetic: 'ff', switches: four, options: { chains: 1 }, sets },
    { label: 'gemvFfFourRows, gemvUnroll 4', arithmetic: 'ff', switches: { ...four, gemvUnroll: 4 }, options: {}, sets },
    { label: 'gemvFfFourRows, gemvUnroll 4, 1 chain', arithmetic: 'ff', switches: { ...four, gemvUnroll: 4 }, options: { chains: 1 }, sets },
    { label: 'gemvFfFourRows, no prefetch', arithmetic: 'ff', switches: { ...four, gemvPrefetch: false }, options: {}, sets },
    { label: 'gemvFfFourRows, 2^19 target (2^17 threads)', arithmetic: 'ff', switches: four, options: { targetThreads: 2 ** 19 }, sets },
    { label: 'gemvFfFourRows, 66 chunks (16 workgroups/SM)', arithmetic: 'ff', switches: four, options: { targetThreads: 66 * n }, sets },
    { label: 'gemvFfFourRows, 1 chain, 2^19 target', arithmetic: 'ff', switches: four, options: { chains: 1, targetThreads: 2 ** 19 }, sets },
    { label: 'gemvEightRows: 8 rows/thread, one 16-byte load', arithmetic: 'ff', switches: eight, options: {}, sets, storages: sixteen },
    { label: 'gemvEightRows, 1 chain', arithmetic: 'ff', switches: eight, options: { chains: 1 }, sets, storages: sixteen },
    { label: 'gemvEightRows, gemvUnroll 4', arithmetic: 'ff', switches: { ...eight, gemvUnroll: 4 }, options: {}, sets, storages: sixteen },
    { label: 'gemvEightRows, gemvUnroll 4, 1 chain', arithmetic: 'ff', switches: { ...eight, gemvUnroll: 4 }, options: { chains: 1 }, sets, storages: sixteen },
    { label: 'gemvEightRows, no prefetch, 1 chain', arithmetic: 'ff', switches: { ...eight, gemvPrefetch: false }, options: { chains: 1 }, sets, storages: sixteen },
    { label: 'gemvEightRows, 2^19 target (2^16 threads)', arithmetic: 'ff', switches: eight, options: { targetThreads: 2 ** 19 }, sets, storages: sixteen },
    { label: 'gemvEightRows, 1 chain, 2^19 target', arithmetic: 'ff', switches: eight, options: { chains: 1, targetThreads: 2 ** 19 }, sets, storages: sixteen },
    { label: 'gemvEightRows, 1 chain, 2^20 target (2^17 threads)', arithmetic: 'ff', switches: eight, options: { chains: 1, targetThreads: 2 ** 20 }, sets, storages: sixteen },
    { label: 'gemvEightRows, 1 chain, 66 chunks (8 workgroups/SM)', arithmetic: 'ff', switches: eight, options: { chains: 1, targetThreads: 66 * n }, sets, storages: sixteen },
    // The finish pass loading 32 partials before it adds them (gemvFinishBatch; 2^18 target: 32 chunks a row), alone and with the wide row groups.
    { label: 'two passes + gemvFinishBatch 32', arithmetic: 'ff', switches: { ...base, gemvFinishBatch: 32 }, options: {}, sets },
    { label: 'two passes + gemvFinishBatch 16', arithmetic: 'ff', switches: { ...base, gemvFinishBatch: 16 }, options: {}, sets },
    { label: 'gemvFfFourRows + gemvFinishBatch 32, 1 chain', arithmetic: 'ff', switches: { ...four, gemvFinishBatch: 32 }, options: { chains: 1 }, sets },
    { label: 'gemvEightRows + gemvFinishBatch 32, 1 chain', arithmetic: 'ff', switches: { ...eight, gemvFinishBatch: 32 }, options: { chains: 1 }, sets, storages: sixteen },
    // With session 15's ffLongLazy (settles every 16 terms, across steps): another fixed order, within the bound.
    { label: 'gemvFfFourRows + ffLongLazy, 1 chain', arithmetic: 'ff', switches: { ...four, ffLongLazy: true }, options: { chains: 1 }, sets },
    { label: 'gemvEightRows + ffLongLazy, 1 chain', arithmetic: 'ff', switches: { ...eight, ffLongLazy: true }, options: { chains: 1 }, sets, storages: sixteen },
    { label: 'f32 two passes: f32FmaKeep + gemvPrefetch + gemvVectorX', arithmetic: 'f32', switches: f32Base, options: {}, sets },
    { label: 'f32 gemvEightRows', arithmetic: 'f32', switches: { ...f32Base, gemvEightRows: true }, options: {}, sets, storages: sixteen },
    { label: 'f32 two passes + gemvFinishBatch 32', arithmetic: 'f32', switches: { ...f32Base, gemvFinishBatch: 32 }, options: {}, sets },
    { label: 'f32 gemvEightRows, 2^20 target (2^17 threads)', arithmetic: 'f32', switches: { ...f32Base, gemvEightRows: true }, options: { targetThreads: 2 ** 20 }, sets, storages: sixteen },
  ];
}

/**
 * Session 16 (`--rows=s16`): DOT's first pass with thread counts that give the H100's 132 SMs whole numbers of 64-thread
 * workgroups (2^17 threads are 2048 workgroups, 15.5 per SM: the last SMs' work runs with the others idle), beside
 * the default: 132·1024 (16 per SM), 132·2048 (32: every SM full) and 132·512 (8). Another fixed order each (the thread
 * count sets it), within the same bound.
 */
function session16Dot(): { label: string; arithmetic: 'f32' | 'ff'; switches: Partial<GpuKernelSwitches>; options?: GpuDotOptions; sets: readonly string[] }[] {
  const base = { lazy: true, tree: true, ffFmaKeep: true } as const;
  const sets = ['s16'] as const;
  return [
    { label: 'default: ffFmaKeep, tree', arithmetic: 'ff', switches: base, sets },
    { label: '132·1024 threads (16 workgroups/SM)', arithmetic: 'ff', switches: base, options: { maxThreads: 132 * 1024 }, sets },
    { label: '132·2048 threads (32 workgroups/SM)', arithmetic: 'ff', switches: base, options: { maxThreads: 132 * 2048 }, sets },
    { label: '132·512 threads (8 workgroups/SM)', arithmetic: 'ff', switches: base, options: { maxThreads: 132 * 512 }, sets },
    { label: '132·1024 threads, dotPrefetch', arithmetic: 'ff', switches: { ...base, dotPrefetch: true }, options: { maxThreads: 132 * 1024 }, sets },
    { label: '132·1024 threads, 1 chain', arithmetic: 'ff', switches: base, options: { maxThreads: 132 * 1024, chains: 1 }, sets },
    { label: '132·1024 threads, 4 runs of 4 per step', arithmetic: 'ff', switches: base, options: { maxThreads: 132 * 1024, groups: 4 }, sets },
    { label: '132·2048 threads, 1 run of 4 per step, 1 chain', arithmetic: 'ff', switches: base, options: { maxThreads: 132 * 2048, groups: 1, chains: 1 }, sets },
    { label: 'f32 default: f32FmaKeep, tree', arithmetic: 'f32', switches: { lazy: true, tree: true, f32FmaKeep: true }, sets },
    { label: 'f32 132·1024 threads', arithmetic: 'f32', switches: { lazy: true, tree: true, f32FmaKeep: true }, options: { maxThreads: 132 * 1024 }, sets },
  ];
}

/**
 * Session 18 (`--rows=s18`): GEMV N in one dispatch (`gemvFusedFinish`: the finish pass done by the last workgroup of
 * each row block of the partial pass, kernels/gemv/gemv-fused-finish-source.ts) beside the default it must match bit for
 * bit (the rows share the bit check's key), float-float with 2 chains and 1, and f32.
 */
function session18Gemv(): { label: string; arithmetic: 'f32' | 'ff'; switches: Partial<GpuKernelSwitches>; options: GpuGemvOptions; sets: readonly string[] }[] {
  const base = { lazy: true, ffFmaKeep: true, gemvPrefetch: true, gemvVectorX: true } as const;
  const f32Base = { f32FmaKeep: true, gemvPrefetch: true, gemvVectorX: true } as const;
  const fused = { gemvFusedFinish: true } as const;
  const sets = ['s18'] as const;
  return [
    { label: 'two passes: ffFmaKeep + gemvPrefetch + gemvVectorX (2 dispatches)', arithmetic: 'ff', switches: base, options: {}, sets },
    { label: 'gemvFusedFinish: one dispatch', arithmetic: 'ff', switches: { ...base, ...fused }, options: {}, sets },
    { label: 'two passes, 1 chain', arithmetic: 'ff', switches: base, options: { chains: 1 }, sets },
    { label: 'gemvFusedFinish, 1 chain', arithmetic: 'ff', switches: { ...base, ...fused }, options: { chains: 1 }, sets },
    { label: 'f32 two passes: f32FmaKeep + gemvPrefetch + gemvVectorX (2 dispatches)', arithmetic: 'f32', switches: f32Base, options: {}, sets },
    { label: 'f32 gemvFusedFinish: one dispatch', arithmetic: 'f32', switches: { ...f32Base, ...fused }, options: {}, sets },
    { label: 'gemvFusedFinish (again)', arithmetic: 'ff', switches: { ...base, ...fused }, options: {}, sets },
  ];
}

/**
 * Session 18 (`--rows=s18`): DOT in one dispatch (`dotFusedFinish`: the tree passes done by the last workgroups of the
 * first pass, kernels/dot/dot-fused-finish-source.ts) beside the default it must match bit for bit (the rows share
 * the bit check's key), at the default and at 2^18 threads, float-float and f32. A fused row's label says how many
 * partials its timed calls had to recompute (the miss counter: 0 where the relaxed atomics were seen in time).
 */
function session18Dot(): { label: string; arithmetic: 'f32' | 'ff'; switches: Partial<GpuKernelSwitches>; options?: GpuDotOptions; sets: readonly string[] }[] {
  const ff = { lazy: true, tree: true, ffFmaKeep: true } as const;
  const f32 = { lazy: true, tree: true, f32FmaKeep: true } as const;
  const fused = { dotFusedFinish: true } as const;
  const sets = ['s18'] as const;
  return [
    { label: 'default: ffFmaKeep, tree (3 dispatches)', arithmetic: 'ff', switches: ff, sets },
    { label: 'dotFusedFinish: one dispatch', arithmetic: 'ff', switches: { ...ff, ...fused }, sets },
    { label: 'default, 2^18 threads', arithmetic: 'ff', switches: ff, options: { maxThreads: 2 ** 18 }, sets },
    { label: 'dotFusedFinish, 2^18 threads', arithmetic: 'ff', switches: { ...ff, ...fused }, options: { maxThreads: 2 ** 18 }, sets },
    { label: 'f32 default: f32FmaKeep, tree (3 dispatches)', arithmetic: 'f32', switches: f32, sets },
    { label: 'f32 dotFusedFinish: one dispatch', arithmetic: 'f32', switches: { ...f32, ...fused }, sets },
    { label: 'dotFusedFinish (again)', arithmetic: 'ff', switches: { ...ff, ...fused }, sets },
  ];
}

/**
 * Session 19 (`--rows=s19`, bf16/f16 storage): float-float with exact 16-bit products (`ffExactProducts`,
 * src/backends/webgpu/ff-exact-products.ts: each lazy term is p = a·b, exact, added without TwoProd's error term) beside
 * the default it must match bit for bit (the rows share the bit check's key). GEMV N's goal rows read an fp32 x, whose
 * products with a 16-bit matrix are not exact (the switch leaves them alone), so GEMV's switch rows read x stored in A's
 * format (`x16`) beside the default on that x; DOT's operands are both 16-bit already. 1-chain rows too (one chain was
 * the faster bf16 GEMV in session 18), and f32 arithmetic for the gap.
 */
function session19Gemv(): { label: string; arithmetic: 'f32' | 'ff'; switches: Partial<GpuKernelSwitches>; options: GpuGemvOptions; sets: readonly string[]; storages: readonly string[]; x16?: boolean }[] {
  const base = { lazy: true, ffFmaKeep: true, gemvPrefetch: true, gemvVectorX: true } as const;
  const exact = { ...base, ffExactProducts: true } as const;
  const splitForms = { ...exact, gemvWorkgroupSplit: 256, gemvFfFourRows: true } as const;
  const sets = ['s19'] as const;
  const storages = ['bf16', 'f16'] as const;
  return [
    { label: 'two passes: ffFmaKeep + gemvPrefetch + gemvVectorX (x fp32)', arithmetic: 'ff', switches: base, options: {}, sets, storages },
    { label: 'two passes, x in A\'s format', arithmetic: 'ff', switches: base, options: {}, sets, storages, x16: true },
    { label: 'ffExactProducts, x in A\'s format', arithmetic: 'ff', switches: exact, options: {}, sets, storages, x16: true },
    { label: 'two passes, x in A\'s format, 1 chain', arithmetic: 'ff', switches: base, options: { chains: 1 }, sets, storages, x16: true },
    { label: 'ffExactProducts, x in A\'s format, 1 chain', arithmetic: 'ff', switches: exact, options: { chains: 1 }, sets, storages, x16: true },
    { label: 'f32 two passes, x in A\'s format', arithmetic: 'f32', switches: { f32FmaKeep: true, gemvPrefetch: true, gemvVectorX: true }, options: {}, sets, storages, x16: true },
    { label: 'ffExactProducts (again), x in A\'s format', arithmetic: 'ff', switches: exact, options: {}, sets, storages, x16: true },
    // The one-dispatch workgroup split with four float-float rows a thread (the default since session 20) over exact products.
    { label: 'gemvWorkgroupSplit 256 + gemvFfFourRows + ffExactProducts (x fp32)', arithmetic: 'ff', switches: splitForms, options: {}, sets, storages },
    { label: 'gemvWorkgroupSplit 256 + gemvFfFourRows + ffExactProducts, x in A\'s format', arithmetic: 'ff', switches: splitForms, options: {}, sets, storages, x16: true },
    { label: 'gemvWorkgroupSplit 256 + gemvFfFourRows + ffExactProducts, x in A\'s format, 1 chain', arithmetic: 'ff', switches: splitForms, options: { chains: 1 }, sets, storages, x16: true },
  ];
}

/** Session 19 (`--rows=s19`): DOT of two bf16/f16 vectors with `ffExactProducts` beside the default (same bits), 1 chain too. */
function session19Dot(): { label: string; arithmetic: 'f32' | 'ff'; switches: Partial<GpuKernelSwitches>; options?: GpuDotOptions; sets: readonly string[]; storages: readonly string[] }[] {
  const ff = { lazy: true, tree: true, ffFmaKeep: true } as const;
  const exact = { ...ff, ffExactProducts: true } as const;
  const sets = ['s19'] as const;
  const storages = ['bf16', 'f16'] as const;
  return [
    { label: 'default: ffFmaKeep, tree (3 dispatches)', arithmetic: 'ff', switches: ff, sets, storages },
    { label: 'ffExactProducts', arithmetic: 'ff', switches: exact, sets, storages },
    { label: 'default, 1 chain', arithmetic: 'ff', switches: ff, options: { chains: 1 }, sets, storages },
    { label: 'ffExactProducts, 1 chain', arithmetic: 'ff', switches: exact, options: { chains: 1 }, sets, storages },
    { label: 'f32 default: f32FmaKeep, tree', arithmetic: 'f32', switches: { lazy: true, tree: true, f32FmaKeep: true }, sets, storages },
    { label: 'ffExactProducts (again)', arithmetic: 'ff', switches: exact, sets, storages },
  ];
}

/** Runs `f` with some kernel switches set (src/backends/webgpu/kernel-switches.ts), restoring them afterwards. */
async function withSwitches<T>(switches: Partial<GpuKernelSwitches>, f: () => Promise<T>): Promise<T> {
  const previous = setGpuKernelSwitches({ ...ITEM4_OFF, ...switches });
  try {
    return await f();
  } finally {
    setGpuKernelSwitches(previous);
  }
}

/**
 * The miss counter of the one-dispatch DOT's plan for these operands (word MISS_COUNTER of the buffer its resident
 * result views; one extra call, whose own misses count too).
 */
async function fusedMisses(rt: GpuRuntime, x: DeviceArray, y: DeviceArray, v: { arithmetic: 'f32' | 'ff'; options?: GpuDotOptions }): Promise<number> {
  const { result } = await gpuDotResident(x, y, { arithmetic: v.arithmetic, ...v.options });
  return (await readWords(rt.context, result.buffer!, 1, MISS_COUNTER))[0]!;
}

/** The one-dispatch GEMV N's miss counter for these operands (after one extra call, whose own misses count too). */
async function fusedGemvMisses(A: DeviceMatrix, x: DeviceArray, y: DeviceArray, v: { arithmetic: 'f32' | 'ff'; options: GpuGemvOptions }): Promise<number> {
  await gpuGemv({ A, x, y }, { arithmetic: v.arithmetic, ...v.options });
  return (await lastGemvFusedMisses()) ?? Number.NaN;
}

const goalText = (ms: number, goal: number | undefined): string => (goal === undefined ? '' : `goal ≤ ${goal} ms ${ms <= goal ? 'met' : 'MISSED'}`);

async function benchGemv(rt: GpuRuntime): Promise<void> {
  const n = small ? 1024 : 8192;
  const hostA = rand32(n * n, 7);
  const hostX = rand32(n, 11);
  const a32 = await toDevice(hostA, { format: 'f32', strict: true });
  const x = await toDevice(hostX, { format: 'f32', strict: true });
  const y = await deviceZeros(n, { format: 'f32', strict: true });
  const yCheck = await deviceZeros(n, { format: 'f64', strict: true });
  for (const storage of ['f32', 'bf16', 'f16'] as const) {
    if (sixteenBitSet && storage === 'f32') continue;
    const data = storage === 'f32' ? a32 : (await gpuConvert(a32, storage)).array;
    const A = deviceMatrix(data, n, n);
    const stored = await data.toHost();
    const { ref: refX, mag: magX } = gemvReference(stored, hostX, n);
    // `storages`: only for those storages (a switch that changes nothing elsewhere).
    // `x16`: x stored in A's format (session 19's rows), checked against its own reference.
    type Variant = { label: string; arithmetic: 'f32' | 'ff'; switches: Partial<GpuKernelSwitches>; options: GpuGemvOptions; sets?: readonly string[]; storages?: readonly string[]; x16?: boolean };
    const ffGoal = storage === 'f32' ? 0.105 : 0.075;
    // Every row names the switches it sets beyond the defaults; the issue-19 item-4 ones (f32FmaKeep, ffFmaKeep,
    // gemvPrefetch, gemvVectorX; gemvUnroll 8) are off in every row that does not name them. The default row is timed again at the group's end.
    const lazy = { lazy: true };
    const fk = { f32FmaKeep: true };
    const ffk = { ffFmaKeep: true };
    const pf = { gemvPrefetch: true };
    const vx = { gemvVectorX: true };
    const ll = { ffLongLazy: true };
    const pp = { prefetchPingPong: true };
    const variants: Variant[] = [
      { label: 'new: 2 rows/thread, lazy ff', arithmetic: 'ff', switches: lazy, options: {} },
      { label: 'old: 1 row/thread, renormalising ff', arithmetic: 'ff', switches: { lazy: false }, options: { rowsPerThread: 1 } },
      { label: '2 rows/thread, renormalising ff', arithmetic: 'ff', switches: { lazy: false }, options: { rowsPerThread: 2 } },
      { label: '1 row/thread, lazy ff', arithmetic: 'ff', switches: lazy, options: { rowsPerThread: 1 } },
      { label: '2 rows/thread, lazy ff, 2^19 target (2^18 threads)', arithmetic: 'ff', switches: lazy, options: { targetThreads: 2 ** 19 } },
      { label: '2 rows/thread, lazy ff, 1 chain', arithmetic: 'ff', switches: lazy, options: { chains: 1 } },
      { label: 'ffFmaKeep: lazy ff pinned by fmas', arithmetic: 'ff', switches: { ...lazy, ...ffk }, options: {} },
      { label: 'gemvPrefetch: lazy ff, loads a step ahead', arithmetic: 'ff', switches: { ...lazy, ...pf }, options: {} },
      { label: 'ffFmaKeep + gemvPrefetch', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf }, options: {} },
      { label: 'ffFmaKeep + gemvPrefetch, 1 chain', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf }, options: { chains: 1 } },
      { label: 'ffFmaKeep + gemvPrefetch, 2^19 target', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf }, options: { targetThreads: 2 ** 19 } },
      { label: 'ffFmaKeep + gemvPrefetch, 1 chain, 2^19 target', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf }, options: { chains: 1, targetThreads: 2 ** 19 } },
      { label: 'ffFmaKeep, 1 chain, 2^19 target', arithmetic: 'ff', switches: { ...lazy, ...ffk }, options: { chains: 1, targetThreads: 2 ** 19 } },
      { label: 'gemvVectorX: lazy ff, x four columns a load', arithmetic: 'ff', switches: { ...lazy, ...vx }, options: {} },
      { label: 'ffFmaKeep + gemvPrefetch + gemvVectorX', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx }, options: {} },
      { label: 'ffFmaKeep + gemvPrefetch + gemvVectorX, 1 chain', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx }, options: { chains: 1 } },
      { label: 'ffFmaKeep + gemvPrefetch + gemvVectorX, 2^19 target', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx }, options: { targetThreads: 2 ** 19 } },
      { label: 'ffFmaKeep + gemvPrefetch + gemvVectorX, 2^17 target (2^16 threads)', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx }, options: { targetThreads: 2 ** 17 } },
      { label: 'ffFmaKeep + gemvPrefetch + gemvVectorX, gemvUnroll 4', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, gemvUnroll: 4 }, options: {} },
      { label: 'ffFmaKeep + gemvPrefetch + gemvVectorX, gemvUnroll 4, 1 chain', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, gemvUnroll: 4 }, options: { chains: 1 } },
      { label: 'ffFmaKeep + gemvPrefetch + gemvVectorX, gemvUnroll 4, 2^19 target', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, gemvUnroll: 4 }, options: { targetThreads: 2 ** 19 } },
      { label: 'ffFmaKeep + gemvVectorX, gemvUnroll 16', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...vx, gemvUnroll: 16 }, options: {} },
      { label: 'ffFmaKeep + gemvVectorX, gemvUnroll 16, 1 chain', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...vx, gemvUnroll: 16 }, options: { chains: 1 } },
      { label: 'ffFmaKeep + gemvPrefetch + gemvVectorX, gemvUnroll 16', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, gemvUnroll: 16 }, options: {} },
      { label: 'ffFmaKeep + gemvPrefetch + gemvVectorX, 1 chain, 2^19 target', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx }, options: { chains: 1, targetThreads: 2 ** 19 } },
      { label: 'ffFmaKeep + gemvVectorX, gemvUnroll 16, 2^19 target', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...vx, gemvUnroll: 16 }, options: { targetThreads: 2 ** 19 } },
      { label: 'new f32: 4 rows/thread', arithmetic: 'f32', switches: lazy, options: {} },
      { label: 'old f32: 1 row/thread', arithmetic: 'f32', switches: lazy, options: { rowsPerThread: 1 } },
      { label: 'f32FmaKeep: product as fma(a, b, −0)', arithmetic: 'f32', switches: fk, options: {} },
      { label: 'f32 gemvPrefetch', arithmetic: 'f32', switches: pf, options: {} },
      { label: 'f32FmaKeep + gemvPrefetch', arithmetic: 'f32', switches: { ...fk, ...pf }, options: {} },
      { label: 'f32FmaKeep + gemvPrefetch, 2^20 target (2^18 threads)', arithmetic: 'f32', switches: { ...fk, ...pf }, options: { targetThreads: 2 ** 20 } },
      { label: 'f32FmaKeep, 2^20 target (2^18 threads)', arithmetic: 'f32', switches: fk, options: { targetThreads: 2 ** 20 } },
      { label: 'f32FmaKeep + gemvPrefetch + gemvVectorX', arithmetic: 'f32', switches: { ...fk, ...pf, ...vx }, options: {} },
      { label: 'f32FmaKeep + gemvVectorX', arithmetic: 'f32', switches: { ...fk, ...vx }, options: {} },
      { label: 'f32FmaKeep + gemvPrefetch + gemvVectorX, gemvUnroll 4', arithmetic: 'f32', switches: { ...fk, ...pf, ...vx, gemvUnroll: 4 }, options: {} },
      { label: 'f32FmaKeep + gemvVectorX, gemvUnroll 16', arithmetic: 'f32', switches: { ...fk, ...vx, gemvUnroll: 16 }, options: {} },
      { label: 'f32FmaKeep + gemvPrefetch + gemvVectorX, 2^19 target (2^17 threads)', arithmetic: 'f32', switches: { ...fk, ...pf, ...vx }, options: { targetThreads: 2 ** 19 } },
      // Session 15 (--rows=s15): ffLongLazy (lazy accumulators settled after up to 16 terms across steps) and
      // prefetchPingPong (two carried register sets, no moves) beside
      // the default since 2026-11-27, and the f32 default for the gap between the two arithmetics.
      { label: 'two passes: ffFmaKeep + gemvPrefetch + gemvVectorX', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx }, options: {}, sets: ['s15'] },
      { label: 'two passes + ffLongLazy (settle every 4 steps)', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, ...ll }, options: {}, sets: ['s15'] },
      { label: 'two passes + ffLongLazy, 1 chain (every 2 steps)', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, ...ll }, options: { chains: 1 }, sets: ['s15'] },
      { label: 'two passes + ffLongLazy, gemvUnroll 16 (every 2 steps)', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, ...ll, gemvUnroll: 16 }, options: {}, sets: ['s15'] },
      { label: 'two passes + ffLongLazy, gemvUnroll 16, 1 chain (every step)', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, ...ll, gemvUnroll: 16 }, options: { chains: 1 }, sets: ['s15'] },
      { label: 'two passes + ffLongLazy, 2^19 target (2^18 threads)', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, ...ll }, options: { targetThreads: 2 ** 19 }, sets: ['s15'] },
      { label: 'two passes + ffLongLazy, no gemvPrefetch', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...vx, ...ll }, options: {}, sets: ['s15'] },
      { label: 'two passes + prefetchPingPong', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, ...pp }, options: {}, sets: ['s15'] },
      { label: 'two passes + prefetchPingPong + ffLongLazy', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, ...pp, ...ll }, options: {}, sets: ['s15'] },
      { label: 'two passes + prefetchPingPong + ffLongLazy, 1 chain', arithmetic: 'ff', switches: { ...lazy, ...ffk, ...pf, ...vx, ...pp, ...ll }, options: { chains: 1 }, sets: ['s15'] },
      { label: 'f32 two passes: f32FmaKeep + gemvPrefetch + gemvVectorX', arithmetic: 'f32', switches: { ...fk, ...pf, ...vx }, options: {}, sets: ['s15'] },
      { label: 'f32 two passes + prefetchPingPong', arithmetic: 'f32', switches: { ...fk, ...pf, ...vx, ...pp }, options: {}, sets: ['s15'] },
      ...session16Gemv(n),
      ...session18Gemv(),
      ...session19Gemv(),
    ];
    variants.push({ ...variants[0]!, label: `${variants[0]!.label} (again, end of group)` });
    // The item-4 switches change no bit: a row's y must equal that of the first row with the same options, lazy setting
    // and step length (gemvUnroll changes where float-float accumulators settle).
    const firstY = new Map<string, Float64Array>();
    // x in A's format and its reference, made for the first row that reads it (session 19).
    let x16: { x: DeviceArray; ref: Float64Array; mag: Float64Array } | undefined;
    for (const v of chosenRows(variants)) {
      if (v.storages && !v.storages.includes(storage)) continue;
      if (v.x16 && !x16 && storage !== 'f32') {
        const xs = (await gpuConvert(x, storage)).array;
        x16 = { x: xs, ...gemvReference(stored, await xs.toHost(), n) };
      }
      const [xv, ref, mag] = v.x16 && x16 ? [x16.x, x16.ref, x16.mag] : [x, refX, magX];
      await withSwitches(v.switches, async () => {
        const x = xv;
        await gpuGemv({ A, x, y: yCheck }, { arithmetic: v.arithmetic, ...v.options });
        const got = await yCheck.toHost();
        let error = 0;
        let worst = 0;
        const sameKey = `${v.arithmetic}|${JSON.stringify(v.options)}|${v.switches.lazy !== false}|${v.switches.gemvUnroll ?? 8}|${v.switches.ffLongLazy === true}|${v.x16 === true}`;
        const earlier = firstY.get(sameKey);
        if (!earlier) firstY.set(sameKey, got);
        const sameBits = !earlier || got.every((g, i) => Object.is(g, earlier[i]));
        let correct = sameBits;
        for (let i = 0; i < n; i++) {
          const e = Math.abs(got[i]! - ref[i]!);
          const b = gamma(2 * n + 3, U[v.arithmetic]) * mag[i]!;
          if (!(e <= b)) correct = false;
          if (e / mag[i]! > error) {
            error = e / mag[i]!;
            worst = b / mag[i]!;
          }
        }
        const fusedRow = v.switches.gemvFusedFinish === true;
        const missesBefore = fusedRow ? await fusedGemvMisses(A, x, y, v) : 0;
        const t = await timeStable(rt, () => gpuGemv({ A, x, y }, { arithmetic: v.arithmetic, ...v.options }));
        const misses = fusedRow ? ` [${(await fusedGemvMisses(A, x, y, v)) - missesBefore} partials recomputed]` : '';
        const bytes = data.words * 4 + x.words * 4 + 4 * n;
        push({ kernel: `GEMV N n=${n}`, variant: `${v.label}${misses}${sameBits ? '' : ' (bits differ from the same options without the switch)'}${t.rounds > 2 ? ` [${t.rounds} timings to settle]` : ''}`, storage, arithmetic: v.arithmetic, ms: t.ms, issueMs: t.issueMs, gbs: bytes / t.ms / 1e6, error, bound: worst || gamma(2 * n + 3, U[v.arithmetic]), correct, goal: small || v.arithmetic !== 'ff' || v.x16 ? '' : goalText(t.ms, ffGoal) });
      });
    }
    if (data !== a32) data.destroy();
    x16?.x.destroy();
  }
  for (const b of [a32, x, y, yCheck]) b.destroy();
}

async function benchDot(rt: GpuRuntime): Promise<void> {
  const n = small ? 2 ** 20 : 2 ** 27;
  const x32 = await toDevice(rand32(n, 3), { format: 'f32', strict: true });
  const y32 = await toDevice(rand32(n, 5), { format: 'f32', strict: true });
  for (const storage of ['f32', 'bf16', 'f16'] as const) {
    if (sixteenBitSet && storage === 'f32') continue;
    const x = storage === 'f32' ? x32 : (await gpuConvert(x32, storage)).array;
    const y = storage === 'f32' ? y32 : (await gpuConvert(y32, storage)).array;
    const [dx, dy] = [await x.toHost(), await y.toHost()];
    const acc = new Accurate();
    let mag = 0;
    for (let k = 0; k < n; k++) {
      const p = dx[k]! * dy[k]!;
      acc.add(p);
      mag += Math.abs(p);
    }
    const ffGoal = storage === 'f32' ? 0.36 : 0.21;
    type Variant = { label: string; arithmetic: 'f32' | 'ff'; switches: Partial<GpuKernelSwitches>; options?: GpuDotOptions; sets?: readonly string[]; storages?: readonly string[] };
    // As in GEMV: the item-4 switches (f32FmaKeep, ffFmaKeep, dotPrefetch, dotFusedTree) are off where a row does not name them.
    const on = { lazy: true, tree: true };
    const ffk = { ffFmaKeep: true };
    const pf = { dotPrefetch: true };
    const ft = { dotFusedTree: true };
    const ll = { ffLongLazy: true };
    const pp = { prefetchPingPong: true };
    const variants: Variant[] = [
      { label: 'new: lazy ff, 2 tree passes', arithmetic: 'ff', switches: on },
      { label: 'lazy ff, tree, 4 runs of 4 per step', arithmetic: 'ff', switches: on, options: { groups: 4 } },
      { label: 'lazy ff, tree, 2^18 threads', arithmetic: 'ff', switches: on, options: { maxThreads: 2 ** 18 } },
      { label: 'old: renormalising ff, 4 reduction passes', arithmetic: 'ff', switches: { lazy: false, tree: false } },
      { label: 'lazy ff, 4 reduction passes', arithmetic: 'ff', switches: { lazy: true, tree: false } },
      { label: 'renormalising ff, 2 tree passes', arithmetic: 'ff', switches: { lazy: false, tree: true } },
      { label: 'ffFmaKeep: lazy ff pinned by fmas, tree', arithmetic: 'ff', switches: { ...on, ...ffk } },
      { label: 'dotPrefetch: lazy ff, tree, loads a step ahead', arithmetic: 'ff', switches: { ...on, ...pf } },
      { label: 'ffFmaKeep + dotPrefetch', arithmetic: 'ff', switches: { ...on, ...ffk, ...pf } },
      { label: 'ffFmaKeep + dotPrefetch, 2^18 threads', arithmetic: 'ff', switches: { ...on, ...ffk, ...pf }, options: { maxThreads: 2 ** 18 } },
      { label: 'ffFmaKeep, 2^18 threads', arithmetic: 'ff', switches: { ...on, ...ffk }, options: { maxThreads: 2 ** 18 } },
      { label: 'ffFmaKeep + dotPrefetch, 4 runs of 4 per step', arithmetic: 'ff', switches: { ...on, ...ffk, ...pf }, options: { groups: 4 } },
      { label: 'dotFusedTree: first pass sums its workgroups (2 dispatches)', arithmetic: 'ff', switches: { ...on, ...ft } },
      { label: 'dotFusedTree + ffFmaKeep + dotPrefetch', arithmetic: 'ff', switches: { ...on, ...ft, ...ffk, ...pf } },
      { label: 'dotFusedTree + ffFmaKeep + dotPrefetch, 2^18 threads', arithmetic: 'ff', switches: { ...on, ...ft, ...ffk, ...pf }, options: { maxThreads: 2 ** 18 } },
      { label: 'dotFusedTree + ffFmaKeep, 2^18 threads', arithmetic: 'ff', switches: { ...on, ...ft, ...ffk }, options: { maxThreads: 2 ** 18 } },
      { label: 'dotFusedTree + ffFmaKeep + dotPrefetch, 4 runs of 4 per step', arithmetic: 'ff', switches: { ...on, ...ft, ...ffk, ...pf }, options: { groups: 4 } },
      { label: 'ffFmaKeep + dotPrefetch, 4 runs of 4, 2^18 threads', arithmetic: 'ff', switches: { ...on, ...ffk, ...pf }, options: { groups: 4, maxThreads: 2 ** 18 } },
      // One accumulator: 8 terms between settles (2 chains settle every 4 terms: each settle costs a TwoSum and ffFinish's bit tests).
      { label: 'ffFmaKeep + dotPrefetch, 1 chain', arithmetic: 'ff', switches: { ...on, ...ffk, ...pf }, options: { chains: 1 } },
      { label: 'dotFusedTree + ffFmaKeep + dotPrefetch, 1 chain', arithmetic: 'ff', switches: { ...on, ...ft, ...ffk, ...pf }, options: { chains: 1 } },
      { label: 'new f32: 2 tree passes', arithmetic: 'f32', switches: on },
      { label: 'old f32: 4 reduction passes', arithmetic: 'f32', switches: { lazy: true, tree: false } },
      { label: 'f32FmaKeep + dotPrefetch, tree', arithmetic: 'f32', switches: { ...on, f32FmaKeep: true, ...pf } },
      { label: 'f32FmaKeep + dotPrefetch + dotFusedTree', arithmetic: 'f32', switches: { ...on, f32FmaKeep: true, ...pf, ...ft } },
      // Session 15 (--rows=s15): ffLongLazy and prefetchPingPong beside the default since 2026-11-27 (ffFmaKeep, tree passes).
      { label: 'default: ffFmaKeep, tree', arithmetic: 'ff', switches: { ...on, ...ffk }, sets: ['s15'] },
      { label: 'default + ffLongLazy (settle every 4 steps)', arithmetic: 'ff', switches: { ...on, ...ffk, ...ll }, sets: ['s15'] },
      { label: 'default + ffLongLazy + dotPrefetch', arithmetic: 'ff', switches: { ...on, ...ffk, ...ll, ...pf }, sets: ['s15'] },
      { label: 'default + ffLongLazy, 1 chain (every 2 steps)', arithmetic: 'ff', switches: { ...on, ...ffk, ...ll }, options: { chains: 1 }, sets: ['s15'] },
      { label: 'default + ffLongLazy, 4 runs of 4 per step (every 2 steps)', arithmetic: 'ff', switches: { ...on, ...ffk, ...ll }, options: { groups: 4 }, sets: ['s15'] },
      { label: 'default + ffLongLazy + dotFusedTree', arithmetic: 'ff', switches: { ...on, ...ffk, ...ll, ...ft }, sets: ['s15'] },
      { label: 'default + ffLongLazy, 2^18 threads', arithmetic: 'ff', switches: { ...on, ...ffk, ...ll }, options: { maxThreads: 2 ** 18 }, sets: ['s15'] },
      { label: 'default + ffLongLazy + dotPrefetch + prefetchPingPong', arithmetic: 'ff', switches: { ...on, ...ffk, ...ll, ...pf, ...pp }, sets: ['s15'] },
      { label: 'f32 default: f32FmaKeep, tree', arithmetic: 'f32', switches: { ...on, f32FmaKeep: true }, sets: ['s15'] },
      ...session16Dot(),
      ...session18Dot(),
      ...session19Dot(),
    ];
    variants.push({ ...variants[0]!, label: `${variants[0]!.label} (again, end of group)` });
    // As in GEMV: a row's value must equal that of the first row with the same options, lazy, tree and fused-tree settings.
    const firstValue = new Map<string, number>();
    for (const v of chosenRows(variants)) {
      if (v.storages && !v.storages.includes(storage)) continue;
      await withSwitches(v.switches, async () => {
        const r1 = await gpuDot(x, y, { arithmetic: v.arithmetic, ...v.options });
        const r2 = await gpuDot(x, y, { arithmetic: v.arithmetic, ...v.options });
        const sameKey = `${v.arithmetic}|${JSON.stringify(v.options ?? {})}|${v.switches.lazy !== false}|${v.switches.tree !== false}|${v.switches.dotFusedTree === true}|${v.switches.ffLongLazy === true}`;
        const earlier = firstValue.get(sameKey);
        if (earlier === undefined) firstValue.set(sameKey, r1.value);
        const sameBits = earlier === undefined || Object.is(earlier, r1.value);
        const error = Math.abs(r1.value - acc.value);
        const bound = gamma(2 * n + 3, U[v.arithmetic]) * mag;
        const fusedRow = v.switches.dotFusedFinish === true;
        const missesBefore = fusedRow ? await fusedMisses(rt, x, y, v) : 0;
        const t = await timeStable(rt, () => gpuDotResident(x, y, { arithmetic: v.arithmetic, ...v.options }));
        const misses = fusedRow ? ` [${(await fusedMisses(rt, x, y, v)) - missesBefore} partials recomputed]` : '';
        push({ kernel: `DOT n=2^${Math.log2(n)}`, variant: `${v.label}${misses}${r1.value === r2.value ? '' : ' (NOT reproducible)'}${sameBits ? '' : ' (bits differ from the same options without the switch)'}${t.rounds > 2 ? ` [${t.rounds} timings to settle]` : ''}`, storage, arithmetic: v.arithmetic, ms: t.ms, issueMs: t.issueMs, gbs: (2 * x.words * 4) / t.ms / 1e6, error: error / mag, bound: bound / mag, correct: error <= bound && r1.value === r2.value && sameBits, goal: small || v.arithmetic !== 'ff' ? '' : goalText(t.ms, ffGoal) });
      });
    }
    if (storage !== 'f32') {
      x.destroy();
      y.destroy();
    }
  }
  x32.destroy();
  y32.destroy();
}

/**
 * Forms of the one-dispatch TRSV under test (src/backends/webgpu/kernel-switches.ts, `TrsvKernelSwitches`; `lead`:
 * MODPREC_TRSV_LEAD), each timed for every variant and arithmetic beside the default, each result checked.
 */
const TRSV_FORMS: { label: string; forms: Partial<TrsvKernelSwitches>; lead?: number; chains?: number; upperT?: boolean }[] = [
  { label: 'before (every form off)', forms: {} },
  { label: 'session 14 default (column inverse, lazy tiles, early poll, 2 ahead; row lanes when transposed)', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true, rowLanes: 'transposed' } },
  { label: 'column inverse', forms: { columnInverse: true } },
  { label: 'column inverse, lazy tiles', forms: { columnInverse: true, lazyTiles: true } },
  { label: 'column inverse, lazy tiles, early poll', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true } },
  { label: 'column inverse, lazy tiles, early poll, 2 ahead', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true } },
  { label: 'column inverse, lazy tiles, early poll, 2 ahead, lead 2', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true }, lead: 2 },
  { label: 'column inverse, lazy tiles, early poll, 2 ahead, lead 3', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true }, lead: 3 },
  { label: 'column inverse, lazy tiles, early poll, 2 ahead, 2 chains', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true }, chains: 2 },
  { label: 'column inverse, lazy tiles, early poll, 2 ahead, tree quarters', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true, treeQuarters: true } },
  { label: 'column inverse, lazy tiles, early poll, 2 ahead, tree quarters, lead 2', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true, treeQuarters: true }, lead: 2 },
  { label: 'row lanes, column inverse, lazy tiles', forms: { rowLanes: true, columnInverse: true, lazyTiles: true } },
  { label: 'row lanes, column inverse, lazy tiles, early poll, 2 ahead', forms: { rowLanes: true, columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true } },
  { label: 'row lanes, column inverse, lazy tiles, early poll, 2 ahead, lead 2', forms: { rowLanes: true, columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true }, lead: 2 },
  // Session 15 (issue 19 item 3, L T N): the default with quad rows (16-byte loads of op(A)'s rows; only T solves change).
  { label: 'default since session 15: session 14 default + quad rows (transposed, A fp32)', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true, rowLanes: 'transposed', quadRows: true } },
  { label: 'default, quad rows, lead 2', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true, rowLanes: 'transposed', quadRows: true }, lead: 2 },
  // Session 18 (issue 19 item 3): transposed solves on a column-major copy of op(A) (the N walker's addresses), beside
  // the default in the same run, U T N too (--trsv-forms=16,17).
  { label: 'default (session 18 baseline)', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true, rowLanes: 'transposed', quadRows: true }, upperT: true },
  { label: 'default + transposed copy', forms: { columnInverse: true, lazyTiles: true, earlyPoll: true, ahead: true, rowLanes: 'transposed', quadRows: true, transposedCopy: true }, upperT: true },
];
const TRSV_OFF: TrsvKernelSwitches = { columnInverse: false, rowLanes: false, lazyTiles: false, earlyPoll: false, ahead: false, treeQuarters: false, quadRows: false, ddLanes: false, ddLanesFused: false, ddOverlapLanes: 0, ddOverlapFarLanes: 16, transposedCopy: false, ddTrsvWindow: false };

/** Runs `f` with the TRSV forms, lead and chains set, restoring them afterwards. */
async function withTrsvForm<T>(form: (typeof TRSV_FORMS)[number], f: () => Promise<T>): Promise<T> {
  const previous = setTrsvKernelSwitches({ ...TRSV_OFF, ...form.forms });
  const saved = { MODPREC_TRSV_LEAD: process.env.MODPREC_TRSV_LEAD, MODPREC_TRSV_CHAINS: process.env.MODPREC_TRSV_CHAINS };
  if (form.lead !== undefined) process.env.MODPREC_TRSV_LEAD = String(form.lead);
  if (form.chains !== undefined) process.env.MODPREC_TRSV_CHAINS = String(form.chains);
  rereadTuningKnobs();
  try {
    return await f();
  } finally {
    setTrsvKernelSwitches(previous);
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rereadTuningKnobs();
  }
}

async function benchTrsv(rt: GpuRuntime): Promise<void> {
  const n = small ? 512 : 8192;
  const hostA = rand32(n * n, 13);
  // Well-conditioned triangles: diagonal in [1, 2], |off-diagonal| ≤ 1/n.
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) hostA[i + j * n] = i === j ? 1.5 + hostA[i + j * n]! / 2 : hostA[i + j * n]! / n;
  const hb = rand32(n, 17);
  const A = deviceMatrix(await toDevice(hostA, { format: 'f32', strict: true }), n, n);
  for (const arithmetic of ['f32', 'ff'] as const) {
    for (const [index, form] of TRSV_FORMS.entries()) {
      if (trsvForms && !trsvForms.includes(index)) continue;
      // The forms only change the one-dispatch solve; lazy tiles only float-float sums (f32 runs the default's code).
      if (arithmetic === 'f32' && form.forms.lazyTiles && !form.forms.earlyPoll && form.forms.rowLanes === undefined) continue;
      let lnn: number | undefined;
      const variants: (readonly ['L' | 'U', 'N' | 'T'])[] = [['L', 'N'], ['U', 'N'], ['L', 'T'], ...(form.upperT ? [['U', 'T'] as const] : [])];
      for (const [uplo, trans] of variants) {
        // A form that fails (compile, run) is one WRONG row, not the end of the section.
        const variant = `${uplo} ${trans} N${form.label === 'default' ? '' : `, ${form.label}`}`;
        await withTrsvForm(form, async () => {
          const x = await toDevice(hb, { format: arithmetic === 'ff' ? 'ff' : 'f32', strict: true });
          const run = (): Promise<unknown> => gpuTrsv({ A, x, uplo, trans }, { arithmetic });
          await run();
          const sol = await x.toHost();
          // Residual |op(A)·x − b| / (Σ|op(A)_ij x_j| + |b_i|), row by row.
          let error = 0;
          const lowerOp = (uplo === 'L') === (trans === 'N');
          for (let i = 0; i < n; i++) {
            const acc = new Accurate();
            let mag = Math.abs(hb[i]!);
            const [from, to] = lowerOp ? [0, i] : [i, n - 1];
            for (let j = from; j <= to; j++) {
              const p = (trans === 'N' ? hostA[i + j * n]! : hostA[j + i * n]!) * sol[j]!;
              acc.add(p);
              mag += Math.abs(p);
            }
            acc.add(-hb[i]!);
            error = Math.max(error, Math.abs(acc.value) / mag);
          }
          // A backward-stable solve of a well-conditioned triangle: residual of order n·u (generous: 4n·u).
          const bound = 4 * n * (arithmetic === 'ff' ? 2 ** -44 : 2 ** -24);
          const t = await time(rt, run);
          let goal = '';
          if (uplo === 'L' && trans === 'N') {
            lnn = t.ms;
            goal = small ? '' : goalText(t.ms, arithmetic === 'ff' ? 0.5 : 0.4);
          } else if (lnn !== undefined) {
            const ratio = t.ms / lnn;
            goal = `${ratio.toFixed(2)}× L N N (goal ≤ 1.2×: ${ratio <= 1.2 ? 'met' : 'MISSED'})`;
          }
          push({ kernel: `TRSV n=${n}`, variant, storage: 'f32', arithmetic, ms: t.ms, issueMs: t.issueMs, gbs: (2 * n * (n + 1)) / t.ms / 1e6, error, bound, correct: error <= bound, goal });
          x.destroy();
        }).catch((e: unknown) => {
          console.log(`TRSV ${variant} ${arithmetic} failed: ${(e as Error).stack ?? e}`);
          push({ kernel: `TRSV n=${n}`, variant, storage: 'f32', arithmetic, ms: NaN, issueMs: NaN, gbs: NaN, error: NaN, bound: NaN, correct: false, goal: `failed: ${String(e).slice(0, 80)}` });
        });
      }
    }
  }
  A.data.destroy();
}

/** The fixed cost per call: small GEMV N and DOT (fp32 storage, ff), per-call time and the host's issue time. */
async function benchSmall(rt: GpuRuntime): Promise<void> {
  // The run gpu-h100.ts reports too (device-timing.ts): here n = 256 and 1024, DOT of x with itself, no TRSV.
  for (const r of await timeFixedCost(rt, { sizes: [256, 1024], trsv: false, dotSelf: true, time: (run) => time(rt, run) })) {
    const t = r.timing;
    push({ kernel: `${r.kernel} n=${r.n} (fixed cost)`, variant: 'new', storage: 'f32', arithmetic: 'ff', ms: t.ms, issueMs: t.issueMs, gbs: r.bytes / t.ms / 1e6, error: r.error!, bound: r.bound!, correct: r.error! <= r.bound!, goal: '' });
  }
}

const ANALYSIS = `
**What changed (issue 19, session 9).** (1) GEMV N: each thread of the partial pass sums R adjacent rows
(\`rowsPerThread\`: 2 in float-float, whose four-word thread output holds two pairs; 4 in f32, with one vector load of
four rows for a packed matrix whose rows and lda are multiples of 4). One load of x feeds R rows, and a 16-bit matrix
is read a 32-bit word (two rows) per load instead of a 16-bit half per thread; the chunks and accumulators are those
of one row per thread, so y is bit for bit the same. (2) Float-float streaming loops (GEMV partials, DOT's first
pass, TRSV's inverse product) add products lazily: TwoSum of the heads, the tails added plainly, every accumulator
settled (TwoSum) after at most 8 terms — about 13 operations per term instead of about 28, error ≤ 7.6u² per term
(u = 2^-24) against the 16u² per term of the ff bounds (proof at \`lazyTerms\` in src/formats/ff/ff-gpu-arithmetic.ts).
(3) DOT sums its 2^17 first-pass partials in two tree passes (256-invocation workgroups, 8 partials per invocation,
then pairwise in workgroup memory) instead of four passes of 32 per thread. "old" rows run the previous kernels in the
same process (\`rowsPerThread: 1\`; the \`lazy\` and \`tree\` switches of src/backends/webgpu/kernel-switches.ts off).

**Switches under trial (issue 19 item 4, session 10; each row names the ones it turns on).** \`f32FmaKeep\`: an f32
product rounded as fma(a, b, −0) with an opaque uniform −0.0 — one floating-point operation where mpKeep's barrier
adds an integer XOR per product (bf16 + f32 GEMV N went from 0.072 to 0.100 ms with it: the bf16 decode is integer
work too, f16's a conversion). \`ffFmaKeep\`: the lazy float-float loop pinned by fmas with opaque 1.0/−0.0 instead
of XORs. \`gemvPrefetch\`/\`dotPrefetch\`: the streaming loops load the next step before summing the current one.
\`gemvVectorX\`: GEMV N reads x four columns a load. These four change no bit — each row is checked bit for bit
against the first row with the same options. \`gemvUnroll\` (4/16 columns a step) and \`dotFusedTree\` (the first pass
sums each 256-invocation workgroup in workgroup memory: 2 dispatches instead of 3) change the fixed order, within the
same bound. Timings are repeated until two agree within 3 % (the first row of a group, timed after seconds of host
work, read up to 3× slow), and the default row is timed again at the end of its group.

**Session 16 (\`--rows=s16\`).** \`gemvFfFourRows\`: float-float GEMV N with 4 rows a thread (one 16-byte load of A a
column in fp32, 8 bytes in bf16/fp16), the thread storing its 8 words of partials itself through an atomic view of the
partial buffer (a thread returns at most 4 words). \`gemvEightRows\`: 8 rows a thread of a packed 16-bit matrix from one
16-byte load a column, in f32 and float-float. \`gemvFinishBatch\` 16/32: GEMV's finish pass loads that many partials
before adding them (8 before; n = 8192 has 32 chunks a row). None of them changes a bit (each row is checked against the first row with
the same options). Split targets of 33 or 66 chunks, and DOT first passes of 132·512, 132·1024, 132·2048 threads, give
the H100's 132 SMs whole numbers of 64-thread workgroups.

**Session 19 (\`--gemv-sweep --dot-sweep\`, bench/gpu/h19-sweep.ts).** fp32 storage only, every form timed in rotated
interleaved rounds (one batch of 20 calls a form a round; the row gives the median batch, its quartiles and the ratio to
its reference row). \`gemvWorkgroupSplit\` W: GEMV N in one dispatch, a workgroup of W invocations holding ⌊W/S⌋ row
groups × all S chunks and reducing them in workgroup memory in chunk order (no partial buffer, no tickets).
\`gemvPartialWorkgroup\` W: the two-pass form's partial pass in workgroups of W invocations (W·R adjacent rows of a
column a workgroup). \`dotBlockRuns\`: each DOT workgroup's runs of a step as one contiguous block. The two GEMV forms
keep the default's bits (checked: "same bits"); block runs change DOT's order within its bound.

**Session 20 (\`--gemv-default-sweep\`, bench/gpu/gemv-default-sweep.ts).** \`gemvWorkgroupSplit\` 256 with
\`gemvFfFourRows\` became GEMV N's default; the rows that leave them out say "two passes" (the default until then). The
sweep times the new default beside the two passes in the same rotated rounds: fp32 storage in float-float and f32,
bf16 / f16 storage in float-float with x fp32 (2 chains and 1) and with x in A's format, each pair checked bit for bit
and the form that ran named (1 or 2 dispatches: 16-bit A and x in float-float take exact products, which the split
does not run — there the new default is the two passes with four rows a thread).

**Session 21 (\`--gemv-default-sweep --rows=s21\`).** bf16 / f16 storage only: the defaults (float-float with x fp32
and with x in A's format, 1 chain — the default — and 2; f32 arithmetic with both x) beside \`gemvWorkgroupSplitExact\`
(the split runs float-float's exact 16-bit products, which took the two passes: the same bits, checked), \`gemvUnroll\`
16 (16 columns a step: twice the bytes in flight a thread), \`gemvEightRows\` (8 rows a thread from one 16-byte load: the
same bits) and both together. A split workgroup holds every chunk of its rows, so it reads m / (workgroups) rows of a
column a chunk — 32 bf16 rows, 64 bytes, at the default's 256 workgroups, where a two-pass workgroup reads 256 rows: the
f32 rows at a 2^17 target with 16-column steps (64 rows a chunk, the default's bytes in flight) and the two passes with
16-column steps tell the short runs from the bytes in flight. Rows marked "other bits" are another fixed order within
the bound.
`;

function record(file: string): void {
  // Records a device run's JSON (copied back from the device) into bench/results and docs/performance.md.
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { date: string; device: string; table: string; allCorrect: boolean };
  if (deviceName) saved.device = deviceName;
  writeResults('gpu-h19-goals', saved);
  writePerformanceSection('gpu-h19-goals', `## Issue 19's goals on ${saved.device} — ${saved.date}\n\nMedian per-call time over 7 batches of 20 resident calls; every variant checked in the same run against a compensated reference (all within their bounds: ${saved.allCorrect}). Produced by \`bench/gpu/h19-goals.ts\`; raw figures in \`bench/results/gpu-h19-goals.json\`.\n\n${saved.table}\n${ANALYSIS}`);
}

/** Runs the sweeps asked for (--gemv-sweep, --dot-sweep), each with its share of the budget, and records their rows. */
async function benchSweeps(rt: GpuRuntime): Promise<void> {
  const budgetMs = numberArg('sweep-budget', 90) * 1000;
  const settings = (share: number): SweepSettings => ({ budgetMs: small ? 2000 : budgetMs * share, maxRounds: small ? 3 : numberArg('sweep-rounds', 300), reps: small ? 2 : numberArg('sweep-reps', 20), warmRounds: small ? 0 : 2 });
  const record = (r: SweepRow & { storage?: string }, goal: number | undefined): void => push({
    kernel: r.kernel, variant: `${r.variant} [${r.rounds} rounds, quartiles ${r.p25.toFixed(4)}–${r.p75.toFixed(4)} ms; ${r.note}]`, storage: r.storage ?? 'f32', arithmetic: r.arithmetic,
    ms: r.ms, issueMs: r.issueMs, gbs: r.bytes / r.ms / 1e6, error: r.error, bound: r.bound, correct: r.correct, goal: small || r.arithmetic !== 'ff' ? '' : goalText(r.ms, goal),
  });
  // Where several run, each gets its share of the rounds' time.
  const share = 1 / sweeps.length;
  if (sweeps.includes('gemv')) for (const r of await gemvSweep(rt, small, settings(share), withSwitches)) record(r, 0.105);
  // --dot-rows=s22: session 22's bf16 / fp16 DOT rows (goal ≤ 0.21 ms in float-float; its fp32 rows ≤ 0.36) instead of the fp32 ones.
  if (sweeps.includes('dot') && dotRows === 's22') for (const r of await dotSixteenBitSweep(rt, small, settings(share), withSwitches)) record(r, r.storage === 'f32' ? 0.36 : 0.21);
  // --dot-rows=s23: session 23's fp32 rows only (goal ≤ 0.36 ms in float-float).
  else if (sweeps.includes('dot') && dotRows === 's23') for (const r of await dotSixteenBitSweep(rt, small, settings(share), withSwitches, dotFinishSweepVariants())) record(r, 0.36);
  else if (sweeps.includes('dot')) for (const r of await dotSweep(rt, small, settings(share), withSwitches)) record(r, 0.36);
  // The goals: fp32 + ff ≤ 0.105 ms, 16-bit storage + ff ≤ 0.075 ms (the rows with x fp32).
  if (sweeps.includes('gemv-default')) for (const r of await gemvDefaultSweep(rt, small, settings(share), withSwitches, rowSet)) record(r, r.storage === 'f32' ? 0.105 : r.variant.includes(', x fp32') ? 0.075 : undefined);
}

async function main(): Promise<void> {
  const from = process.argv.find((a) => a.startsWith('--from='))?.slice(7);
  if (from) {
    record(from);
    return;
  }
  const rt = await gpuRuntime();
  if (!rt) {
    console.log(`no GPU: ${gpuUnavailableReason()}`);
    process.exit(1);
  }
  const ad = rt.context.adapter;
  const device = deviceName ?? `${ad.name} (${ad.backend})`;
  console.log(`adapter: ${ad.name} via ${ad.backend}; fma fused: ${rt.fusedFma}; barriers: ${rt.barriers}`);
  const errors: Record<string, string> = {};
  const started = performance.now();
  const sections = sweeps.length > 0 ? ([['sweep', benchSweeps]] as const) : ([['gemv', benchGemv], ['dot', benchDot], ['trsv', benchTrsv], ['small', benchSmall]] as const);
  for (const [name, fn] of sections) {
    if (only && sweeps.length === 0 && !only.includes(name)) continue;
    const t0 = performance.now();
    try {
      await fn(rt);
    } catch (e) {
      console.log(`${name} failed: ${(e as Error).stack ?? e}`);
      errors[name] = String(e);
    }
    console.log(`[${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s]`);
  }
  const table = markdownTable(
    ['kernel', 'variant', 'storage', 'arith', 'ms', 'host issue ms', 'GB/s', 'rel. error', 'bound', 'check', 'goal'],
    rows.map((r) => [r.kernel, r.variant, r.storage, r.arithmetic, r.ms.toFixed(4), r.issueMs.toFixed(3), r.gbs.toFixed(0), r.error.toExponential(1), r.bound.toExponential(1), r.correct ? 'ok' : 'WRONG', r.goal]),
  );
  console.log(`\n${table}`);
  const allCorrect = rows.every((r) => r.correct) && Object.keys(errors).length === 0;
  console.log(`all results within their bounds: ${allCorrect}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (outDir) {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'h19-goals.json'), JSON.stringify({ date: today(), device, small, fusedFma: rt.fusedFma, barriers: rt.barriers, allCorrect, errors, rows, table }, null, 1));
  }
  // Exit 0 either way (a combined device call goes on to the next benchmark); the JSON and the last line say whether all held.
  process.exit(0);
}

void main();
