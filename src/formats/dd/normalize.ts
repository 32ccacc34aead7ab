/**
 * Validation and normalisation of double-double pairs written by users.
 *
 * Policy: user-supplied pairs are NORMALISED, not rejected: (hi, lo) is replaced by TwoSum(hi, lo),
 * which has the same exact value and satisfies hi = RN(hi + lo). Non-finite parts are rejected with
 * `INVALID_VALUE`. Kernels and the allocation-free functions assume normalised input and do not check.
 * @module
 */
import { fail } from '../../core/errors.js';
import type { DdBuffer } from './eft.js';
import { failDdOut } from './dd-arguments.js';

/**
 * Whether (hi, lo) is a normalised double-double: both finite and hi = RN(hi + lo)
 * (so |lo| ≤ ulp(hi)/2), the invariant of JMP 2017's double-word numbers.
 * @param hi - high part
 * @param lo - low part
 * @returns true when normalised
 * @example
 * ```ts
 * import { isNormalizedDd } from 'modprec';
 *
 * isNormalizedDd(1, 2 ** -60); // → true
 * isNormalizedDd(1, 1); // → false
 * ```
 * @group Double-double
 */
export function isNormalizedDd(hi: number, lo: number): boolean {
  return Number.isFinite(hi) && Number.isFinite(lo) && hi + lo === hi;
}

/**
 * Checks that both parts are finite and writes the normalised pair (same exact value) into `out`.
 * @param out - receives [hi, lo], normalised
 * @param hi - high part as given
 * @param lo - low part as given
 * @param parameter - name used in error messages (`<parameter>.hi`, `<parameter>.lo`)
 * @throws {@link ModprecError} `INVALID_VALUE` if a part is not a finite number or hi + lo overflows
 * @example
 * ```ts
 * import { ddNormalize } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddNormalize(r, 1, 1);   // (1, 1) is 2: normalised, hi holds it all
 * r; // → Float64Array(2) [ 2, 0 ]
 * ```
 * @group Double-double
 */
export function ddNormalize(out: DdBuffer, hi: number, lo: number, parameter = 'value'): void {
  if (!(out instanceof Float64Array) || out.length < 2) failDdOut(out);
  if (typeof hi !== 'number' || !Number.isFinite(hi)) fail('INVALID_VALUE', `${parameter}.hi`, 'must be a finite number', hi);
  if (typeof lo !== 'number' || !Number.isFinite(lo)) fail('INVALID_VALUE', `${parameter}.lo`, 'must be a finite number', lo);
  const s = hi + lo;
  if (!Number.isFinite(s)) fail('INVALID_VALUE', parameter, 'must have hi + lo within the double range', s);
  const z = s - hi;
  const e = (hi - (s - z)) + (lo - z);
  out[0] = s;
  // A zero error is +0, except for a zero sum, which keeps its sign in both parts ((−0, +0) would read back as +0).
  out[1] = e === 0 ? (s === 0 ? s : 0) : e;
}
