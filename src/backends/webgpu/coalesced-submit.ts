/**
 * Coalesced submits (on by default since session 22 with K = {@link DEFAULT_COALESCE}; `MODPREC_GPU_COALESCE=K` (K ≥ 2,
 * or 0 for one submit a call) or {@link setGpuCoalesce}). On the H100 (2026-11-28, bench/gpu/gpu-gaps.ts, 20 calls a
 * batch) K = 4 took DOT 2^27 fp32 + ff 0.383 → 0.371 ms, bf16 + ff 0.210 → 0.195, GEMV N 8192 fp32 + ff 0.113 → 0.111,
 * bf16 A with an fp32 x + ff 0.0768 → 0.0657. Each GPU
 * call still records its own command buffer (program.ts's submitPasses), but instead of one `queue.submit` per call,
 * consecutive calls' command buffers go to the queue together, up to K in one submit — the device's idle time between
 * submits (11–13 µs on an H100 through Dawn/Vulkan, against ~2 µs between the passes of one submit) is paid once per
 * submit instead of once per call.
 *
 * Policy (the GPU must never wait for the host): after idle the first call is submitted at once; the next submits
 * hold 1, 2, 3, … calls, at most K (a ramp: while the GPU runs one submit, the host issues the next, larger one); and
 * whatever is held is submitted at the latest on the next macrotask (`setImmediate`), when a caller waits on the
 * device, or when an operation must see it (below). "Idle" is: the held calls were submitted because the host
 * paused or waited, or the last submit is more than {@link COALESCE_IDLE_MS} old (setGpuCoalesce's `idleMs`).
 *
 * Order: the queue sees exactly what immediate submission gives. Held command buffers are submitted first by every
 * operation that could observe or overtake them — any other `queue.submit` (read-backs, copies, gpu.js, TRSV's
 * encoder, timestamp resolves), `queue.onSubmittedWorkDone`, `buffer.mapAsync`, and a `queue.writeBuffer` or a
 * `buffer.destroy` of a buffer a held call binds (a write or destroy of any other buffer cannot be observed by the
 * held calls, so it may go first); and `device.pushErrorScope`/`popErrorScope`, so that a submit's validation error
 * reaches the scope its calls were issued in. The device's queue and the buffer class are wrapped once, when the mode is first
 * used, so these paths flush whoever calls them (gpu.js, benchmarks, tests). While calls are held the idle release
 * of backend.ts counts them as GPU work in flight.
 *
 * @module
 */
import { ModprecError } from '../../core/errors.js';
import { onGpuReleased, trackGpuWork, type GpuContext } from './backend.js';
import type { GpuBuffer, GpuDevice } from './webgpu-types.js';

/** By default, a submit more than this many milliseconds ago means the device may be idle: the next call starts a new ramp. */
export const COALESCE_IDLE_MS = 1;

let idleMs = COALESCE_IDLE_MS;
/** Whether submits after idle grow 1, 1, 2, 3, … up to K (else: the first call at once, then K a submit). */
let ramp = true;

/** Calls a submit may hold by default (see the module's timings). */
export const DEFAULT_COALESCE = 4;

/** `MODPREC_GPU_COALESCE` (read on first use: a `process.env` read per call costs microseconds): K, or 0 (off); unset: the default. */
function envCoalesce(): number {
  const raw = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.MODPREC_GPU_COALESCE;
  return parseLimit(raw === undefined || raw === '' ? DEFAULT_COALESCE : Number(raw), 'MODPREC_GPU_COALESCE', raw);
}

function parseLimit(k: number, name: string, shown: unknown = k): number {
  if (!Number.isInteger(k) || k < 0) throw new ModprecError('INVALID_OPTION', `${name} must be an integer ≥ 2 (calls per submit), or 0 or 1 (off); got ${String(shown)}`, name);
  return k >= 2 ? k : 0;
}

/** K, 0 (off), or undefined until the environment is read. */
let limit: number | undefined;

/** What a coalescer holds for one device. */
interface Coalescer {
  readonly device: GpuDevice;
  /** The queue's own submit and completion (the wrappers' targets). */
  readonly submit: (commands: unknown[]) => void;
  readonly done: () => Promise<void>;
  /** Held command buffers, in call order. */
  pending: unknown[];
  /** Buffers the held calls bind. */
  readonly bound: Set<GpuBuffer>;
  /** Buffers to destroy once the held calls have run (uncached uniforms). */
  doomed: GpuBuffer[];
  /** Submits since the last idle (the ramp: submit j holds up to max(1, min(K, j)) calls). */
  ramp: number;
  /** performance.now() of the last submit. */
  lastSubmit: number;
  /** Whether a macrotask flush is scheduled. */
  scheduled: boolean;
  /** Ends the idle release's hold on the held calls. */
  settle: (() => void) | undefined;
  /** Counters for tests and benchmarks: calls appended and submits made by the coalescer. */
  calls: number;
  submits: number;
}

const coalescers = new Map<GpuDevice, Coalescer>();

/**
 * Sets how many GPU calls may share one `queue.submit` (the code's counterpart of `MODPREC_GPU_COALESCE`): K ≥ 2
 * turns coalescing on, 0 or 1 turns it off, `undefined` returns to the environment's setting. Anything held is
 * submitted first. A benchmark's and a test's switch: results are the same bits either way.
 * @param k - calls per submit, 0/1 (off) or undefined
 * @param options - `idleMs`: a submit older than this starts a new ramp (default {@link COALESCE_IDLE_MS}; tests pass
 *   Infinity for a ramp that does not depend on the host's speed); `ramp: false` (a benchmark's comparison): after
 *   idle the first call is submitted at once, then K calls a submit
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` when k is not a non-negative integer, or idleMs is negative
 */
export function setGpuCoalesce(k: number | undefined, options: { readonly idleMs?: number; readonly ramp?: boolean } = {}): void {
  const next = k === undefined ? envCoalesce() : parseLimit(k, 'k');
  const idle = options.idleMs ?? COALESCE_IDLE_MS;
  if (!(idle >= 0)) throw new ModprecError('INVALID_OPTION', `setGpuCoalesce: options.idleMs must be ≥ 0; got ${idle}`, 'options.idleMs');
  flushAllCoalesced();
  limit = next;
  idleMs = idle;
  ramp = options.ramp ?? true;
}

/**
 * The current coalescing limit: K calls per submit, or 0 when off.
 * @returns K or 0
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` when `MODPREC_GPU_COALESCE` is not a non-negative integer
 */
export function gpuCoalesce(): number {
  return (limit ??= envCoalesce());
}

/**
 * Counters of the coalescer of `context`'s device (zeros where it never ran): calls it took, submits it made, calls
 * held now.
 * @param context - the GPU context
 * @returns the counters
 */
export function coalescedSubmitStats(context: GpuContext): { calls: number; submits: number; held: number } {
  const c = coalescers.get(context.device);
  return c ? { calls: c.calls, submits: c.submits, held: c.pending.length } : { calls: 0, submits: 0, held: 0 };
}

/**
 * Whether calls should be coalesced on `context`'s device now (the mode is on); wraps the device on first use.
 * @param context - the GPU context
 * @returns whether {@link appendCoalesced} should take the call's command buffer
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` when `MODPREC_GPU_COALESCE` is not a non-negative integer
 */
export function coalescing(context: GpuContext): boolean {
  if ((limit ??= envCoalesce()) === 0) return false;
  if (!coalescers.has(context.device)) install(context.device);
  return true;
}

/**
 * Takes one call's finished command buffer (instead of `queue.submit`): submits it now, or holds it with the
 * calls before it (see the module's policy).
 * @param context - the GPU context
 * @param commands - the call's command buffer
 * @param bound - the buffers its passes bind
 * @param doomed - buffers to destroy once it has run
 */
export function appendCoalesced(context: GpuContext, commands: unknown, bound: readonly GpuBuffer[], doomed: readonly GpuBuffer[]): void {
  const c = coalescers.get(context.device)!;
  if (c.pending.length === 0 && performance.now() - c.lastSubmit > idleMs) c.ramp = 0;
  c.pending.push(commands);
  c.calls++;
  for (const b of bound) c.bound.add(b);
  if (doomed.length > 0) c.doomed.push(...doomed);
  if (c.pending.length >= (c.ramp === 0 ? 1 : ramp ? Math.min(limit!, c.ramp) : limit!)) {
    flush(c, 'full');
    return;
  }
  if (c.settle === undefined) void trackGpuWork(new Promise<void>((resolve) => { c.settle = resolve; }));
  if (!c.scheduled) {
    c.scheduled = true;
    later(() => {
      c.scheduled = false;
      flush(c, 'idle');
    });
  }
}

/**
 * Submits whatever is held on `context`'s device (a no-op when nothing is).
 * @param context - the GPU context
 */
export function flushCoalesced(context: GpuContext): void {
  const c = coalescers.get(context.device);
  if (c && c.pending.length > 0) flush(c, 'idle');
}

function flushAllCoalesced(): void {
  for (const c of coalescers.values()) flush(c, 'idle');
}

/** The next macrotask (Node's setImmediate; a zero timeout elsewhere). */
const later: (f: () => void) => void = typeof (globalThis as { setImmediate?: unknown }).setImmediate === 'function'
  ? (f) => { (globalThis as unknown as { setImmediate(f: () => void): void }).setImmediate(f); }
  : (f) => { setTimeout(f, 0); };

/**
 * Submits the held calls. `full`: the ramp grows; `idle` (the host paused, waits, or reads back): the next call
 * starts a new ramp; `order` (a write or destroy the held calls must precede): the ramp stays.
 */
function flush(c: Coalescer, why: 'full' | 'idle' | 'order'): void {
  if (why === 'idle') c.ramp = 0;
  if (c.pending.length === 0) return;
  const commands = c.pending;
  c.pending = [];
  c.bound.clear();
  c.submit(commands);
  c.submits++;
  c.lastSubmit = performance.now();
  if (why === 'full') c.ramp++;
  if (c.doomed.length > 0) {
    const doomed = c.doomed;
    c.doomed = [];
    void c.done().then(() => doomed.forEach((b) => b.destroy()));
  }
  const settle = c.settle;
  c.settle = undefined;
  settle?.();
}

/** Whether the buffer class's destroy and mapAsync are wrapped already (once per process: one prototype). */
const wrappedPrototypes = new WeakSet<object>();

/**
 * Submits what any coalescer holds when `buffer` is bound by a held call (destroy), or always (mapAsync: the host
 * waits for the device, whose next call then starts a new ramp).
 */
function flushFor(buffer: GpuBuffer | undefined): void {
  for (const c of coalescers.values()) {
    if (buffer === undefined) flush(c, 'idle');
    else if (c.bound.has(buffer)) flush(c, 'order');
  }
}

/** Wraps the device's queue and its buffers so that every operation that could see or overtake held calls submits them first. */
function install(device: GpuDevice): void {
  type Fn = (...args: unknown[]) => unknown;
  const queue = device.queue as unknown as Record<string, unknown>;
  const own = (name: string): Fn => (queue[name] as Fn).bind(queue);
  const submit = own('submit');
  const done = own('onSubmittedWorkDone');
  const write = own('writeBuffer');
  const c: Coalescer = { device, submit, done: done as () => Promise<void>, pending: [], bound: new Set(), doomed: [], ramp: 0, lastSubmit: -Infinity, scheduled: false, settle: undefined, calls: 0, submits: 0 };
  coalescers.set(device, c);
  queue.submit = (commands: unknown[]) => {
    flush(c, 'order');
    return submit(commands);
  };
  queue.onSubmittedWorkDone = () => {
    flush(c, 'idle');
    return done();
  };
  queue.writeBuffer = (buffer: GpuBuffer, ...rest: unknown[]) => {
    if (c.bound.has(buffer)) flush(c, 'order');
    return write(buffer, ...rest);
  };
  // The buffer class: destroy and mapAsync of every buffer, whoever made it (trackDevicePromises in backend.ts gives
  // buffers it sees an own mapAsync: those made from now on are wrapped as they are created).
  const sample = device.createBuffer({ size: 4, usage: 0x0008 });
  const proto = Object.getPrototypeOf(sample) as Record<string, unknown>;
  sample.destroy();
  if (!wrappedPrototypes.has(proto)) {
    wrappedPrototypes.add(proto);
    const destroy = proto.destroy as Fn;
    const mapAsync = proto.mapAsync as Fn;
    proto.destroy = function (this: GpuBuffer) {
      flushFor(this);
      return destroy.call(this);
    };
    proto.mapAsync = function (this: GpuBuffer, ...args: unknown[]) {
      flushFor(undefined);
      return mapAsync.apply(this, args);
    };
  }
  const d = device as unknown as Record<string, unknown>;
  // A submit's validation errors go to the error scope open when it is made: held calls are submitted before a scope
  // opens or closes, into the scope they were issued in.
  for (const name of ['pushErrorScope', 'popErrorScope']) {
    const f = (d[name] as Fn).bind(device);
    d[name] = (...args: unknown[]) => {
      flush(c, 'order');
      return f(...args);
    };
  }
  const createBuffer = (d.createBuffer as Fn).bind(device);
  d.createBuffer = (...args: unknown[]) => {
    const b = createBuffer(...args) as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(b, 'mapAsync')) {
      const mapAsync = b.mapAsync as Fn;
      b.mapAsync = (...a: unknown[]) => {
        flushFor(undefined);
        return mapAsync(...a);
      };
    }
    return b;
  };
}

// The device goes: submit what it holds (the work is lost with the device, but nothing stays held) and forget it.
onGpuReleased(() => {
  flushAllCoalesced();
  coalescers.clear();
});
