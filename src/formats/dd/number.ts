/**
 * Double-double ⇄ double conversions of the allocation-free API.
 * @module
 */
import { fail } from '../../core/errors.js';
import type { DdBuffer } from './eft.js';
import { NAMES_HI_LO, failDdOperands, failDdOut } from './dd-arguments.js';

/**
 * `out := (x, 0)`, the exact double-double of a double.
 * @param out - receives [hi, lo]
 * @param x - a finite double
 * @param parameter - name used in error messages
 * @throws {@link ModprecError} `INVALID_VALUE` if x is not a finite number
 * @example
 * ```ts
 * import { ddFromNumber } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddFromNumber(r, 0.1);
 * r; // → Float64Array(2) [ 0.1, 0 ]
 * ```
 * @group Double-double
 */
export function ddFromNumber(out: DdBuffer, x: number, parameter = 'x'): void {
  if (!(out instanceof Float64Array) || out.length < 2) failDdOut(out);
  if (typeof x !== 'number' || !Number.isFinite(x)) fail('INVALID_VALUE', parameter, 'must be a finite number', x);
  out[0] = x;
  out[1] = x === 0 ? x : 0; // keeps −0 a −0 through hi + lo
}

/**
 * hi + lo rounded to the nearest double (one rounding of the exact sum, so correctly rounded;
 * hi alone is not always the nearest: at a tie |lo| = ulp(hi)/2 the even neighbour wins).
 * @param hi - high part
 * @param lo - low part
 * @returns the nearest double
 * @example
 * ```ts
 * import { ddToNumber } from 'modprec';
 *
 * ddToNumber(1, 2 ** -60); // → 1
 * ddToNumber(1, 2 ** -52); // → 1.0000000000000002
 * ```
 * @group Double-double
 */
export function ddToNumber(hi: number, lo: number): number {
  if (typeof hi !== 'number' || typeof lo !== 'number') failDdOperands(NAMES_HI_LO, hi, lo);
  return hi + lo;
}
