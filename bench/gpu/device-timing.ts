/**
 * Timing on the device shared by the GPU benchmarks: the median per-call time over batches of runs (the host waits
 * for the device once per batch, after a warm-up that lets the GPU clock up), and the gpu.js copy that calibrates
 * "fraction of copy bandwidth", and the small-size fixed-cost run both gpu-h100.ts and h19-goals.ts report.
 */
import { getProgram, submitPasses } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { deviceZeros, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot, gpuDotResident } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { Accurate, rand32 } from './bench-data.js';
import { collectGpuTimestamps, startGpuTimestamps, summarizeGpuTimestamps, type GpuTimestampSummary } from '../../src/backends/webgpu/gpu-timestamps.js';
import { withBatchedSubmit } from '../../src/backends/webgpu/batched-submit.js';

/** How a run is timed. */
export interface TimingShape {
  readonly reps: number;
  readonly batches: number;
  /** Warm-up time before timing (ms). */
  readonly warmMs: number;
  /** Runs issued between waits during the warm-up. */
  readonly warmBurst: number;
}

/** Median per-call time and median host time to issue a call (ms), and the GPU's own figures where timestamps are on. */
export interface Timing {
  readonly ms: number;
  readonly issueMs: number;
  /**
   * With MODPREC_GPU_TIMESTAMPS (src/backends/webgpu/gpu-timestamps.ts): each figure's median over the batches — a
   * call's GPU time, the batch's first begin to last end / reps, the mean idle gap between calls, and with `dispatch`
   * each dispatch's time and the idle time between a call's dispatches.
   */
  readonly gpu?: GpuTimestampSummary;
}

/** How {@link timeDeviceRuns} issues a batch. */
export interface TimingOptions {
  /**
   * The batch's `reps` calls recorded into one command buffer and submitted once (src/backends/webgpu/batched-submit.ts:
   * an experiment; it throws for a call it cannot keep in order). Warm-up calls are submitted one by one.
   */
  readonly batched?: boolean;
  /** Print the GPU figures beside the wall figure (default true where timestamps are on). */
  readonly print?: boolean;
}

/**
 * Times `run`: the median over `batches` of (time of `reps` runs and one wait for the device) / reps. Where GPU
 * timestamps are on, each batch's stamps are read after its wait (outside the timed part) and summarised.
 * @param rt - the runtime
 * @param run - one call
 * @param shape - repetitions, batches and warm-up
 * @param options - batched submit, printing
 * @returns the median per-call time and host issue time, and the GPU figures
 */
export async function timeDeviceRuns(rt: GpuRuntime, run: () => Promise<unknown>, shape: TimingShape, options: TimingOptions = {}): Promise<Timing> {
  const device = rt.context.device;
  const warm = performance.now();
  while (performance.now() - warm < shape.warmMs) {
    for (let r = 0; r < shape.warmBurst; r++) await run();
    await device.queue.onSubmittedWorkDone();
  }
  const times: number[] = [];
  const issue: number[] = [];
  const gpu: GpuTimestampSummary[] = [];
  const issueAll = async (): Promise<void> => {
    for (let r = 0; r < shape.reps; r++) await run();
  };
  for (let b = 0; b < shape.batches; b++) {
    const stamping = startGpuTimestamps(rt.context);
    const t0 = performance.now();
    if (options.batched) await withBatchedSubmit(rt.context, issueAll);
    else await issueAll();
    issue.push((performance.now() - t0) / shape.reps);
    await device.queue.onSubmittedWorkDone();
    times.push((performance.now() - t0) / shape.reps);
    if (stamping) {
      const stamps = await collectGpuTimestamps(rt.context);
      const summary = stamps && summarizeGpuTimestamps(stamps);
      if (summary) gpu.push(summary);
    }
  }
  const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  const timing: Timing = { ms: median(times), issueMs: median(issue), ...(gpu.length > 0 ? { gpu: medianSummary(gpu) } : {}) };
  if (timing.gpu && options.print !== false) console.log(`  ${gpuFigures(timing)}`);
  return timing;
}

/** Each figure's median over the batches' summaries. */
function medianSummary(all: readonly GpuTimestampSummary[]): GpuTimestampSummary {
  const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  const first = all[0]!;
  const dispatches = first.dispatchMs?.length ?? 0;
  const same = all.filter((s) => (s.dispatchMs?.length ?? 0) === dispatches);
  return {
    passMs: median(all.map((s) => s.passMs)),
    spanPerCallMs: median(all.map((s) => s.spanPerCallMs)),
    gapMs: median(all.map((s) => s.gapMs)),
    ...(dispatches > 0 ? { dispatchMs: Array.from({ length: dispatches }, (_, k) => median(same.map((s) => s.dispatchMs![k]!))), innerGapMs: median(same.map((s) => s.innerGapMs!)) } : {}),
    calls: median(all.map((s) => s.calls)),
    quantized: all.some((s) => s.quantized),
  };
}

/**
 * The GPU figures of a timing as one line: wall per call, GPU time of a call, span per call, idle gap (and per dispatch).
 * @param t - the timing
 * @returns the line ('' without GPU figures)
 */
export function gpuFigures(t: Timing): string {
  const g = t.gpu;
  if (!g) return '';
  const f = (v: number): string => v.toFixed(4);
  const dispatch = g.dispatchMs ? `; dispatches ${g.dispatchMs.map(f).join(' + ')} ms, idle between them ${f(g.innerGapMs!)} ms` : '';
  return `wall ${f(t.ms)} ms/call; GPU: call ${f(g.passMs)} ms, span ${f(g.spanPerCallMs)} ms/call, gap ${f(g.gapMs)} ms${dispatch}${g.quantized ? ' [QUANTISED stamps: set MODPREC_DAWN_FLAGS="disable-dawn-features=timestamp_quantization"]' : ''}`;
}

/**
 * The bandwidth of a gpu.js copy of 2^26 binary32 words (read and written), the yardstick of the benchmarks'
 * "fraction of copy" columns.
 * @param rt - the runtime
 * @param time - how the benchmark times a call
 * @returns bytes moved, time and GB/s
 */
export async function gpujsCopy(rt: GpuRuntime, time: (run: () => Promise<unknown>) => Promise<number>): Promise<{ bytes: number; ms: number; gbs: number }> {
  const n = 2 ** 26;
  const program = await getProgram(rt.context, { source: 'function (X) { return X[this.thread.x]; }', args: [['X', 'Array']], components: 1 });
  const a = createWordBuffer(rt.context, n);
  const b = createWordBuffer(rt.context, n);
  const cache = {};
  const ms = await time(async () => submitPasses(rt.context, [{ pass: { program, arrays: { X: { buffer: a } }, scalars: {}, output: { buffer: b }, threads: n }, cache }]));
  const gbs = (2 * 4 * n) / ms / 1e6;
  console.log(`gpu.js f32 copy 256 MiB: ${ms.toFixed(3)} ms, ${gbs.toFixed(0)} GB/s`);
  a.destroy();
  b.destroy();
  return { bytes: 8 * n, ms, gbs };
}

/** A kernel of {@link timeFixedCost}. */
export type FixedCostKernel = 'DOT' | 'GEMV N' | 'TRSV L N N';

/** One case of {@link timeFixedCost}: its timing, the bytes it moves, and its checked error where it has one. */
export interface FixedCostRow {
  readonly kernel: FixedCostKernel;
  readonly n: number;
  readonly timing: Timing;
  /** Bytes a call reads and writes (for GB/s). */
  readonly bytes: number;
  /** Largest |result − exact| over Σ|terms|, and its float-float bound γ_{2n+3}; undefined for TRSV (not checked here). */
  readonly error?: number;
  readonly bound?: number;
}

/**
 * The fixed cost of a call at small sizes (issue 19, item 5): the run bench/gpu/gpu-h100.ts and bench/gpu/h19-goals.ts
 * share. Per n, on resident f32 arrays in float-float arithmetic: DOT (x·y, or x·x with `dotSelf`, left on the device),
 * GEMV N y ← A·x and, with `trsv`, TRSV L N N solved again in place (A: a dominant diagonal, small entries elsewhere,
 * so x stays bounded). DOT and GEMV are checked once against an accurate sum (GEMV into an f64 y), then each is timed
 * by `time`.
 * @param rt - the runtime
 * @param options - the sizes, which kernels, and how the benchmark times a call
 * @returns one row per kernel and size, in the order timed
 */
export async function timeFixedCost(rt: GpuRuntime, options: { sizes: readonly number[]; trsv: boolean; dotSelf: boolean; time: (run: () => Promise<unknown>) => Promise<Timing> }): Promise<FixedCostRow[]> {
  const rows: FixedCostRow[] = [];
  const gamma = (n: number): number => ((2 * n + 3) * 8 * 2 ** -48) / (1 - (2 * n + 3) * 8 * 2 ** -48);
  const f32 = { format: 'f32', strict: true } as const;
  for (const n of options.sizes) {
    const hx = rand32(n, 23);
    const hy = options.dotSelf ? hx : rand32(n, 29);
    const x = await toDevice(hx, f32);
    const y = options.dotSelf ? x : await toDevice(hy, f32);
    const dot = new Accurate();
    let mag = 0;
    for (let k = 0; k < n; k++) {
      dot.add(hx[k]! * hy[k]!);
      mag += Math.abs(hx[k]! * hy[k]!);
    }
    const { value } = await gpuDot(x, y, { arithmetic: 'ff' });
    rows.push({ kernel: 'DOT', n, timing: await options.time(() => gpuDotResident(x, y, { arithmetic: 'ff' })), bytes: 8 * n, error: Math.abs(value - dot.value) / mag, bound: gamma(n) });
    const hostA = rand32(n * n, 31);
    for (let j = 0; j < n; j++) hostA[j + j * n] = 1.5 + hostA[j + j * n]! / 2;
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) if (i !== j) hostA[i + j * n] = hostA[i + j * n]! / n;
    const A = deviceMatrix(await toDevice(hostA, f32), n, n);
    const out = await deviceZeros(n, f32);
    const out64 = await deviceZeros(n, { format: 'f64', strict: true });
    await gpuGemv({ A, x, y: out64 }, { arithmetic: 'ff' });
    const got = await out64.toHost();
    let error = 0;
    for (let i = 0; i < n; i++) {
      const acc = new Accurate();
      let m = 0;
      for (let j = 0; j < n; j++) {
        acc.add(hostA[i + j * n]! * hx[j]!);
        m += Math.abs(hostA[i + j * n]! * hx[j]!);
      }
      error = Math.max(error, Math.abs(got[i]! - acc.value) / m);
    }
    rows.push({ kernel: 'GEMV N', n, timing: await options.time(() => gpuGemv({ A, x, y: out }, { arithmetic: 'ff' })), bytes: 4 * n * n, error, bound: gamma(n) });
    const arrays: DeviceArray[] = [A.data, out, out64, x];
    if (y !== x) arrays.push(y);
    if (options.trsv) {
      const xt = await toDevice(hx, f32);
      await gpuTrsv({ A, x: xt, uplo: 'L' }, { arithmetic: 'ff' });
      rows.push({ kernel: 'TRSV L N N', n, timing: await options.time(() => gpuTrsv({ A, x: xt, uplo: 'L' }, { arithmetic: 'ff' })), bytes: 2 * n * n });
      arrays.push(xt);
    }
    for (const a of arrays) a.destroy();
  }
  return rows;
}
