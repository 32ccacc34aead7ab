/**
 * Wall-clock timing of one kernel call: warm up (the first call also compiles the specialisation),
 * then take `samples` samples, each repeating the call until it lasts at least `minSampleSeconds`,
 * and report the median time per call. The median resists the odd slow sample (GC, another process).
 * @module
 */

/** A timing result. */
export interface Timing {
  /** Median seconds per call. */
  readonly seconds: number;
  /** Total calls timed. */
  readonly repetitions: number;
}

/** Options of {@link timeCall}. */
export interface TimingOptions {
  /** Number of samples (≥ 1). */
  readonly samples: number;
  /** Each sample repeats the call until it lasts at least this long. */
  readonly minSampleSeconds: number;
  /** Stop taking samples once this much time has gone (at least one sample is always taken). */
  readonly maxSeconds?: number;
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Times `run`.
 * @param run - one call of the kernel (must be repeatable)
 * @param options - samples, minimum sample length, time cap
 * @returns median seconds per call and the number of calls timed
 */
export function timeCall(run: () => void, options: TimingOptions): Timing {
  const now = (): number => performance.now() / 1000;
  let t0 = now();
  run(); // warm-up: compiles the specialisation and touches the memory
  let single = now() - t0;
  t0 = now();
  run();
  single = Math.max(now() - t0, 1e-7);
  const inner = Math.max(1, Math.ceil(options.minSampleSeconds / single));
  const perCall: number[] = [];
  const started = now();
  for (let s = 0; s < options.samples; s++) {
    t0 = now();
    for (let r = 0; r < inner; r++) run();
    perCall.push((now() - t0) / inner);
    if (options.maxSeconds !== undefined && now() - started > options.maxSeconds) break;
  }
  return { seconds: median(perCall), repetitions: perCall.length * inner };
}

/**
 * Times an asynchronous call (a GPU kernel): like {@link timeCall}, but each sample awaits its calls and
 * then `sync()` (the device finishing the work), so queued work is counted; the sync's own cost is
 * spread over the calls of the sample.
 */
export async function timeCallAsync(run: () => Promise<unknown>, sync: () => Promise<void>, options: TimingOptions): Promise<Timing> {
  const now = (): number => performance.now() / 1000;
  await run();
  await sync();
  let t0 = now();
  await run();
  await sync();
  const single = Math.max(now() - t0, 1e-7);
  const inner = Math.max(1, Math.ceil(options.minSampleSeconds / single));
  const perCall: number[] = [];
  const started = now();
  for (let s = 0; s < options.samples; s++) {
    t0 = now();
    for (let r = 0; r < inner; r++) await run();
    await sync();
    perCall.push((now() - t0) / inner);
    if (options.maxSeconds !== undefined && now() - started > options.maxSeconds) break;
  }
  return { seconds: median(perCall), repetitions: perCall.length * inner };
}
