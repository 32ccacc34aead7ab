/**
 * `DD`: an immutable double-double value for convenient (allocating) use. Hot loops should use the
 * allocation-free functions (`ddAdd(out, …)`) or the DD arithmetic format in kernels instead.
 * @module
 */
import { fail } from '../../core/errors.js';
import { ddGuardedAdd, ddGuardedSub, ddGuardedMul, ddGuardedDiv } from './guarded.js';
import { ddSqrt } from './sqrt.js';
import { ddAbs, ddCompare } from './compare.js';
import { ddNormalize } from './normalize.js';
import { ddFromDecimal, ddToDecimal } from './decimal.js';
import { ddFromRational, ddToRational, type Rational } from './rational.js';

const scratch = new Float64Array(2);

/**
 * What {@link DD.from} accepts.
 * @group Double-double
 */
export type DDLike = DD | number | string | bigint | Rational | { readonly hi: number; readonly lo: number };

/** The token only this module passes to DD's constructor. */
const MADE: unique symbol = Symbol('DD');

/**
 * An immutable double-double number hi + lo (normalised: hi = RN(hi + lo)), about 106 significant bits.
 * Operations round as the allocation-free functions do (bounds in docs/double-double.md), and take
 * overflow and division by zero as the kernels do: 1e300 · 1e300 = ∞, 3 / 0 = ∞ (the bare functions give NaN there).
 *
 * @example
 * ```ts
 * import { DD } from 'modprec';
 *
 * const third = DD.from(1).div(3);
 * third.toString(32);            // "3.3333333333333333333333333333333e-1"
 * DD.from(2).sqrt().toString(30);  // "1.41421356237309504880168872421e+0"
 * ```
 * @group Double-double
 */
export class DD {
  /** High part: the value rounded to the nearest double. */
  readonly hi: number;
  /** Low part: the rest, |lo| ≤ ulp(hi)/2. */
  readonly lo: number;

  private constructor(hi: number, lo: number, token?: symbol) {
    // Private in TypeScript only: from JavaScript, new DD(Symbol(), 'x') built a value every method then misread.
    if (token !== MADE) fail('INVALID_OPTION', 'DD', 'is made by DD.from, DD.ONE or DD.ZERO and the arithmetic methods, not by new DD', hi);
    this.hi = hi;
    this.lo = lo;
  }

  /** Zero. */
  static readonly ZERO = new DD(0, 0, MADE);
  /** One. */
  static readonly ONE = new DD(1, 0, MADE);

  /**
   * Converts a value to DD: a number (exact), a decimal string or a bigint/rational (correctly rounded),
   * or a user pair `{ hi, lo }` (checked finite and normalised, value unchanged).
   * @param value - the value
   * @param parameter - name used in error messages
   * @returns the DD
   * @throws {@link ModprecError} `INVALID_VALUE` for non-finite numbers or parts, out-of-range values;
   *   `PARSE_ERROR` for malformed strings
   */
  static from(value: DDLike, parameter = 'value'): DD {
    if (value instanceof DD) return value;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) fail('INVALID_VALUE', parameter, 'must be a finite number', value);
      return new DD(value, value === 0 ? value : 0, MADE);   // −0 stays −0 through toNumber's hi + lo
    }
    if (typeof value === 'string') ddFromDecimal(scratch, value, parameter);
    else if (typeof value === 'bigint') ddFromRational(scratch, value, 1n, parameter);
    else if (value !== null && typeof value === 'object' && 'num' in value) ddFromRational(scratch, value.num, value.den, parameter);
    else if (value !== null && typeof value === 'object' && 'hi' in value) ddNormalize(scratch, value.hi, value.lo, parameter);
    else fail('INVALID_VALUE', parameter, 'must be a number, decimal string, bigint, rational or { hi, lo }', value);
    return new DD(scratch[0]!, scratch[1]!, MADE);
  }

  /** Wraps the last result in the scratch buffer. */
  private static take(): DD {
    return new DD(scratch[0]!, scratch[1]!, MADE);
  }

  /** this + b (JMP Algorithm 6, ≤ 3u² + 13u³). @param b - addend @returns the sum */
  add(b: DDLike): DD { const y = DD.from(b, 'b'); ddGuardedAdd(scratch, this.hi, this.lo, y.hi, y.lo); return DD.take(); }
  /** this − b (≤ 3u² + 13u³). @param b - subtrahend @returns the difference */
  sub(b: DDLike): DD { const y = DD.from(b, 'b'); ddGuardedSub(scratch, this.hi, this.lo, y.hi, y.lo); return DD.take(); }
  /** this · b (JMP Algorithm 10, ≤ 7u²). @param b - factor @returns the product */
  mul(b: DDLike): DD { const y = DD.from(b, 'b'); ddGuardedMul(scratch, this.hi, this.lo, y.hi, y.lo); return DD.take(); }
  /** this / b (JMP Algorithm 17, ≤ 15u² + 56u³ for any finite operands whose quotient lies in [2^-916, MAX]; operands beyond 2^±900 divide scaled, docs/double-double.md). @param b - divisor @returns the quotient */
  div(b: DDLike): DD { const y = DD.from(b, 'b'); ddGuardedDiv(scratch, this.hi, this.lo, y.hi, y.lo); return DD.take(); }
  /** √this (≤ 25/8·u²; NaN parts for negative values). @returns the square root */
  sqrt(): DD { ddSqrt(scratch, this.hi, this.lo); return DD.take(); }
  /** −this (exact). @returns the negation */
  neg(): DD { return new DD(-this.hi, -this.lo, MADE); }
  /** |this| (exact). @returns the absolute value */
  abs(): DD { ddAbs(scratch, this.hi, this.lo); return DD.take(); }
  /** Three-way comparison (exact). @param b - other value @returns −1, 0 or 1 */
  compare(b: DDLike): number { const y = DD.from(b, 'b'); return ddCompare(this.hi, this.lo, y.hi, y.lo); }
  /** Exact equality of values. @param b - other value @returns whether equal */
  equals(b: DDLike): boolean { return this.compare(b) === 0; }
  /** The value rounded to the nearest double (one rounding of hi + lo). @returns a double */
  toNumber(): number { return this.hi + this.lo; }
  /** The exact value as a BigInt rational (denominator a power of two). @returns num/den */
  toRational(): Rational { return ddToRational(this.hi, this.lo); }
  /**
   * Decimal string with `digits` significant digits, correctly rounded.
   * @param digits - significant digits, default 32
   * @returns e.g. `"3.1415926535897932384626433832795e+0"`
   */
  toString(digits = 32): string { return ddToDecimal(this.hi, this.lo, digits); }
}
