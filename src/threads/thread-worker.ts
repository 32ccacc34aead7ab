/**
 * The entry of a pool's worker (Node worker_threads or a browser module Worker): it loads the library (the same
 * built-in formats and kernels as the calling thread), reports what it knows, then runs the parts it is sent and
 * reports each one through the shared control block (value, then state, then a notify), never by a message: the
 * calling thread is blocked in Atomics.wait and cannot take one.
 * @module
 */
// The main entry's formats: loading them registers every format (and accumulation) the main entry registers, by
// the same names; they are checked below, so that a bundler cannot drop the import as side-effect free.
import { formats } from '../index.js';
import { formatNames } from '../formats/common/registry.js';
import { ModprecError } from '../core/errors.js';
import { rebuildOperand, registryNames } from './operand-transfer.js';
import { runPart } from './split-calls.js';
import { controlViews, DONE, FAILED, MESSAGE_BYTES, type InitMessage, type ReadyMessage, type RunMessage } from './part-message.js';

type Post = (m: ReadyMessage) => void;

if (formats.dd === undefined) throw new Error('modprec: the thread worker did not load the formats');

let views: ReturnType<typeof controlViews> | undefined;
let slot = 0;

function handle(message: InitMessage | RunMessage, post: Post): void {
  if (message.type === 'init') {
    slot = message.slot;
    views = controlViews(message.control, message.slots);
    post({ type: 'ready', registry: registryNames(formatNames()) });
    return;
  }
  const v = views!;
  // An atomic read before touching the operands: the calling thread's writes (made before it stored BUSY and
  // posted this part) happen before this part's reads.
  Atomics.load(v.state, slot);
  try {
    const { operands, ...rest } = message.part;
    const ranges = Object.fromEntries(Object.entries(operands).map(([k, d]) => [k, rebuildOperand(d)]));
    v.value[slot] = runPart({ ...rest, ranges }) ?? 0;
    Atomics.store(v.state, slot, DONE);
  } catch (e) {
    const text = new TextEncoder().encode(JSON.stringify(e instanceof ModprecError
      ? { code: e.code, parameter: e.parameter, message: e.message }
      : { message: e instanceof Error ? e.message : String(e) })).subarray(0, MESSAGE_BYTES);
    v.text.set(text, slot * MESSAGE_BYTES);
    v.length[slot] = text.length;
    Atomics.store(v.state, slot, FAILED);
  }
  Atomics.notify(v.state, slot);
}

const nodeProcess = (globalThis as { process?: { versions?: { node?: string } } }).process;
if (nodeProcess?.versions?.node !== undefined) {
  // A variable specifier keeps browser bundlers from resolving a Node built-in.
  const workerThreads = 'node:worker_threads';
  const { parentPort } = await import(workerThreads) as typeof import('node:worker_threads');
  parentPort!.on('message', (m: InitMessage | RunMessage) => handle(m, (r) => parentPort!.postMessage(r)));
} else {
  const scope = globalThis as unknown as { onmessage: ((e: { data: InitMessage | RunMessage }) => void) | null; postMessage: (m: ReadyMessage) => void };
  scope.onmessage = (e) => handle(e.data, (r) => scope.postMessage(r));
}
