/**
 * RNS timings in two process states. V8 keeps a process-wide "ArrayBuffer detaching" protector: while no
 * ArrayBuffer has ever been detached, optimised code skips the detached check on every typed-array access.
 * Growing a WebAssembly memory detaches its old buffer, so once MPFR (gmp-wasm) has allocated its variables, every
 * typed-array loop in the process runs with those checks — the RNS kernels measured ≈ 20–25 % slower
 * (2026-11-22). A benchmark against MPFR therefore times RNS twice: in a fresh child process that never loads
 * gmp-wasm (what an application without WebAssembly sees) and in the parent after a deliberate detach (what an
 * application that also uses WebAssembly, or transfers buffers, sees).
 * @module
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD_FLAG = 'MODPREC_RNS_FRESH_CHILD';

/** Whether this process is the fresh child that only times RNS. */
export const isFreshChild = process.env[CHILD_FLAG] === '1';

/**
 * Runs the benchmark script `scriptUrl` again in a fresh child process that times only RNS and reports its
 * times (the last line of its output, JSON: case key → ms).
 * @throws Error when the child fails or reports nothing
 */
export function freshProcessTimes(scriptUrl: string): Record<string, number> {
  const r = spawnSync(process.execPath, [fileURLToPath(scriptUrl)], { env: { ...process.env, [CHILD_FLAG]: '1' }, encoding: 'utf8', maxBuffer: 1 << 24 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`fresh-process RNS timing failed (status ${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(last) as Record<string, number>;
}

/** In the fresh child: prints the collected times as the last line of output. */
export function reportFreshTimes(times: Record<string, number>): void {
  console.log(JSON.stringify(times));
}

/**
 * Detaches one ArrayBuffer, which invalidates V8's detaching protector for the rest of the process: every
 * timing in the parent then sees the state that MPFR's memory growth would leave anyway, whatever the order.
 */
export function detachOneBuffer(): void {
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
  if (buffer.byteLength !== 0) throw new Error('detachOneBuffer: the buffer was not detached');
}

/** What the "fresh" and "detached" columns of an RNS benchmark table mean (for the report). */
export const FRESH_DETACHED_NOTE = `RNS is timed twice: *fresh* in a child process that never loads gmp-wasm, *detached* in
the process that runs MPFR, after one ArrayBuffer was detached. Detaching any ArrayBuffer (a WebAssembly memory
growing, as gmp-wasm's does; a transferred buffer) switches off, for the whole process, V8's shortcut that skips the
detached check on typed-array accesses; the RNS kernels run ≈ 20–25 % slower from then on. MPFR runs in the
detached state either way (its own memory grows).`;
