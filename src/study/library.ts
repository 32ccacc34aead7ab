/**
 * Runtime discovery of what the library offers. The study looks kernels up by name — first in the
 * package's own exports, then in the modules where the kernels live — instead of importing them
 * statically, so a kernel, format or backend that lands later joins the study as soon as it exists,
 * with no change here.
 * @module
 */
import * as modprec from '../index.js';
import { findFormat, formatNames } from '../formats/registry.js';

const exported = modprec as unknown as Readonly<Record<string, unknown>>;
const discovered = new Map<string, unknown>();

/**
 * Modules that define kernels the study drives, relative to this file (compiled: dist/src/study/).
 * Used only for names the package does not export (yet).
 */
const KERNEL_MODULES: readonly string[] = [
  '../../kernels/gemv/gemv.js', '../../kernels/trsv/trsv.js', '../../kernels/ell-spmv/ell-spmv.js',
  '../../kernels/ell-spmv/ell-operand.js', '../lu.js', '../rns/index.js',
];

/**
 * Loads the kernel modules that exist (a missing one is skipped) and records their exported functions.
 * Call once before planning; later calls reuse the first result.
 */
export function discoverLibrary(): Promise<void> {
  discovery ??= (async () => {
    for (const spec of KERNEL_MODULES) {
      try {
        const mod = (await import(new URL(spec, import.meta.url).href)) as Record<string, unknown>;
        for (const [name, value] of Object.entries(mod)) if (typeof value === 'function') discovered.set(name, value);
      } catch {
        // Not there yet: the kernel joins the study when it lands.
      }
    }
  })();
  return discovery;
}
let discovery: Promise<void> | undefined;

/** The library function called `name` (exported, or found by {@link discoverLibrary}), or undefined. */
export function libraryFunction<F extends (...args: never[]) => unknown>(name: string): F | undefined {
  const f = exported[name] ?? discovered.get(name);
  return typeof f === 'function' ? (f as F) : undefined;
}

/**
 * Names of registered storage formats the study can hold real data in: floating-point formats, and integer
 * formats through scaled accessors (one fp64 scale per vector or matrix row; see study/operands.ts).
 */
export function studyStorageNames(): string[] {
  return formatNames().filter((n) => findFormat(n)?.storage !== undefined);
}

/**
 * Names of registered formats with a CPU arithmetic, each arithmetic once (a format registered under a
 * second name with the same arithmetic, e.g. `dd-split`, names a storage variant, not a new arithmetic).
 */
export function arithmeticNames(): string[] {
  const seen = new Set<unknown>();
  return formatNames().filter((n) => {
    const a = findFormat(n)?.arithmetic;
    if (a === undefined || seen.has(a)) return false;
    seen.add(a);
    return true;
  });
}
