/**
 * The GPU roofline's memory ceiling: the device's copy bandwidth, measured in the same study run as the kernels it
 * bounds (peers are measured in the same run, never taken from a table).
 * @module
 */
import type { GpuStudy } from './gpu-backend.js';
import { measurement } from './measurement.js';
import { randomValues, studyRandom } from './random-data.js';
import { timeCallAsync, type TimingOptions } from './timing.js';
import type { Measurement } from './types.js';

/** Elements of the copied f32 array: 64 MiB, far beyond any GPU's last-level cache. */
export const GPU_COPY_LENGTH = 2 ** 24;

/**
 * Times the device's own buffer copy of `n` binary32 values: `gpuConvert` of an f32 array into f32 is one
 * `copyBufferToBuffer` of its words (no shader), the fastest way the public API moves memory. Each call also
 * allocates (and the run then frees) its destination, as a kernel writing a new array would.
 * @returns a `bandwidth` row: bytes read and written (8 per element), seconds per copy, GB/s
 */
export async function measureGpuCopy(gpu: GpuStudy, n: number, timing: TimingOptions): Promise<Measurement> {
  const x = await gpu.lib.toDevice(randomValues(n, 'uniform', studyRandom(0, 11)), { format: 'f32', strict: true });
  // Reading this one-element array back goes through the queue after every copy submitted before it: its
  // completion says they have finished.
  const probe = await gpu.lib.toDevice(Float32Array.of(0), { format: 'f32', strict: true });
  const copies: { destroy(): void }[] = [];
  try {
    const t = await timeCallAsync(
      async () => {
        const { array, info } = await gpu.lib.gpuConvert(x, 'f32');
        copies.push(array);
        if (info.backend !== 'gpu') throw new Error('the GPU copy fell back to the CPU');
      },
      async () => {
        await probe.toHost();
        for (const c of copies.splice(0)) c.destroy();
      },
      timing,
    );
    const bytes = 8 * n;
    return measurement({
      experiment: 'bandwidth', kernel: 'copy', storage: 'f32', arithmetic: 'f32', backend: 'gpu', adapter: gpu.adapter,
      problem: 'device copy', size: n, seconds: t.seconds, repetitions: t.repetitions, bytes, bytesPerElement: 4,
      gbps: bytes / t.seconds / 1e9,
    });
  } finally {
    for (const c of copies.splice(0)) c.destroy();
    x.destroy();
    probe.destroy();
  }
}
