/**
 * Compiles generated kernel source once per specialisation and caches it — the counterpart of C++ template
 * instantiation. Each specialisation is its own JS function, so the engine sees monomorphic loads and inlines
 * the formats' templates: no dynamic dispatch per element.
 * @module
 */
import { generatedFunction } from '../../core/generated-function.js';
import { fail } from '../../core/errors.js';

/** Generated source plus the helper values its templates refer to by name. */
export interface ProgramSource {
  /** Body of a factory: must `return function <name>(...) { ... }`. */
  readonly source: string;
  /** Values bound to bare names visible to `source`. */
  readonly helpers: Readonly<Record<string, unknown>>;
}

const cache = new Map<string, unknown>();
let debug = typeof process !== 'undefined' && !!process.env?.MODPREC_DEBUG_KERNELS;

/**
 * Turns printing of every newly generated kernel source on or off (also on when the environment variable
 * `MODPREC_DEBUG_KERNELS` is set).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `on` when it is not a boolean
 * @example
 * ```ts
 * import { vector, formats, dot, setKernelDebug } from 'modprec';
 *
 * setKernelDebug(true);    // the next kernel generated prints its source
 * dot(vector([1, 2]), vector([3, 4]), { arithmetic: formats.f32 });
 * setKernelDebug(false);
 * ```
 * @group Kernels
 */
export function setKernelDebug(on: boolean): void {
  // Anything was taken: setKernelDebug('false') turned printing on.
  if (typeof on !== 'boolean') fail('INVALID_OPTION', 'on', 'must be a boolean', on);
  debug = on;
}

/**
 * Number of cached specialisations (for tests and diagnostics).
 * @example
 * ```ts
 * import { vector, formats, dot, cachedKernelCount } from 'modprec';
 *
 * const before = cachedKernelCount();
 * const x = vector([1, 2], { storage: formats.bf16, arithmetic: formats.f32 });
 * dot(x, x);
 * dot(x, x);   // same signature: the cached kernel runs again
 * cachedKernelCount() - before <= 1; // → true
 * ```
 * @group Kernels
 */
export function cachedKernelCount(): number {
  return cache.size;
}

/** The generated source of every cached specialisation whose key contains `kernel` (for inspection). */
export const generatedSources = new Map<string, string>();

/**
 * Returns the compiled specialisation for `key`, building and compiling it on first use.
 * @param key - a structured, JSON-serialisable description of everything the source depends on
 * @param build - generates the source (called once per key)
 */
export function compileProgram<F>(key: object, build: () => ProgramSource): F {
  const k = JSON.stringify(key);
  let f = cache.get(k) as F | undefined;
  if (f === undefined) {
    const { source, helpers } = build();
    const names = Object.keys(helpers);
    if (debug) console.log(`// modprec kernel ${k}\n${source}`);
    const factory = generatedFunction(`the ${String((key as { kernel?: unknown }).kernel ?? 'generated')} kernel`, names, `'use strict';\n${source}`) as (...values: unknown[]) => F;
    f = factory(...names.map((n) => helpers[n]));
    cache.set(k, f);
    generatedSources.set(k, source);
  }
  return f;
}

/**
 * Merges helper records, refusing two different values under one name (formats must prefix their helpers).
 * @throws Error when two formats define the same helper name differently
 */
export function mergeHelpers(...records: readonly Readonly<Record<string, unknown>>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of records) {
    for (const [name, value] of Object.entries(r)) {
      if (name in out && out[name] !== value) throw new Error(`modprec: two formats define the helper '${name}' differently`);
      out[name] = value;
    }
  }
  return out;
}
