/**
 * The GPU runtime: the device from ./backend.ts plus what kernels need once per device — the helper
 * functions of the arithmetic and storage formats registered with gpu.js, and whether the adapter's
 * `fma` is fused (probed by running one; WGSL lets an implementation round `fma` twice).
 *
 * @module
 */
import { floatFloatHelpers } from './arithmetic.js';
import { gpuDevice, onGpuReleased, trackGpuWork, type GpuContext, type GpuDeviceOptions } from './backend.js';
import { FORMAT_HELPERS } from './formats.js';
import { findFormat, formatNames } from '../../formats/common/registry.js';
import { registerNativeLibrary } from './gpujs-extensions.js';
import { WRITER_HELPERS } from './format-writers.js';
import { QUANTIZE_F64_HELPERS } from './quantize-f64-scale.js';
import { QUANTIZE_DD_HELPERS } from './quantize-dd-scale.js';
import { EXACT_DIVISION_HELPERS } from './exact-division.js';
import { getProgram, submitPasses } from './program.js';
import { giveStaging, takeStaging } from './staging-pool.js';
import { BufferUsage, type GpuBuffer, type GpuCommandEncoder } from './webgpu-types.js';

/**
 * A ready GPU: context, and whether `fma` rounds once.
 * @group GPU
 */
export interface GpuRuntime {
  readonly context: GpuContext;
  /** Whether WGSL `fma` is fused on this adapter (float-float TwoProd uses it when so, Dekker's split otherwise). */
  readonly fusedFma: boolean;
  /** Whether the shader compiler simplifies (a + b) − a to b, so error-free transformations need barriers. */
  readonly simplifiesFloats: boolean;
  /** Whether float-float operations are compiled with optimisation barriers. */
  readonly barriers: boolean;
}

let runtimePromise: Promise<GpuRuntime | undefined> | undefined;
// After a release there is no device: the runtime is gone for good in this process.
onGpuReleased(() => { runtimePromise = Promise.resolve(undefined); });

/**
 * Creates a storage buffer of `words` 32-bit words (at least one), optionally filled.
 * @param context - the GPU context
 * @param words - size in words
 * @param data - initial contents
 * @returns the buffer
 */
export function createWordBuffer(context: GpuContext, words: number, data?: Uint32Array | Float32Array): GpuBuffer {
  const size = Math.max(4, Math.ceil((words * 4) / 16) * 16);
  const buffer = context.device.createBuffer({ size, usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST });
  if (data) context.device.queue.writeBuffer(buffer, 0, data, 0, Math.min(data.length, words));
  return buffer;
}

/**
 * Records `copy` into a staging buffer of the device's pool (./staging-pool.ts), submits it and returns a copy of the
 * first `bytes` bytes. The buffer goes back to the pool once unmapped; one whose mapping failed is destroyed.
 */
async function readThroughStaging(context: GpuContext, bytes: number, copy: (encoder: GpuCommandEncoder, staging: GpuBuffer) => void): Promise<Uint32Array> {
  const device = context.device;
  const staging = takeStaging(device, bytes);
  try {
    const encoder = device.createCommandEncoder();
    copy(encoder, staging);
    device.queue.submit([encoder.finish()]);
    await trackGpuWork(staging.mapAsync(1, 0, Math.ceil(bytes / 4) * 4));
  } catch (e) {
    staging.destroy();
    throw e;
  }
  const out = new Uint32Array(staging.getMappedRange(0, Math.ceil(bytes / 4) * 4).slice(0));
  staging.unmap();
  giveStaging(device, staging, bytes);
  return out;
}

/**
 * Copies `words` words of `buffer` (from word `offset`) back to the host.
 * @param context - the GPU context
 * @param buffer - the source buffer
 * @param words - how many words
 * @param offset - first word
 * @returns the words
 */
export async function readWords(context: GpuContext, buffer: GpuBuffer, words: number, offset = 0): Promise<Uint32Array> {
  const bytes = Math.max(4, Math.ceil((words * 4) / 4) * 4);
  const out = await readThroughStaging(context, bytes, (encoder, staging) => encoder.copyBufferToBuffer(buffer, offset * 4, staging, 0, bytes));
  return out.subarray(0, words);
}

/**
 * Copies several buffers' leading words back to the host through one staging buffer: one submission and one map —
 * one wait for the host, where {@link readWords} per buffer would wait once per buffer.
 * @param context - the GPU context
 * @param parts - each buffer and how many of its first words to read
 * @returns the words of each part, in order
 */
export async function readWordsOf(context: GpuContext, parts: readonly { readonly buffer: GpuBuffer; readonly words: number }[]): Promise<Uint32Array[]> {
  // Each part starts on a 16-byte boundary of the staging buffer (copy offsets must be multiples of 4; 16 keeps
  // every part's view aligned for any element type).
  const starts: number[] = [];
  let bytes = 0;
  for (const p of parts) {
    starts.push(bytes);
    bytes += Math.ceil(Math.max(4, p.words * 4) / 16) * 16;
  }
  const all = await readThroughStaging(context, Math.max(16, bytes), (encoder, staging) => {
    parts.forEach((p, k) => encoder.copyBufferToBuffer(p.buffer, 0, staging, starts[k]!, Math.max(4, p.words * 4)));
  });
  return parts.map((p, k) => all.subarray(starts[k]! / 4, starts[k]! / 4 + p.words));
}

/** Probes how the adapter's compiler treats the building blocks of float-float arithmetic. */
async function probeFloats(context: GpuContext): Promise<{ fusedFma: boolean; simplifiesFloats: boolean }> {
  // Thread 0: a = 1 + 2^-12, a·a = 1 + 2^-11 + 2^-24 rounds (tie to even) to 1 + 2^-11, so a fused
  // fma(a, a, -p) returns 2^-24 (behind a barrier so the compiler cannot fold it to 0).
  // Thread 1: TwoSum's error term of a + b with b = 2^-30 is 2^-30 unless (a + b) − a is simplified to b.
  const program = await getProgram(context, {
    source: `function (X, a, b) {
  if (this.thread.x === 0) { const p = mpKeep(a * a); return mpFma(a, a, -p); }
  const s = a + b; const sb = s - a; return (a - (s - sb)) + (b - sb);
}`,
    args: [['X', 'Array'], ['a', 'Float'], ['b', 'Float']],
    components: 1,
  });
  const input = createWordBuffer(context, 4);
  const output = createWordBuffer(context, 4);
  submitPasses(context, [{ pass: { program, arrays: { X: { buffer: input } }, scalars: { a: 1 + 2 ** -12, b: 2 ** -30 }, output: { buffer: output }, threads: 2 } }]);
  const words = await readWords(context, output, 2);
  input.destroy();
  output.destroy();
  const v = new Float32Array(words.buffer, words.byteOffset, 2);
  return { fusedFma: v[0] === 2 ** -24, simplifiesFloats: v[1] !== 2 ** -30 };
}

async function createRuntime(options: GpuDeviceOptions): Promise<GpuRuntime | undefined> {
  const context = await gpuDevice(options);
  if (!context) return undefined;
  for (const h of [...FORMAT_HELPERS, ...WRITER_HELPERS, ...QUANTIZE_F64_HELPERS, ...QUANTIZE_DD_HELPERS, ...EXACT_DIVISION_HELPERS]) context.gpujs.addFunction(h.source, { argumentTypes: h.argumentTypes, returnType: h.returnType });
  const { fusedFma, simplifiesFloats } = await probeFloats(context);
  // Barriers are on unless MODPREC_GPU_BARRIERS=0 and the probe found no simplification: a compiler may
  // still contract a product into a following sum, which the probe cannot see.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const barriers = simplifiesFloats || env.MODPREC_GPU_BARRIERS !== '0';
  for (const h of floatFloatHelpers(fusedFma, barriers)) context.gpujs.addFunction(h.source, { argumentTypes: h.argumentTypes, returnType: h.returnType });
  // Arithmetics built on native WGSL (dd): their functions, from every registered arithmetic part that has some.
  for (const name of formatNames()) {
    const native = findFormat(name)?.arithmetic?.gpu?.native;
    if (native) registerNativeLibrary(context.gpujs, typeof native === 'function' ? await native() : native);
  }
  return { context, fusedFma, simplifiesFloats, barriers };
}

/**
 * The GPU runtime (created once per process), or `undefined` where no WebGPU adapter exists.
 * @param options - backends to try in Node
 * @returns the runtime or `undefined`
 * @example
 * ```ts
 * import { gpuRuntime } from 'modprec/gpu';
 *
 * const rt = await gpuRuntime();
 * console.log(rt ? `fma fused: ${rt.fusedFma}` : 'no GPU'); // depends on the adapter
 * ```
 * @group GPU
 */
export function gpuRuntime(options: GpuDeviceOptions = {}): Promise<GpuRuntime | undefined> {
  runtimePromise ??= trackGpuWork(createRuntime(options));
  return runtimePromise;
}
