/**
 * TRSV in an arithmetic without ±∞ (kind `mp`: RNS) reads back the unknowns it has stored. One whose value lies
 * beyond x's storage (fp64, fp32, fp16, bf16, dd) is stored as ±∞, and the next row that reads it fails part-way,
 * after earlier unknowns were written. No check before the solve can see that coming, so the solve runs with x's
 * elements kept aside: on such a failure they are put back and the error names the unknown that overflowed. The
 * GPU's RNS solve keeps x in RNS until it ends and stores it all at once: the same check after that store gives the
 * CPU's error and x's bits (one rule: only an overflow in the last unknown solved, read back by no row, stays ±∞).
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
 * Runs `solve` (the substitution on x, in an `mp` arithmetic, or the store of a solution computed elsewhere); if it
 * throws after an unknown overflowed x's storage, or returns with an unknown other than the last one solved stored as
 * ±∞ (an unknown a later row reads back), restores every element of x as it was and throws a typed error naming that
 * unknown.
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
  // The first unknown in solve order stored as ±∞ (-1: none).
  const firstOverflow = (): number => {
    for (let k = 0; k < n; k++) {
      const i = lower ? k : n - 1 - k;
      if (!finite(st.kind, st.decode(a.data as never, at(i)))) return k;
    }
    return -1;
  };
  let error: unknown, step: number;
  try {
    solve();
    step = firstOverflow();
    // The last unknown solved is read back by no row: stored as ±∞, as fp64 arithmetic stores it.
    if (step < 0 || step === n - 1) return;
  } catch (e) {
    error = e;
    step = firstOverflow();
  }
  // Only the unknowns solved (or stored) changed: rewrite those (an error raised before the solve wrote anything,
  // such as an accumulation RNS cannot run, leaves every bit as it was; a rewritten dd pair is normalised).
  kept.forEach((v, i) => { if (!sameValue(st.kind, v, st.decode(a.data as never, at(i)))) st.encode(a.data as never, at(i), v); });
  if (step < 0) throw error;
  const overflowed = lower ? step : n - 1 - step;
  fail('INVALID_VALUE', `x[${overflowed}]`, `overflowed its storage (${st.name}) in the solve: stored as ±∞, which ${ar.name} arithmetic cannot read back for the next unknowns (x is left as it was)`);
}
