/**
 * Rare-case guards in generated source, and loops that run without them.
 *
 * A guard is a statement that repairs a value only when that value came out non-finite (e.g. Dekker's product
 * recomputed with scaled operands when the splitting overflowed). Where every value a loop computes reaches
 * the kernel's result through +, −, × only, a non-finite intermediate makes the result non-finite (IEEE:
 * NaN and ±∞ are absorbing under +, −, ×: the outcome is NaN or ±∞ again). So the loop may run without its
 * guards first: a finite result proves no guard would have fired, and the guarded loop, run again only when
 * the result is not finite, returns bit for bit what it would have returned in the first place.
 * @module
 */

const OPEN = '/*guard*/';
const CLOSE = '/*/guard*/';
const GUARDS = /\/\*guard\*\/[^]*?\/\*\/guard\*\//g;

/**
 * Marks `statement` as a guard: it must change nothing unless the value it tests is non-finite (NaN or ±∞), or is
 * a zero whose sign it fixes in a way that no sum from +0 needs (the double-double templates, dd-templates.ts).
 * @param statement - one complete statement (no guard markers inside)
 */
export function guard(statement: string): string {
  return `${OPEN}${statement}${CLOSE}`;
}

/** `source` with every guard removed (the fast loop body). */
export function withoutGuards(source: string): string {
  return source.replace(GUARDS, '');
}

/**
 * A reduction run unguarded first: `loop(body)` without guards, then `result`; when the finite-test expression
 * `resultNumber` fails, `reset`, the guarded loop and `result` again (identical results, see the module
 * comment). Without guards in `body`, or when the caller cannot promise that every intermediate reaches the
 * result through +, −, × (`propagates` false), the plain guarded loop.
 * @param loop - wraps a body into the loop statements (called once or twice: it must declare in blocks only)
 * @param body - the loop body, possibly with guards
 * @param result - statements computing the result after the loop
 * @param resultNumber - an expression, the result as a number (tested with Number.isFinite)
 * @param reset - statements restoring the accumulator's initial state
 * @param propagates - whether non-finite intermediates are known to reach the result
 */
export function unguardedFirst(
  loop: (body: string) => string, body: string, result: string, resultNumber: string, reset: string, propagates: boolean,
): string {
  const fast = propagates ? withoutGuards(body) : body;
  if (fast === body) return `${loop(body)}\n${result}`;
  return `{
${loop(fast)}
}
${result}
if (!Number.isFinite(${resultNumber})) {
${reset}
${loop(body)}
${result}
}`;
}
