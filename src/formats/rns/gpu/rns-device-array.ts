/**
 * mp_array on the device: seed 000's structure of arrays (Table 2) in one buffer of (n + 6)·L words,
 *
 * ```
 * [0, nL)          residues: element k's residue modulo m_i at k·n + i (a number's residues together)
 * [nL, nL + L)     sign s_k
 * [nL + L, …)      exponent e_k
 * [nL + 2L, …)     eval lower bound q_lo      X/M ∈ [q_lo, q_up]·2^E   (device-eval.ts)
 * [nL + 3L, …)     eval exponent E (of the lower bound)
 * [nL + 4L, …)     eval upper bound q_up
 * [nL + 5L, …)     eval exponent E (of the upper bound)
 * ```
 *
 * every word an integer v stored as v + 2^30 (device-set.ts). Uploads and downloads are exact: a value goes up as
 * its exact significand X ≤ 2^p and exponent, and comes back as the exact rational ±X·2^e.
 *
 * @module
 */
import { fail, ModprecError } from '../../../core/errors.js';
import { createWordBuffer, gpuRuntime, readWords, type GpuRuntime } from '../../../backends/webgpu/runtime.js';
import { BufferUsage, type GpuBuffer } from '../../../backends/webgpu/webgpu-types.js';
import { trackGpuWork } from '../../../backends/webgpu/backend.js';
import { deviceEval, deviceEvalOf } from './device-eval.js';
import { DEVICE_MAX_EXPONENT, WORD_BIAS, type RnsDeviceSet } from './device-set.js';

/** An exact device value: (−1)^sign·X·2^exp with 0 ≤ X ≤ 2^p. @group GPU */
export interface RnsExactValue {
  readonly sign: 0 | 1;
  readonly X: bigint;
  readonly exp: number;
}

/**
 * L numbers of one GPU moduli set in device memory.
 * @group GPU
 */
export class RnsDeviceArray {
  /** The runtime owning the buffer. */
  readonly runtime: GpuRuntime;
  /** The moduli set. */
  readonly set: RnsDeviceSet;
  /** Number of elements L. */
  readonly length: number;
  /** The words, (n + 6)·L of them. */
  buffer: GpuBuffer | undefined;

  /**
   * A device array over `buffer` (made by `rnsToDevice` or `rnsZerosOnDevice`).
   * @param runtime - the runtime
   * @param set - the moduli set
   * @param length - number of elements
   * @param buffer - the words
   */
  constructor(runtime: GpuRuntime, set: RnsDeviceSet, length: number, buffer: GpuBuffer) {
    this.runtime = runtime;
    this.set = set;
    this.length = length;
    this.buffer = buffer;
  }

  /** Number of words: (n + 6)·L. */
  get words(): number {
    return (this.set.size + 6) * this.length;
  }

  /** Word offset of scalar field f (0 sign, 1 exponent, 2 q_lo, 3 E, 4 q_up, 5 E). */
  field(f: number): number {
    return this.set.size * this.length + f * this.length;
  }

  /** The live buffer, or `INVALID_STORAGE` after `destroy()`. */
  live(parameter: string): GpuBuffer {
    if (!this.buffer) fail('INVALID_STORAGE', parameter, 'has been destroyed');
    return this.buffer;
  }

  /** Releases the device memory. */
  destroy(): void {
    this.buffer?.destroy();
    this.buffer = undefined;
  }

  /**
   * The raw words (biased), for tests and the exact download.
   * @returns (n + 6)·L words
   */
  async toWords(): Promise<Uint32Array> {
    return readWords(this.runtime.context, this.live('array'), this.words);
  }

  /**
   * The exact values, decoded from the residues by the CRT in BigInt.
   * @param indices - only these elements (default: all)
   * @returns one exact value per element asked for, in order
   */
  async toExact(indices?: readonly number[]): Promise<RnsExactValue[]> {
    const n = this.set.size, L = this.length;
    // A few elements of a large array (TRSV's pivots, a benchmark's samples): only their residues, signs and
    // exponents come back, not the whole array.
    const few = indices !== undefined && indices.every((k) => Number.isInteger(k) && k >= 0 && k < L) && 4 * (n + 2) * indices.length < (n + 6) * L;
    if (!few) return decodeWords(this.set, L, await this.toWords(), indices);
    if (indices.length === 0) return [];
    const runs = indices.flatMap((k) => [{ offset: k * n, words: n }, { offset: n * L + k, words: 1 }, { offset: n * L + L + k, words: 1 }]);
    const got = await readWordRuns(this.runtime, this.live('array'), runs);
    // Laid out as an array of indices.length elements (digits, then the sign and exponent streams) for decodeWords.
    const m = indices.length;
    const words = new Uint32Array((n + 6) * m);
    for (let e = 0; e < m; e++) {
      words.set(got.subarray(e * (n + 2), e * (n + 2) + n), e * n);
      words[n * m + e] = got[e * (n + 2) + n]!;
      words[n * m + m + e] = got[e * (n + 2) + n + 1]!;
    }
    return decodeWords(this.set, m, words);
  }
}

/** Words of `buffer` at the given runs (word offsets and lengths), concatenated: one submit and one map. */
async function readWordRuns(runtime: GpuRuntime, buffer: GpuBuffer, runs: readonly { readonly offset: number; readonly words: number }[]): Promise<Uint32Array> {
  const device = runtime.context.device;
  const total = runs.reduce((a, r) => a + r.words, 0);
  const staging = device.createBuffer({ size: Math.max(16, Math.ceil((4 * total) / 16) * 16), usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  let at = 0;
  for (const r of runs) {
    encoder.copyBufferToBuffer(buffer, 4 * r.offset, staging, 4 * at, 4 * r.words);
    at += r.words;
  }
  device.queue.submit([encoder.finish()]);
  await trackGpuWork(staging.mapAsync(1));
  const out = new Uint32Array(staging.getMappedRange(0, 4 * total).slice(0));
  staging.unmap();
  staging.destroy();
  return out;
}

/** Words of the exact values (residues, sign, exponent, evaluation), biased. */
export function encodeValues(set: RnsDeviceSet, values: readonly RnsExactValue[]): Uint32Array {
  const n = set.size, L = values.length;
  const words = new Uint32Array((n + 6) * L);
  const moduli = set.moduli;
  values.forEach((v, k) => {
    if (v.X < 0n || v.X > 1n << BigInt(set.precision)) fail('INVALID_VALUE', 'x', `significand must lie in [0, 2^${set.precision}]`, v.X);
    if (Math.abs(v.exp) > DEVICE_MAX_EXPONENT) fail('INVALID_VALUE', 'x', `exponent must stay within ±2^28 on the device`, v.exp);
    // Residues by Horner over 16-bit chunks: r·2^16 + c < 2^32 is exact in a double.
    const chunks: number[] = [];
    for (let x = v.X; x > 0n; x >>= 16n) chunks.push(Number(x & 0xffffn));
    for (let i = 0; i < n; i++) {
      const m = moduli[i]!;
      let r = 0;
      for (let c = chunks.length - 1; c >= 0; c--) r = (r * 65536 + chunks[c]!) % m;
      words[k * n + i] = r + WORD_BIAS;
    }
    const ev = deviceEvalOf(v.X, set.bitsM, set.mu);
    const zero = v.X === 0n;
    const fields = [v.sign, zero ? 0 : v.exp, ev.lo, ev.exp, ev.up, ev.exp];
    fields.forEach((f, j) => { words[n * L + j * L + k] = f + WORD_BIAS; });
  });
  return words;
}

/** The exact values of words read back. */
export function decodeWords(set: RnsDeviceSet, L: number, words: Uint32Array, indices?: readonly number[]): RnsExactValue[] {
  const n = set.size;
  const out: RnsExactValue[] = [];
  for (const k of indices ?? Array.from({ length: L }, (_, i) => i)) {
    let s = 0n;
    for (let i = 0; i < n; i++) {
      const r = words[k * n + i]! - WORD_BIAS;
      s += set.Mi[i]! * BigInt((r * set.w[i]!) % set.moduli[i]!); // r·w < 2^32: exact in a double
    }
    const X = s % set.M;
    const sign = (words[n * L + k]! - WORD_BIAS) as 0 | 1;
    const exp = (words[n * L + L + k]! | 0) - WORD_BIAS;
    out.push({ sign, X, exp });
  }
  return out;
}

/**
 * The exact value of a double: ±X·2^e with X its integer significand (< 2^53).
 * @param x - a finite double
 * @returns the exact value
 */
export function exactOfDouble(x: number): RnsExactValue {
  scratch.setFloat64(0, x);
  const hi = scratch.getUint32(0), lo = scratch.getUint32(4);
  const sign = (hi >>> 31) as 0 | 1;
  const field = (hi >>> 20) & 0x7ff;
  let X = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp = field === 0 ? -1074 : field - 1075;
  if (field !== 0) X |= 1n << 52n;
  if (X === 0n) return { sign, X, exp: 0 };
  while ((X & 1n) === 0n) { X >>= 1n; exp++; }
  return { sign, X, exp };
}

const scratch = new DataView(new ArrayBuffer(8));

/**
 * Uploads exact values (or finite doubles) as a device mp_array.
 * @param values - doubles (finite) or exact values with X ≤ 2^p
 * @param set - the GPU moduli set
 * @returns the device array
 * @throws {@link modprec!ModprecError} `INVALID_VALUE` (naming `x`) for a non-finite double, a significand above
 *   2^p or an exponent beyond ±2^28, before anything is uploaded; `INVALID_STORAGE` naming `x` for values that are not
 *   an array; `INVALID_FORMAT` naming `set` for a set that is not an rnsDeviceSet; `BACKEND_UNAVAILABLE` without an adapter
 * @example
 * ```ts
 * import { rnsDeviceSet, rnsToDevice } from 'modprec/gpu';
 *
 * const x = await rnsToDevice([1.5, -2], rnsDeviceSet(106)); // needs a WebGPU adapter
 * (await x.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp); // → [ 1.5, -2 ]
 * ```
 * @group GPU
 */
export async function rnsToDevice(values: ArrayLike<number> | readonly RnsExactValue[], set: RnsDeviceSet): Promise<RnsDeviceArray> {
  let words: Uint32Array;
  // As toDevice: anything but an array-like is INVALID_STORAGE, an element of the wrong kind INVALID_VALUE (never a
  // TypeError from deep inside the encoder, nor a number or an object taken for an empty array).
  if (typeof values !== 'object' || values === null || typeof values.length !== 'number') fail('INVALID_STORAGE', 'x', 'must be an array of numbers or of exact values', values);
  // A set that is not one (null) threw a TypeError from the encoder ("reading 'size'").
  if (typeof set !== 'object' || set === null || !(set.moduli instanceof Uint32Array)) fail('INVALID_FORMAT', 'set', 'must be an RNS device set (rnsDeviceSet)', set);
  if (values.length > 0 && typeof values[0] === 'number') {
    for (let k = 0; k < values.length; k++) if (typeof values[k] !== 'number') fail('INVALID_VALUE', `x[${k}]`, 'must be all numbers or all exact values', values[k]);
    const doubles = Float64Array.from(values as ArrayLike<number>);
    for (let k = 0; k < doubles.length; k++) if (!Number.isFinite(doubles[k]!)) fail('INVALID_VALUE', 'x', 'must be finite (RNS has no infinity or NaN)', doubles[k]);
    words = encodeDoubles(set, doubles);
  } else {
    const exact = Array.from(values as ArrayLike<RnsExactValue>, (v, k) => (typeof v !== 'object' || v === null || typeof v.X !== 'bigint' ? fail('INVALID_VALUE', `x[${k}]`, 'must be all numbers or all exact values', v) : v));
    words = encodeValues(set, exact);
  }
  const runtime = await gpuRuntime();
  if (!runtime) throw new ModprecError('BACKEND_UNAVAILABLE', 'RNS on the GPU needs a WebGPU adapter', 'backend');
  const limit = runtime.context.adapter.limits.maxStorageBufferBindingSize;
  if (limit !== undefined && words.length * 4 > limit) {
    throw new ModprecError('BACKEND_LIMIT', `an RNS device array of ${values.length} elements needs ${words.length * 4} bytes, over this adapter's maxStorageBufferBindingSize of ${limit} bytes`, 'maxStorageBufferBindingSize');
  }
  return new RnsDeviceArray(runtime, set, values.length, createWordBuffer(runtime.context, Math.max(1, words.length), words));
}

/**
 * Words of finite doubles without BigInt (the upload path of large arrays): X is the 53-bit integer significand
 * hi·2^32 + lo, its residue |(hi mod m)·|2^32|_m + (lo mod m)|_m exact in doubles (every step < 2^53); the
 * evaluation from b and T = ⌊X·2^(24−b)⌋ (exact power-of-two scaling and floor).
 */
function encodeDoubles(set: RnsDeviceSet, doubles: Float64Array): Uint32Array {
  const n = set.size, L = doubles.length;
  const words = new Uint32Array((n + 6) * L);
  const bits = new Uint32Array(doubles.buffer, doubles.byteOffset, 2 * L);
  const moduli = set.moduli;
  const r32 = Array.from(moduli, (m) => (((65536 % m) * (65536 % m)) % m));
  for (let k = 0; k < L; k++) {
    const lo = bits[2 * k]!, hw = bits[2 * k + 1]!;
    const field = (hw >>> 20) & 0x7ff;
    const hi = (hw & 0xfffff) + (field !== 0 ? 0x100000 : 0);
    const sign = hw >>> 31;
    const zero = hi === 0 && lo === 0;
    for (let i = 0; i < n; i++) {
      const m = moduli[i]!;
      words[k * n + i] = (((hi % m) * r32[i]! + (lo % m)) % m) + WORD_BIAS;
    }
    const X = hi * 2 ** 32 + lo; // exact: < 2^53
    const b = hi !== 0 ? 64 - Math.clz32(hi) : 32 - Math.clz32(lo);
    const ev = zero ? { lo: 0, up: 0, exp: 0 } : deviceEval(b, Math.floor(X * 2 ** (24 - b)), 0, set.bitsM, set.mu);
    const exp = zero ? 0 : field === 0 ? -1074 : field - 1075;
    const fields = [sign, exp, ev.lo, ev.exp, ev.up, ev.exp];
    for (let j = 0; j < 6; j++) words[n * L + j * L + k] = fields[j]! + WORD_BIAS;
  }
  return words;
}

/**
 * L zeros (+0) on the device.
 * @param runtime - the runtime
 * @param set - the GPU moduli set
 * @param length - number of elements
 * @returns the device array
 */
export function rnsZerosOnDevice(runtime: GpuRuntime, set: RnsDeviceSet, length: number): RnsDeviceArray {
  const words = new Uint32Array((set.size + 6) * length).fill(WORD_BIAS);
  return new RnsDeviceArray(runtime, set, length, createWordBuffer(runtime.context, Math.max(1, words.length), words));
}
