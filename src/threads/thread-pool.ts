/**
 * A pool of worker threads that the CPU kernels split large calls over (`options.threads`). Created
 * asynchronously (workers start and load the library), used synchronously: a kernel posts the other parts to the
 * workers, runs part 0 itself, then blocks in Atomics.wait until every worker has reported through the shared
 * control block. Node's workers are unref'd, so an idle pool never keeps a process alive.
 * @module
 */
import { fail, ModprecError, type ModprecErrorCode } from '../core/errors.js';
import type { KernelThreads, SplitCall } from '../../kernels/shared/threads-option.js';
import type { Accumulation } from '../../kernels/shared/accumulation.js';
import type { ArithmeticFormat } from '../formats/common/format.js';
import { checkAccumulationKnown, checkArithmeticKnown, describeOperand, registryNames, type WorkerRegistry } from './operand-transfer.js';
import { formatNames } from '../formats/common/registry.js';
import { checkSharedStructure, checkSplitReduction, combineParts, operandsOf, partsOf, runPart } from './split-calls.js';
import { BUSY, controlBytes, controlViews, FAILED, MESSAGE_BYTES, type InitMessage, type ReadyMessage, type RunMessage } from './part-message.js';

/**
 * Options of {@link createThreadPool}.
 * @group Threads
 */
export interface ThreadPoolOptions {
  /**
   * The least work a thread is given, in element reads (default 65536): a call with less work per thread than
   * this uses fewer threads, down to the calling thread alone. Parts depend on this, the call's sizes and the
   * thread count only.
   */
  minWorkPerThread?: number;
  /**
   * Where the worker entry is (default: `thread-worker.js` beside the pool's own module, which is right for Node
   * and for bundlers that keep `new URL(…, import.meta.url)` files): a URL, or a string that is an absolute URL
   * (in a browser also one relative to the page). Checked also for a pool of one thread, which starts no worker.
   */
  workerUrl?: string | URL;
}

/** The token only {@link createThreadPool} passes to the {@link ThreadPool} constructor. */
const STARTED = Symbol('ThreadPool');

/** A started worker, whichever the platform. */
interface PoolWorker {
  post(message: InitMessage | RunMessage): void;
  terminate(): Promise<unknown>;
}

/** Whether this thread may block in Atomics.wait (not a browser's main thread). */
let blockable: boolean | undefined;
function canBlock(): boolean {
  if (blockable === undefined) {
    try {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
      blockable = true;
    } catch {
      blockable = false;
    }
  }
  return blockable;
}

/**
 * A pool of workers for `options.threads` of the CPU kernels (DOT, ASUM, GEMV, ELL SpMV, AXPY, WAXPBY, SCAL). Make one with
 * {@link createThreadPool}; {@link ThreadPool.terminate} stops its workers.
 * @group Threads
 */
export class ThreadPool implements KernelThreads {
  readonly #threads: number;
  readonly #workers: readonly PoolWorker[];
  readonly #views: ReturnType<typeof controlViews>;
  readonly #registry: WorkerRegistry;
  readonly #minWork: number;
  #terminated = false;

  /**
   * Not for direct use: start a pool with {@link createThreadPool}.
   * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `ThreadPool` when called from outside this module
   */
  constructor(token: symbol, workers: readonly PoolWorker[], control: SharedArrayBuffer, registry: WorkerRegistry, minWork: number) {
    // `new ThreadPool(undefined)` threw a TypeError reading `workers.length`: the workers only createThreadPool starts.
    if (token !== STARTED) fail('INVALID_OPTION', 'ThreadPool', 'must be started by createThreadPool');
    this.#workers = workers;
    this.#views = controlViews(control, Math.max(1, workers.length));
    this.#registry = registry;
    this.#minWork = minWork;
    this.#threads = workers.length + 1;
  }

  /**
   * How many threads a call is split over: the workers and the calling thread. A getter: as a plain field,
   * `pool.threads = 8` from JavaScript made a call post parts to workers the pool does not have (a TypeError after
   * the first parts were posted, with those still running).
   */
  get threads(): number {
    return this.#threads;
  }

  /**
   * Checks the options of a call with this pool, whatever its sizes: the kernels and their bound functions call
   * this, so that an empty call or a quick return (α = 0) raises what a split call of the same options raises.
   * @param kernel - the kernel of the call
   * @param arithmetic - the call's resolved arithmetic
   * @param accumulation - the call's resolved accumulation
   * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `options.threads` for a terminated pool or a thread
   *   that cannot block; `INVALID_FORMAT` / `INVALID_OPTION` naming `options.arithmetic` / `options.accumulation` the
   *   workers do not know, or a reduction (DOT, ASUM) the pool cannot combine (not f64 or f32, not recursive)
   */
  checkOptions(kernel: SplitCall['kernel'], arithmetic: ArithmeticFormat, accumulation: Accumulation): void {
    if (this.#terminated) fail('INVALID_OPTION', 'options.threads', 'is a terminated pool');
    checkArithmeticKnown('options.arithmetic', arithmetic, this.#registry);
    checkAccumulationKnown(accumulation, this.#registry);
    checkSplitReduction(kernel, arithmetic, accumulation);
    if (!canBlock()) fail('INVALID_OPTION', 'options.threads', 'needs a thread that may block (Atomics.wait): run the call in a Worker, not on a browser\'s main thread');
  }

  /**
   * Checks a whole call with this pool, whatever its sizes: its options ({@link ThreadPool.checkOptions}) and its
   * operands (in shared memory, of formats the workers know). The kernels call this before any quick return.
   * @throws {@link modprec!ModprecError} what {@link ThreadPool.checkOptions} throws; `INVALID_STORAGE` naming an
   *   operand not in shared memory (or `A.colIndex` of an ELL operand); `INVALID_FORMAT` naming an operand of a
   *   format the workers do not know
   */
  checkSplit(call: SplitCall): void {
    this.checkOptions(call.kernel, call.arithmetic, call.accumulation);
    for (const [name, r] of operandsOf(call)) describeOperand(name, r, this.#registry);
    checkSharedStructure(call);
  }

  /**
   * Runs a checked kernel call split over the pool: the kernels call this for `options.threads`.
   * @returns the value of DOT and ASUM, `undefined` for the others
   * @throws {@link modprec!ModprecError} before anything is written: `INVALID_OPTION` naming `options.threads` for a
   *   terminated pool or a thread that cannot block; `INVALID_STORAGE` naming an operand not in shared memory (or
   *   `A.colIndex` of an ELL operand);
   *   `INVALID_FORMAT` naming an operand of a format the workers do not know; `INVALID_OPTION` naming
   *   `options.arithmetic` / `options.accumulation` for a reduction the pool cannot combine
   * @example
   * ```ts
   * import { vector, dot } from 'modprec';
   * import { createThreadPool } from 'modprec/threads';
   *
   * const pool = await createThreadPool(2);
   * const x = vector([1, 2, 3], { shared: true });
   * dot(x, x, { threads: pool }); // → 14
   * await pool.terminate();
   * ```
   */
  runSplit(call: SplitCall): number | undefined {
    this.checkSplit(call);
    const known = this.#registry;
    const parts = partsOf(call, this.#threads, this.#minWork);
    const v = this.#views;
    for (let k = 1; k < parts.length; k++) {
      const { ranges, ...rest } = parts[k]!;
      const described = Object.fromEntries(Object.entries(ranges).map(([name, r]) => [name, describeOperand(name, r, known)]));
      Atomics.store(v.state, k - 1, BUSY);
      this.#workers[k - 1]!.post({ type: 'run', part: { ...rest, operands: described } });
    }
    let own: number | undefined;
    let ownError: unknown;
    try {
      own = runPart(parts[0]!);
    } catch (e) {
      ownError = e;
    }
    // Every worker is waited for, also when part 0 failed: none may still write when the call returns.
    const values = [own ?? 0];
    let workerError: ModprecError | Error | undefined;
    for (let k = 1; k < parts.length; k++) {
      while (Atomics.load(v.state, k - 1) === BUSY) Atomics.wait(v.state, k - 1, BUSY);
      if (Atomics.load(v.state, k - 1) === FAILED) workerError ??= this.#errorOf(k - 1);
      values.push(v.value[k - 1]!);
    }
    if (ownError !== undefined) throw ownError;
    if (workerError) throw workerError;
    return own === undefined ? undefined : combineParts(call, values);
  }

  /** The error a worker reported in its slot. */
  #errorOf(slot: number): Error {
    const v = this.#views;
    const bytes = v.text.slice(slot * MESSAGE_BYTES, slot * MESSAGE_BYTES + v.length[slot]!);
    let e: { code?: ModprecErrorCode; parameter?: string; message?: string } = {};
    try { e = JSON.parse(new TextDecoder().decode(bytes)); } catch { e = { message: 'a worker failed (its message was cut)' }; }
    return e.code ? new ModprecError(e.code, e.message ?? '', e.parameter) : new Error(`modprec: a worker failed: ${e.message}`);
  }

  /**
   * Stops the workers; later calls with this pool are a typed error. Node's process also exits without it (idle
   * workers are unref'd); a browser page keeps workers until it is closed.
   * @example
   * ```ts
   * import { createThreadPool } from 'modprec/threads';
   *
   * const pool = await createThreadPool(2);
   * pool.threads; // → 2
   * await pool.terminate();
   * ```
   */
  async terminate(): Promise<void> {
    if (this.#terminated) return;
    this.#terminated = true;
    await Promise.all(this.#workers.map((w) => w.terminate()));
  }
}

/** Starts one worker at `url` and resolves with it and its registry once it reported ready. */
async function startWorker(url: URL, slot: number, slots: number, control: SharedArrayBuffer): Promise<[PoolWorker, WorkerRegistry]> {
  const nodeProcess = (globalThis as { process?: { versions?: { node?: string } } }).process;
  if (nodeProcess?.versions?.node !== undefined) {
    const workerThreads = 'node:worker_threads';
    const { Worker } = await import(workerThreads) as typeof import('node:worker_threads');
    const w = new Worker(url);
    const registry = await new Promise<WorkerRegistry>((resolve, reject) => {
      w.once('message', (m: ReadyMessage) => resolve(m.registry));
      w.once('error', reject);
      w.once('exit', (code) => reject(new Error(`modprec: a pool worker exited (code ${code}) before it started`)));
      w.postMessage({ type: 'init', slot, slots, control } satisfies InitMessage);
    });
    w.removeAllListeners();
    w.unref();
    return [{ post: (m) => w.postMessage(m), terminate: () => w.terminate() }, registry];
  }
  const W = (globalThis as { Worker?: new (u: URL | string, o: { type: 'module' }) => Worker }).Worker;
  if (W === undefined) fail('BACKEND_UNAVAILABLE', 'threads', 'needs Worker (Node worker_threads, or a browser with Web Workers)');
  const w = new W(url, { type: 'module' });
  const registry = await new Promise<WorkerRegistry>((resolve, reject) => {
    w.onmessage = (e: MessageEvent<ReadyMessage>) => resolve(e.data.registry);
    w.onerror = (e) => reject(new Error(`modprec: a pool worker failed to start: ${e.message}`));
    w.postMessage({ type: 'init', slot, slots, control } satisfies InitMessage);
  });
  w.onmessage = null;
  return [{ post: (m) => w.postMessage(m), terminate: async () => w.terminate() }, registry];
}

/**
 * The worker entry's URL: the default beside this module, a URL, or a string that is one (absolute, or relative to
 * a browser page's address). `createThreadPool(2, { workerUrl: './w.js' })` in Node threw a TypeError (Invalid URL)
 * from inside the worker start, and a pool of one thread (no worker) took any value.
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `options.workerUrl`
 */
function workerUrlOf(u: unknown): URL {
  if (u === undefined || u === null) return new URL('./thread-worker.js', import.meta.url);
  if (u instanceof URL) return u;
  if (typeof u === 'string') {
    const base = (globalThis as { location?: { href?: string } }).location?.href;
    try {
      return new URL(u, base);
    } catch {
      // An invalid URL string: named below.
    }
  }
  return fail('INVALID_OPTION', 'options.workerUrl', 'must be a URL, or a string that is an absolute URL (or relative to the page in a browser)', u);
}

/** Most threads a pool takes: far above any machine's cores, far below what would exhaust memory starting workers. */
const MAX_THREADS = 1024;

/**
 * Starts a pool that CPU kernels split large calls over: pass it as `options.threads` to DOT, ASUM, GEMV, ELL SpMV,
 * AXPY, WAXPBY or SCAL. The calling thread counts as one of the `threads` (it runs part 0 and waits for the rest), so
 * `createThreadPool(2)` starts one worker. Results depend only on the operands and `threads` (see docs/guide.md,
 * "Threads").
 * @param threads - threads per call, the calling one included (an integer ≥ 1)
 * @param options - see {@link ThreadPoolOptions}
 * @returns a promise of the pool, once every worker has loaded the library
 * @throws {@link modprec!ModprecError} `INVALID_SIZE` naming `threads` (not an integer in [1, 1024]); `INVALID_OPTION` naming `threads` where
 *   SharedArrayBuffer is missing (a browser page that is not cross-origin isolated), `options` when it is not an
 *   object, `options.minWorkPerThread` for a non-positive value, `options.workerUrl` for something that is not a URL;
 *   `BACKEND_UNAVAILABLE` naming `options.workerUrl` when a worker fails to start from it (no module there, or one
 *   that throws while loading)
 * @example
 * ```ts
 * import { vector, dot, formats } from 'modprec';
 * import { createThreadPool } from 'modprec/threads';
 *
 * const pool = await createThreadPool(2, { minWorkPerThread: 1 });
 * const x = vector([1, 2, 3, 4], { storage: formats.f32, shared: true });
 * dot(x, x, { threads: pool }); // → 30
 * await pool.terminate();
 * ```
 * @group Threads
 */
export async function createThreadPool(threads: number, options: ThreadPoolOptions = {}): Promise<ThreadPool> {
  // A huge count threw a RangeError sizing the control buffer, and thousands of workers would start before failing.
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    fail('INVALID_SIZE', 'threads', `must be an integer in [1, ${MAX_THREADS}]`, threads);
  }
  if (typeof SharedArrayBuffer === 'undefined') fail('INVALID_OPTION', 'threads', 'needs SharedArrayBuffer (a browser page must be cross-origin isolated)');
  // As the kernels' options: createThreadPool(2, null) threw a TypeError reading minWorkPerThread.
  if (typeof options !== 'object' || options === null) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const minWork = options.minWorkPerThread ?? 65536;
  if (typeof minWork !== 'number' || !(minWork >= 1)) fail('INVALID_OPTION', 'options.minWorkPerThread', 'must be a number ≥ 1', minWork);
  const url = workerUrlOf(options.workerUrl);
  const slots = Math.max(1, threads - 1);
  const control = new SharedArrayBuffer(controlBytes(slots));
  const started = await Promise.allSettled(Array.from({ length: threads - 1 }, (_, k) => startWorker(url, k, slots, control)));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value[0].terminate() : undefined)));
    // A worker entry that cannot load (a workerUrl naming no module, or not the worker entry) is a typed error: it
    // rejected with Node's own Error (ERR_MODULE_NOT_FOUND) or a browser's ErrorEvent message.
    const reason = (failed as PromiseRejectedResult).reason as unknown;
    if (reason instanceof ModprecError) throw reason;
    const why = reason instanceof Error ? reason.message : String(reason);
    throw new ModprecError('BACKEND_UNAVAILABLE', `modprec: a pool worker failed to start from ${url.href}: ${why}`, 'options.workerUrl');
  }
  const ok = started.map((s) => (s as PromiseFulfilledResult<[PoolWorker, WorkerRegistry]>).value);
  // Without workers (threads = 1) the calling thread runs the call: its own registry is the one that counts.
  const registry = ok[0]?.[1] ?? registryNames(formatNames());
  return new ThreadPool(STARTED, ok.map(([w]) => w), control, registry, minWork);
}
