/**
 * Priming: a freshly compiled single-loop kernel runs twice on a short prefix before its first long run.
 *
 * Why (V8 11, Node 20; measured on a 2^20-element DD DOT): a kernel whose very first call is long gets its
 * feedback vector only in the middle of that call and is optimised on-stack (OSR) inside the loop, before the
 * code after the loop has ever run. That OSR code then deoptimises at the first arithmetic after the loop
 * ("insufficient type feedback") on every later call too, and the regular optimised code deoptimises at the
 * prologue for the same reason; the kernel settles in a loop of baseline code, OSR entry and deoptimisation
 * at about twice its optimised time (e.g. 7–9 ms instead of 3.5 ms). Two short runs first give the prologue and
 * the epilogue type feedback, and the kernel then tiers up normally. The cost is 2 × {@link PRIME_LENGTH}
 * elements once per compiled kernel.
 * @module
 */

/** Elements of each priming run (long enough for V8 to allocate the feedback vector inside the first run). */
export const PRIME_LENGTH = 64;

const primed = new WeakSet<object>();

/**
 * On the first call of kernel `f` only: when the problem is longer than {@link PRIME_LENGTH}, runs
 * `runPrefix(PRIME_LENGTH)` twice (the kernel on a prefix of its operands; only for kernels without side
 * effects, or whose effects the full run overwrites).
 * @param f - the compiled kernel (its identity marks it primed)
 * @param n - the length of the coming run
 * @param runPrefix - runs the kernel on the first `k` elements and discards the result
 */
export function primeOnce(f: object, n: number, runPrefix: (k: number) => unknown): void {
  if (primed.has(f)) return;
  primed.add(f);
  if (n <= PRIME_LENGTH) return;
  runPrefix(PRIME_LENGTH);
  runPrefix(PRIME_LENGTH);
}
