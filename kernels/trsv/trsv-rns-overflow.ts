/**
 * TRSV in an arithmetic without ±∞ (kind `mp`: RNS) reads back the unknowns it has stored. One whose value lies
 * beyond x's storage (fp64, fp32, fp16, bf16, dd) is stored as ±∞, and the next row that reads it fails part-way,
 * after earlier unknowns were written. No check before the solve can see that coming, so the solve runs with x's
 * elements kept aside: on such a failure they are put back and the error names the unknown that overflowed.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { fail } from '../../src/core/errors.js';

/** Whether a value as x's storage decodes it is finite (multiple-precision storage always is). */
function finite(kind: string, v: unknown): boolean {
  if (kind === 'number') return Number.isFinite(v);
  if (kind === 'dd') { const p = v as { hi: number; lo: number }; return Number.isFinite(p.hi) && Number.isFinite(p.lo); }
  return true;
}

/** Whether two values as a storage decodes them are the same bits (multiple precision: never rewritten). */
function sameValue(kind: string, a: unknown, b: unknown): boolean {
  if (kind === 'number') return Object.is(a, b);
  if (kind === 'dd') { const [p, q] = [a as { hi: number; lo: number }, b as { hi: number; lo: number }]; return Object.is(p.hi, q.hi) && Object.is(p.lo, q.lo); }
  return true;
}

/**
 * Runs `solve` (the substitution on x, in an `mp` arithmetic); if it throws after an unknown overflowed x's
 * storage, restores every element of x as it was and throws a typed error naming that unknown.
 * @param x - the right-hand side, overwritten by the solution (every element finite: checked before)
 * @param lower - whether op(A) is lower triangular (the unknowns are solved first to last)
 * @throws {@link ModprecError} `INVALID_VALUE` naming `x[i]`, the first unknown in solve order stored as ±∞;
 *   any other error of `solve` unchanged (x restored as well)
 * @example
 * ```ts
 * solveRestoringX(x, lower, ar, () => trsvProgram(spec)(n, ...args));
 * ```
 */
export function solveRestoringX(x: Range<1, any>, lower: boolean, ar: ArithmeticFormat, solve: () => void): void {
  const a = x.accessor, st = a.storage, n = x.length();
  const at = (i: number): number => a.linearIndex([i]);
  const kept = Array.from({ length: n }, (_, i) => st.decode(a.data as never, at(i)));
  try {
    solve();
  } catch (e) {
    let overflowed = -1;
    for (let k = 0; k < n && overflowed < 0; k++) {
      const i = lower ? k : n - 1 - k;
      if (!finite(st.kind, st.decode(a.data as never, at(i)))) overflowed = i;
    }
    // Only the unknowns solved before the failure changed: rewrite those (an error raised before the solve wrote
    // anything, such as an accumulation RNS cannot run, leaves every bit as it was; a rewritten dd pair is normalised).
    kept.forEach((v, i) => { if (!sameValue(st.kind, v, st.decode(a.data as never, at(i)))) st.encode(a.data as never, at(i), v); });
    if (overflowed < 0) throw e;
    fail('INVALID_VALUE', `x[${overflowed}]`, `overflowed its storage (${st.name}) in the solve: stored as ±∞, which ${ar.name} arithmetic cannot read back for the next unknowns (x is left as it was)`);
  }
}
