/**
 * Runtime discovery of what the library offers. The study looks kernels up by name in the package's
 * own exports instead of importing them statically, so a kernel, format or backend that lands later
 * joins the study as soon as src/index.ts exports it — with no change here.
 * @module
 */
import * as modprec from '../index.js';
import { findFormat, formatNames } from '../formats/registry.js';

const exported = modprec as unknown as Readonly<Record<string, unknown>>;

/** The exported function called `name`, or undefined when the library does not (yet) export it. */
export function libraryFunction<F extends (...args: never[]) => unknown>(name: string): F | undefined {
  const f = exported[name];
  return typeof f === 'function' ? (f as F) : undefined;
}

/** Names of registered formats usable as storage of real data (floating point: no integer formats). */
export function floatStorageNames(): string[] {
  return formatNames().filter((n) => {
    const s = findFormat(n)?.storage;
    return s !== undefined && !s.isInteger;
  });
}

/** Names of registered formats with a CPU arithmetic. */
export function arithmeticNames(): string[] {
  return formatNames().filter((n) => findFormat(n)?.arithmetic !== undefined);
}

/** Significand bits of a registered format (storage first, else arithmetic), or NaN when unknown. */
export function formatBits(name: string): number {
  const f = findFormat(name);
  return f?.storage?.significandBits ?? f?.arithmetic?.significandBits ?? NaN;
}
