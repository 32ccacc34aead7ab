/**
 * Timing on the device shared by the GPU benchmarks: the median per-call time over batches of runs (the host waits
 * for the device once per batch, after a warm-up that lets the GPU clock up), and the gpu.js copy that calibrates
 * "fraction of copy bandwidth".
 */
import { getProgram, submitPasses } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';

/** How a run is timed. */
export interface TimingShape {
  readonly reps: number;
  readonly batches: number;
  /** Warm-up time before timing (ms). */
  readonly warmMs: number;
  /** Runs issued between waits during the warm-up. */
  readonly warmBurst: number;
}

/** Median per-call time and median host time to issue a call (ms). */
export interface Timing {
  readonly ms: number;
  readonly issueMs: number;
}

/**
 * Times `run`: the median over `batches` of (time of `reps` runs and one wait for the device) / reps.
 * @param rt - the runtime
 * @param run - one call
 * @param shape - repetitions, batches and warm-up
 * @returns the median per-call time and host issue time
 */
export async function timeDeviceRuns(rt: GpuRuntime, run: () => Promise<unknown>, shape: TimingShape): Promise<Timing> {
  const device = rt.context.device;
  const warm = performance.now();
  while (performance.now() - warm < shape.warmMs) {
    for (let r = 0; r < shape.warmBurst; r++) await run();
    await device.queue.onSubmittedWorkDone();
  }
  const times: number[] = [];
  const issue: number[] = [];
  for (let b = 0; b < shape.batches; b++) {
    const t0 = performance.now();
    for (let r = 0; r < shape.reps; r++) await run();
    issue.push((performance.now() - t0) / shape.reps);
    await device.queue.onSubmittedWorkDone();
    times.push((performance.now() - t0) / shape.reps);
  }
  times.sort((a, b) => a - b);
  issue.sort((a, b) => a - b);
  return { ms: times[times.length >> 1]!, issueMs: issue[issue.length >> 1]! };
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
