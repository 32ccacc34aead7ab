/**
 * Where the time of a resident DOT / GEMV N call goes on the device (issue 19's last 5–8 %): for DOT n = 2^27 (fp32
 * storage in float-float and f32, bf16 in float-float) and GEMV N n = 8192 (fp32 A in float-float and f32, bf16 A with
 * x fp32 in float-float), with the library's defaults, each variant's batches of calls timed
 *   1. wall: `reps` calls (one submit each) and one wait, per call (bench/gpu/device-timing.ts, as every GPU bench);
 *   2. with GPU timestamps (MODPREC_GPU_TIMESTAMPS, src/backends/webgpu/gpu-timestamps.ts) on each call's compute pass:
 *      a call's GPU time (begin to end), the batch's first begin to last end per call, and hence the mean idle gap
 *      between calls; then with each dispatch in its own stamped pass: each dispatch's time and the idle between them;
 *   3. the same batches recorded into ONE command buffer (src/backends/webgpu/batched-submit.ts): wall per call, and
 *      span and gap with pass stamps;
 *   4. with `--coalesce=4,8,16`: wall per call with each K of the coalesced submit (src/backends/webgpu/coalesced-submit.ts:
 *      up to K calls' command buffers in one queue.submit, on a ramp 1, 1, 2, …, K), and the submits it made per call.
 * Every variant is checked against a compensated reference of the stored values in the same run (within
 * γ_{2n+3}(u)·Σ|terms|), and the batched and coalesced calls' result against the unbatched one bit for bit.
 *
 * Run (device): MODPREC_GPU_TIMESTAMPS=1 MODPREC_DAWN_FLAGS="disable-dawn-features=timestamp_quantization" \
 *   node dist/bench/gpu/gpu-gaps.js --out=$OUT
 * Without timestamp-query (or without the variable) it says why and still times wall and batched wall.
 * Options: --dot-n=<n> --gemv-n=<n> (llvmpipe: --dot-n=65536 --gemv-n=256), --granularity=pass|dispatch|both (default
 * both: one process, the device asks for the feature once), --reps=20 --batches=7 --warm-ms=300, --only=dot|gemv,
 * --coalesce=<K,K,…> (default none), --coalesce-ramp=on|off|both (default on). Coalesced rows only (no stamps, about a minute on an H100):
 *   node dist/bench/gpu/gpu-gaps.js --granularity=none --coalesce=4,8,16 --out=$OUT
 * Writes <out>/gpu-gaps.json (default bench/results/gpu-gaps.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable, today } from '../report.js';
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { deviceZeros, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot, gpuDotResident } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuRuntime, readWords, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { gpuUnavailableReason } from '../../src/backends/webgpu/backend.js';
import { withBatchedSubmit } from '../../src/backends/webgpu/batched-submit.js';
import { coalescedSubmitStats, setGpuCoalesce } from '../../src/backends/webgpu/coalesced-submit.js';
import { gpuTimestampsStatus, setGpuTimestampGranularity, type GpuTimestampGranularity } from '../../src/backends/webgpu/gpu-timestamps.js';
import { gpuFigures, timeDeviceRuns, type Timing, type TimingShape } from './device-timing.js';
import { Accurate, checkGemvRows, GEMV_BENCH_U, gemvReference, rand32 } from './bench-data.js';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const numberArg = (name: string, fallback: number): number => {
  const v = Number(arg(name));
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const dotN = numberArg('dot-n', 2 ** 27);
const gemvN = numberArg('gemv-n', 8192);
const shape: TimingShape = { reps: numberArg('reps', 20), batches: numberArg('batches', 7), warmMs: numberArg('warm-ms', 300), warmBurst: 5 };
const only = arg('only')?.split(',');
const granularityArg = arg('granularity') ?? 'both';
const outDir = arg('out') ?? process.env.OUT;
const coalesceKs = (arg('coalesce') ?? '').split(',').filter(Boolean).map(Number);
if (coalesceKs.some((k) => !Number.isInteger(k) || k < 2)) throw new Error(`--coalesce takes integers ≥ 2, got ${arg('coalesce')}`);
/** The coalesced submit's ramp (on: submits of 1, 1, 2, …, K after idle; off: 1, then K): --coalesce-ramp=on|off|both. */
const ramps = arg('coalesce-ramp') === 'off' ? [false] : arg('coalesce-ramp') === 'both' ? [true, false] : [true];

/** One variant's row: its check and its timings. */
interface Row extends VariantTimings {
  kernel: string;
  variant: string;
  error: number;
  bound: number;
  correct: boolean;
}
const rows: Row[] = [];

const gamma = (n: number, u: number): number => (n * u < 1 ? (n * u) / (1 - n * u) : Infinity);

/** The granularities to time with, as far as the device stamps at all. */
function granularities(rt: GpuRuntime): GpuTimestampGranularity[] {
  if (!gpuTimestampsStatus(rt.context).on) return [];
  if (granularityArg === 'none') return [];
  if (granularityArg === 'pass' || granularityArg === 'dispatch') return [granularityArg];
  return ['pass', 'dispatch'];
}

/** The timings of one variant: each without stamps, with a call's pass stamped, with each dispatch stamped. */
interface VariantTimings {
  /** Wall per call as every GPU bench times it (no stamps). */
  wall: Timing;
  /** With each call's pass stamped: wall, and the GPU's call time, span per call and gap. */
  pass?: Timing;
  /** With each dispatch stamped in its own pass: each dispatch's time and the idle time between them. */
  dispatch?: Timing;
  /** One submit a batch, no stamps. */
  batched: Timing;
  /** One submit a batch, each call's pass stamped. */
  batchedPass?: Timing;
  /** Whether three calls in one submit left the unbatched bits (on a spoiled result). */
  batchedSameBits: boolean;
  /** With each K of --coalesce: wall per call, submits per call in the timed batches, and whether `reps` coalesced calls left the unbatched bits. */
  coalesced: { k: number; ramp: boolean; wall: Timing; submitsPerCall: number; sameBits: boolean }[];
  /** Validation errors of the timed runs (a stamped pass the device rejected, say). */
  failures: string[];
}

/**
 * Times `run` unbatched without stamps and with each granularity the device stamps, then in one submit a batch without
 * and with pass stamps. Each timing runs inside a validation error scope (a stamped pass the device rejects would drop
 * the call silently). Then `spoil` overwrites the result, three calls run in one submit, and `check` says whether they
 * left the unbatched bits.
 */
async function timeVariant(rt: GpuRuntime, label: string, run: () => Promise<unknown>, spoil: () => void, check: () => Promise<boolean>): Promise<VariantTimings> {
  const device = rt.context.device;
  const failures: string[] = [];
  const timed = async (what: string, granularity: GpuTimestampGranularity | 'off', batched: boolean): Promise<Timing> => {
    setGpuTimestampGranularity(granularity);
    device.pushErrorScope('validation');
    const t = await timeDeviceRuns(rt, run, shape, { batched, print: false });
    const error = await device.popErrorScope();
    if (error) {
      failures.push(`${what}: ${error.message}`);
      console.log(`${label} [${what}] FAILED validation: ${error.message}`);
    }
    console.log(`${label} [${what}]: ${t.gpu ? gpuFigures(t) : `wall ${t.ms.toFixed(4)} ms/call`} (host issue ${t.issueMs.toFixed(4)} ms/call)`);
    return t;
  };
  const modes = granularities(rt);
  try {
    // A first untimed round: the device clocks up again after the host computed the reference.
    setGpuTimestampGranularity('off');
    await timeDeviceRuns(rt, run, shape, { print: false });
    const wall = await timed('wall', 'off', false);
    const pass = modes.includes('pass') ? await timed('pass stamps', 'pass', false) : undefined;
    const dispatch = modes.includes('dispatch') ? await timed('dispatch stamps', 'dispatch', false) : undefined;
    const batched = await timed('one submit a batch', 'off', true);
    const batchedPass = modes.length > 0 ? await timed('one submit a batch, pass stamps', 'pass', true) : undefined;
    // The check: the result spoiled, then three calls in one submit (the timings' warm-up calls are not batched).
    setGpuTimestampGranularity('off');
    spoil();
    await withBatchedSubmit(rt.context, async () => {
      for (let r = 0; r < 3; r++) await run();
    });
    const batchedSameBits = await check();
    console.log(`${label}: three calls in one submit ${batchedSameBits ? 'have the unbatched bits' : 'DIFFER from the unbatched bits'}`);
    const coalesced: VariantTimings['coalesced'] = [];
    for (const k of coalesceKs) for (const ramp of ramps) {
      setGpuCoalesce(k, { ramp });
      const before = coalescedSubmitStats(rt.context);
      const t = await timed(`coalesce ${k}${ramp ? '' : ', no ramp'}`, 'off', false);
      const after = coalescedSubmitStats(rt.context);
      // The check: the result spoiled, then `reps` calls coalesced (no idle restart of the ramp), then one wait.
      spoil();
      setGpuCoalesce(k, { idleMs: Infinity, ramp });
      for (let r = 0; r < shape.reps; r++) await run();
      await device.queue.onSubmittedWorkDone();
      setGpuCoalesce(0);
      const sameBits = await check();
      const submitsPerCall = (after.submits - before.submits) / Math.max(1, after.calls - before.calls);
      console.log(`${label}: coalesce ${k}${ramp ? '' : ', no ramp'}: ${submitsPerCall.toFixed(3)} submits a call; ${shape.reps} coalesced calls ${sameBits ? 'have the unbatched bits' : 'DIFFER from the unbatched bits'}`);
      coalesced.push({ k, ramp, wall: t, submitsPerCall, sameBits });
    }
    return { wall, ...(pass ? { pass } : {}), ...(dispatch ? { dispatch } : {}), batched, ...(batchedPass ? { batchedPass } : {}), batchedSameBits, coalesced, failures };
  } finally {
    setGpuTimestampGranularity(undefined);
    setGpuCoalesce(0);
  }
}

async function benchDot(rt: GpuRuntime): Promise<void> {
  const n = dotN;
  const f32 = { format: 'f32', strict: true } as const;
  const x32 = await toDevice(rand32(n, 3), f32);
  const y32 = await toDevice(rand32(n, 5), f32);
  const variants = [['f32', 'ff'], ['f32', 'f32'], ['bf16', 'ff']] as const;
  let converted: { x: DeviceArray; y: DeviceArray } | undefined;
  const references = new Map<string, { acc: Accurate; mag: number }>();
  for (const [storage, arithmetic] of variants) {
    if (storage !== 'f32' && !converted) converted = { x: (await gpuConvert(x32, storage)).array, y: (await gpuConvert(y32, storage)).array };
    const [x, y] = storage === 'f32' ? [x32, y32] : [converted!.x, converted!.y];
    // The stored values' exact-enough sum, once a storage (both arithmetics read the same values).
    if (!references.has(storage)) {
      const [hx, hy] = [await x.toHost(), await y.toHost()];
      const sum = new Accurate();
      let m = 0;
      for (let k = 0; k < n; k++) {
        const p = hx[k]! * hy[k]!;
        sum.add(p);
        m += Math.abs(p);
      }
      references.set(storage, { acc: sum, mag: m });
    }
    const { acc, mag } = references.get(storage)!;
    const { value } = await gpuDot(x, y, { arithmetic });
    // The resident result is a view of the plan's result buffer, which every call (batched or not) writes: its words
    // after the batched calls must be those after an unbatched one.
    const { result } = await gpuDotResident(x, y, { arithmetic });
    const words = (): Promise<Uint32Array> => readWords(rt.context, result.buffer!, result.words);
    const unbatchedWords = await words();
    const resident = (await result.toHost())[0]!;
    const error = Math.abs(value - acc.value) / mag;
    const bound = gamma(2 * n + 3, GEMV_BENCH_U[arithmetic]);
    const label = `DOT n=2^${Math.log2(n)} ${storage} + ${arithmetic}`;
    const spoil = (): void => rt.context.device.queue.writeBuffer(result.buffer!, 0, new Uint32Array(result.words).fill(0x7fc00001));
    const t = await timeVariant(rt, label, () => gpuDotResident(x, y, { arithmetic }), spoil, async () => (await words()).every((w, k) => w === unbatchedWords[k]));
    rows.push({ kernel: `DOT n=2^${Math.log2(n)}`, variant: `${storage} + ${arithmetic}`, error, bound, correct: error <= bound && Object.is(resident, value) && t.failures.length === 0, ...t });
  }
  for (const a of [x32, y32, converted?.x, converted?.y]) a?.destroy();
}

async function benchGemv(rt: GpuRuntime): Promise<void> {
  const n = gemvN;
  const f32 = { format: 'f32', strict: true } as const;
  const hostA = rand32(n * n, 7);
  const hostX = rand32(n, 11);
  const a32 = await toDevice(hostA, f32);
  const x = await toDevice(hostX, f32);
  const y = await deviceZeros(n, f32);
  const yCheck = await deviceZeros(n, { format: 'f64', strict: true });
  const variants = [['f32', 'ff'], ['f32', 'f32'], ['bf16', 'ff']] as const;
  let bf16: DeviceArray | undefined;
  const references = new Map<string, { ref: Float64Array; mag: Float64Array }>();
  for (const [storage, arithmetic] of variants) {
    if (storage !== 'f32') bf16 ??= (await gpuConvert(a32, storage)).array;
    const data = storage === 'f32' ? a32 : bf16!;
    const A = deviceMatrix(data, n, n);
    if (!references.has(storage)) references.set(storage, gemvReference(await data.toHost(), hostX, n));
    const { ref, mag } = references.get(storage)!;
    await gpuGemv({ A, x, y: yCheck }, { arithmetic });
    const check = checkGemvRows(await yCheck.toHost(), ref, mag, GEMV_BENCH_U[arithmetic]);
    await gpuGemv({ A, x, y }, { arithmetic });
    const unbatched = await y.toHost();
    const label = `GEMV N n=${n} ${storage} A${storage === 'f32' ? '' : ', x fp32'} + ${arithmetic}`;
    // y's buffer changes from call to call (ping-pong): spoiled through its current one.
    const spoil = (): void => rt.context.device.queue.writeBuffer(y.buffer!, 0, new Uint32Array(y.words).fill(0x7fc00001));
    const t = await timeVariant(rt, label, () => gpuGemv({ A, x, y }, { arithmetic }), spoil, async () => {
      const got = await y.toHost();
      return got.every((v, i) => Object.is(v, unbatched[i]));
    });
    rows.push({ kernel: `GEMV N n=${n}`, variant: `${storage} A${storage === 'f32' ? '' : ', x fp32'} + ${arithmetic}`, error: check.error, bound: check.bound, correct: check.correct && t.failures.length === 0, ...t });
  }
  for (const a of [a32, x, y, yCheck, bf16]) a?.destroy();
}

async function main(): Promise<void> {
  const started = performance.now();
  const rt = await gpuRuntime();
  if (!rt) {
    console.log(`no GPU: ${gpuUnavailableReason()}`);
    process.exit(1);
  }
  const ad = rt.context.adapter;
  const status = gpuTimestampsStatus(rt.context);
  console.log(`adapter: ${ad.name} via ${ad.backend}; GPU timestamps: ${status.on ? `on (${granularities(rt).join(' and ')})` : `off — ${status.reason}`}; MODPREC_DAWN_FLAGS=${process.env.MODPREC_DAWN_FLAGS ?? '(unset)'}`);
  const errors: Record<string, string> = {};
  for (const [name, fn] of [['dot', benchDot], ['gemv', benchGemv]] as const) {
    if (only && !only.includes(name)) continue;
    try {
      await fn(rt);
    } catch (e) {
      console.log(`${name} failed: ${(e as Error).stack ?? e}`);
      errors[name] = String(e);
    }
  }
  const f = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? '' : v.toFixed(4));
  // A call of one dispatch: its dispatch time is the call's.
  const dispatches = (t: Timing | undefined): string => (t?.gpu ? (t.gpu.dispatchMs ?? [t.gpu.passMs]).map(f).join(' + ') : '');
  const ok = (r: Row): boolean => r.correct && r.batchedSameBits && r.coalesced.every((c) => c.sameBits);
  const table = markdownTable(
    ['kernel', 'variant', 'wall ms/call', 'wall, pass stamps', 'GPU ms/call', 'span ms/call', 'gap ms', 'dispatches ms', 'idle between dispatches ms', 'one submit: wall ms/call', 'one submit, stamps: span ms/call', 'one submit, stamps: gap ms', ...coalesceKs.flatMap((k) => ramps.map((ramp) => `coalesce ${k}${ramp ? '' : ', no ramp'}: wall ms/call (submits/call)`)), 'check'],
    rows.map((r) => [r.kernel, r.variant, f(r.wall.ms), f(r.pass?.ms), f(r.pass?.gpu?.passMs), f(r.pass?.gpu?.spanPerCallMs), f(r.pass?.gpu?.gapMs), dispatches(r.dispatch), f(r.dispatch?.gpu ? (r.dispatch.gpu.innerGapMs ?? 0) : undefined), f(r.batched.ms), f(r.batchedPass?.gpu?.spanPerCallMs), f(r.batchedPass?.gpu?.gapMs), ...r.coalesced.map((c) => `${f(c.wall.ms)} (${c.submitsPerCall.toFixed(2)})`), ok(r) ? 'ok' : 'WRONG']),
  );
  console.log(`\n${table}`);
  const quantized = rows.some((r) => [r.pass, r.dispatch, r.batchedPass].some((t) => t?.gpu?.quantized));
  if (quantized) console.log('GPU stamps are quantised (65.536 µs): rerun with MODPREC_DAWN_FLAGS="disable-dawn-features=timestamp_quantization"');
  const allCorrect = rows.every(ok) && Object.keys(errors).length === 0;
  console.log(`all results within their bounds and the batched and coalesced bits equal: ${allCorrect}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const dir = outDir ?? join('bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gpu-gaps.json'), JSON.stringify({ date: today(), device: `${ad.name} (${ad.backend})`, timestamps: status.on ? granularities(rt) : status.reason, quantized, dawnFlags: process.env.MODPREC_DAWN_FLAGS ?? '', shape, dotN, gemvN, coalesce: coalesceKs, coalesceRamps: ramps, allCorrect, errors, rows, table }, null, 1));
  process.exit(0);
}

void main();
