/**
 * Counters of the expensive paths of RNS arithmetic (roundings, interval evaluations from residues), for
 * profiling: benchmarks read them to explain where time goes. Incrementing a counter costs about a nanosecond.
 * @module
 */

/**
 * How often the slow paths ran since the last {@link resetRnsStats}.
 * @group RNS
 */
export const RNS_STATS = { roundings: 0, evaluations: 0 };

/**
 * Zeroes {@link RNS_STATS}.
 * @example
 * ```ts
 * import { vector, formats, dot, RNS_STATS, resetRnsStats } from 'modprec';
 *
 * resetRnsStats();
 * const x = vector([0.1, 0.2], { storage: formats.f64, arithmetic: formats.rns212 });
 * dot(x, x);
 * RNS_STATS.roundings >= 0; // → true
 * ```
 * @group RNS
 */
export function resetRnsStats(): void {
  RNS_STATS.roundings = 0;
  RNS_STATS.evaluations = 0;
}
