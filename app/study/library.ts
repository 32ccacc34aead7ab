/**
 * Which formats of the library the study sweeps: read from the format registry at run time, so a format
 * a user or the library registers joins the study with no change here.
 * @module
 */
import { findFormat, formatNames } from '../modprec.js';

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
