/** Checks an element-wise kernel's output, component by component, against exact results and per-component bounds. */
import { expect } from 'vitest';
import type { Range } from '../../../src/core/range.js';
import type { Rational } from '../../../src/testing/rational.js';
import { storedElement, storedExact } from './storage-oracle.js';
import { errorOfExact, withinBoundExact } from './exact-check.js';
import type { KernelStats } from './kernel-stats.js';

/**
 * Expects |out_i − exact_i| ≤ bound_i for every i (out_i the exact stored value) and updates `stats`;
 * `wrongBound`, a deliberately too tight bound, only counts violations.
 */
export function expectComponentsWithin(
  out: Range<1, any>, exact: readonly Rational[], bound: Float64Array, stats: KernelStats,
  wrongBound: Float64Array | undefined, context: () => string,
): void {
  expect(bound.length).toBe(exact.length);
  for (let i = 0; i < exact.length; i++) {
    stats.checked++;
    if (bound[i] === Infinity) continue; // nothing to check (the data overflow the arithmetic or the storage)
    const raw = storedElement(out, [i]);
    if (!Number.isFinite(raw)) expect.fail(`component ${i}: ${raw} with a finite bound ${bound[i]} (${context()})`);
    const computed = storedExact(out, [i]);
    const ok = withinBoundExact(computed, exact[i]!, bound[i]!);
    if (!ok) expect.fail(`component ${i}: error ${errorOfExact(computed, exact[i]!)} > bound ${bound[i]} (${context()})`);
    const error = errorOfExact(computed, exact[i]!);
    if (error > 0) stats.inexact++;
    if (bound[i]! > 0 && Number.isFinite(bound[i]!)) stats.worstRatio = Math.max(stats.worstRatio, error / bound[i]!);
    if (wrongBound && !withinBoundExact(computed, exact[i]!, wrongBound[i]!)) stats.wrongBoundViolations++;
  }
}
