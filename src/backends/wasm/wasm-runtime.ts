/**
 * The WebAssembly runtime of the CPU kernels: one linear memory shared by every generated module (the operands'
 * staging chunks and the kernels' accumulators live there), the SIMD128 probe, and compilation with the
 * browser's Content-Security-Policy refusal turned into a typed error.
 * @module
 */
import { ModprecError } from '../../core/errors.js';

/** What a page must allow for WebAssembly, in the words of the error. */
export const WASM_CSP_ADVICE =
  "add 'wasm-unsafe-eval' to the script-src directive of the Content-Security-Policy of the page (or worker) that runs modprec, or pass backend: 'js'";

/** Bytes of one WebAssembly page. */
const PAGE = 65536;

let memory: WebAssembly.Memory | undefined;

/** The memory every kernel module imports (created on first use, grown by {@link reserveBytes}). */
export function wasmMemory(): WebAssembly.Memory {
  memory ??= new WebAssembly.Memory({ initial: 8 });
  return memory;
}

/**
 * Bytes of the memory below the lowest live arena (src/backends/wasm/wasm-arena.ts): the kernels' staging area may
 * use [0, stagingLimit) only. Infinity while no arena is live.
 */
let stagingLimit = Infinity;
/** The largest staging reservation made so far (an arena placed later starts above it). */
let stagingHigh = 0;

/** Sets the end of the staging area (the lowest live arena's first byte; Infinity when none is live). */
export function setStagingLimit(bytes: number): void {
  stagingLimit = bytes;
}

/** The largest number of bytes any kernel has reserved for its staging so far. */
export function stagingHighWater(): number {
  return stagingHigh;
}

/**
 * Grows the memory to at least `bytes` bytes for a kernel's staging area. Typed-array views made before a call must
 * be made again after it.
 * @throws {@link ModprecError} `BACKEND_LIMIT` naming `wasmArena` when a live arena sits below `bytes`: growing
 *   the memory, or staging over the arena, would detach or overwrite its ranges (raised before anything is written)
 */
export function reserveBytes(bytes: number): void {
  if (bytes > stagingLimit) {
    throw new ModprecError(
      'BACKEND_LIMIT',
      `invalid argument: wasmArena leaves the WebAssembly kernels ${stagingLimit} bytes of staging, this call needs ${bytes}: create the arena with a larger \`staging\` option, or release it first`,
      'wasmArena',
    );
  }
  stagingHigh = Math.max(stagingHigh, bytes);
  growMemoryTo(bytes);
}

/** Grows the memory (detaching every view of it) to at least `bytes` bytes. */
export function growMemoryTo(bytes: number): void {
  const m = wasmMemory();
  const have = m.buffer.byteLength;
  if (bytes > have) m.grow(Math.ceil((bytes - have) / PAGE));
}

// The smallest module with a SIMD instruction: (func (result v128) v128.const 0). Validating it says whether the
// engine has SIMD128 without compiling anything (so no Content-Security-Policy check is involved).
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00,
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, ...new Array<number>(16).fill(0), 0x0b,
]);

let simd: boolean | undefined;

/**
 * Whether this engine runs WebAssembly with SIMD128 (Node ≥ 16.4, current browsers). Without it the CPU kernels
 * run as generated JavaScript.
 * @example
 * ```ts
 * import { wasmSimdAvailable } from 'modprec';
 *
 * typeof wasmSimdAvailable(); // → 'boolean'
 * ```
 * @group Kernels
 */
export function wasmSimdAvailable(): boolean {
  if (simd === undefined) {
    simd = typeof WebAssembly === 'object' && typeof WebAssembly.validate === 'function' && WebAssembly.validate(SIMD_PROBE);
  }
  return simd;
}

let blocked: ModprecError | undefined;

/** Whether an earlier compilation was refused by the page's Content-Security-Policy (the automatic choice then avoids WebAssembly). */
export function wasmCompilationBlocked(): boolean {
  return blocked !== undefined;
}

const instances = new Map<string, WebAssembly.Exports>();

/** Drops every compiled module (benchmarks and tests that change how kernels are generated, e.g. forceWasmFusedFma). */
export function forgetWasmModules(): void {
  instances.clear();
}

/**
 * The exports of the module `key` (compiled from `build()` on first use and cached), instantiated over `memory`
 * ({@link wasmMemory} unless a kernel keeps its operands in a memory of its own; one memory per key). Synchronous: the modules are a few hundred bytes, under the 4 KiB browsers allow to
 * compile synchronously on the main thread.
 * @throws {@link ModprecError} `CODE_GENERATION_BLOCKED` when a Content-Security-Policy forbids compiling WebAssembly
 */
export function wasmExports(key: string, what: string, build: () => Uint8Array, memory: WebAssembly.Memory = wasmMemory()): WebAssembly.Exports {
  const cached = instances.get(key);
  if (cached) return cached;
  if (blocked) throw blocked;
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(build() as BufferSource);
  } catch (e) {
    // Chromium throws a CompileError, Firefox an EvalError, both naming the policy.
    const message = e instanceof Error ? e.message : String(e);
    if (!(e instanceof EvalError) && !/Content.Security.Policy|unsafe-eval|wasm-eval/i.test(message)) throw e;
    blocked = new ModprecError(
      'CODE_GENERATION_BLOCKED',
      `modprec compiles ${what} to WebAssembly at run time, which this page's Content-Security-Policy forbids: ${WASM_CSP_ADVICE}. (${message})`,
      'Content-Security-Policy',
    );
    throw blocked;
  }
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  instances.set(key, instance.exports);
  return instance.exports;
}
