/**
 * Statistics a kernel property collects so the test can show it is not vacuous: how many results had a
 * non-zero error, and how often a deliberately wrong (too tight) bound was violated.
 */
export interface KernelStats {
  /** Components checked. */
  checked: number;
  /** Components with |computed − exact| > 0. */
  inexact: number;
  /** Components whose error exceeded the bound computed with fp64's u (only meaningful for fp32 runs). */
  wrongBoundViolations: number;
  /** Largest error / bound seen. */
  worstRatio: number;
}

/** Fresh, zeroed statistics. */
export function newStats(): KernelStats {
  return { checked: 0, inexact: 0, wrongBoundViolations: 0, worstRatio: 0 };
}
