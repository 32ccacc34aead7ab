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
    checkNotShadowed(source, names);
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
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `helpers.<name>` when two formats define the same helper name
 *   differently (it was a plain Error)
 */
export function mergeHelpers(...records: readonly Readonly<Record<string, unknown>>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of records) {
    for (const [name, value] of Object.entries(r)) {
      if (name in out && out[name] !== value) fail('INVALID_FORMAT', `helpers.${name}`, "must be defined once: two formats of the call define it differently (prefix helpers with the format's name)", name);
      out[name] = value;
    }
  }
  return out;
}

/**
 * A helper is bound by name around the kernel, so a variable of the kernel with its name hides it: a user helper called
 * `n`, `i`, `alpha` or `x_d` made the first call throw "n is not a function" (a TypeError). Declarations and
 * parameters in the source are found by pattern — generated code declares with `let`/`const`/`var` and `function`.
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `helpers.<name>`, before the kernel is compiled
 */
function checkNotShadowed(source: string, helpers: readonly string[]): void {
  if (helpers.length === 0) return;
  const declared = new Set<string>();
  for (const m of source.matchAll(/\b(?:let|const|var)\s+([^;]*)/g)) {
    // `let a = 0, b = f(c, d)`: each name at the start or after a comma and followed by `=`, `,` or the end.
    for (const d of m[1]!.matchAll(/(?:^|,)\s*([A-Za-z_$][\w$]*)\s*(?==|,|$)/g)) declared.add(d[1]!);
  }
  for (const m of source.matchAll(/\bfunction\s*([A-Za-z_$][\w$]*)?\s*\(([^)]*)\)/g)) {
    if (m[1]) declared.add(m[1]);
    for (const p of m[2]!.split(',')) declared.add(p.trim());
  }
  for (const h of helpers) {
    if (declared.has(h)) fail('INVALID_FORMAT', `helpers.${h}`, "must not be the name of a variable of the generated kernel: prefix helpers with the format's name", h);
  }
}
