/**
 * GPU timestamps of modprec's compute passes, a diagnostic behind `MODPREC_GPU_TIMESTAMPS` (off by default: nothing
 * changes then): `1` or `pass` stamps the beginning and end of each call's compute pass (one per `submitPasses`),
 * `dispatch` runs each dispatch of a call in its own compute pass of the same command encoder and stamps each (only
 * the pass boundaries change: WebGPU synchronises consecutive dispatches either way). The device asks for the
 * `timestamp-query` feature only then and only where the adapter offers it (backend.ts).
 *
 * The stamps go to a ring of query slots; a benchmark brackets a batch of calls with {@link startGpuTimestamps} and
 * {@link collectGpuTimestamps}, which resolves the ring once (after the batch, so the resolve never runs between the
 * calls it measures) and returns each call's begin/end times in ns. Dawn quantises timestamps to 65.536 µs unless its
 * device toggle is off: run with `MODPREC_DAWN_FLAGS="disable-dawn-features=timestamp_quantization"`
 * ({@link summarizeGpuTimestamps} flags a batch whose stamps all look quantised).
 *
 * @module
 */
import { ModprecError } from '../../core/errors.js';
import type { GpuContext } from './backend.js';
import type { GpuBuffer, GpuDevice } from './webgpu-types.js';

/** Where timestamps are written: around each call's compute pass, or around each dispatch (its own pass). */
export type GpuTimestampGranularity = 'pass' | 'dispatch';

/** WebGPU's largest query set. */
const RING_QUERIES = 4096;
/** Buffer usage flags not in webgpu-types.ts's BufferUsage (values fixed by the WebGPU specification). */
const QUERY_RESOLVE = 0x0200;
const MAP_READ = 0x0001;
const COPY_SRC = 0x0004;
const COPY_DST = 0x0008;
/** Dawn's quantisation mask keeps the high 16 bits of the low word: all 16 low bits 0 is a quantised stamp. */
const QUANTUM_MASK = 0xffff;

let override: GpuTimestampGranularity | 'off' | undefined;
let fromEnv: GpuTimestampGranularity | 'off' | undefined;

/**
 * The granularity asked for: {@link setGpuTimestampGranularity}'s, else `MODPREC_GPU_TIMESTAMPS` (read once).
 * @returns `pass`, `dispatch`, or undefined when off
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` for a value other than unset, `0`, `1`, `pass` or `dispatch`
 */
export function gpuTimestampGranularity(): GpuTimestampGranularity | undefined {
  const chosen = override ?? (fromEnv ??= parseGranularity((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.MODPREC_GPU_TIMESTAMPS));
  return chosen === 'off' ? undefined : chosen;
}

function parseGranularity(value: string | undefined): GpuTimestampGranularity | 'off' {
  if (value === undefined || value === '' || value === '0') return 'off';
  if (value === '1' || value === 'pass') return 'pass';
  if (value === 'dispatch') return 'dispatch';
  throw new ModprecError('INVALID_OPTION', `MODPREC_GPU_TIMESTAMPS must be unset, 0, 1, pass or dispatch (got '${value}')`, 'MODPREC_GPU_TIMESTAMPS');
}

/**
 * Sets the granularity for this process, over the environment (`undefined`: back to the environment's). Stamps are
 * written only where the device was created with `timestamp-query`, which backend.ts asks for only when
 * `MODPREC_GPU_TIMESTAMPS` is set: a benchmark switching between `pass` and `dispatch` sets the variable before the
 * device comes up.
 * @param granularity - `pass`, `dispatch`, `off`, or undefined
 */
export function setGpuTimestampGranularity(granularity: GpuTimestampGranularity | 'off' | undefined): void {
  override = granularity;
}

/** A query set used as a ring, and the calls stamped since {@link startGpuTimestamps}. */
interface Ring {
  readonly querySet: unknown;
  /** Next slot. */
  cursor: number;
  /** Slots handed out since the ring was made (skipped tail slots included): tells which records were overwritten. */
  total: number;
  /** The calls stamped since the batch started, or undefined when none is being collected. */
  records: CallRecord[] | undefined;
}

interface CallRecord {
  /** First query slot (begin of the first pass; each pass takes a begin and an end slot). */
  readonly slot: number;
  /** `total` when the record was made. */
  readonly at: number;
  /** Stamped passes: 1, or the call's dispatches. */
  readonly passes: number;
}

const rings = new WeakMap<GpuDevice, Ring | null>();

function hasTimestampQuery(device: GpuDevice): boolean {
  return (device as unknown as { features?: { has(f: string): boolean } }).features?.has('timestamp-query') === true;
}

function ringOf(device: GpuDevice): Ring | undefined {
  let ring = rings.get(device);
  if (ring === undefined) {
    ring = hasTimestampQuery(device) ? { querySet: (device as unknown as { createQuerySet(d: object): unknown }).createQuerySet({ type: 'timestamp', count: RING_QUERIES }), cursor: 0, total: 0, records: undefined } : null;
    rings.set(device, ring);
  }
  return ring ?? undefined;
}

/**
 * Whether calls on this device are stamped, and why not.
 * @param context - the GPU context
 * @returns the granularity when on; the reason when off
 */
export function gpuTimestampsStatus(context: GpuContext): { on: boolean; granularity?: GpuTimestampGranularity; reason: string } {
  const granularity = gpuTimestampGranularity();
  if (!granularity) return { on: false, reason: 'MODPREC_GPU_TIMESTAMPS is not set' };
  if (!context.adapter.features.includes('timestamp-query')) return { on: false, reason: `the adapter (${context.adapter.name}, ${context.adapter.backend}) has no timestamp-query feature` };
  if (!hasTimestampQuery(context.device)) return { on: false, reason: 'the device was created without timestamp-query (set MODPREC_GPU_TIMESTAMPS before the device comes up)' };
  return { on: true, granularity, reason: '' };
}

/** One compute pass's `timestampWrites`. */
export interface PassTimestampWrites {
  readonly querySet: unknown;
  readonly beginningOfPassWriteIndex: number;
  readonly endOfPassWriteIndex: number;
}

/**
 * The `timestampWrites` of a call's compute passes (program.ts's submitPasses): one for the call's pass, or one per
 * dispatch with `dispatch`; undefined when timestamps are off or the device cannot write them.
 * @param context - the GPU context
 * @param dispatches - the call's dispatches
 * @returns the writes, one per compute pass to begin, or undefined
 */
export function timestampWritesOf(context: GpuContext, dispatches: number): PassTimestampWrites[] | undefined {
  const granularity = gpuTimestampGranularity();
  if (!granularity) return undefined;
  const ring = ringOf(context.device);
  if (!ring) return undefined;
  const passes = granularity === 'dispatch' ? Math.max(1, dispatches) : 1;
  if (2 * passes > RING_QUERIES) return undefined;
  if (ring.cursor + 2 * passes > RING_QUERIES) {
    // A call's slots are contiguous: skip the ring's tail.
    ring.total += RING_QUERIES - ring.cursor;
    ring.cursor = 0;
  }
  const writes: PassTimestampWrites[] = [];
  for (let p = 0; p < passes; p++) writes.push({ querySet: ring.querySet, beginningOfPassWriteIndex: ring.cursor + 2 * p, endOfPassWriteIndex: ring.cursor + 2 * p + 1 });
  ring.records?.push({ slot: ring.cursor, at: ring.total, passes });
  ring.cursor += 2 * passes;
  ring.total += 2 * passes;
  return writes;
}

/** The timestamps of one call: each stamped pass's begin and end, in ns from the batch's first begin. */
export interface CallTimestamps {
  readonly begin: readonly number[];
  readonly end: readonly number[];
}

/** What {@link collectGpuTimestamps} returns. */
export interface BatchTimestamps {
  /** The stamped calls in submit order (calls whose slots the ring reused before the collect are left out). */
  readonly calls: readonly CallTimestamps[];
  /** Calls left out: overwritten by later ones (more than the ring's 4096 slots in the batch), or never stamped. */
  readonly lost: number;
  /** Whether every stamp has its 16 low bits zero: Dawn's quantisation (65.536 µs) is on. */
  readonly quantized: boolean;
}

/**
 * Starts collecting the stamps of the calls submitted from now on (dropping any batch being collected).
 * @param context - the GPU context
 * @returns false where calls are not stamped ({@link gpuTimestampsStatus} says why)
 */
export function startGpuTimestamps(context: GpuContext): boolean {
  if (!gpuTimestampGranularity()) return false;
  const ring = ringOf(context.device);
  if (!ring) return false;
  ring.records = [];
  return true;
}

/**
 * Stops collecting and reads the stamps of the calls submitted since {@link startGpuTimestamps}: one resolve of the
 * ring, submitted after them (call it once their work is done, or it waits for it).
 * @param context - the GPU context
 * @returns the calls' stamps, or undefined where none were being collected
 */
export async function collectGpuTimestamps(context: GpuContext): Promise<BatchTimestamps | undefined> {
  const ring = rings.get(context.device);
  const records = ring?.records;
  if (!ring || !records) return undefined;
  ring.records = undefined;
  const device = context.device;
  const kept = records.filter((r) => ring.total - r.at <= RING_QUERIES);
  if (kept.length === 0) return { calls: [], lost: records.length, quantized: false };
  // Only the kept calls' own slots are resolved, each run of them at a 256-byte aligned offset (resolveQuerySet's
  // rule). Resolving the whole ring hung the NVIDIA H200 (Dawn over Vulkan): slots that a dropped encoder (a refused
  // batch) stamped count as written, and the resolve waits for stamps that never come.
  const offsets = kept.map((r) => r.passes * 16);
  let bytes = 0;
  for (let k = 0; k < offsets.length; k++) {
    const size = offsets[k]!;
    offsets[k] = bytes;
    bytes += Math.ceil(size / 256) * 256;
  }
  const resolved = device.createBuffer({ size: bytes, usage: QUERY_RESOLVE | COPY_SRC });
  const staging = device.createBuffer({ size: bytes, usage: MAP_READ | COPY_DST });
  const words = new Uint32Array(2 * RING_QUERIES);
  try {
    const encoder = device.createCommandEncoder() as ReturnType<GpuDevice['createCommandEncoder']> & { resolveQuerySet(q: unknown, first: number, count: number, dst: GpuBuffer, offset: number): void };
    kept.forEach((r, k) => encoder.resolveQuerySet(ring.querySet, r.slot, 2 * r.passes, resolved, offsets[k]!));
    encoder.copyBufferToBuffer(resolved, 0, staging, 0, bytes);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(MAP_READ);
    const got = new Uint32Array(staging.getMappedRange().slice(0));
    kept.forEach((r, k) => words.set(got.subarray(offsets[k]! / 4, offsets[k]! / 4 + 4 * r.passes), 2 * r.slot));
    staging.unmap();
  } finally {
    resolved.destroy();
    staging.destroy();
  }
  return timestampsFromWords(words, kept, records.length - kept.length);
}

/**
 * How many calls have been stamped in the batch being collected on `context`'s device (a mark for
 * {@link forgetGpuTimestampsSince}); undefined when none is being collected.
 * @param context - the GPU context
 * @returns the mark
 */
export function gpuTimestampMark(context: GpuContext): number | undefined {
  return rings.get(context.device)?.records?.length;
}

/**
 * Forgets the calls stamped after `mark` whose passes were encoded but will never be submitted (a refused batch):
 * resolving their slots would wait for stamps that never come.
 * @param context - the GPU context
 * @param mark - what {@link gpuTimestampMark} returned before those calls
 */
export function forgetGpuTimestampsSince(context: GpuContext, mark: number | undefined): void {
  const records = rings.get(context.device)?.records;
  if (records && mark !== undefined && records.length > mark) records.length = mark;
}

/**
 * The calls' stamps from the resolved query words (two u32 words a stamp: low, high of a u64 in ns), in ns from the
 * first call's first begin; a call with a zero stamp (a query never written) is counted as lost.
 * @param words - the resolved query set
 * @param records - each call's first slot and stamped passes (2 slots a pass: begin, end)
 * @param overwritten - calls already known lost
 * @returns the calls' stamps
 */
export function timestampsFromWords(words: Uint32Array, records: readonly { readonly slot: number; readonly passes: number }[], overwritten = 0): BatchTimestamps {
  const at = (slot: number): bigint => (BigInt(words[2 * slot + 1]!) << 32n) | BigInt(words[2 * slot]!);
  let origin: bigint | undefined;
  let quantized = true;
  let lost = overwritten;
  const calls: CallTimestamps[] = [];
  for (const r of records) {
    const stamps: bigint[] = [];
    for (let q = 0; q < 2 * r.passes; q++) stamps.push(at(r.slot + q));
    // A zero stamp is a query that was never written (or not available): the call is lost.
    if (stamps.some((t) => t === 0n)) {
      lost++;
      continue;
    }
    origin ??= stamps[0]!;
    const base = origin;
    calls.push({ begin: stamps.filter((_, q) => q % 2 === 0).map((t) => Number(t - base)), end: stamps.filter((_, q) => q % 2 === 1).map((t) => Number(t - base)) });
    for (let q = 0; q < 2 * r.passes; q++) if ((words[2 * (r.slot + q)]! & QUANTUM_MASK) !== 0) quantized = false;
  }
  return { calls, lost, quantized: quantized && calls.length > 0 };
}

/** A batch's GPU-side figures, in ms (see {@link summarizeGpuTimestamps}). */
export interface GpuTimestampSummary {
  /** Median over calls of a call's GPU time: its first pass's begin to its last pass's end. */
  readonly passMs: number;
  /** The first call's begin to the last call's end, divided by the calls. */
  readonly spanPerCallMs: number;
  /** Mean idle time between one call's end and the next call's begin (0 for one call). */
  readonly gapMs: number;
  /** With `dispatch`: the median time of each dispatch index of a call (calls with another dispatch count left out). */
  readonly dispatchMs?: readonly number[];
  /** With `dispatch`: the median over calls of (call time − Σ its dispatch times): idle time between its dispatches. */
  readonly innerGapMs?: number;
  /** Calls the figures are taken over. */
  readonly calls: number;
  /** Whether the stamps look quantised (Dawn's `timestamp_quantization` toggle on): the figures are then meaningless. */
  readonly quantized: boolean;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[sorted.length >> 1]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
}

/**
 * Pass time, span per call and idle gap of a batch's stamps (ns in, ms out).
 * @param batch - the stamps of the batch's calls, in submit order
 * @returns the summary, or undefined where no call was stamped
 */
export function summarizeGpuTimestamps(batch: BatchTimestamps): GpuTimestampSummary | undefined {
  const calls = batch.calls;
  if (calls.length === 0) return undefined;
  const ms = 1e-6;
  const callTime = (c: CallTimestamps): number => c.end[c.end.length - 1]! - c.begin[0]!;
  const busy = calls.reduce((s, c) => s + callTime(c), 0);
  const first = Math.min(...calls.map((c) => c.begin[0]!));
  const last = Math.max(...calls.map((c) => c.end[c.end.length - 1]!));
  const span = last - first;
  const summary = { passMs: median(calls.map(callTime)) * ms, spanPerCallMs: (span / calls.length) * ms, gapMs: calls.length > 1 ? ((span - busy) / (calls.length - 1)) * ms : 0, calls: calls.length, quantized: batch.quantized };
  const passes = calls[0]!.begin.length;
  if (passes === 1) return summary;
  const same = calls.filter((c) => c.begin.length === passes);
  const dispatchMs = Array.from({ length: passes }, (_, k) => median(same.map((c) => c.end[k]! - c.begin[k]!)) * ms);
  const innerGapMs = median(same.map((c) => callTime(c) - c.end.reduce((s, e, k) => s + e - c.begin[k]!, 0))) * ms;
  return { ...summary, dispatchMs, innerGapMs };
}
