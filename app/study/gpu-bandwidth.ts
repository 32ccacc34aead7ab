/**
 * The GPU roofline's memory ceiling: the rate at which the device streams two large vectors through the library's
 * f32 DOT — a read-only stream, as STREAM's dot is on the CPU — measured in the same study run as the kernels it
 * bounds (peers are measured in the same run, never taken from a table).
 * @module
 */
import type { GpuStudy } from './gpu-backend.js';
import { measurement } from './measurement.js';
import { randomValues, studyRandom } from './random-data.js';
import { timeCallAsync, type TimingOptions } from './timing.js';
import type { Measurement } from './types.js';

/**
 * Elements of each streamed f32 vector: 2^27 (512 MiB) on a hardware GPU — long enough that the device's work
 * (0.38 ms on an H100) outlasts the host's cost of issuing a call (0.2 ms there at 2^24, which made a 2^24 stream
 * host-bound) — and 2^20 on a software adapter, where the device is the CPU.
 */
export function gpuStreamLength(gpu: Pick<GpuStudy, 'software'>): number {
  return gpu.software ? 2 ** 20 : 2 ** 27;
}

/** Shortest timing sample of the stream: enough calls (≥ 20 on an H100) that the one read-back per sample is amortised. */
const MIN_SAMPLE_SECONDS = 0.05;

/**
 * Times the f32 DOT of two resident f32 vectors of `n` elements in f32 arithmetic, its result left on the device
 * (`gpuDotResident`: no read-back per call; each timing sample ends by reading the last result, which waits for every
 * call before it). Why not the device's buffer copy: `gpuConvert` allocates its destination on every call, which on
 * the H100 made a 2^26-element copy run at 45 GB/s instead of ~3 TB/s (2026-11-26).
 * @returns a `bandwidth` row: bytes read (8 per element), seconds per call, GB/s
 */
export async function measureGpuStream(gpu: GpuStudy, n: number, timing: TimingOptions): Promise<Measurement> {
  const options = { format: 'f32', strict: true } as const;
  // One binary32 host array uploaded twice: two device buffers to stream, while the host holds 4n bytes (at 2^27
  // elements two float64 arrays would take 2 GiB). The values do not change the rate.
  const values = Float32Array.from(randomValues(Math.min(n, 4096), 'uniform', studyRandom(0, 11)));
  const host = new Float32Array(n);
  for (let k = 0; k < n; k += values.length) host.set(values.subarray(0, Math.min(values.length, n - k)), k);
  const x = await gpu.lib.toDevice(host, options);
  const y = await gpu.lib.toDevice(host, options);
  let last: Awaited<ReturnType<GpuStudy['lib']['gpuDotResident']>> | undefined;
  try {
    const t = await timeCallAsync(
      async () => {
        last?.result.destroy();
        last = await gpu.lib.gpuDotResident(x, y, { arithmetic: 'f32', strict: true });
        if (last.info.backend !== 'gpu') throw new Error('the GPU DOT fell back to the CPU');
      },
      async () => { await last?.result.toHost(); },
      { ...timing, minSampleSeconds: Math.max(timing.minSampleSeconds, MIN_SAMPLE_SECONDS) },
    );
    const bytes = 8 * n;
    return measurement({
      experiment: 'bandwidth', kernel: 'dot', storage: 'f32', arithmetic: 'f32', backend: 'gpu', adapter: gpu.adapter,
      problem: 'streaming read', size: n, seconds: t.seconds, repetitions: t.repetitions, bytes, bytesPerElement: 4,
      flops: 2 * n, gbps: bytes / t.seconds / 1e9, gflops: (2 * n) / t.seconds / 1e9,
    });
  } finally {
    last?.result.destroy();
    x.destroy();
    y.destroy();
  }
}
