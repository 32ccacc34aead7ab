/**
 * Backends: where a kernel runs. `options.backend` chooses one (`'cpu'`, the default, or `'gpu'`); every kernel
 * validates its arguments, options and arithmetic with the same shared code whatever the backend, then asks the
 * chosen backend whether it supports the call's signature. A backend that does not answers with a reason, and the
 * kernel throws a typed error naming the parameter — never a silent run elsewhere.
 * @module
 */
import type { Range } from '../core/range.js';
import type { ArithmeticFormat } from '../formats/common/format.js';
import { fail } from '../core/errors.js';

/**
 * The registered backends: `'cpu'` (the default: WebAssembly SIMD where it runs the signature, generated
 * JavaScript otherwise), `'wasm'` (WebAssembly SIMD only: a typed error where it cannot), `'js'` (generated
 * JavaScript only), `'gpu'` (WebGPU).
 */
export type BackendName = 'cpu' | 'gpu' | 'wasm' | 'js';

/** The nine kernels every backend is asked about. */
export type KernelName = 'dot' | 'gemv' | 'trsv' | 'ellSpmv' | 'axpy' | 'waxpby' | 'scal' | 'nrm2' | 'asum';

/** What a backend needs to know to accept or refuse a call: the kernel, its operands and the arithmetic. */
export interface KernelSignature {
  readonly kernel: KernelName;
  /** Operands by parameter name (`x`, `A`, `A.values`, …). */
  readonly operands: readonly (readonly [string, Range<any, any>])[];
  /** The arithmetic the call computes in (chosen by the shared rule, kernels/shared/kernel-options.ts). */
  readonly arithmetic: ArithmeticFormat;
}

/** Why a backend cannot run a signature: the parameter to name in the typed error, and the reason. */
export interface Refusal {
  /** The parameter the error names (`options.arithmetic`, `x`, `A.values`, …). */
  readonly parameter: string;
  /** What is missing, and what to pass instead. */
  readonly reason: string;
  /** The error code: `INVALID_FORMAT` for an operand's storage, `INVALID_OPTION` otherwise. */
  readonly code: 'INVALID_FORMAT' | 'INVALID_OPTION';
}

/** A backend: which signatures it runs. (Running is per kernel, see src/backends/webgpu-bridge/gpu-dispatch.ts.) */
export interface KernelBackend {
  readonly name: BackendName;
  /** `undefined` when the backend runs `signature`, else why not. */
  supports(signature: KernelSignature): Refusal | undefined;
}

/**
 * Checks that a kernel's or a bound's `options` is an object or omitted (`null`, a number or a string would
 * otherwise be read as no options at all, or fail with a TypeError).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options`
 */
export function checkOptionsObject(options: unknown): void {
  if (options !== undefined && (typeof options !== 'object' || options === null)) fail('INVALID_OPTION', 'options', 'must be an object', options);
}

/**
 * Checks the options of a GPU call — the resident API's and `backend: 'gpu'`'s alike: an object (or omitted) whose
 * `strict`, when given, is a boolean (`'yes'` would otherwise be taken as true by one and refused by the other).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options` or `options.strict`
 */
export function checkGpuOptions(options: unknown): void {
  checkOptionsObject(options);
  const strict = (options as { strict?: unknown } | undefined)?.strict;
  if (strict !== undefined && typeof strict !== 'boolean') fail('INVALID_OPTION', 'options.strict', 'must be a boolean', strict);
}

/**
 * The backend `options.backend` names (default `'cpu'`).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options` when it is not an object, `options.strict` when
 *   it is given and not a boolean (on every backend), `options.backend` for anything else
 * @example
 * ```ts
 * chooseBackend({ backend: 'gpu' }); // 'gpu'
 * chooseBackend(undefined); // 'cpu'
 * ```
 */
export function chooseBackend(options: { backend?: unknown } | undefined): BackendName {
  // strict is checked whatever the backend, so that one options object is valid or invalid alike on all of them.
  checkGpuOptions(options);
  const b = options?.backend;
  if (b === undefined || b === 'cpu') return 'cpu';
  // Threads split CPU calls; a GPU call has its own parallelism (one rule: refused, not ignored).
  if (b === 'gpu' && (options as { threads?: unknown }).threads !== undefined) fail('INVALID_OPTION', 'options.threads', "is not for backend 'gpu'");
  if (b === 'gpu' || b === 'wasm' || b === 'js') return b;
  return fail('INVALID_OPTION', 'options.backend', "must be 'cpu', 'wasm', 'js' or 'gpu'", b);
}

/**
 * Throws the typed error of a refusal.
 * @throws {@link ModprecError} with the refusal's code and parameter
 */
export function refuse(backend: BackendName, r: Refusal): never {
  return fail(r.code, r.parameter, `${r.reason} (backend '${backend}')`);
}
